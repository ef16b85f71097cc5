"""Throughput (Thread-Metric, tm.*): the comparison table of every format,
the page's table with its two charts, and Thread-Metric's own relative
tables (the `thread-metric` view). Every % of the best and multiple of the
slowest is scores.normalise_throughput's."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rtosmeter.model import FAIL_MARK, BuildInfo, CaseResult, CaseStatus, RunView, stand_in_text
from rtosmeter.numbers import decimal
from rtosmeter.reports.document.cells import (
    Cell,
    Chart,
    Section,
    Value,
    anchor,
    empty,
    flag,
    fmt,
    marked,
    table_notes,
)
from rtosmeter.reports.document.systems import (
    Column,
    Systems,
    build_of,
    key_of,
    system_of,
)
from rtosmeter.scores import Normalised, normalise_throughput
from rtosmeter.vocabulary import family, system

PER_ITERATION_SHORT = "/it"


def _number(config: dict[str, str], key: str) -> float | None:
    try:
        return decimal(config.get(key, ""), 0, 1e18) or None
    except ValueError:
        return None


def period_text(build: BuildInfo | None) -> str:
    """The throughput measurement period: "100 ms (100 kernel ticks at 1,000 Hz)".

    Ticks: HELLO `tm_period` (the analysis puts it in the config as
    `tm_period_ticks`); milliseconds: the profile's `tm_period_ms` when the
    build recorded it, else ticks / the stream's CFG `tick_hz`.
    """
    if build is None:
        return "period unknown"
    ticks = _number(build.config, "tm_period_ticks")
    ms = _number(build.config, "tm_period_ms")
    tick_hz = _number(build.config, "tick_hz")
    if ms is None and ticks is not None and tick_hz is not None:
        ms = 1000.0 * ticks / tick_hz
    rate = f" at {fmt(tick_hz)} Hz" if tick_hz is not None else ""
    if ms is not None:
        return f"{fmt(ms)} ms" + (f" ({fmt(ticks)} kernel ticks{rate})" if ticks else "")
    if ticks is not None:
        return f"{fmt(ticks)} ticks (no kernel tick rate recorded)"
    return "period unknown"


def percent(x: float) -> str:
    """A share of the best; "-" where there is none (every score 0: NaN)."""
    return f"{x:.1f} %" if math.isfinite(x) else "-"


def multiple(x: float) -> str:
    """A multiple of the slowest; "-" where the slowest scored 0 (NaN)."""
    return f"{x:.2f}x" if math.isfinite(x) else "-"


def throughput_cell(case: CaseResult | None, norm: Normalised | None) -> Cell:
    """A count, its % of the best and multiple of the slowest (analysis), marks."""
    if case is None or case.score is None:
        return empty(case)
    if case.status != CaseStatus.OK:  # the count stays visible; the failure is marked
        failed = [k.name for k in case.checks if not k.ok]
        return Cell(marked(fmt(case.score), case), "check failed: " + ", ".join(failed)
                    if failed else case.status, "fail")
    parts = ([f"{percent(norm.percent_of_best)} · {multiple(norm.multiple_of_slowest)}"]
             if norm is not None and math.isfinite(norm.percent_of_best) else [])
    if case.per_iteration is not None:
        parts.append(f"{fmt(case.per_iteration)}{PER_ITERATION_SHORT}")
    return Cell(marked(fmt(case.score), case), " · ".join(parts))


def _per_iteration_unit(cases: Iterable[CaseResult]) -> str:
    return next((c.per_iteration_unit for c in cases if c.per_iteration is not None), "")


def _per_iteration_note(unit: str) -> str:
    return (f"{PER_ITERATION_SHORT}: the period in {unit} divided by the count: what one loop "
            "iteration costs, kernel and benchmark together.")


def _scored(cases: list[CaseResult]) -> bool:
    return any(c.score is not None or c.status not in (CaseStatus.OK, CaseStatus.UNSUPPORTED)
               for c in cases)


def throughput_section(view: RunView, target: str) -> Section | None:
    tm = [c for c in view.cases if c.target == target and family(c) == "throughput"]
    if not _scored(tm):
        return None
    sys_ = Systems.of(target, tm)
    norm = {(n.system, n.case_id): n for n in normalise_throughput(tm)}
    by = {(system(c), c.case_id): c for c in tm}
    periods = {k: period_text(build_of(view, k)) for k in sys_.keys}
    same = len(set(periods.values())) == 1
    head = f"per period of {next(iter(periods.values()))}" if same else "per period"
    per_it = _per_iteration_unit(tm)
    sec = Section(f"Throughput on {target}: mean count {head} (higher is better; small: % of "
                  "the best · multiple of the slowest"
                  + (f" · {per_it} per loop iteration" if per_it else "") + ")",
                  ["case", *sys_.headers], numeric=1)
    for cid in sorted({c.case_id for c in tm}):
        sec.rows.append([cid, *(throughput_cell(by.get((k, cid)), norm.get((k, cid)))
                                for k in sys_.keys)])
    if not same:
        sec.notes.append("Periods: " + "; ".join(f"{sys_.labels[k]}: {p}"
                                                 for k, p in periods.items()))
    sec.notes += table_notes(tm)
    if per_it:
        sec.notes.append(_per_iteration_note(per_it))
    sec.notes.append("Only systems on the same target are compared; a failed case keeps its "
                     f"count, marked {FAIL_MARK}, and is left out of the normalisation.")
    return sec


# ---- Thread-Metric's relative tables (the thread-metric view) ---------------------

def _count(case: CaseResult, norm: Normalised | None) -> Cell:
    """The count; a failed case keeps it, marked (it has no ratio)."""
    return Cell(marked(fmt(case.score), case), flag=flag(case)) if case.score is not None \
        else empty(case)


def _ratio(text: Callable[[Normalised], str]) -> Callable[[CaseResult, Normalised | None], Cell]:
    """A ratio of a test that ran; a failed one has none (it is left out of
    the normalisation), an unsupported one says so."""
    def cell(case: CaseResult, norm: Normalised | None) -> Cell:
        if norm is None:
            return empty(case) if case.score is None else Cell(case.status, flag="fail")
        return Cell(marked(text(norm), case))
    return cell


# (what the table shows, its cell, what its note says)
RELATIVE: tuple[tuple[str, Callable[[CaseResult, Normalised | None], Cell], str], ...] = (
    ("count per period", _count,
     "The mean count per measurement period; higher is better (the report's throughput "
     "table has the per-iteration cost and the checks)."),
    ("relative to the slowest system (slowest = 1.0x)",
     _ratio(lambda n: multiple(n.multiple_of_slowest)),
     "Each test's count divided by the slowest system's on this target (per ms of the "
     "period where periods differ): 2.00x completes the loop twice as often; higher is "
     "better."),
    ("relative to the best system (best = 100 %)",
     _ratio(lambda n: percent(n.percent_of_best)),
     "Each test's count as a share of the best system's on this target (per ms of the "
     "period where periods differ); higher is better."),
)


def _period_note(view: RunView, sys_: Systems) -> str:
    periods = {sys_.labels[k]: period_text(build_of(view, k)) for k in sys_.keys}
    note = ("Measurement period: " + next(iter(periods.values())) if len(set(periods.values()))
            == 1 else "Measurement periods: " + "; ".join(f"{k}: {p}" for k, p in
                                                          periods.items())) + "."
    emulated = {d.unit.deterministic for c in view.cases for d in c.distributions
                if system(c) in sys_.keys}
    if True in emulated:
        note += (" Emulated (QEMU -icount): counts are exact, so a period shorter than "
                 "Thread-Metric's 30 s gives the same ratios.")
    return note + _rules_note(view, sys_)


def _rules_note(view: RunView, sys_: Systems) -> str:
    """Where the counts keep Thread-Metric's porting rules (its readme 2.2) and
    where they do not: the tick that serves the reporter's sleep."""
    builds = [b for k in sys_.keys if (b := build_of(view, k)) is not None]
    note = ""
    if any("tm_porting_layer" in b.config for b in builds):
        note += (" Every loop calls Thread-Metric's services through its porting layer: "
                 "real functions in their own translation unit, as its readme (2.2) asks.")
    ticks = {fmt(hz) for b in builds if (hz := _number(b.config, "tick_hz")) is not None}
    if ticks - {"100"}:
        note += (f" The reporter sleeps on the kernel tick at {' / '.join(sorted(ticks))} Hz, "
                 "not Thread-Metric's 10 ms (100 Hz): one tick rate serves every case family "
                 "(docs/benchmarks.md); the tick's own cost per period is part of every count.")
    return note


