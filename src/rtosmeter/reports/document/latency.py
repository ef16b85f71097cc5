"""Latency: the comparison table of every format (median and p99 per case
and series, one column per system), per target and unit. A case with one
series per ready-list layout (lat.thread.lifecycle) keeps every layout; the
terminal shows a subset (`compact_series`), the rest marked DETAIL."""

from __future__ import annotations

import re
from collections import defaultdict

from rtosmeter.model import CaseResult, CaseStatus, Distribution, RunView
from rtosmeter.reports.document.cells import (
    DETAIL,
    Cell,
    Section,
    Value,
    empty,
    flag,
    fmt,
    marked,
    table_notes,
)
from rtosmeter.reports.document.systems import Systems
from rtosmeter.vocabulary import CALIB_CASE, family, system

EMULATION_NOTE = ("Emulated (QEMU icount): exception entry and exit cost no virtual time, so "
                  "interrupt latencies are code-path lengths, not hardware latencies.")

_LAYOUT = re.compile(r"^(?P<call>[^@]+)@(?P<n>[0-9]{1,6})(?:/g(?P<gap>[0-9]{1,6}))?$")


MIN_LAYOUTS = 8  # fewer layout series read better as plain series


def layouts(names: list[str]) -> dict[str, tuple[str, int, int]]:
    """series -> (call, other threads, priority gap) for a case whose series
    are ready-list layouts ("create@10/g3", "create@5"; lat.thread.lifecycle),
    else {}. The calls alone ("create") are not layouts."""
    found = {n: (m["call"], int(m["n"]), int(m["gap"] or 1)) for n in names
             if (m := _LAYOUT.match(n))}
    return found if len(found) >= MIN_LAYOUTS else {}


def compact_series(case_id: str, names: list[str]) -> tuple[list[str], str]:
    """The series to show in the terminal, and a note on what was left out.

    A case with one series per layout (lat.thread.lifecycle: ~125, 5 calls x
    25 layouts) shows each call alone, then with the most other threads at
    gap 1 and at the largest gap. The other formats keep every series.
    """
    found = layouts(names)
    if not found:
        return names, ""
    top_n = max(n for _, n, _ in found.values())
    top_gap = max(g for _, _, g in found.values())
    keep = [s for s in names
            if s not in found or (found[s][1] == top_n and found[s][2] in (1, top_gap))]
    note = (f"{case_id}: each call alone, then with {top_n} other threads at priority "
            f"gap 1 (@{top_n}) and gap {top_gap} (@{top_n}/g{top_gap}); "
            f"{len(names) - len(keep)} other layouts are in the Markdown, HTML, CSV and JSON "
            "reports.")
    return keep, note


def _latency_cell(case: CaseResult, d: Distribution) -> Cell:
    return Cell(marked(fmt(d.p50), case), "" if case.timing_void else f"p99 {fmt(d.p99)}",
                flag(case))



def _row(cid: str, name: str, label: str, sys_: Systems,
         by: dict[tuple[str, str], CaseResult]) -> list[Value]:
    row: list[Value] = [cid, name]
    for key in sys_.keys:
        case = by.get((key, cid))
        d = next((d for d in case.distributions if d.series == name
                  and d.unit.label == label), None) if case else None
        row.append(_latency_cell(case, d) if case and d else
                   Cell("—", flag="dim") if case and case.status == CaseStatus.OK
                   else empty(case))
    return row


def _unit_section(target: str, label: str, measured: list[CaseResult], sys_: Systems,
                  by: dict[tuple[str, str], CaseResult]) -> Section:
    sec = Section(f"Latency on {target} in {label}: median, p99 in small text (overhead "
                  "subtracted; lower is better)", ["case", "series", *sys_.headers],
                  numeric=2)
    for cid in sorted({c.case_id for c in measured}):
        names = list(dict.fromkeys(d.series for c in measured if c.case_id == cid
                                   for d in c.distributions if d.unit.label == label))
        keep, note = compact_series(cid, names)
        if note:
            sec.compact_notes.append(note)
        for name in names:
            sec.add(_row(cid, name, label, sys_, by), "" if name in keep else DETAIL)
    sec.notes += table_notes(measured)
    if any(d.unit.deterministic for c in measured for d in c.distributions):
        sec.notes.append(EMULATION_NOTE)
    return sec


def latency_sections(view: RunView, target: str) -> list[Section]:
    cases = [c for c in view.cases if c.target == target and c.case_id != CALIB_CASE
             and family(c) == "latency"]
    by_unit: dict[str, list[CaseResult]] = defaultdict(list)
    for c in cases:
        for label in dict.fromkeys(d.unit.label for d in c.distributions):
            by_unit[label].append(c)
    sys_ = Systems.of(target, cases)
    by = {(system(c), c.case_id): c for c in cases}
    return [_unit_section(target, label, by_unit[label], sys_, by) for label in sorted(by_unit)]
