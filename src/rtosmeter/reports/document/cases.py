"""The page's latency cases: per case, a box plot per unit, the statistics
of every series of every system, what did not run, and for a case with one
series per ready-list layout (lat.thread.lifecycle) its calls alone as boxes
and every layout as a matrix (matrix.py). The figures are the text
reports' cells (statistics.stat_cells, cells.marked)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rtosmeter.model import CaseResult, CaseStatus, Distribution, RunView
from rtosmeter.reports.document.cells import (
    Cell,
    Chart,
    Section,
    anchor,
    fmt,
    marked,
    stand_in_notes,
)
from rtosmeter.reports.document.latency import layouts
from rtosmeter.reports.document.listing import ISR_NOTE, case_ids
from rtosmeter.reports.document.matrix import Matrix, matrix
from rtosmeter.reports.document.statistics import STAT_NAMES, THIN_NOTE, stat_cells
from rtosmeter.reports.document.systems import Column, key_of

if TYPE_CHECKING:
    from rtosmeter.charts import BoxPlot
from rtosmeter.vocabulary import CALIB_CASE, family, is_interrupt_rate, measures_interrupts

STATS_UNFOLDED = 24  # statistics tables longer than this start folded
THIN_TITLE = "too few samples for this percentile: an interpolation, not a measurement"
BOX_LEGEND = (
    "Box: 25-75 %; line: median; whiskers: 1 % and 99 %; dots: min and max; "
    "diamond: mean."
)
STAT_HEAD = ["series", "what", *STAT_NAMES, "overhead"]


@dataclass
class LatencyCase:
    case_id: str
    anchor: str
    charts: list[Chart]
    stats: Section
    not_run: list[tuple[str, str, str]]  # (column label, status, reason)
    notes: list[str]
    matrices: list[Matrix] = field(default_factory=list)
    line: str = ""  # the medians of the first series per system: the folded case's summary

    @property
    def folded(self) -> bool:
        """Long statistics tables are folded (opened with a click, no script)."""
        return len(self.stats.rows) > STATS_UNFOLDED


def is_latency(results: list[CaseResult]) -> bool:
    """Interval distributions, without the calibration (its own table) and
    the interrupt rate (Interrupt responsiveness)."""
    return all(r.case_id != CALIB_CASE and not is_interrupt_rate(r)
               and family(r) != "throughput" for r in results)


def _stat_cells(d: Distribution, with_unit: bool) -> tuple[list[Cell], bool]:
    """The statistics table's cells (the text reports' figures), and whether
    a percentile among them rests on too few samples."""
    figures, thin = stat_cells(d)
    cells = [Cell(d.series), Cell(d.what, kind="what")]
    cells += [Cell(c.text, flag=c.flag, title=THIN_TITLE if c.flag else "") for c in figures]
    if with_unit:
        cells.append(Cell(d.unit.label))
    return cells, thin


class _Case:
    """One latency case of the page: its results in column order, and the
    (series, system) pairs: series first, then the systems, so the ports
    stand next to each other for the same operation, in chart and table alike."""

    def __init__(self, cid: str, results: list[CaseResult], cols: list[Column]) -> None:
        self.cid = cid
        self.col_of = {c.key: c for c in cols}
        order = [c.key for c in cols]
        self.results = sorted(results, key=lambda r: order.index(key_of(r)))
        self.units = list(dict.fromkeys(d.unit.label for r in self.results
                                        for d in r.distributions))
        self.per_build = Counter(key_of(r) for r in self.results)
        names = list(dict.fromkeys(d.series for r in self.results for d in r.distributions))
        self.layouts = layouts(names)  # the calls alone stay in the chart
        rank = {n: i for i, n in enumerate(names)}
        self.pairs = sorted(((ri, r, d) for ri, r in enumerate(self.results)
                             for d in r.distributions),
                            key=lambda x: (rank[x[2].series], x[0]))

    def label(self, r: CaseResult, d: Distribution | None = None) -> str:
        parts = [self.col_of[key_of(r)].label]
        if self.per_build[key_of(r)] > 1:  # the case runs in several firmwares
            parts.append(r.group)
        if d is not None and len(r.distributions) > 1:
            parts.insert(0, d.series)
        return marked(" · ".join(parts), r)

    def charts(self) -> list[tuple[Chart, BoxPlot]]:
        """Each unit's chart (its SVG drawn later, with every case's: page_latency)
        and its box plot."""
        from rtosmeter import charts  # matplotlib: only for a page with charts

        out: list[tuple[Chart, BoxPlot]] = []
        for ui, unit in enumerate(self.units):
            boxes = [charts.BoxStats(self.label(r, d), d.p1, d.p25, d.p50, d.p75, d.p99,
                                     d.min, d.max, d.mean, self.col_of[key_of(r)].colour)
                     for _, r, d in self.pairs
                     # layouts: the matrix shows them; no samples or no figure: no box
                     if d.unit.label == unit and not (self.layouts and d.series in self.layouts)
                     and d.n != 0 and not r.timing_void]
            if not boxes:
                continue
            title = (f"Each call alone, per port, in {unit} (with other threads: the table "
                     "below)" if self.layouts else f"Distribution per port, in {unit}")
            out.append((Chart(f"{anchor(self.cid)}-{ui}", title, ""), (boxes, unit)))
        return out

    def stats(self) -> tuple[Section, bool]:
        stats = Section("", [])
        thin = False
        for _, r, d in self.pairs:
            failed = any(not ch.ok for ch in r.checks)
            cells, few = _stat_cells(d, len(self.units) > 1)
            thin |= few
            stats.add([self.label(r), *cells], "check-failed" if failed else "")
        stats.headers = ["", *STAT_HEAD] + (["unit"] if len(self.units) > 1 else [])
        caption = f"All values in {self.units[0]}." if len(self.units) == 1 else ""
        caption += " Measurement overhead already subtracted; cold = first sample, excluded."
        stats.title = caption.strip()
        return stats, thin

    def notes(self, thin: bool, isr_first: str | None) -> list[str]:
        notes = [THIN_NOTE] if thin else []
        if self.emulated_interrupts:
            # said in full once; the next interrupt cases point back to it
            notes.append(ISR_NOTE if isr_first is None else
                         f"Emulated: a code-path length, not a hardware latency (see {isr_first}).")
        for r in self.results:
            for ch in r.checks:
                if not ch.ok:
                    notes.append(f"{self.col_of[key_of(r)].label}: check {ch.name} failed "
                                 f"(got {ch.got}, want {ch.want}).")
        return notes + stand_in_notes(self.results)

    @property
    def emulated_interrupts(self) -> bool:
        return any(measures_interrupts(r) and self.col_of[key_of(r)].emulated
                   for r in self.results)

    def medians_line(self) -> str:
        """"take: threadx 120 · freertos 150 ⚠ (median, instructions (QEMU icount))"."""
        first = next((d for r in self.results for d in r.distributions
                      if r.status == CaseStatus.OK), None)
        if first is None:
            return "no figure"
        parts = [f"{self.col_of[key_of(r)].label} {marked(fmt(d.p50), r)}"
                 for r in self.results for d in r.distributions[:1]
                 if d.series == first.series and d.unit == first.unit
                 and r.status == CaseStatus.OK]
        return f"{first.series}: " + " · ".join(parts) + f" (median, {first.unit.label})"

    def build(self, isr_first: str | None, chart_list: list[Chart]) -> LatencyCase:
        stats, thin = self.stats()
        not_run = [(self.label(r), r.status, r.reason) for r in self.results
                   if r.status != CaseStatus.OK or not r.distributions]
        matrices = ([matrix(self.results, unit, self.layouts, self.col_of) for unit in self.units]
                    if self.layouts else [])
        return LatencyCase(self.cid, anchor(self.cid), chart_list, stats, not_run,
                           self.notes(thin, isr_first), matrices, self.medians_line())


def page_latency(view: RunView, cols: list[Column]) -> tuple[list[LatencyCase], list[str]]:
    """The latency cases, and those no compared system supports (one line)."""
    out: list[LatencyCase] = []
    nobody: list[str] = []
    isr_first: str | None = None
    from rtosmeter import charts  # matplotlib: only for a page with charts

    plots: list[tuple[Chart, BoxPlot]] = []
    for cid in case_ids(view):
        results = [c for c in view.cases if c.case_id == cid]
        if not is_latency(results):
            continue
        if all(r.status == CaseStatus.UNSUPPORTED for r in results):
            reasons = ", ".join(dict.fromkeys(r.reason for r in results if r.reason))
            nobody.append(f"{cid} ({reasons})" if reasons else cid)
            continue
        case = _Case(cid, results, cols)
        planned = case.charts()
        out.append(case.build(isr_first, [chart for chart, _ in planned]))
        plots += [(chart, plot) for chart, plot in planned]
        if case.emulated_interrupts:
            isr_first = isr_first or cid
    for (chart, _), svg in zip(plots, charts.box_plots([p for _, p in plots]), strict=True):
        chart.svg = svg  # every case's at once: drawn side by side
    return out, nobody


