"""Capability masks in words: the parser keeps a mask an integer
(`ParsedCase.missing`); whoever has the names (the recorder, from the
catalog's RM_CAPS) turns it into words."""

from __future__ import annotations

from collections.abc import Mapping

from rtosmeter.protocol.records import ParsedStream


def cap_names(mask: int, bits: Mapping[int, str]) -> list[str]:
    """The capability names of a mask, in bit order (`bits`: bit -> name, from
    RM_CAPS in port.h); the bits without a name (a newer firmware) as one
    "capabilities 0x..." entry."""
    names = [bits[b] for b in range(32) if mask >> b & 1 and b in bits]
    unnamed = sum(1 << b for b in range(mask.bit_length()) if mask >> b & 1 and b not in bits)
    if unnamed:
        names.append(f"capabilities 0x{unnamed:08x}")
    return names


def lacks_reason(missing: int, note: str = "", bits: Mapping[int, str] | None = None) -> str:
    """The reason of a case the port cannot run: "port lacks SEM, QUEUE", plus
    ": <note>" when the port said why it withdrew them (rm_port_caps_note)."""
    text = "port lacks " + ", ".join(cap_names(missing, bits or {}))
    return f"{text}: {note}" if note else text


def name_missing(parsed: ParsedStream, bits: Mapping[int, str]) -> None:
    """Give the unsupported cases of `parsed` their capability names."""
    for case in parsed.cases:
        if case.missing:
            case.reason = lacks_reason(case.missing, case.note, bits)
