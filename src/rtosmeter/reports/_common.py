"""What the text formats share: the sections of a report as rows of cells.

`sections()` builds the titled tables once; table.py draws them with rich
and markdown.py as GitHub tables. The report reads as a comparison: one
table per target and family, one row per (case, series), one column per
compared system (port, or port/profile, and the toolchain with its compiler
version when toolchains differ), so ports stand side by side.
`statistics_sections()` adds the full per-series statistics (Markdown).
`records()` is the flat schema of docs/results-schema.md, written by csv.py
and json.py.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from rtosmeter import axes, stats
from rtosmeter.analysis import (
    CALIB_CASE,
    FLOOR_CASE,
    FLOOR_CHECK,
    FLOOR_PORT,
    Normalised,
    build_name,
    family,
    floor_checks,
    is_interrupt_rate,
    normalise_throughput,
    not_run_here,
    system,
)
from rtosmeter.instances import sort_key
from rtosmeter.model import (
    FAIL_MARK,
    NOT_MEANINGFUL,
    SETTING_MARK,
    STAND_IN_MARK,
    WARN_MARK,
    BuildInfo,
    CaseResult,
    CaseStatus,
    Check,
    Distribution,
    Footprint,
    RunView,
    Unit,
    stand_in_text,
)
from rtosmeter.reports._answer import HEAP_KEY, answers, glance_rows, heap_of, sentences
from rtosmeter.reports._ram import COMPARED
from rtosmeter.reports._ram import breakdown as ram_breakdown

SCHEMA_VERSION = 1
STAT_NAMES = [s.name for s in stats.STATISTICS]

RESULT_FIELDS = (
    "run_id", "port", "target", "profile", "group", "case_id", "family", "status", "reason",
    "series", "what", "unit", "deterministic", *STAT_NAMES, "overhead",
    "score", "percent_of_best", "multiple_of_slowest", "per_iteration", "checks_failed",
    "stand_in", "warnings", "toolchain", "compiler",
)

EMULATION_NOTE = ("Emulated (QEMU icount): exception entry and exit cost no virtual time, so "
                  "interrupt latencies are code-path lengths, not hardware latencies.")


@dataclass(frozen=True)
class Cell:
    """One table cell of every format: a main figure, an optional secondary
    one shown small (dim in the terminal, <sub> in Markdown), and a flag:
    "fail" marks a result whose property check failed or that did not finish
    (its figure stays, marked ✗); "dim" a cell with no figure (unsupported)
    or a figure to read with care; "best" the best of its row.

    `title` (detail on hover), `span` (columns covered) and `kind` (what the
    cell holds, for formats that style it: "what", "text", a tint "up1".."up3",
    "first" of a group) are for the HTML; the text formats leave them out."""

    text: str
    sub: str = ""
    flag: str = ""
    title: str = ""
    span: int = 1
    kind: str = ""

    def plain(self) -> str:
        mark = f"{FAIL_MARK} " if self.flag == "fail" else ""
        return mark + self.text + (f" ({self.sub})" if self.sub else "")


Value = str | Cell


@dataclass
class Section:
    """A titled table of every format: the first cell of a row labels it."""

    title: str
    headers: list[str]
    rows: list[list[Value]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    numeric: int = 0  # columns from this index on are right-aligned
    # per row, what it is, for formats that style rows (HTML: differs,
    # identity, specific, alone, check-failed); empty: nothing to say
    kinds: list[str] = field(default_factory=list)
    lead: int = 0  # the first `lead` notes are the headline (the answer's rankings)

    def add(self, row: list[Value], kind: str = "") -> None:
        if kind and not self.kinds:
            self.kinds = [""] * len(self.rows)
        if self.kinds:
            self.kinds.append(kind)
        self.rows.append(row)


def fmt(x: float | int | None) -> str:
    """A figure to 4-5 significant digits; "-" for a missing one."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if isinstance(x, int) or float(x).is_integer():
        return f"{int(x):,}"
    a = abs(x)
    if a >= 100:
        return f"{x:,.0f}"
    if a >= 10:
        return f"{x:.1f}"
    if a >= 1:
        return f"{x:.2f}"
    return f"{x:.3g}"