def relative_sections(view: RunView) -> list[Section]:
    """Per target, each tm.* test's count, then normalised to the slowest
    system (1.0x) and to the best (100 %): the tables Thread-Metric results
    are quoted in (docs/benchmarks.md §1). A case that failed or did not
    run has no figure here; its count stays in the report's throughput table."""
    out = []
    for target in sorted({c.target for c in view.cases}):
        tm = [c for c in view.cases if c.target == target and family(c) == "throughput"]
        if not _scored(tm):
            continue
        sys_ = Systems.of(target, tm)
        norm = {(n.system, n.case_id): n for n in normalise_throughput(tm)}
        by = {(system(c), c.case_id): c for c in tm}
        for head, cell, note in RELATIVE:
            sec = Section(f"Thread-Metric on {target}: {head}",
                          ["test", *sys_.headers], numeric=1)
            for cid in sorted({c.case_id for c in tm}):
                sec.rows.append([cid, *(cell(c, norm.get((k, cid))) if (c := by.get((k, cid)))
                                        else Cell("") for k in sys_.keys)])
            sec.notes = [note, _period_note(view, sys_), *table_notes(tm)]
            out.append(sec)
    return out


# ---- the page: one table and two charts per target ---------------------------------


@dataclass
class ThroughputGroup:
    title: str
    anchor: str
    counts: Section
    charts: list[Chart]
    notes: list[str]


