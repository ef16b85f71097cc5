"""The self-contained HTML report of one run (and the Markdown report's charts).

`prepare(view)` turns a `RunView` into plain rows and charts (`Report`); the
Jinja2 template `templates/report.html.j2` lays them out. The page needs no
network: styles are inline and every chart is inline SVG drawn by
`charts.py` from statistics. Everything taken from the run (case IDs, port
names, configuration values, reasons) is escaped by Jinja2's autoescape; the
only markup inserted unescaped is the SVG matplotlib wrote, which escapes its
text itself.

The families follow `analysis.family`: Thread-Metric (tm.*) is throughput;
irq.max_rate has its own "Interrupt responsiveness" section; checks (with
tm.basic against bare metal), interrupt rate and measurement overhead reuse
the text reports' sections (`_common`), so every format shows the same
figures. Combinations not run here are listed apart from errors and are no
column. A case with one series per layout (lat.thread.lifecycle) shows its
calls alone as boxes and every layout as a call x threads by gap table.

Under emulation the report says that interrupt latency is a code-path length
(QEMU charges no virtual time for exception entry and exit), and units come
from the analysis (`Unit.label`), so an emulated run is never shown in µs.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from rtosmeter import __version__, axes, charts
from rtosmeter.analysis import (
    CALIB_CASE,
    NOT_RUN_STATUSES,
    Normalised,
    compiler_text,
    family,
    is_interrupt_rate,
    measures_interrupts,
    normalise_throughput,
    not_run_here,
)
from rtosmeter.model import (
    SETTING_MARK,
    WARN_MARK,
    BuildInfo,
    CaseResult,
    CaseStatus,
    Distribution,
    Footprint,
    RunView,
    stand_in_text,
)
from rtosmeter.reports import _common
from rtosmeter.reports._answer import heap_of, is_identity
from rtosmeter.reports._common import Cell, Section, Value, fmt
from rtosmeter.textsafe import chart_name, markdown_safe

SUFFIX = ".html"

BuildKey = tuple[str, str, str, str]  # (port, target, profile, axes suffix: "+clang")

ISR_NOTE = (
    "Emulated interrupt latency is a code-path length: QEMU charges no virtual time "
    "for exception entry and exit, so this is the number of instructions on the "
    "path, not a hardware latency."
)
PART_ORDER = ("kernel", "benchmark", "libc", "startup", "start-up")
STATS_UNFOLDED = 24  # statistics tables longer than this start folded
THIN_TITLE = "too few samples for this percentile: an interpolation, not a measurement"
BOX_LEGEND = (
    "Box: 25-75 %; line: median; whiskers: 1 % and 99 %; dots: min and max; "
    "diamond: mean."
)


@dataclass
class Column:
    key: BuildKey
    label: str
    colour: str
    emulated: bool


@dataclass
class Chart:
    name: str  # a file name stem for the Markdown report
    title: str
    svg: str  # a standalone SVG document

    @property
    def inline(self) -> str:
        return charts.inline(self.svg)


@dataclass
class ThroughputGroup:
    title: str
    anchor: str
    counts: Section
    charts: list[Chart]
    notes: list[str]


@dataclass
class Block:
    """A titled table built from a section of the text reports (_common), so
    the HTML and the terminal/Markdown show the same figures."""

    title: str
    anchor: str
    table: Section
    notes: list[str]


@dataclass
class Matrix:
    """A case with one series per layout (lat.thread.lifecycle: call x other
    threads x priority gap): medians in a call x threads by system x gap grid."""

    unit: str
    systems: list[tuple[str, str]]  # (label, colour)
    gaps: list[int]
    table: Section  # rows "call · N other threads"; cells per system x gap
    notes: list[str]


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


@dataclass
class Report:
    view: RunView
    title: str
    columns: list[Column]
    summary: Section
    facts: list[tuple[str, str]]
    notices: list[str]
    throughput: list[ThroughputGroup]
    latency: list[LatencyCase]
    footprint_charts: list[Chart]
    footprint: Section | None
    config: Section
    config_differs: int
    environment: Section
    runner: Section
    errors: list[str]
    not_run_here: list[tuple[str, str, str]] = field(default_factory=list)
    checks: list[Block] = field(default_factory=list)
    interrupts: list[Block] = field(default_factory=list)
    interrupts_not_run: list[tuple[str, str, str, str]] = field(default_factory=list)
    overhead: list[Block] = field(default_factory=list)
    answers: list[Section] = field(default_factory=list)
    warnings: Section | None = None
    unsupported_by_all: list[str] = field(default_factory=list)
    tool_version: str = __version__
    extra_charts: list[Chart] = field(default_factory=list)
    ram_breakdown: list[Section] = field(default_factory=list)  # per target: RAM by part

    @property
    def all_charts(self) -> list[Chart]:
        out = [c for g in self.throughput for c in g.charts]
        out += [c for case in self.latency for c in case.charts]
        return out + self.footprint_charts + self.extra_charts


# --------------------------------------------------------------------------- helpers


def anchor(text: str) -> str:
    """An HTML id and chart file stem, unique per text (textsafe.chart_name)."""
    return "c-" + chart_name(text)


def _emulated(view: RunView) -> dict[BuildKey, bool]:
    """Per system, whether it ran under an emulator: its samples' unit says."""
    return {key_of(c): d.unit.emulated for c in view.cases for d in c.distributions}