def title(view: RunView) -> str:
    finished = f", finished {view.finished}" if view.finished else ""
    return f"rtosmeter run {view.run_id} ({view.status}), started {view.started}{finished}"


# ---- the compared systems of one target --------------------------------------


@dataclass
class Systems:
    """The systems compared on one target, in a stable order, with short
    column labels: the port, then the profile and each axis (toolchain) that
    differs among them; a toolchain with its compiler's version, so the
    compiler stands at every number ("freertos/clang 14.0.6")."""

    target: str
    keys: list[str]  # "port/target/profile" and the axes' suffix (analysis.system)
    labels: dict[str, str]

    @classmethod
    def of(cls, target: str, items: Iterable[CaseResult | Footprint]) -> Systems:
        found = {system(c): c for c in items if c.target == target}
        # bare metal first: it is the floor the others are read against
        keys = sorted(found, key=lambda k: (found[k].port != FLOOR_PORT, sort_key(found[k].port),
                                            found[k].profile, axes.order(found[k].axes)))
        varying = {name for name in ("profile", *axes.AXES)
                   if len({_coordinate(found[k], name) for k in keys}) > 1}
        labels = {k: "/".join([found[k].port, *(_coordinate(found[k], n, True) for n in
                                               ("profile", *axes.AXES) if n in varying)])
                  for k in keys}
        return cls(target, keys, labels)

    @property
    def headers(self) -> list[str]:
        return [self.labels[k] for k in self.keys]


def _coordinate(item: CaseResult | Footprint, name: str, label: bool = False) -> str:
    """A system's profile or axis value; as a label, the toolchain with its
    compiler's version ("clang 14.0.6")."""
    if name == "profile":
        return item.profile
    if label and name == "toolchain" and item.compiler:
        return item.compiler
    return axes.complete(item.axes)[name]


def _targets(cases: Iterable[CaseResult]) -> list[str]:
    return sorted({c.target for c in cases})


def _flag(case: CaseResult) -> str:
    return "" if case.status == CaseStatus.OK else "fail"


def _empty(case: CaseResult | None) -> Cell:
    if case is None:
        return Cell("")
    if case.status == CaseStatus.UNSUPPORTED:
        return Cell(CaseStatus.UNSUPPORTED, flag="dim")
    if case.timing_void and case.status == CaseStatus.OK:
        return Cell(NOT_MEANINGFUL, case.timing_void, flag="dim")
    return Cell(case.status, flag="fail")


# ---- throughput ----------------------------------------------------------------


def _build_of(view: RunView, key: str) -> BuildInfo | None:
    return next((b for b in view.builds if build_name(b) == key), None)


def _number(config: dict[str, str], key: str) -> float | None:
    try:
        value = float(config.get(key, ""))
    except ValueError:
        return None
    return value if value > 0 else None


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


def marked(text: str, case: CaseResult) -> str:
    """A figure with the stand-in mark when it depends on one, and the
    warning mark when a warning is about it; no figure at all where the
    case's timings are not meaningful (analysis._void_timings)."""
    if case.timing_void:
        return NOT_MEANINGFUL
    marks = STAND_IN_MARK * bool(case.stand_ins) + WARN_MARK * bool(case.warned)
    return f"{text} {marks}" if marks else text


def stand_in_notes(cases: Iterable[CaseResult]) -> list[str]:
    """One note per system and stand-in, and per warning, for the table that
    shows the marks."""
    cases = list(cases)
    notes = dict.fromkeys(f"{STAND_IN_MARK} {system(c)}: {cap} measured as {what}"
                          for c in cases for cap, what in sorted(c.stand_ins.items()))
    notes.update(dict.fromkeys(f"{WARN_MARK} {system(c)} {c.case_id}: {w}"
                               for c in cases for w in c.warned))
    return list(notes)


PER_ITERATION_SHORT = "/it"


