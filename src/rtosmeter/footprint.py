"""Flash and RAM of a firmware ELF, attributed to where the bytes come from.

Totals come from the ELF's allocated sections (pyelftools): Flash holds
every allocated section with contents (text, rodata, vectors, the case
table, and the initial values of .data); RAM every writable allocated
section (.data, .bss, the main stack section, a heap section if any).

Attribution uses the linker map file that every Cortex-M target writes next
to the ELF (`-Wl,-Map=<name>.map`, targets/common/cortex-m/cortex-m.cmake),
as GNU ld writes it or as ld.lld does (the clang toolchain):
each input section names the object it came from, and the object's path says
who wrote it (CMake's `CMakeFiles/<library>.dir/` of the build contract):

- `rm_target` -> startup (start-up, vectors, console, timer, semihosting;
  the main stack the start-up reserves is counted here too)
- `rm_core` -> framework (result stream, measurement, runner)
- `rm_<group>` -> benchmark (the cases of the group)
- `rm_port` and any other object or archive -> kernel (port glue + RTOS)
- the toolchain's archives and objects (newlib, libgcc, crt*) -> libc
- a port built as its RTOS's own application (Zephyr) archives the parts:
  `librm_target.a`, `librm_core.a`, `librm_<group>.a` as above, the RTOS's
  C library (`liblib__libc__*.a`) -> libc
- a port built by a make-based RTOS (RIOT) compiles them as modules, whose
  folders name the parts: `rm_target/`, `rm_core/`, `rm_case/` (benchmark),
  `rm_port/` as above

Bytes no input section accounts for (alignment fill) are `other`; so are
the string literals ld.lld merges across objects into one section of its
own (`<internal>` in its map: they are no single object's).

RAM a port sizes for the benchmark, rather than the kernel's own, is then
taken out of whichever part holds it, so that systems compare like with like (a port that gives each
thread a static stack against one whose stacks live in the kernel's heap):

- `stacks`: thread stacks (the port's static stack arrays, the kernel's own
  idle/interrupt stacks) and the main stack section (`.stack`);
- `heaps`: heap arrays, byte pools, block-pool arenas, slabs (whoever owns
  them: the RTOS's heap, the port's pools), and a `.heap` section;
- `objects`: the port's static slots for the benchmark's threads, objects
  and pools (their control blocks: a kernel that allocates them takes them
  from its heap instead).

Which symbols those are is declared next to each port (port.toml
`[footprint]`, `Reservations`): names and globs of ELF object symbols, whose
sizes come from the ELF's symbol table. `reserved` says what moved where.

`network`: the RTOS's network stack, linked under a net-* load, apart from
the kernel: the objects port.toml `net_objects` names (fnmatch globs over the
object's file name as the map gives it, e.g. `uip*.o`, or over its whole
path when the glob holds a "/", e.g. `*/gnrc_*/*`).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from rtosmeter.errors import UserError

PARTS = ("kernel", "network", "benchmark", "framework", "startup", "libc", "objects", "stacks",
         "heaps", "other")
RESERVED = ("stacks", "heaps", "objects")  # parts sized by the port for the benchmark
# Sections that are a reservation as a whole: the main stack, a heap.
RESERVED_SECTIONS = {".stack": "stacks", ".heap": "heaps"}

_INPUT = re.compile(r"^ (\S+)?\s+0x([0-9a-fA-F]+)\s+0x([0-9a-fA-F]+)\s+(\S.*)$")
_OUTPUT = re.compile(r"^(\S+)(?:\s+0x([0-9a-fA-F]+)\s+0x([0-9a-fA-F]+))?")
# -ffunction-sections/-fdata-sections: one input section per symbol.
_SECTION_SYMBOL = re.compile(
    r"^\.(?:text|rodata|data|bss)\.(?:(?:startup|unlikely|hot|exit)\.)?(.+)$")
_LIB_DIR = re.compile(r"CMakeFiles/([^/]+)\.dir/")
# Ports built as an RTOS's own application (Zephyr) archive the same parts
# as lib<part>.a; Zephyr's own C library archives as liblib__libc__*.a.
_LIB_ARCHIVE = re.compile(r"(?:^|/)lib(rm_[A-Za-z0-9_]+)\.a\(")
_RTOS_LIBC = re.compile(r"(?:^|/)liblib__libc__[^/]*\.a\(")
# Ports built by a make-based RTOS (RIOT) compile the parts as modules: an
# object's folder names its part (riot-bin/rm_core/stream.o).
_MODULE_DIR = re.compile(r"/(rm_[A-Za-z0-9_]+)/[^/()]+\.o$")
_TOOLCHAIN = re.compile(
    r"(/arm-none-eabi/|/gcc/|lib(c|c_nano|g|g_nano|m|nosys|gcc|stdc\+\+)[^/]*\.a\(|crt[^/]*\.o$)")


class MapEntry(NamedTuple):
    """One input section of a linker map, as laid out."""

    section: str  # the output section
    input: str  # the input section
    addr: int
    size: int
    obj: str  # the object (or archive member) it came from


@dataclass(frozen=True)
class SectionSize:
    name: str
    size: int
    flash: bool  # occupies Flash (has contents: code, constants, .data's initial values)
    ram: bool  # occupies RAM (zero-filled, or copied there at start-up)


@dataclass(frozen=True)
class Reservations:
    """Which RAM objects of a port's firmware are stacks, heaps or pools, and
    object slots (port.toml `[footprint]`): ELF symbol names, or fnmatch globs."""

    stacks: tuple[str, ...] = ()
    heaps: tuple[str, ...] = ()
    objects: tuple[str, ...] = ()
    network: tuple[str, ...] = ()  # object file globs of the network stack (net_objects)
    declared: bool = True  # the port has a [footprint] table (else network only)

    def is_network(self, obj: str) -> bool:
        """Whether an object (as the map names it) is the network stack's: a
        glob with a "/" matches the whole path, any other the file name."""
        name = obj.rsplit("/", 1)[-1]
        return any(fnmatch.fnmatchcase(obj if "/" in g else name, g) for g in self.network)

    def kind(self, symbol: str) -> str | None:
        """The part a symbol of that name goes to (the first of RESERVED
        that names it), or None."""
        for kind in RESERVED:
            globs: tuple[str, ...] = getattr(self, kind)
            if any(fnmatch.fnmatchcase(symbol, g) for g in globs):
                return kind
        return None


@dataclass(frozen=True)
class Reserved:
    """One reservation taken out of its part: a symbol or a whole section."""

    name: str
    kind: str  # one of RESERVED
    ram: int
    part: str  # the part that held it (kernel, startup, ...)


@dataclass
class ElfFootprint:
    """Compatible with rtosmeter.model.Footprint: `parts` maps an origin to
    (flash, ram) bytes and the parts add up to the totals."""

    flash: int
    ram: int
    parts: dict[str, tuple[int, int]]
    sections: list[SectionSize] = field(default_factory=list)
    symbols: dict[str, tuple[str, int]] = field(default_factory=dict)  # name -> (part, size)
    map_file: str = ""
    reserved: list[Reserved] = field(default_factory=list)


def origin(obj: str, group_libs: tuple[str, ...] = ()) -> str:
    """Which part an object file (as the map names it) belongs to."""
    lib = _LIB_DIR.search(obj) or _LIB_ARCHIVE.search(obj) or _MODULE_DIR.search(obj)
    if lib is not None:
        name = lib.group(1)
        if name == "rm_target":
            return "startup"
        if name == "rm_core":
            return "framework"
        if name == "rm_port":
            return "kernel"
        if name.startswith("rm_") or name in group_libs:
            return "benchmark"
        return "kernel"
    if _TOOLCHAIN.search(obj) or _RTOS_LIBC.search(obj):
        return "libc"
    return "kernel"


def elf_sections(elf: Path) -> list[SectionSize]:
    """Allocated sections of an ELF and whether they take Flash and/or RAM."""
    from elftools.common.exceptions import ELFError  # pyelftools: not for `list`
    from elftools.elf.constants import SH_FLAGS
    from elftools.elf.elffile import ELFFile

    try:
        with elf.open("rb") as f:
            ef = ELFFile(f)
            segments = [(int(s["p_vaddr"]), int(s["p_paddr"]), int(s["p_memsz"]))
                        for s in ef.iter_segments() if s["p_type"] == "PT_LOAD"]
            out = []
            for sec in ef.iter_sections():
                flags = int(sec["sh_flags"])
                if not flags & SH_FLAGS.SHF_ALLOC or int(sec["sh_size"]) == 0:
                    continue
                has_bits = sec["sh_type"] != "SHT_NOBITS"
                vma = int(sec["sh_addr"])
                # In RAM: zero-filled, or copied from Flash at start-up (its load
                # address differs from its run address, like .data).
                copied = any(v <= vma < v + m and p != v for v, p, m in segments)
                in_ram = not has_bits or (copied and bool(flags & SH_FLAGS.SHF_WRITE))
                out.append(SectionSize(sec.name, int(sec["sh_size"]), has_bits, in_ram))
            return out
    except (OSError, ELFError) as exc:
        raise UserError(f"cannot read the firmware's sections ({exc})", str(elf),
                        "Rebuild it with rtosmeter run") from exc


_LLD_HEADER = re.compile(r"^\s*VMA\s+LMA\s+Size\s+Align\s+Out\s+In\s+Symbol\s*$", re.M)
_LLD_LINE = re.compile(r"^\s*[0-9a-fA-F]+\s+[0-9a-fA-F]+\s+([0-9a-fA-F]+)\s+\d+ (\s*)(\S.*)$")
_LLD_ADDR = re.compile(r"^\s*([0-9a-fA-F]+)")
LLD_INPUT_INDENT = 8  # ld.lld: output sections at 0, input sections at 8, symbols at 16


def _lld_map_entries(text: str) -> list[MapEntry]:
    """The input sections of an ld.lld map: one line per output section,
    input section ("object:(section)") and symbol, told apart by their
    indentation under the "Out In Symbol" columns."""
    entries = []
    out_sec = ""
    for line in text.splitlines()[1:]:
        m = _LLD_LINE.match(line)
        if m is None:
            continue
        size, indent, what = int(m.group(1), 16), len(m.group(2)), m.group(3).strip()
        if indent == 0:
            if " = " not in what:  # an assignment of the script is no section
                out_sec = what
            continue
        if indent != LLD_INPUT_INDENT or size == 0 or ":(" not in what:
            continue
        obj, _, sec = what.rpartition(":(")
        if obj == "<internal>":  # made by the linker (unwind index, merged strings): other
            continue
        addr = _LLD_ADDR.match(line)
        entries.append((out_sec, sec.rstrip(")"), int(addr.group(1), 16) if addr else 0, size,
                        obj))
    return _clip_overlaps(entries)


def _map_entries(text: str) -> list[MapEntry]:
    """The input sections of a GNU ld or ld.lld map."""
    if _LLD_HEADER.match(text.split("\n", 1)[0]):
        return _lld_map_entries(text)
    start = text.find("Linker script and memory map")
    if start < 0:
        return []
    entries = []
    out_sec = ""
    pending = ""  # an input section name whose address is on the next line
    for line in text[start:].splitlines()[1:]:
        if not line or line.startswith(("LOAD ", "START GROUP", "END GROUP", "OUTPUT(")):
            continue
        if not line[0].isspace():
            m = _OUTPUT.match(line)
            out_sec = m.group(1) if m else ""
            pending = ""
            continue
        if line.startswith(" *") and not line.startswith(" *fill*"):
            continue  # an input-section pattern of the script
        m = _INPUT.match(line)
        if m is None:
            stripped = line.strip()
            pending = stripped if line.startswith(" ") and " " not in stripped else ""
            continue
        name = m.group(1) or pending
        pending = ""
        size = int(m.group(3), 16)
        obj = m.group(4).strip()
        if size == 0 or obj.startswith("="):
            continue
        entries.append((out_sec, name, int(m.group(2), 16), size, obj))
    return _clip_overlaps(entries)


def _clip_overlaps(entries: list[tuple[str, str, int, int, str]]) -> list[MapEntry]:
    """Sizes as laid out: where the linker merged strings across input
    sections, the map lists entries that overlap the next one; each is cut at
    the next entry's address so that no byte is counted twice."""
    out = []
    for i, (out_sec, name, addr, size, obj) in enumerate(entries):
        nxt = entries[i + 1] if i + 1 < len(entries) else None
        if nxt is not None and nxt[0] == out_sec and addr <= nxt[2] < addr + size:
            size = nxt[2] - addr
        if size > 0:
            out.append(MapEntry(out_sec, name, addr, size, obj))
    return out