def key_of(item: CaseResult | Footprint | BuildInfo) -> BuildKey:
    return (item.port, item.target, item.profile, axes.suffix(item.axes))


def _system(k: BuildKey) -> str:
    """The analysis' name of a column's system (analysis.system)."""
    port, target, profile, suffix = k
    return f"{port}/{target}/{profile}{suffix}"


def _compiler(item: CaseResult | Footprint | BuildInfo) -> str:
    """"clang 14.0.6", or the toolchain's name where the build did not say."""
    text = compiler_text(item.config) if isinstance(item, BuildInfo) else item.compiler
    return text or axes.complete(item.axes)["toolchain"]


def _columns(view: RunView) -> list[Column]:
    keys: list[BuildKey] = []
    # a combination not run here is listed apart, never a column
    ran = [b for b in view.builds if b.status not in NOT_RUN_STATUSES]
    items: list[CaseResult | Footprint | BuildInfo] = [*ran, *view.cases, *view.footprints]
    for item in items:
        k = key_of(item)
        if k not in keys:
            keys.append(k)
    targets = {k[1] for k in keys}
    profiles = {k[2] for k in keys}
    compiler = {key_of(i): _compiler(i) for i in reversed(items)}  # a build's word first
    emulated = _emulated(view)
    cols = []
    for i, k in enumerate(keys):
        # the text reports' label (port, then profile and compiler where they
        # differ: "freertos/vendor/clang 14.0.6"), then the target
        label = k[0] + (f"/{k[2]}" if len(profiles) > 1 else "")
        label += f"/{compiler[k]}" if len({k[3] for k in keys}) > 1 else ""
        label += f" · {k[1]}" if len(targets) > 1 else ""
        colour = charts.colour_for(i)  # one per column: two profiles never share one
        cols.append(Column(k, label, colour, emulated.get(k, False)))
    return cols


def _case_ids(view: RunView) -> list[str]:
    return list(dict.fromkeys(c.case_id for c in view.cases))


def is_throughput(results: Iterable[CaseResult]) -> bool:
    """Thread-Metric (tm.*) only: an interrupt rate ramp counts too, but it is
    not a throughput score (analysis.family)."""
    return any(family(r) == "throughput" for r in results)


def is_latency(results: Iterable[CaseResult]) -> bool:
    """Interval distributions, without the calibration (its own table) and
    the interrupt rate (Interrupt responsiveness)."""
    return all(r.case_id != CALIB_CASE and not is_interrupt_rate(r)
               and family(r) != "throughput" for r in results)


def _status_cell(result: CaseResult) -> Cell:
    flag = "dim" if result.status == CaseStatus.UNSUPPORTED else "fail"
    return Cell(result.status, flag=flag, title=result.reason)


# --------------------------------------------------------------------------- sections


