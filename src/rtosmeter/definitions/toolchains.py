"""Toolchains (toolchains/*/toolchain.toml): a compiler, how it builds for
each program prefix of targets, and its flags per optimisation intent."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rtosmeter.definitions.common import HOST_PREFIX, OPT_INTENTS, folder_name
from rtosmeter.errors import UserError
from rtosmeter.toml_table import REQUIRED, TomlTable, read_toml

if TYPE_CHECKING:
    from rtosmeter.definitions.profiles import Profile
    from rtosmeter.definitions.targets import Target


@dataclass(frozen=True)
class ToolchainUse:
    """How a toolchain builds for targets of one program prefix."""

    cmake: Path  # the CMake toolchain file
    compiler: str  # the C compiler program: its `--version` first line is recorded
    assembler: str  # what assembles the .S/.s files (an RTOS's, written for GNU as)
    linker: str  # what links, as recorded
    needs: tuple[str, ...]  # programs that must be installed


@dataclass(frozen=True)
class Toolchain:
    """A compiler with its assembler and linker handling: toolchains/<name>/."""

    name: str
    description: str
    uses: dict[str, ToolchainUse]  # a target's `toolchain` prefix (or "host") -> how
    opt: dict[str, str]  # optimisation intent -> this compiler's flags
    packages: dict[str, str]  # program -> Debian package(s) that provide it
    version_regex: str  # the version number in the compiler's `--version` line
    dir: Path
    file: Path

    def use_for(self, target: Target) -> ToolchainUse | None:
        return self.uses.get(target.toolchain or HOST_PREFIX)

    def opt_flags(self, profile: Profile) -> str:
        return profile.opt_flags or self.opt[profile.opt]


def load_toolchain(path: Path) -> Toolchain:
    t = TomlTable(read_toml(path), path)
    name = folder_name(t, path, "toolchain")
    description = t.text("description", "")
    uses: dict[str, ToolchainUse] = {}
    for prefix, ut in t.named_tables("targets").items():
        cmake = path.parent / ut.text("cmake", REQUIRED)
        if not cmake.is_file():
            raise UserError(f"CMake toolchain file {cmake.name} not found "
                            f"(key 'targets.{prefix}.cmake')", str(path),
                            "Name a file of the toolchain's folder")
        compiler = ut.text("compiler", REQUIRED)
        uses[prefix] = ToolchainUse(cmake, compiler, ut.text("assembler", compiler),
                                    ut.text("linker", compiler), ut.strs("needs", (compiler,)))
        ut.done()
    if not uses:
        raise UserError("no [targets.<prefix>] table", str(path),
                        "Add [targets.arm-none-eabi] (a target's `toolchain`) or "
                        "[targets.host] with cmake and compiler")
    opt = t.str_map("opt")
    missing = [i for i in OPT_INTENTS if i not in opt]
    if missing or set(opt) - set(OPT_INTENTS):
        raise UserError("[opt] must map exactly the intents " + ", ".join(OPT_INTENTS),
                        str(path), f"Give flags for {', '.join(missing) or 'those only'}")
    packages = t.str_map("packages")
    version_regex = t.text("version_regex", r"(?<![\w.:-])(\d+\.\d+(?:\.\d+)?)")
    t.done()
    return Toolchain(name, description, uses, opt, packages, version_regex, path.parent, path)