def page_cell(r: CaseResult | None, n: Normalised | None) -> Cell:
    """The text reports' cell (analysis' normalisation, marks), with the
    per-period counts and the checks on hover and the best of its row tinted."""
    if r is None:
        return Cell("not run", flag="dim")
    cell = throughput_cell(r, n)
    if r.score is None or r.status == CaseStatus.UNSUPPORTED:
        return dataclasses.replace(cell, title=r.reason)
    title = "per period: " + ", ".join(fmt(v) for v in r.counts.get("total", []))
    title += "".join(f"; check {ch.name} failed: got {ch.got}, want {ch.want}"
                     for ch in r.checks if not ch.ok)
    title += "".join(f"; {t}" for t in [stand_in_text(r), *r.warned] if t)
    best = n is not None and n.percent_of_best == 100.0 and cell.flag == ""
    return dataclasses.replace(cell, title=title, flag="best" if best else cell.flag)


def clock_origin(unit: str) -> str:
    """"ns (host clock)" -> "host clock": where a unit's time comes from."""
    m = re.search(r"\(([^)]*)\)", unit)
    return m.group(1) if m else unit


def unit_origin(view: RunView, target: str) -> str:
    """The clock the target measured with, e.g. "ns (host clock)"."""
    for c in view.cases:
        if c.target == target and c.distributions:
            return c.distributions[0].unit.label
    for b in view.builds:
        if b.target == target:
            for k in ("unit", "ts"):
                if b.runner.get(k):
                    return b.runner[k]
    return "target counter"