def _summary(view: RunView, cols: list[Column]) -> Section:
    """Per column, what ran: the comparison itself is the answer above it."""
    table = Section("", ["", "ok", "unsupported", "failed / incomplete", "checks failed",
                         "warnings"])
    warned = Counter(w.system for w in view.warnings)
    for col in cols:
        results = [c for c in view.cases if key_of(c) == col.key]
        ok = sum(r.status == CaseStatus.OK for r in results)
        unsup = sum(r.status == CaseStatus.UNSUPPORTED for r in results)
        bad = len(results) - ok - unsup
        checks = sum(not ch.ok for r in results for ch in r.checks)
        n = warned[_system(col.key)]
        table.add([
            col.label,
            Cell(str(ok)),
            Cell(str(unsup), flag="dim" if unsup else ""),
            Cell(str(bad), flag="fail" if bad else ""),
            Cell(str(checks), flag="fail" if checks else ""),
            Cell(f"{WARN_MARK} {n}" if n else "0"),
        ])
    return table


def _throughput_cell(r: CaseResult | None, n: Normalised | None) -> Cell:
    """The text reports' cell (analysis' normalisation, marks), with the
    per-period counts and the checks on hover and the best of its row tinted."""
    if r is None:
        return Cell("not run", flag="dim")
    cell = _common.throughput_cell(r, n)
    if r.score is None or r.status == CaseStatus.UNSUPPORTED:
        return dataclasses.replace(cell, title=r.reason)
    title = "per period: " + ", ".join(fmt(v) for v in r.counts.get("total", []))
    title += "".join(f"; check {ch.name} failed: got {ch.got}, want {ch.want}"
                     for ch in r.checks if not ch.ok)
    title += "".join(f"; {t}" for t in [stand_in_text(r), *r.warned] if t)
    best = n is not None and n.percent_of_best == 100.0 and cell.flag == ""
    return dataclasses.replace(cell, title=title, flag="best" if best else cell.flag)


def _throughput(view: RunView, cols: list[Column]) -> list[ThroughputGroup]:
    """One table and two charts per target; % of best and multiple of the
    slowest are analysis.normalise_throughput's, as in every other format."""
    groups: list[ThroughputGroup] = []
    by_key = {(key_of(c), c.case_id): c for c in view.cases}
    norm = {(n.system, n.case_id): n for n in normalise_throughput(view.cases)}
    tp_ids = [cid for cid in _case_ids(view)
              if is_throughput(c for c in view.cases if c.case_id == cid)]
    for target in dict.fromkeys(c.key[1] for c in cols):
        gcols = [c for c in cols if c.key[1] == target
                 and any((c.key, cid) in by_key for cid in tp_ids)]
        if not gcols:
            continue
        rows: list[list[Value]] = []
        group_results: list[CaseResult] = []
        pct_bars: list[charts.Bar] = []
        x_bars: list[charts.Bar] = []
        for cid in tp_ids:
            cells = []
            for col in gcols:
                r = by_key.get((col.key, cid))
                n = norm.get((_system(col.key), cid))
                cells.append(_throughput_cell(r, n))
                if r is not None and r.score:
                    group_results.append(r)
                if n is not None:
                    pct_bars.append(charts.Bar(cid, col.label, n.percent_of_best, col.colour))
                    x_bars.append(charts.Bar(cid, col.label, n.multiple_of_slowest, col.colour))
            if any(c.text != "not run" and c.flag != "dim" for c in cells):
                rows.append([cid, *cells])
        name = anchor(f"tp-{target}")
        clock = _clock_origin(_unit_origin(view, target))
        builds = {key_of(b): b for b in view.builds}
        periods = {c.label: _common.period_text(builds.get(c.key)) for c in gcols}
        same = len(set(periods.values())) == 1
        period = f" of {next(iter(periods.values()))}" if same else ""
        table = Section(f"Loop completions per measurement period{period}, timed by the "
                        f"{clock} (mean over periods; in brackets: % of best, multiple of "
                        "slowest).", ["", *(c.label for c in gcols)], rows)
        chart_list = []
        if pct_bars:
            chart_list = [
                Chart(f"{name}-best", "Normalised to the best (100 %)",
                      charts.grouped_bars(pct_bars, "count per period, % of the best "
                                          f"(period timed by the {clock})", "{:.1f} %",
                                          reference=100.0)),
                Chart(f"{name}-slowest", "Normalised to the slowest (1.0x)",
                      charts.grouped_bars(x_bars, "count per period, multiple of the slowest "
                                          f"(period timed by the {clock})", "{:.2f}x",
                                          reference=1.0)),
            ]
        notes = _common.stand_in_notes(group_results)
        per_it_unit = next((r.per_iteration_unit for r in group_results
                            if r.per_iteration is not None), "")
        if per_it_unit:
            notes.append(f"{_common.PER_ITERATION_SHORT}: the period in {per_it_unit} divided "
                         "by the count: what one loop iteration costs, kernel and benchmark "
                         "together.")
        if not same:
            notes.append("Measurement period: " + "; ".join(f"{label}: {text}"
                                                            for label, text in periods.items()))
        if any(c.emulated for c in gcols):
            notes.append("Emulated: the period is measured in virtual time, so counts are "
                         "exact and repeat bit for bit.")
        groups.append(ThroughputGroup(target, name, table, chart_list, notes))
    return groups