def throughput_cell(case: CaseResult | None, norm: Normalised | None) -> Cell:
    """A count, its % of the best and multiple of the slowest (analysis), marks."""
    if case is None or case.score is None:
        return _empty(case)
    if case.status != CaseStatus.OK:  # the count stays visible; the failure is marked
        failed = [k.name for k in case.checks if not k.ok]
        return Cell(marked(fmt(case.score), case), "check failed: " + ", ".join(failed)
                    if failed else case.status, "fail")
    parts = ([f"{norm.percent_of_best:.1f} % · {norm.multiple_of_slowest:.2f}x"]
             if norm is not None else [])
    if case.per_iteration is not None:
        parts.append(f"{fmt(case.per_iteration)}{PER_ITERATION_SHORT}")
    return Cell(marked(fmt(case.score), case), " · ".join(parts))


def throughput_section(view: RunView, target: str) -> Section | None:
    tm = [c for c in view.cases if c.target == target and family(c) == "throughput"]
    if not any(c.score is not None or c.status not in (CaseStatus.OK, CaseStatus.UNSUPPORTED)
               for c in tm):
        return None
    sys_ = Systems.of(target, tm)
    norm = {(n.system, n.case_id): n for n in normalise_throughput(tm)}
    by = {(system(c), c.case_id): c for c in tm}
    periods = {k: period_text(_build_of(view, k)) for k in sys_.keys}
    same = len(set(periods.values())) == 1
    head = f"per period of {next(iter(periods.values()))}" if same else "per period"
    per_it = next((c.per_iteration_unit for c in tm if c.per_iteration is not None), "")
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
    sec.notes += stand_in_notes(tm)
    if per_it:
        sec.notes.append(f"{PER_ITERATION_SHORT}: the period in {per_it} divided by the "
                         "count: what one loop iteration costs, kernel and benchmark together.")
    sec.notes.append("Only systems on the same target are compared; a failed case keeps its "
                     f"count, marked {FAIL_MARK}, and is left out of the normalisation.")
    return sec


# ---- checks --------------------------------------------------------------------


def _check_cell(k: Check) -> Cell:
    """within-1 checks report the largest deviation as `got` (the spread)."""
    if "within_1" in k.name:
        return Cell(("yes" if k.ok else "no") + f" (spread {k.got})", flag="" if k.ok else "fail")
    return Cell("yes" if k.ok else f"no (got {k.got}, want {k.want})",
                flag="" if k.ok else "fail")


def _floor_row(view: RunView, target: str, sys_: Systems) -> list[Value] | None:
    cals = {c.system: c for c in floor_checks(view.cases) if c.target == target}
    basic = {system(c): c for c in view.cases
             if c.target == target and c.case_id == FLOOR_CASE}
    if not cals:
        return None
    cells: list[Value] = []
    for k in sys_.keys:
        cal = cals.get(k)
        if cal is not None:
            flag = "fail" if cal.ok is False else ("dim" if cal.ok is None else "")
            cells.append(Cell(cal.describe(), flag=flag))
        elif k in basic and basic[k].port == FLOOR_PORT and basic[k].score is not None:
            cells.append(Cell("the floor", flag="dim"))
        else:
            cells.append(Cell(""))
    return [FLOOR_CASE, "within 1 % of bare metal", *cells]


def checks_section(view: RunView, target: str) -> Section | None:
    """Every property check, side by side: throughput first (the
    Thread-Metric "deterministic scheduler" checks), then the others; and the
    tm.basic floor check against bare metal (BENCHMARKS.md)."""
    cases = [c for c in view.cases if c.target == target]
    sys_ = Systems.of(target, cases)
    by = {(system(c), c.case_id): c for c in cases}
    names: dict[tuple[str, str], None] = {}
    for c in sorted(cases, key=lambda c: (family(c) != "throughput", c.case_id)):
        for k in c.checks:
            if k.name != FLOOR_CHECK:
                names.setdefault((c.case_id, k.name))
    sec = Section(f"Checks on {target} (properties the cases verify; {FAIL_MARK} = failed)",
                  ["case", "check", *sys_.headers])
    for cid, name in names:
        row: list[Value] = [cid, name.replace("_", " ")]
        for key in sys_.keys:
            case = by.get((key, cid))
            chk = next((k for k in case.checks if k.name == name), None) if case else None
            row.append(_check_cell(chk) if chk else _empty(case) if case and not case.checks
                       else Cell(""))
        sec.rows.append(row)
    cal = _floor_row(view, target, sys_)
    if cal is not None:
        sec.rows.append(cal)
        sec.notes.append("tm.basic makes no kernel call: it should score the same on every "
                         "RTOS on one target and compiler; more than 1 % away from bare metal "
                         "is flagged.")
    return sec if sec.rows else None


