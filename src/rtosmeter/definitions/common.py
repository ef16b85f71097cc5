"""What every kind of definition shares: the source tree's root, the names
of target kinds, toolchain prefixes and optimisation intents, and the errors
for an unknown name or a file whose `name` is not its folder's."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from rtosmeter.errors import UserError
from rtosmeter.toml_table import REQUIRED, TomlTable

KINDS = ("host", "qemu", "board")
DEFAULT_TOOLCHAIN = "gcc"  # what a campaign builds with when it names none
HOST_PREFIX = "host"  # a toolchain's `targets` key for targets without a program prefix
OPT_INTENTS = ("speed", "size", "debug")  # a profile's `opt`, mapped by each toolchain
PARAM_KEYS = ("samples", "batch", "tm_period_ms", "tm_periods")
# a profile's `board_clock`: a board target's clock.c sets its maximum clock
# before main, or the firmware stays at the reset clock (docs/boards.md)
BOARD_CLOCKS = ("max", "reset")


def project_root() -> Path:
    """The source tree holding bench/, ports/, targets/ (RTOSMETER_ROOT overrides)."""
    env = os.environ.get("RTOSMETER_ROOT")
    if env:
        return Path(env).expanduser().resolve()
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "bench" / "include" / "rtosmeter" / "port.h").is_file():
            return parent
    cwd = Path.cwd()
    if (cwd / "bench" / "include" / "rtosmeter" / "port.h").is_file():
        return cwd
    raise UserError(
        "the rtosmeter source tree (bench/, ports/, targets/) was not found",
        str(here.parent),
        "Install with `pip install -e .` from a checkout, or set RTOSMETER_ROOT",
    )


def unknown_name(kind: str, name: str, valid: Iterable[str], where: str) -> UserError:
    names = sorted(valid)
    return UserError(
        f"unknown {kind} '{name}'",
        where,
        f"Valid {kind}s: {', '.join(names) if names else '(none found)'}",
    )


def folder_name(t: TomlTable, path: Path, kind: str) -> str:
    """The `name` key, which must be the name of the file's folder."""
    name: str = t.text("name", REQUIRED)
    if name != path.parent.name:
        raise UserError(f"{kind} name '{name}' differs from its folder '{path.parent.name}'",
                        str(path), f"Set name = \"{path.parent.name}\"")
    return name