def _clock_origin(unit: str) -> str:
    """"ns (host clock)" -> "host clock": where a unit's time comes from."""
    m = re.search(r"\(([^)]*)\)", unit)
    return m.group(1) if m else unit


def _unit_origin(view: RunView, target: str) -> str:
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


STAT_HEAD = ["series", "what", *_common.STAT_NAMES, "overhead"]


def _stat_cells(d: Distribution, with_unit: bool) -> tuple[list[Cell], bool]:
    """The statistics table's cells (the text reports' figures), and whether
    a percentile among them rests on too few samples."""
    figures, thin = _common.stat_cells(d)
    cells = [Cell(d.series), Cell(d.what, kind="what")]
    cells += [Cell(c.text, flag=c.flag, title=THIN_TITLE if c.flag else "") for c in figures]
    if with_unit:
        cells.append(Cell(d.unit.label))
    return cells, thin


def _latency(view: RunView, cols: list[Column]) -> tuple[list[LatencyCase], list[str]]:
    """The latency cases, and those no compared system supports (one line)."""
    out: list[LatencyCase] = []
    nobody: list[str] = []
    col_of = {c.key: c for c in cols}
    isr_first: str | None = None
    for cid in _case_ids(view):
        results = [c for c in view.cases if c.case_id == cid]
        if not is_latency(results):
            continue
        if all(r.status == CaseStatus.UNSUPPORTED for r in results):
            reasons = ", ".join(dict.fromkeys(r.reason for r in results if r.reason))
            nobody.append(f"{cid} ({reasons})" if reasons else cid)
            continue
        results.sort(key=lambda r: [c.key for c in cols].index(key_of(r)))
        units = list(dict.fromkeys(d.unit.label for r in results for d in r.distributions))
        stats = Section("", [])
        chart_list: list[Chart] = []
        per_build = Counter(key_of(r) for r in results)

        def label_of(r: CaseResult, d: Distribution | None = None,
                     per_build: Counter[BuildKey] = per_build) -> str:
            parts = [col_of[key_of(r)].label]
            if per_build[key_of(r)] > 1:  # the case runs in several firmwares
                parts.append(r.group)
            if d is not None and len(r.distributions) > 1:
                parts.insert(0, d.series)
            return _common.marked(" · ".join(parts), r)

        names = list(dict.fromkeys(d.series for r in results for d in r.distributions))
        layouts = _common.layouts(names)  # the calls alone stay in the chart
        # series first, then the systems: the ports stand next to each other
        # for the same operation, in chart and table alike
        order = {n: i for i, n in enumerate(names)}
        pairs = sorted(((ri, r, d) for ri, r in enumerate(results) for d in r.distributions),
                       key=lambda x: (order[x[2].series], x[0]))
        for ui, unit in enumerate(units):
            boxes = []
            for _, r, d in pairs:
                if (d.unit.label != unit or (layouts and d.series in layouts) or d.n == 0
                        or r.timing_void):
                    continue  # layouts: the matrix shows them; no samples or no figure: no box
                boxes.append(charts.BoxStats(label_of(r, d), d.p1, d.p25, d.p50, d.p75,
                                             d.p99, d.min, d.max, d.mean,
                                             col_of[key_of(r)].colour))
            if not boxes:
                continue
            title = (f"Each call alone, per port, in {unit} (with other threads: the table "
                     "below)" if layouts else f"Distribution per port, in {unit}")
            chart_list.append(Chart(f"{anchor(cid)}-{ui}", title,
                                    charts.box_plot(boxes, unit)))
        thin = False
        for _, r, d in pairs:
            failed = any(not ch.ok for ch in r.checks)
            cells, few = _stat_cells(d, len(units) > 1)
            thin |= few
            stats.add([label_of(r), *cells], "check-failed" if failed else "")
        stats.headers = ["", *STAT_HEAD] + (["unit"] if len(units) > 1 else [])
        caption = f"All values in {units[0]}." if len(units) == 1 else ""
        caption += " Measurement overhead already subtracted; cold = first sample, excluded."
        not_run = [(label_of(r), r.status, r.reason) for r in results
                   if r.status != CaseStatus.OK or not r.distributions]
        notes = [_common.THIN_NOTE] if thin else []
        if any(measures_interrupts(r) and col_of[key_of(r)].emulated for r in results):
            # said in full once; the next interrupt cases point back to it
            notes.append(ISR_NOTE if isr_first is None else
                         f"Emulated: a code-path length, not a hardware latency (see {isr_first}).")
            isr_first = isr_first or cid
        for r in results:
            for ch in r.checks:
                if not ch.ok:
                    notes.append(f"{col_of[key_of(r)].label}: check {ch.name} failed "
                                 f"(got {ch.got}, want {ch.want}).")
        notes += _common.stand_in_notes(results)
        matrices = [_matrix(results, unit, layouts, col_of) for unit in units] if layouts else []
        stats.title = caption.strip()
        out.append(LatencyCase(cid, anchor(cid), chart_list, stats,
                               not_run, notes, matrices, _medians_line(results, col_of)))
    return out, nobody


