"""The user's configuration: where out-of-tree definitions and RTOS trees
are, and defaults for command options.

Read from two files, the project's overriding the user's:

- `$XDG_CONFIG_HOME/rtosmeter/config.toml` (default `~/.config/...`): the user's;
- `rtosmeter.toml` in the working folder or the nearest parent holding one:
  the project's.

```toml
path = ["~/rtos-work"]      # folders holding ports/, targets/, toolchains/ of your own
[sources]                   # RTOS trees, as --source NAME=PATH would give them
freertos = "~/src/FreeRTOS-Kernel"
[defaults.run]              # option defaults per command (option names as in --help)
jobs = 1
[defaults.compare]
threshold = 5
```

Relative paths in `path` and `[sources]` are relative to the file. The
`RTOSMETER_PATH` environment variable (folders separated by `:`) comes first
on the search path, like Zephyr's BOARD_ROOT. An unknown key is an error
naming the file: a typo must not silently change a set-up.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtosmeter.errors import UserError
from rtosmeter.toml_table import TomlTable, read_toml

PROJECT_FILE = "rtosmeter.toml"
PATH_ENV = "RTOSMETER_PATH"


def user_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "rtosmeter" / "config.toml"


def project_file(start: Path | None = None) -> Path | None:
    """The nearest rtosmeter.toml from `start` (the working folder) upwards."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / PROJECT_FILE).is_file():
            return folder / PROJECT_FILE
    return None


@dataclass(frozen=True)
class Source:
    path: Path
    file: Path  # the configuration file that names it


@dataclass
class Config:
    files: list[Path] = field(default_factory=list)  # read, user's first
    path: list[tuple[Path, str]] = field(default_factory=list)  # (folder, where it is set)
    sources: dict[str, Source] = field(default_factory=dict)
    defaults: dict[str, dict[str, Any]] = field(default_factory=dict)  # command -> option
    defaults_file: dict[str, Path] = field(default_factory=dict)  # command -> its file

    def merge(self, path: Path) -> None:
        """Add one file's settings over the ones read before."""
        t = TomlTable(read_toml(path), path)
        base = path.parent
        self.files.append(path)
        # the later (project) file's folders are searched first
        self.path[:0] = [(base / Path(p).expanduser(), f"{path} (key 'path')")
                         for p in t.strs("path", ())]
        for name, value in t.str_map("sources").items():
            self.sources[name] = Source((base / Path(value).expanduser()).resolve(), path)
        self._merge_defaults(t.table("defaults"), path)
        t.done()

    def _merge_defaults(self, table: TomlTable | None, path: Path) -> None:
        if table is None:
            return
        for command in list(table.data):
            options = table.table(command)
            if options is None:
                continue
            self.defaults.setdefault(command, {}).update(options.data)
            self.defaults_file[command] = path


def load(cwd: Path | None = None) -> Config:
    """The user's file, then the project's over it (either may be absent)."""
    config = Config()
    for path in (user_file(), project_file(cwd)):
        if path is not None and path.is_file():
            config.merge(path)
    return config


def search_path(config: Config) -> list[tuple[Path, str]]:
    """Folders with user ports/, targets/, boards/: RTOSMETER_PATH first, then
    the configuration files' `path`; each with where it was set."""
    env = [(Path(p).expanduser(), f"${PATH_ENV}")
           for p in os.environ.get(PATH_ENV, "").split(os.pathsep) if p]
    out = env + config.path
    for folder, where in out:
        if not folder.is_dir():
            raise UserError(f"no folder {folder}", where,
                            "Create it or remove it from the search path")
    return [(folder.resolve(), where) for folder, where in out]


def default_map(config: Config, options: dict[str, dict[str, str]]) -> dict[str, Any]:
    """click's default_map from [defaults.<command>]: `options` maps each
    command to {key in the file: click parameter name}; a command or option
    not there is an error naming the file."""
    out: dict[str, Any] = {}
    for command, values in config.defaults.items():
        where = f"{config.defaults_file[command]} ([defaults.{command}])"
        if command not in options:
            raise UserError(f"unknown command {command!r}", where,
                            f"Use one of: {', '.join(sorted(options))}")
        known = options[command]
        for key in values:
            if key not in known:
                raise UserError(f"unknown option {key!r} of `rtosmeter {command}`", where,
                                f"Use one of: {', '.join(sorted(known))}")
        out[command] = {known[k]: v for k, v in values.items()}
    return out
