"""The load view of the report (`rtosmeter report RUN --view load`):
behaviour under load and the application benchmarks.

Every figure of a loaded build (profile `<profile>+<load>`, rtosmeter.loads)
is shown as its change against the same case of the same port, target and
profile idle, in percent: for Thread-Metric the count per period (the 2019
study's table: tests x load profile x RTOS; negative is a loss), for latency
the median of each series (positive is slower; the max's change beside it).
Then app.sampling (highest rate with no lost sample, handler time, idle
time) and app.schedulability (Hartstone breakdown utilisation per series and
experiment) per system.
"""

from __future__ import annotations

from collections.abc import Iterable

from rtosmeter.loads import IDLE, split
from rtosmeter.model import STAND_IN_MARK, CaseResult, CaseStatus, Distribution, RunView
from rtosmeter.numbers import whole_or_none
from rtosmeter.reports.document.cells import Cell, Section, Value, fmt
from rtosmeter.vocabulary import family

SAMPLING = "app.sampling"
SCHEDULABILITY = "app.schedulability"
HARTSTONE = (("ph", "frequency"), ("ph", "workload"), ("ph", "tasks"), ("pn", "workload"),
             ("ah", "workload"), ("sh", "workload"))
SAMPLING_RATES = (1000, 10000)  # the listed rates whose handler and idle time are shown

Key = tuple[str, str, str, str]  # port, target, base profile, case id


def _key(c: CaseResult) -> Key:
    return c.port, c.target, split(c.profile)[0], c.case_id


def change(loaded: float, idle: float) -> float | None:
    """(loaded - idle) / idle in percent; None without an idle figure."""
    return (loaded - idle) / idle * 100.0 if idle else None


def pct(x: float | None) -> str:
    return "-" if x is None else f"{x:+.1f} %"


def _marks(*cases: CaseResult) -> str:
    """† when a figure rests on a stand-in (model.stand_in_text says which)."""
    return STAND_IN_MARK if any(c.stand_ins for c in cases) else ""


def _loads(cases: Iterable[CaseResult]) -> list[str]:
    return sorted({split(c.profile)[1] for c in cases} - {IDLE})


def _idle_with_loaded(cases: list[CaseResult]) -> dict[Key, CaseResult]:
    """The idle cases that were also run under some load."""
    loaded = {_key(c) for c in cases if split(c.profile)[1] != IDLE}
    return {_key(c): c for c in cases if split(c.profile)[1] == IDLE and _key(c) in loaded}


def _flag(case: CaseResult) -> str:
    return "fail" if case.status != CaseStatus.OK else ""


class Paired:
    """The cases of one family on one target: those idle that also ran
    under a load, the loads, and every case by (key, load)."""

    def __init__(self, view: RunView, target: str, fam: str) -> None:
        cases = [c for c in view.cases if c.target == target and family(c) == fam
                 and not c.case_id.startswith("calib.")]
        self.idle = _idle_with_loaded(cases)
        self.loads = _loads(cases)
        self.by = {(_key(c), split(c.profile)[1]): c for c in cases}

    def ordered(self) -> list[Key]:
        return sorted(self.idle, key=lambda k: (k[3], k[0], k[2]))

    def section(self, title: str, names: list[str]) -> Section:
        """An empty table: the name columns, then one column per load."""
        return Section(title, [*names, *self.loads], numeric=len(names))


def throughput_section(view: RunView, target: str) -> Section | None:
    pairs = Paired(view, target, "throughput")
    sec = pairs.section(f"Thread-Metric under load on {target}: change of the count per "
                        "period against idle (negative: fewer iterations; small: the loaded "
                        "count)", ["case", "port"])
    for key in pairs.ordered():
        base = pairs.idle[key]
        if base.score is None:
            continue
        row: list[Value] = [key[3], key[0] if key[2] == "default" else f"{key[0]}/{key[2]}"]
        for load in pairs.loads:
            c = pairs.by.get((key, load))
            if c is None or c.score is None:
                row.append(Cell(c.status if c else "-", flag="dim"))
                continue
            row.append(Cell(pct(change(c.score, base.score)) + _marks(c, base),
                            fmt(c.score), _flag(c)))
        sec.rows.append(row)
    sec.notes.append("Loads: " + "; ".join(pairs.loads) + " (rtosmeter.loads: rates in Hz of the "
                     "target's time, virtual time under QEMU -icount).")
    return sec if sec.rows else None


def _median_change(d: Distribution, base: Distribution, c: CaseResult) -> Cell:
    """✗ when the loaded case failed (e.g. a net-* load's counts disagreed)."""
    return Cell(pct(change(d.p50, base.p50)) + _marks(c), f"max {pct(change(d.max, base.max))}",
                _flag(c))


def latency_section(view: RunView, target: str) -> Section | None:
    pairs = Paired(view, target, "latency")
    sec = pairs.section(f"Latency under load on {target}: change of the median against idle "
                        "(positive: slower; small: the max's change)", ["case", "series", "port"])
    for key in pairs.ordered():
        for base in pairs.idle[key].distributions:
            row: list[Value] = [key[3], base.series, key[0]]
            for load in pairs.loads:
                c = pairs.by.get((key, load))
                d = next((x for x in c.distributions if x.series == base.series), None) \
                    if c else None
                row.append(_median_change(d, base, c) if d and c else
                           Cell(c.status if c else "-", flag="dim"))
            sec.rows.append(row)
    return sec if sec.rows else None


