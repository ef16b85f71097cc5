"""One execution's attribution, from the plugin's file into the store."""

from __future__ import annotations

from pathlib import Path

from rtosmeter.attribution import funcmap
from rtosmeter.attribution.match import match, read_attribution
from rtosmeter.protocol import ParsedStream
from rtosmeter.store import AttributionRow, Store


def record(store: Store, execution_id: int, parsed: ParsedStream, out: Path) -> list[str]:
    """Stores the breakdown of every series the plugin's groups explain;
    returns a note per series left without one (and why). `parsed`: every
    case the firmware ran, in order (the epochs), as the recorder parsed it."""
    elf_stem = out.name.removesuffix(".attrib.txt")
    names = out.with_name(f"{elf_stem}.funcs.json")
    try:
        attribution = read_attribution(out, names)
    except (OSError, ValueError, KeyError, IndexError) as exc:
        return [f"no attribution: {exc}"]
    cases = [(c.id, [(s.name, s.samples) for s in c.series.values()]) for c in parsed.cases]
    ids = {(case_id, name): sid for sid, case_id, name in store.conn.execute(
        "SELECT s.id, c.case_id, s.name FROM series s JOIN cases c ON s.case_row = c.id "
        "WHERE c.execution_id = ?", (execution_id,))}
    rows: list[AttributionRow] = []
    notes = []
    cycles = attribution.mode == "cycles"
    for m in match(attribution, cases):
        sid = ids.get((m.case_id, m.series))
        if sid is None:  # a case --bench left out
            continue
        if m.group is None:
            notes.append(f"{m.case_id} {m.series}: not attributed: {m.reason}")
            continue
        rows += [(sid, fn, i, c if cycles else None, calls)
                 for fn, (i, c, calls) in sorted(m.group.functions.items())]
    store.add_attribution(execution_id, rows)
    return notes


__all__ = ["funcmap", "record"]