def _medians_line(results: list[CaseResult], col_of: dict[BuildKey, Column]) -> str:
    """"take: threadx 120 · freertos 150 ⚠ (median, instructions (QEMU icount))"."""
    first = next((d for r in results for d in r.distributions
                  if r.status == CaseStatus.OK), None)
    if first is None:
        return "no figure"
    parts = [f"{col_of[key_of(r)].label} {_common.marked(fmt(d.p50), r)}"
             for r in results for d in r.distributions[:1]
             if d.series == first.series and d.unit == first.unit
             and r.status == CaseStatus.OK]
    return f"{first.series}: " + " · ".join(parts) + f" (median, {first.unit.label})"


# Tints of a layout's median against the same call alone (same system):
# (at least this ratio, css class). Class names only: the page keeps no script.
TINTS = ((2.0, "up3"), (1.5, "up2"), (1.1, "up1"))


def _matrix(results: list[CaseResult], unit: str, layouts: dict[str, tuple[str, int, int]],
            col_of: dict[BuildKey, Column]) -> Matrix:
    """Medians of every layout: one row per (call, other threads), per system
    one column per priority gap; the call alone first, over every gap."""
    calls = list(dict.fromkeys(c for c, _, _ in layouts.values()))
    threads = sorted({n for _, n, _ in layouts.values()})
    gaps = sorted({g for _, _, g in layouts.values()})
    systems = [r for r in results if any(d.unit.label == unit for d in r.distributions)]
    dists = {(key_of(r), r.group): {d.series: d for d in r.distributions if d.unit.label == unit}
             for r in systems}
    clamped = False
    table = Section("", [])  # the template writes the two header rows
    for call in calls:
        for n in [0, *threads]:
            cells: list[Cell] = []
            for r in systems:
                ds = dists[(key_of(r), r.group)]
                alone = ds.get(call)
                if n == 0:
                    cells.append(_layout_cell(alone, None, "", len(gaps)))
                    continue
                for g in gaps:  # "first": the border between two systems
                    name = f"{call}@{n}" + (f"/g{g}" if g != 1 else "")
                    if name not in layouts:
                        name = f"{call}@{n}/g{g}"
                    mark = ""
                    count = r.meta.get(f"clamped@{n}/g{g}", "")
                    if count.isdigit() and int(count) > 0:
                        mark, clamped = "†", True
                    cells.append(_layout_cell(ds.get(name), alone, mark, 1, count,
                                              first=g == gaps[0]))
            label = f"{call} · alone" if n == 0 else f"{call} · {n} others"
            table.add([label, *cells], "alone" if n == 0 else "")
    notes = ["Median per layout (hover: the series, p99 and max). Tint: the median against "
             "the same call alone on the same port: ≥ 1.1x, ≥ 1.5x, ≥ 2x."]
    if clamped:
        notes.append("† some of the other threads share the highest priority below the "
                     "measured thread: the priority range ran out at this gap (META "
                     "clamped@N/gG says how many).")
    labels = [(col_of[key_of(r)].label + (f" · {r.group}" if len(
        {x.group for x in systems if key_of(x) == key_of(r)}) > 1 else ""),
        col_of[key_of(r)].colour) for r in systems]
    return Matrix(unit, labels, gaps, table, notes)