def _ram_objects(elf: Path, ram_sections: set[str]) -> list[tuple[str, int, int]]:
    """(name, address, size) of the sized object symbols in RAM sections."""
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    out: list[tuple[str, int, int]] = []
    with elf.open("rb") as f:
        ef = ELFFile(f)
        symtab = ef.get_section_by_name(".symtab")
        if not isinstance(symtab, SymbolTableSection):
            return out
        names = {i: sec.name for i, sec in enumerate(ef.iter_sections())}
        for sym in symtab.iter_symbols():
            shndx = sym["st_shndx"]
            if (sym["st_info"]["type"] == "STT_OBJECT" and sym["st_size"]
                    and isinstance(shndx, int) and names.get(shndx) in ram_sections):
                out.append((sym.name, int(sym["st_value"]), int(sym["st_size"])))
    return out


def _reserve(elf: Path, sections: list[SectionSize], entries: list[MapEntry],
             rules: Reservations, parts: dict[str, tuple[int, int]]) -> list[Reserved]:
    """Move the RAM of the declared symbols out of the parts that hold them
    (by the map's input sections; bytes no input section covers are
    `other`'s) into their RESERVED part; each byte moves once."""
    ram = {s.name for s in sections if s.ram}
    ranges = sorted((e.addr, e.addr + e.size, origin(e.obj)) for e in entries
                    if e.section in ram and e.input != "*fill*")
    out: list[Reserved] = []
    taken_to = 0  # claims are handled by address: the end of the last one taken
    claims = sorted((addr, addr + size, name, kind) for name, addr, size
                    in _ram_objects(elf, ram) if (kind := rules.kind(name)) is not None)
    for start, end, name, kind in claims:
        start = max(start, taken_to)
        if start >= end:
            continue  # an alias of a symbol already taken
        taken_to = end
        moved: dict[str, int] = {}
        for lo, hi, part in ranges:
            n = min(end, hi) - max(start, lo)
            if n > 0:
                moved[part] = moved.get(part, 0) + n
        uncovered = end - start - sum(moved.values())
        if uncovered > 0:
            moved["other"] = moved.get("other", 0) + uncovered
        for part, n in moved.items():
            pf, pr = parts[part]
            parts[part] = (pf, pr - n)
        kf, kr = parts[kind]
        parts[kind] = (kf, kr + end - start)
        # The part that held most of it: one name in the record.
        out.append(Reserved(name, kind, end - start, max(moved, key=lambda k: moved[k])))
    return out