# ---- latency -------------------------------------------------------------------

_LAYOUT = re.compile(r"^(?P<call>[^@]+)@(?P<n>\d+)(?:/g(?P<gap>\d+))?$")


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
                _flag(case))


def latency_sections(view: RunView, target: str, compact: bool) -> list[Section]:
    cases = [c for c in view.cases if c.target == target and c.case_id != CALIB_CASE
             and family(c) == "latency"]
    by_unit: dict[str, list[CaseResult]] = defaultdict(list)
    for c in cases:
        for label in dict.fromkeys(d.unit.label for d in c.distributions):
            by_unit[label].append(c)
    out = []
    for label in sorted(by_unit):
        measured = by_unit[label]
        sys_ = Systems.of(target, cases)
        by = {(system(c), c.case_id): c for c in cases}
        sec = Section(f"Latency on {target} in {label}: median, p99 in small text (overhead "
                      "subtracted; lower is better)", ["case", "series", *sys_.headers],
                      numeric=2)
        for cid in sorted({c.case_id for c in measured}):
            names = list(dict.fromkeys(d.series for c in measured if c.case_id == cid
                                       for d in c.distributions if d.unit.label == label))
            if compact:
                names, note = compact_series(cid, names)
                if note:
                    sec.notes.append(note)
            for name in names:
                row: list[Value] = [cid, name]
                for key in sys_.keys:
                    case = by.get((key, cid))
                    d = next((d for d in case.distributions if d.series == name
                              and d.unit.label == label), None) if case else None
                    row.append(_latency_cell(case, d) if case and d else
                               Cell("—", flag="dim") if case and case.status == CaseStatus.OK
                               else _empty(case))
                sec.rows.append(row)
        sec.notes += stand_in_notes(measured)
        if any(d.unit.deterministic for c in measured for d in c.distributions):
            sec.notes.append(EMULATION_NOTE)
        out.append(sec)
    return out


# ---- interrupt responsiveness --------------------------------------------------


def _units(view: RunView) -> dict[str, Unit]:
    """system -> the unit of its samples (any series of it says)."""
    out: dict[str, Unit] = {}
    for c in view.cases:
        for d in c.distributions:
            out.setdefault(system(c), d.unit)
    return out


def _meta_int(case: CaseResult, key: str) -> int | None:
    value = case.meta.get(key, "")
    return int(value) if value.isdigit() else None


