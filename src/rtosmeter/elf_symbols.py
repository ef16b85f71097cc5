"""Where a firmware's named symbol is, from its ELF symbol table."""

from __future__ import annotations

from pathlib import Path


def symbol_address(elf: Path, name: str) -> int | None:
    """The symbol's address; None when the firmware has no such symbol (or is no ELF)."""
    from elftools.common.exceptions import ELFError  # pyelftools: not for `list`
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    try:
        with elf.open("rb") as f:
            symtab = ELFFile(f).get_section_by_name(".symtab")
            if not isinstance(symtab, SymbolTableSection):
                return None
            found = symtab.get_symbol_by_name(name)
            return int(found[0]["st_value"]) if found else None
    except (OSError, ELFError):
        return None