Parts = dict[str, tuple[int, int]]  # part -> (Flash, RAM) bytes


def _add(parts: Parts, part: str, f: int, r: int) -> None:
    pf, pr = parts[part]
    parts[part] = (pf + f, pr + r)


def _account_map(entries: list[MapEntry], by_name: dict[str, SectionSize], parts: Parts,
                 reservations: Reservations) -> tuple[dict[str, tuple[str, int]], dict[str, int]]:
    """Each input section of the map to the part of its object: (the symbols
    of -fdata-sections inputs with their part and size, bytes accounted per
    output section)."""
    symbols: dict[str, tuple[str, int]] = {}
    accounted: dict[str, int] = {}
    for e in entries:
        sec = by_name.get(e.section)
        if sec is None or e.input == "*fill*":
            continue
        part = origin(e.obj)
        if part == "kernel" and reservations.is_network(e.obj):
            part = "network"
        _add(parts, part, e.size if sec.flash else 0, e.size if sec.ram else 0)
        accounted[e.section] = accounted.get(e.section, 0) + e.size
        sym = _SECTION_SYMBOL.match(e.input)
        if sym is not None:
            symbols[sym.group(1)] = (part, e.size)
    return symbols, accounted


def _account_rest(sections: list[SectionSize], accounted: dict[str, int], parts: Parts
                  ) -> list[Reserved]:
    """What the map did not place: the main stack's section (reserved by the
    linker script, targets/common/cortex-m/sections.ld, for the start-up
    code), else `other`."""
    reserved = []
    for sec in sections:
        rest = sec.size - accounted.get(sec.name, 0)
        if rest <= 0:
            continue
        kind = RESERVED_SECTIONS.get(sec.name) if sec.ram else None
        if kind is not None:
            reserved.append(Reserved(sec.name, kind, rest, "startup"))
        _add(parts, kind or "other", rest if sec.flash else 0, rest if sec.ram else 0)
    return reserved


def footprint(elf: Path, map_file: Path | None = None,
              reservations: Reservations | None = None) -> ElfFootprint:
    """Flash/RAM of `elf`, split by origin using its map file (next to the ELF
    as <name>.map unless given; without a map everything is `other`), the
    main stack section and the `reservations`' symbols taken out (RESERVED)."""
    elf = Path(elf)
    sections = elf_sections(elf)
    parts: Parts = dict.fromkeys(PARTS, (0, 0))
    mpath = map_file if map_file is not None else elf.with_suffix(".map")
    entries = _map_entries(mpath.read_text(errors="replace")) if mpath.is_file() else []
    reservations = reservations or Reservations()
    symbols, accounted = _account_map(entries, {s.name: s for s in sections}, parts,
                                      reservations)
    reserved = _account_rest(sections, accounted, parts)
    reserved += _reserve(elf, sections, entries, reservations, parts)
    return ElfFootprint(sum(s.size for s in sections if s.flash),
                        sum(s.size for s in sections if s.ram),
                        {k: v for k, v in parts.items() if v != (0, 0)},
                        sections, symbols, str(mpath) if mpath.is_file() else "",
                        reserved)
