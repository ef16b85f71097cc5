"""The firmware's functions as the plugin's attribution reads them: a map
file of sorted, non-overlapping [start, end) ranges (plugins/qemu/attrib.c)
and the names in the same order beside it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rtosmeter.errors import UserError

if TYPE_CHECKING:
    from elftools.elf.elffile import ELFFile

# Entered once per case by the runner (bench/core/runner.c run_one): the
# plugin's epoch, which keeps one case's intervals apart from another's.
EPOCH_SYMBOL = "rm_series_reset_all"
OUTSIDE = "[outside any function]"


@dataclass(frozen=True)
class FunctionMap:
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    names: tuple[str, ...]
    epoch: int  # the epoch function's address (0: none)

    def text(self) -> str:
        lines = ["rmattrib-map 1", f"epoch 0x{self.epoch:x}"]
        lines += [f"0x{s:x} 0x{e:x}" for s, e in zip(self.starts, self.ends, strict=True)]
        return "\n".join(lines) + "\n"


def _code_end(elf: ELFFile, addr: int) -> int:
    """The end of the executable section holding addr (a size-0 symbol's limit)."""
    for sec in elf.iter_sections():
        start, size = int(sec["sh_addr"]), int(sec["sh_size"])
        if sec["sh_flags"] & 0x4 and start <= addr < start + size:  # SHF_EXECINSTR
            return start + size
    return addr + 2


def function_map(path: Path) -> FunctionMap:
    """The ELF's FUNC symbols (Thumb bit cleared), one name per address (a
    global before a local, then the first by name), each reaching the next
    one or its section's end: hand-written assembly often declares a size
    that stops short of its code (ThreadX's PendSV_Handler: 4 bytes), and
    what runs after it is still its code."""
    from elftools.common.exceptions import ELFError  # pyelftools: not for `list`
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    try:
        with path.open("rb") as f:
            elf = ELFFile(f)
            symtab = elf.get_section_by_name(".symtab")
            if not isinstance(symtab, SymbolTableSection):
                raise UserError("the firmware has no symbol table", str(path),
                                "Build it without stripping symbols")
            found: dict[int, tuple[int, str]] = {}  # start -> (rank, name)
            epoch = 0
            for sym in symtab.iter_symbols():
                if sym["st_info"]["type"] != "STT_FUNC" or not sym.name:
                    continue
                start = int(sym["st_value"]) & ~1
                if sym.name == EPOCH_SYMBOL:
                    epoch = start
                rank = 0 if sym["st_info"]["bind"] == "STB_GLOBAL" else 1
                key = (rank, sym.name)
                if start not in found or key < found[start]:
                    found[start] = key
            starts = sorted(found)
            ends = [min(starts[i + 1] if i + 1 < len(starts) else _code_end(elf, start),
                        _code_end(elf, start)) for i, start in enumerate(starts)]
    except (OSError, ELFError) as exc:
        raise UserError(f"cannot read the firmware's symbols ({exc})", str(path),
                        "Rebuild the firmware") from None
    keep = [i for i in range(len(starts)) if ends[i] > starts[i]]
    return FunctionMap(tuple(starts[i] for i in keep), tuple(ends[i] for i in keep),
                       tuple(found[starts[i]][1] for i in keep), epoch)


def write_map(elf: Path, map_file: Path, names_file: Path) -> FunctionMap:
    fmap = function_map(elf)
    map_file.write_text(fmap.text(), encoding="utf-8")
    names_file.write_text(json.dumps(list(fmap.names)), encoding="utf-8")
    return fmap


def plugin_arguments(elf: Path) -> tuple[list[str], Path]:
    """The rmcycles arguments that turn attribution on for one firmware (its
    map written next to it), and where the plugin writes the result."""
    map_file, names, out = files(elf)
    write_map(elf, map_file, names)
    out.unlink(missing_ok=True)
    return [f"funcs={map_file}", f"attrib={out}"], out


def files(elf: Path) -> tuple[Path, Path, Path]:
    """(map, names, plugin output) next to the firmware."""
    return (elf.with_name(f"{elf.stem}.funcs.map"), elf.with_name(f"{elf.stem}.funcs.json"),
            elf.with_name(f"{elf.stem}.attrib.txt"))