class _Bars:
    """The two charts' bars, gathered row by row: (case, column, normalised)."""

    def __init__(self) -> None:
        self.found: list[tuple[str, Column, Normalised]] = []

    def add(self, cid: str, col: Column, n: Normalised) -> None:
        self.found.append((cid, col, n))

    def charts(self, name: str, clock: str) -> list[Chart]:
        from rtosmeter import charts  # matplotlib: only for the page

        if not self.found:
            return []
        best = [charts.Bar(cid, col.label, n.percent_of_best, col.colour)
                for cid, col, n in self.found if math.isfinite(n.percent_of_best)]
        slowest = [charts.Bar(cid, col.label, n.multiple_of_slowest, col.colour)
                   for cid, col, n in self.found if math.isfinite(n.multiple_of_slowest)]
        return [
            Chart(f"{name}-best", "Normalised to the best (100 %)",
                  charts.grouped_bars(best, "count per period, % of the best "
                                      f"(period timed by the {clock})", "{:.1f} %",
                                      reference=100.0)),
            Chart(f"{name}-slowest", "Normalised to the slowest (1.0x)",
                  charts.grouped_bars(slowest, "count per period, multiple of the slowest "
                                      f"(period timed by the {clock})", "{:.2f}x",
                                      reference=1.0)),
        ]


def _group_notes(results: list[CaseResult], periods: dict[str, str],
                 cols: list[Column]) -> list[str]:
    notes = table_notes(results)
    per_it_unit = _per_iteration_unit(results)
    if per_it_unit:
        notes.append(_per_iteration_note(per_it_unit))
    if len(set(periods.values())) != 1:
        notes.append("Measurement period: " + "; ".join(f"{label}: {text}"
                                                        for label, text in periods.items()))
    if any(c.emulated for c in cols):
        notes.append("Emulated: the period is measured in virtual time, so counts are "
                     "exact and repeat bit for bit.")
    return notes


def _group(view: RunView, target: str, gcols: list[Column], tp_ids: list[str],
           anchor: str) -> ThroughputGroup:
    by_key = {(key_of(c), c.case_id): c for c in view.cases}
    norm = {(n.system, n.case_id): n for n in normalise_throughput(view.cases)}
    rows: list[list[Value]] = []
    results: list[CaseResult] = []
    bars = _Bars()
    for cid in tp_ids:
        cells = []
        for col in gcols:
            r = by_key.get((col.key, cid))
            n = norm.get((system_of(col.key), cid))
            cells.append(page_cell(r, n))
            if r is not None and r.score:
                results.append(r)
            if n is not None:
                bars.add(cid, col, n)
        if any(c.text != "not run" and c.flag != "dim" for c in cells):
            rows.append([cid, *cells])
    clock = clock_origin(unit_origin(view, target))
    builds = {key_of(b): b for b in view.builds}
    periods = {c.label: period_text(builds.get(c.key)) for c in gcols}
    period = f" of {next(iter(periods.values()))}" if len(set(periods.values())) == 1 else ""
    table = Section(f"Loop completions per measurement period{period}, timed by the "
                    f"{clock} (mean over periods; in brackets: % of best, multiple of "
                    "slowest).", ["", *(c.label for c in gcols)], rows)
    return ThroughputGroup(target, anchor, table, bars.charts(anchor, clock),
                           _group_notes(results, periods, gcols))


def page_groups(view: RunView, cols: list[Column], case_ids: list[str]
                ) -> list[ThroughputGroup]:
    """One table and two charts per target, for the systems that ran tm.*."""
    by_key = {(key_of(c), c.case_id) for c in view.cases}
    tp_ids = [cid for cid in case_ids
              if any(family(c) == "throughput" for c in view.cases if c.case_id == cid)]
    groups = []
    for target in dict.fromkeys(c.key[1] for c in cols):
        gcols = [c for c in cols if c.key[1] == target
                 and any((c.key, cid) in by_key for cid in tp_ids)]
        if gcols:
            groups.append(_group(view, target, gcols, tp_ids, anchor(f"tp-{target}")))
    return groups