def interrupt_section(view: RunView, target: str) -> Section | None:
    """irq.max_rate: the highest periodic-interrupt rate with no event lost
    and its inverse, the worst-case response (BENCHMARKS.md section 3)."""
    cases = [c for c in view.cases if c.target == target and is_interrupt_rate(c)]
    if not any(c.status != CaseStatus.UNSUPPORTED for c in cases):
        return None
    sys_ = Systems.of(target, cases)
    units = _units(view)
    sec = Section(f"Interrupt responsiveness on {target} (irq.max_rate: the handler signals "
                  "a task that records each event)", ["figure", *sys_.headers], numeric=1)
    rate: list[Value] = ["highest rate with no lost event (Hz of the target clock)"]
    inverse: list[Value] = ["its inverse: worst-case response"]
    steps: list[Value] = ["rates tried (x1.25 each step)"]
    by = {system(c): c for c in cases}
    for key in sys_.keys:
        c = by.get(key)
        hz, period = (_meta_int(c, "max_rate_hz"), _meta_int(c, "max_rate_period_ticks")) \
            if c else (None, None)
        if c is None or hz is None or period is None:
            cell = _empty(c)
            if c is not None and c.status not in (CaseStatus.OK, CaseStatus.UNSUPPORTED):
                cell = Cell(c.status, c.reason[:60], "fail")
            rate.append(cell)
            inverse.append(Cell(""))
            steps.append(Cell(str(_meta_int(c, "steps") or "")) if c else Cell(""))
            continue
        lower_bound = c.meta.get("loss_found") == "0"  # no loss up to the fastest rate tried
        rate.append(Cell(("≥ " if lower_bound else "") + fmt(hz),
                         "no loss up to the last rate tried" if lower_bound else "", _flag(c)))
        unit = units.get(key)
        inverse.append(Cell(fmt(period * unit.per_tick), f"{fmt(period)} ticks")
                       if unit else Cell(f"{fmt(period)} ticks"))
        steps.append(Cell(str(_meta_int(c, "steps") or "")))
    labels = {units[k].label for k in sys_.keys if k in units}
    if len(labels) == 1:
        inverse[0] = f"{inverse[0]} in {labels.pop()}"
    sec.rows += [rate, inverse, steps]
    if any(u.deterministic for k, u in units.items() if k in sys_.keys):
        sec.notes.append("Under QEMU icount the rate counts events per second of virtual time.")
    return sec


# ---- overhead, footprint -------------------------------------------------------


def overhead_section(view: RunView, target: str) -> Section | None:
    """The measured cost of an empty measurement, per firmware (group)."""
    calib = [c for c in view.cases if c.target == target and c.case_id == CALIB_CASE]
    if not any(c.distributions for c in calib):
        return None
    sys_ = Systems.of(target, calib)
    labels = sorted({d.unit.label for c in calib for d in c.distributions})
    sec = Section(f"Measurement overhead on {target} in {' / '.join(labels)}: median "
                  "subtracted from every interval of the same firmware (p99 small)",
                  ["group", *sys_.headers], numeric=1)
    by = {(system(c), c.group): c for c in calib}
    for group in sorted({c.group for c in calib}):
        row: list[Value] = [group]
        for key in sys_.keys:
            c = by.get((key, group))
            d = c.distributions[0] if c and c.distributions else None
            row.append(Cell(fmt(d.p50), f"p99 {fmt(d.p99)}") if d else Cell(""))
        sec.rows.append(row)
    return sec


def footprint_section(view: RunView, target: str) -> list[Section]:
    """Flash and RAM per firmware, then RAM by part (ram_breakdown_section)."""
    fps = [f for f in view.footprints if f.target == target]
    if not fps:
        return []
    sys_ = Systems.of(target, fps)
    sec = Section(f"Footprint on {target}: Flash bytes (RAM in small text)",
                  ["group", *sys_.headers], numeric=1)
    by: dict[tuple[str, str], Footprint] = {(system(f), f.group): f for f in fps}
    heaps = {k: h for k in sys_.keys if (h := heap_of(_build_of(view, k)))}
    for group in sorted({f.group for f in fps}):
        row: list[Value] = [group]
        for key in sys_.keys:
            f = by.get((key, group))
            mark = f" {SETTING_MARK}" if key in heaps else ""
            row.append(Cell(fmt(f.flash), f"RAM {fmt(f.ram)}{mark}") if f else Cell(""))
        sec.rows.append(row)
    sec.notes += heap_notes(heaps)
    return [sec, ram_breakdown_section(fps, sys_)]


def ram_breakdown_section(fps: list[Footprint], sys_: Systems) -> Section:
    """RAM (and Flash) by part, median firmware per system: what the answer
    compares (the kernel row) apart from what each port sizes for the benchmark."""
    rows, notes = ram_breakdown(fps, sys_.keys, sys_.labels)
    sec = Section(f"RAM on {sys_.target} by part: bytes, median firmware (Flash in small text; "
                  "the answer compares the kernel row)", ["part", *sys_.headers], numeric=1)
    sec.rows = [[label, *(Cell(fmt(c[0]), f"Flash {fmt(c[1])}" if c[1] else "") if c else Cell("")
                          for c in cells)] for label, cells in rows]
    sec.notes = [f"The answer compares the kernel row: {COMPARED}.", *notes]
    return sec