def _layout_cell(d: Distribution | None, alone: Distribution | None, mark: str, span: int,
                 clamped: str = "", first: bool = True) -> Cell:
    edge = "first" if first else ""
    if d is None:
        return Cell("—", flag="dim", span=span, kind=edge)
    title = f"{d.series}: median {fmt(d.p50)}, p99 {fmt(d.p99)}, max {fmt(d.max)}"
    if clamped and mark:
        title += f"; {clamped} threads clamped to the top priority"
    css = ""
    if alone is not None and alone.p50 > 0:
        ratio = d.p50 / alone.p50
        css = next((c for least, c in TINTS if ratio >= least), "")
        title += f"; {ratio:.2f}x the call alone"
    return Cell(fmt(d.p50) + mark, title=title, span=span, kind=f"{css} {edge}".strip())


def _block(sec: _common.Section, target: str, label_columns: int = 1) -> Block:
    """A text-report section as an HTML table titled by its target (the page's
    section says what it is; the section's own title is the caption). The
    template writes text cells (names, reasons) left-aligned."""
    name = anchor(f"{sec.title.split(' on ')[0]}-{target}")
    return Block(target, name, sec, sec.notes)


def _blocks(view: RunView, build: Callable[[RunView, str], _common.Section | None],
            label_columns: int = 1) -> list[Block]:
    targets = list(dict.fromkeys(c.target for c in view.cases))
    return [_block(sec, t, label_columns) for t in targets
            if (sec := build(view, t)) is not None]


def _footprint(view: RunView, cols: list[Column]) -> tuple[list[Chart], Section | None]:
    """Charts and the table; a RAM figure that holds a heap the profile set is
    marked ‡, with the heap's size in the table's notes."""
    if not view.footprints:
        return [], None
    col_of = {c.key: c for c in cols}
    builds = {key_of(b): b for b in view.builds}
    heaps = {c.key: h for c in cols if (h := heap_of(builds.get(c.key)))}
    found = list(dict.fromkeys(o for f in view.footprints for o in f.parts))
    origins = [o for o in PART_ORDER if o in found] + [o for o in found if o not in PART_ORDER]
    rows: list[list[Value]] = []
    chart_list = []
    for target in dict.fromkeys(f.target for f in view.footprints):
        fps = [f for f in view.footprints if f.target == target]
        for i, (what, label) in enumerate((("flash", "Flash"), ("ram", "RAM"))):
            stacks = [charts.Stack(f"{col_of[key_of(f)].label} · {f.group}",
                                   {o: f.parts[o][i] for o in origins if o in f.parts})
                      for f in fps]
            chart_list.append(Chart(anchor(f"fp-{target}-{what}"), f"{label} — {target}",
                                    charts.stacked_bars(stacks, f"{label} bytes (ELF sections, "
                                                        f"{target})")))
        for f in fps:
            mark = f" {SETTING_MARK}" if key_of(f) in heaps else ""
            cells = [Cell(f.group), Cell(f"{f.flash:,}"), Cell(f"{f.ram:,}{mark}")]
            cells += [Cell(" / ".join(f"{v:,}" for v in f.parts.get(o, (0, 0))))
                      for o in origins]
            rows.append([col_of[key_of(f)].label, *cells])
    head = ["", "firmware", "Flash (B)", "RAM (B)"] + [f"{o} Flash / RAM (B)" for o in origins]
    table = Section("Bytes from the ELF's sections, attributed by the object file they come "
                    "from.", head, rows)
    table.notes = _common.heap_notes({col_of[k].label: h for k, h in heaps.items()})
    return chart_list, table