def _counts_at(case: CaseResult, name: str) -> dict[int, int]:
    """rate_hz -> the count `name` of the same step."""
    rates = case.counts.get("rate_hz", [])
    values = case.counts.get(name, [])
    return dict(zip(rates, values, strict=False))


def _idle_percent(case: CaseResult, hz: int) -> str:
    idle, window = _counts_at(case, "idle_ticks").get(hz), _counts_at(case, "window_ticks").get(hz)
    return f"{idle / window * 100:.1f} %" if idle is not None and window else "-"


def _series(case: CaseResult, name: str) -> Distribution | None:
    return next((d for d in case.distributions if d.series == name), None)


def sampling_section(view: RunView) -> Section | None:
    cases = [c for c in view.cases if c.case_id == SAMPLING]
    if not cases:
        return None
    unit = next((d.unit.label for c in cases for d in c.distributions), "")
    r0 = SAMPLING_RATES[0]
    sec = Section(f"app.sampling: highest rate with no lost sample, handler time ({unit}) "
                  "and idle time per cycle",
                  ["system", "max rate (Hz)", f"handler p50 @{r0} Hz", f"handler max @{r0} Hz",
                   f"end-to-end p50 @{r0} Hz",
                   *(f"idle @{r} Hz" for r in SAMPLING_RATES)], numeric=1)
    for c in sorted(cases, key=lambda c: (c.target, c.port, c.profile)):
        label = f"{c.port}/{c.target}/{c.profile}"
        if c.status == CaseStatus.UNSUPPORTED:
            sec.rows.append([label, Cell(f"unsupported: {c.reason}", flag="dim"), "", "", "",
                             *("" for _ in SAMPLING_RATES)])
            continue
        h, e = _series(c, f"handler.{r0}hz"), _series(c, f"e2e.{r0}hz")
        best = c.meta.get("max_rate_hz", "-")
        bound = "≥ " if c.meta.get("loss_found") == "0" else ""
        sec.rows.append([label, Cell(f"{bound}{best}", flag=_flag(c)),
                         fmt(h.p50) if h else "-", fmt(h.max) if h else "-",
                         fmt(e.p50) if e else "-",
                         *(_idle_percent(c, r) for r in SAMPLING_RATES)])
    sec.notes.append("Idle: the share of the cycle the lowest-priority idle task spent "
                     "looping (no WFI); ≥: no sample lost up to the fastest rate tried.")
    if any(c.meta.get("rate_time") == "estimated" for c in cases):
        sec.notes.append("Under a cycle counter (--unit cycles, --as-board) the max rate is "
                         "samples per second of estimated time (the counter's cycles); the "
                         "timer still sampled in emulated time, at the rates the idle columns "
                         "name (META timer_hz: the best of them).")
    return sec


def _breakdown(c: CaseResult, exp: str) -> str:
    """"92.5 %"; "≥ x %" when nothing missed; "< x %" when the baseline did."""
    bp = whole_or_none(c.meta.get(f"{exp}.breakdown_bp", ""))
    if bp is None:
        return "-"
    if c.meta.get(f"{exp}.broke") == "0":
        return f"≥ {bp / 100:.1f} %"
    first = c.counts.get(f"{exp}.util_bp", [0])[0]
    return f"< {first / 100:.1f} %" if bp == 0 else f"{bp / 100:.1f} %"


def hartstone_section(view: RunView) -> Section | None:
    cases = [c for c in view.cases if c.case_id == SCHEDULABILITY]
    if not cases:
        return None
    sec = Section("app.schedulability (Hartstone): breakdown utilisation, the utilisation "
                  "of the last step with no missed deadline",
                  ["system", *(f"{s} {e}" for s, e in HARTSTONE)], numeric=1)
    for c in sorted(cases, key=lambda c: (c.target, c.port, c.profile)):
        label = f"{c.port}/{c.target}/{c.profile}"
        if c.status == CaseStatus.UNSUPPORTED:
            sec.rows.append([label, *(Cell("unsupported", flag="dim") for _ in HARTSTONE)])
            continue
        row: list[Value] = [label]
        for s, e in HARTSTONE:
            row.append(Cell(_breakdown(c, f"{s}.{e}"), flag=_flag(c)))
        sec.rows.append(row)
    sec.notes.append("ph: harmonic periods, pn: non-harmonic, ah: with an aperiodic task, sh: "
                     "with a shared mutex; ≥: no deadline missed up to the last step (a lower "
                     "bound); <: a deadline missed at the baseline already. Deadlines are "
                     "checked by the tasks against the kernel tick.")
    return sec


def sections(view: RunView) -> list[Section]:
    targets = sorted({c.target for c in view.cases})
    out = [s for t in targets for s in (throughput_section(view, t), latency_section(view, t))
           if s is not None]
    return out + [s for s in (sampling_section(view), hartstone_section(view)) if s is not None]


EMPTY = ("No loaded build and no application benchmark in this run: run with "
         "`--load` (e.g. `--load idle,irq:2000:50`) or `--bench 'app.*'`.")