def heap_notes(heaps: dict[str, int]) -> list[str]:
    """Why a RAM figure is large: the heap the port reserves as a static array."""
    return [f"{SETTING_MARK} {key}: the RAM figure holds a {heap:,} B heap ({HEAP_KEY}, a "
            "setting of the profile, not what the kernel needs)" for key, heap in heaps.items()]


# ---- what did not run, and why -------------------------------------------------


def unsupported_section(view: RunView) -> Section | None:
    """One compact list per system: each reason once, with the cases it covers."""
    grouped: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for c in view.cases:
        if c.status == CaseStatus.UNSUPPORTED:
            grouped[system(c)][c.reason or "no reason given"].append(c.case_id)
    if not grouped:
        return None
    sec = Section("Unsupported cases (the port lacks what they need; never a number)",
                  ["system", "reason", "cases"])
    for key in sorted(grouped):
        reasons = sorted(grouped[key].items(), key=lambda rc: (-len(rc[1]), rc[0]))
        for i, (reason, ids) in enumerate(reasons):
            sec.rows.append([key if i == 0 else "", reason, ", ".join(sorted(ids))])
    return sec


def failures_section(view: RunView) -> Section | None:
    sec = Section(f"Failed cases ({FAIL_MARK} in the tables above; figures kept where there "
                  "are any)", ["system", "case", "status", "reason"])
    sec.rows = [[system(c), c.case_id, Cell(c.status, flag="fail"), c.reason]
                for c in sorted(view.cases, key=lambda c: (system(c), c.case_id))
                if c.status not in (CaseStatus.OK, CaseStatus.UNSUPPORTED)]
    return sec if sec.rows else None


def not_run_section(view: RunView) -> Section | None:
    sec = Section("Not run here (stored with the reason; not errors)",
                  ["system", "status", "reason"])
    sec.rows = [[key, status, f"not run here: {reason}"]
                for key, status, reason in not_run_here(view)]
    return sec if sec.rows else None


def errors_section(view: RunView) -> Section | None:
    sec = Section("Errors (build failures, faults, hangs, corrupt streams)", ["error"])
    sec.rows = [[Cell(e, flag="fail")] for e in view.errors]
    return sec if sec.rows else None


# ---- the answer first, and the warnings -----------------------------------------


def answer_sections(view: RunView) -> list[Section]:
    """Per target: who is fastest at what and by how much (_answer), as a
    table of the compared systems with the headline sentences as notes."""
    out = []
    for a in answers(view):
        sec = Section(f"The answer on {a.target}", ["", *(a.labels[k] for k in a.systems)],
                      numeric=1)
        for label, cells in glance_rows(a):
            sec.add([label, *(Cell(c.removeprefix(FAIL_MARK).strip(), flag="fail")
                              if c.startswith(FAIL_MARK) else Cell(c) for c in cells)])
        sec.notes = sentences(a)
        sec.lead = len(a.rankings) + sum(len(r) for _, r in a.per_profile)
        out.append(sec)
    return out


def warnings_section(view: RunView) -> Section | None:
    """Every warning (QEMU guest errors, outliers, thin percentiles, drift)."""
    sec = Section(f"Warnings ({WARN_MARK} at the figures: read them with care; the run did "
                  "not fail)", ["system", "case", "kind", "warning"])
    sec.rows = [[w.system, w.case_id or "(whole firmware)", w.kind, w.text]
                for w in sorted(view.warnings, key=lambda w: (w.system, w.kind, w.case_id))]
    return sec if sec.rows else None


# ---- the report ----------------------------------------------------------------


