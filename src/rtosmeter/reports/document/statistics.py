"""The full statistics: every series with every statistic, and every
throughput counter (Markdown's second half; the page's per-case tables use
the same cells)."""

from __future__ import annotations

from collections import defaultdict

from rtosmeter import stats
from rtosmeter.model import CaseResult, Distribution, RunView
from rtosmeter.reports.document.cells import Cell, Section, flag, fmt
from rtosmeter.vocabulary import CALIB_CASE, system

STAT_NAMES = [s.name for s in stats.STATISTICS]
STAT_HEADERS = ["system", "case", "series", *STAT_NAMES, "overhead"]
THIN_NOTE = ("Dim: a percentile from fewer samples than it needs to rest on one (p1 and p99 "
             "need 100): an interpolation towards the extreme sample, not a measurement.")


def stat_cells(d: Distribution) -> tuple[list[Cell], bool]:
    """Every statistic of `d` in stats.STATISTICS order, then the overhead; and
    whether a percentile among them rests on too few samples (dim)."""
    cells = [Cell(fmt(getattr(d, s.name)),
                  flag="" if stats.resting_on_samples(s, d.n) else "dim")
             for s in stats.STATISTICS]
    return [*cells, Cell(fmt(d.overhead))], any(c.flag for c in cells)


def statistics_sections(view: RunView) -> list[Section]:
    """Every series with every statistic, and every throughput counter."""
    by_unit: dict[tuple[str, str], list[tuple[CaseResult, Distribution]]] = defaultdict(list)
    for c in view.cases:
        for d in c.distributions:
            by_unit[(c.target, d.unit.label)].append((c, d))
    out = []
    for (target, label), rows in sorted(by_unit.items()):
        sec = Section(f"Statistics on {target} in {label} (overhead subtracted; cold = the "
                      "first sample, left out of the others)", STAT_HEADERS, numeric=3)
        thin = False
        for c, d in sorted(rows, key=lambda cd: (cd[0].case_id, system(cd[0]))):
            # calib.overhead is measured once per firmware: say which one
            cid = f"{c.case_id} ({c.group})" if c.case_id == CALIB_CASE else c.case_id
            cells, few = stat_cells(d)
            thin |= few
            sec.rows.append([system(c), cid, Cell(d.series, flag=flag(c)), *cells])
        if thin:
            sec.notes.append(THIN_NOTE)
        out.append(sec)
    counts = Section("Counts per period (every counter of every case)",
                     ["system", "case", "counter", "periods", "mean", "min", "max", "values"],
                     numeric=3)
    for c in sorted(view.cases, key=lambda c: (c.target, c.case_id, system(c))):
        for name, values in c.counts.items():
            counts.rows.append([system(c), c.case_id, Cell(name, flag=flag(c)),
                                fmt(len(values)), fmt(sum(values) / len(values)),
                                fmt(min(values)), fmt(max(values)),
                                " ".join(str(v) for v in values[:12])
                                + (" …" if len(values) > 12 else "")])
    return out + ([counts] if counts.rows else [])