def _side_by_side(cols: list[Column], values: dict[BuildKey, dict[str, str]]
                  ) -> tuple[Section, int]:
    """Settings as rows, builds as columns. A setting differs when two builds
    give it different values; one only some builds report (an RTOS's own
    kernel option) is "specific", listed after the shared ones."""
    def kind(k: str) -> int:
        if is_identity(k):
            return 2
        return 1 if any(k not in values.get(c.key, {}) for c in cols) else 0

    keys = sorted({k for v in values.values() for k in v}, key=lambda k: (kind(k), k))
    table = Section("", ["", *(c.label for c in cols)])
    differs = 0
    for k in keys:
        vals = [values.get(c.key, {}).get(k) for c in cols]
        diff = len({v for v in vals if v is not None}) > 1 and not is_identity(k)
        differs += diff
        css = "differs" if diff else ("identity" if is_identity(k)
                                      else "specific" if kind(k) else "")
        table.add([k, *(Cell("—" if v is None else str(v), flag="dim" if v is None else "")
                        for v in vals)], css)
    return table, differs


def _config(view: RunView, cols: list[Column]) -> tuple[Section, int, Section]:
    builds = {key_of(b): b for b in view.builds}
    config = {}
    runner = {}
    for c in cols:
        b = builds.get(c.key)
        if b is None:
            continue
        config[c.key] = {"build status": b.status + (f": {b.error}" if b.error else ""),
                         **{k: str(v) for k, v in b.config.items()}}
        runner[c.key] = {k: str(v) for k, v in b.runner.items()}
    table, differs = _side_by_side(cols, config)
    return table, differs, _side_by_side(cols, runner)[0]


def _interrupts_not_run(view: RunView, cols: list[Column]) -> list[tuple[str, str, str, str]]:
    """(system, case, status, reason) of interrupt-rate cases without a rate."""
    label = {c.key: c.label for c in cols}
    return [(label.get(key_of(c), str(key_of(c))), c.case_id, c.status, c.reason)
            for c in view.cases if is_interrupt_rate(c) and c.status == CaseStatus.UNSUPPORTED]


def _case_counts(view: RunView) -> str:
    """"42 (9 throughput, 31 latency, 1 interrupt rate, 1 calibration)"."""
    kinds: Counter[str] = Counter()
    for cid in _case_ids(view):
        results = [c for c in view.cases if c.case_id == cid]
        kinds["calibration" if cid == CALIB_CASE else "throughput" if is_throughput(results)
              else "interrupt rate" if any(is_interrupt_rate(r) for r in results)
              else "latency"] += 1
    order = ("throughput", "latency", "interrupt rate", "calibration")
    parts = ", ".join(f"{kinds[k]} {k}" for k in order if kinds[k])
    return f"{sum(kinds.values())} ({parts})"