def target_sections(view: RunView, target: str, compact: bool) -> list[Section]:
    builders: list[Callable[[], Section | list[Section] | None]] = [
        lambda: throughput_section(view, target),
        lambda: checks_section(view, target),
        lambda: latency_sections(view, target, compact),
        lambda: interrupt_section(view, target),
        lambda: overhead_section(view, target),
        lambda: footprint_section(view, target),
    ]
    out: list[Section] = []
    for build in builders:
        got = build()
        out += got if isinstance(got, list) else [got] if got is not None else []
    return out


def sections(view: RunView, compact: bool = True) -> list[Section]:
    """The comparison, target by target, then what did not run or failed.

    `compact` (the terminal) shows a subset of the lat.thread.lifecycle
    layouts (compact_series); the other formats keep them all.
    """
    out: list[Section] = []
    targets = _targets(view.cases) + sorted({f.target for f in view.footprints}
                                            - {c.target for c in view.cases})
    for target in targets:
        out += target_sections(view, target, compact)
    for extra in (warnings_section(view), unsupported_section(view), failures_section(view),
                  not_run_section(view), errors_section(view)):
        if extra is not None:
            out.append(extra)
    return out


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
            sec.rows.append([system(c), cid, Cell(d.series, flag=_flag(c)), *cells])
        if thin:
            sec.notes.append(THIN_NOTE)
        out.append(sec)
    counts = Section("Counts per period (every counter of every case)",
                     ["system", "case", "counter", "periods", "mean", "min", "max", "values"],
                     numeric=3)
    for c in sorted(view.cases, key=lambda c: (c.target, c.case_id, system(c))):
        for name, values in c.counts.items():
            counts.rows.append([system(c), c.case_id, Cell(name, flag=_flag(c)),
                                fmt(len(values)), fmt(sum(values) / len(values)),
                                fmt(min(values)), fmt(max(values)),
                                " ".join(str(v) for v in values[:12])
                                + (" …" if len(values) > 12 else "")])
    return out + ([counts] if counts.rows else [])


# ---- flat records (CSV / JSON) ---------------------------------------------


def _num(x: float | int | None) -> float | int | None:
    if x is None or (isinstance(x, float) and (math.isnan(x) or math.isinf(x))):
        return None
    return x


def records(view: RunView) -> list[dict[str, Any]]:
    """One record per (port, target, profile, case, series); see docs/results-schema.md."""
    norm = {(n.system, n.case_id): n for n in normalise_throughput(view.cases)}
    out: list[dict[str, Any]] = []
    for c in view.cases:
        base: dict[str, Any] = {k: None for k in RESULT_FIELDS}
        base.update(run_id=view.run_id, port=c.port, target=c.target, profile=c.profile,
                    group=c.group, case_id=c.case_id, family=family(c), status=c.status,
                    reason=c.reason, series="", what="", unit="",
                    checks_failed=sum(1 for k in c.checks if not k.ok),
                    stand_in=stand_in_text(c), warnings="; ".join(c.warned),
                    toolchain=axes.complete(c.axes)["toolchain"], compiler=c.compiler)
        rows = []
        for d in c.distributions:
            r = dict(base)
            r.update(series=d.series, what=d.what, unit=d.unit.label,
                     deterministic=d.unit.deterministic, overhead=_num(d.overhead),
                     **{k: _num(getattr(d, k)) for k in STAT_NAMES})
            rows.append(r)
        for name, values in c.counts.items():
            r = dict(base)
            n = len(values)
            mean = sum(values) / n if n else math.nan
            std = (math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
                   if n > 1 else math.nan)
            r.update(series=name, what="count per period", unit="count per period",
                     deterministic=None, n=n, mean=_num(mean), std=_num(std),
                     min=min(values) if values else None, max=max(values) if values else None,
                     jitter=(max(values) - min(values)) if values else None)
            nm = norm.get((system(c), c.case_id))
            if name == "total" and nm is not None:
                r.update(score=nm.score, percent_of_best=_num(nm.percent_of_best),
                         multiple_of_slowest=_num(nm.multiple_of_slowest),
                         per_iteration=_num(c.per_iteration))
            rows.append(r)
        out += rows or [base]
    return out