def prepare(view: RunView) -> Report:
    """Everything the templates show, computed once from the view."""
    charts.reset_ids()
    cols = _columns(view)
    throughput = _throughput(view, cols)
    latency, nobody = _latency(view, cols)
    fp_charts, fp_table = _footprint(view, cols)
    config, differs, runner = _config(view, cols)
    environment = Section("", ["", "value"], [[k, Cell(str(v))] for k, v in view.host.items()])
    campaign = str(view.campaign.get("campaign") or view.campaign.get("name") or "")
    facts = [
        ("run", f"#{view.run_id}" + (f" — campaign {campaign}" if campaign else "")),
        ("status", view.status),
        ("started", view.started),
        ("finished", view.finished or "—"),
        ("ports", ", ".join(dict.fromkeys(c.key[0] for c in cols))),
        ("targets", ", ".join(dict.fromkeys(c.key[1] for c in cols))),
        ("profiles", ", ".join(dict.fromkeys(c.key[2] for c in cols))),
        ("cases", _case_counts(view)),
        ("samples", f"{sum(d.n for c in view.cases for d in c.distributions):,}"),
    ]
    notices = []
    if any(c.emulated for c in cols):
        notices.append("Emulated targets run under QEMU with -icount: figures are counts of "
                       "virtual-clock ticks or instructions, exact and repeatable, not "
                       "times. " + ISR_NOTE)
    if any(not c.emulated for c in cols):
        notices.append("Host and board figures come from a real clock and are noisy: read "
                       "the percentiles, not only the mean.")
    return Report(
        view=view,
        title=f"rtosmeter run #{view.run_id}" + (f" — {campaign}" if campaign else ""),
        columns=cols,
        summary=_summary(view, cols),
        answers=_common.answer_sections(view),
        warnings=_common.warnings_section(view),
        unsupported_by_all=nobody,
        facts=facts,
        notices=notices,
        throughput=throughput,
        latency=latency,
        footprint_charts=fp_charts,
        footprint=fp_table,
        ram_breakdown=[_common.ram_breakdown_section(fps, _common.Systems.of(t, fps))
                       for t in dict.fromkeys(f.target for f in view.footprints)
                       if (fps := [f for f in view.footprints if f.target == t])],
        config=config,
        config_differs=differs,
        environment=environment,
        runner=runner,
        errors=list(view.errors),
        not_run_here=not_run_here(view),
        checks=_blocks(view, _common.checks_section, label_columns=2),
        interrupts=_blocks(view, _common.interrupt_section),
        interrupts_not_run=_interrupts_not_run(view, cols),
        overhead=_blocks(view, _common.overhead_section),
    )


# --------------------------------------------------------------------------- output


# The shared cell's flag as an HTML class (kind is one already).
FLAG_CLASS = {"": "", "fail": "failed", "dim": "dim", "best": "best"}


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
        autoescape=True,  # every name from the run is data, never markup
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["flag_class"] = FLAG_CLASS
    return env


def page(report: Report) -> str:
    """A prepared report as one self-contained HTML page."""
    return _environment().get_template("report.html.j2").render(
        r=report, box_legend=BOX_LEGEND, isr_note=ISR_NOTE, stats_unfolded=STATS_UNFOLDED)


def render(view: RunView) -> str:
    """The report as one self-contained HTML page."""
    return page(prepare(view))


def write(report: Report, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page(report), encoding="utf-8")
    return path


def write_markdown(report: Report, out_dir: Path, name: str = "report.md") -> Path:
    """The Markdown report (reports/markdown.py, unchanged) followed by the
    prepared report's charts as SVG files in `out_dir/charts/run-<id>/`,
    linked with relative paths so the page renders with its images on
    GitHub. The run's folder is emptied first: no stale chart stays."""
    from rtosmeter.reports import markdown

    view = report.view
    folder = f"charts/run-{view.run_id}"
    chart_dir = out_dir / folder
    if chart_dir.is_dir():
        for old in chart_dir.glob("*.svg"):
            old.unlink()
    chart_dir.mkdir(parents=True, exist_ok=True)
    lines = [markdown.render(view).rstrip("\n"), "", "## Charts", "",
             f"Latency charts: {BOX_LEGEND}", ""]
    sections: list[tuple[str, list[Chart]]] = [
        (markdown_safe(f"Throughput, {g.title}"), g.charts) for g in report.throughput]
    sections += [(markdown_safe(c.case_id), c.charts) for c in report.latency]
    if report.footprint_charts:
        sections.append(("Footprint", report.footprint_charts))
    for heading, chart_list in sections:
        if not chart_list:
            continue
        lines += [f"### {heading}", ""]
        for chart in chart_list:
            file = f"{chart.name}.svg"
            charts.save(chart.svg, str(chart_dir / file))
            alt = markdown_safe(chart.title)
            lines += [f"![{alt}]({folder}/{file})", ""]
    path = out_dir / name
    path.write_text("\n".join(lines).rstrip("\n") + "\n", encoding="utf-8")
    return path
