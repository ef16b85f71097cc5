"""Our figure for a published one: (operation, system, target, state, stat)
read from analysed runs (analysis.load_run). The unit is the run's own
(instructions under QEMU icount, cycles on a board); a time in µs is only
ever the estimate at the study's clock, labelled so. A system run at another
version than the study's carries VERSION_MARK, a stand-in STAND_IN_MARK."""

from __future__ import annotations

import math
from dataclasses import dataclass

from rtosmeter import axes
from rtosmeter.loads import baseline, profile_name
from rtosmeter.model import (
    FAIL_MARK,
    STAND_IN_MARK,
    CaseResult,
    Distribution,
    RunView,
    stand_in_text,
)
from rtosmeter.studies import power
from rtosmeter.studies.model import Study, System
from rtosmeter.studies.run import port_of, profiles_of, toolchains_of

VERSION_MARK = "§"  # at a number of a system we run at another version (nearest)
SERIES_STATS = {"mean": "mean", "std": "std", "min": "min", "max": "max", "median": "p50",
                "p1": "p1", "p25": "p25", "p75": "p75", "p99": "p99", "jitter": "jitter"}
RATE_META = "max_rate_hz"  # irq.max_rate's result (bench/cases/irq.c), in its META
RATE_STEP = 0.25  # irq.max_rate raises the rate x1.25 a step: rates within a step are one


@dataclass(frozen=True)
class Ours:
    """Our figure, or why there is none (`value` None, `why` said)."""

    value: float | None
    unit: str = ""
    marks: str = ""
    why: str = ""
    emulated: bool = False
    # the smallest difference the figure can show: one count of its counter,
    # one step of a rate ramp; two figures closer than that are a tie
    resolution: float = 0.0

    @property
    def ok(self) -> bool:
        return self.value is not None and not math.isnan(self.value)


def one_each(*marks: str) -> str:
    """Marks at one number, each once whoever brought it ("§" + "§†" is "§†")."""
    return "".join(dict.fromkeys("".join(marks)))


def marks_of(system: System, case: CaseResult | None) -> str:
    return VERSION_MARK * bool(system.nearest) + STAND_IN_MARK * bool(case and case.stand_ins)


def legend(study: Study, cases: list[CaseResult]) -> list[str]:
    """The notes that explain the marks a table shows."""
    notes = [f"{VERSION_MARK} {s.label}: {s.nearest} (the study ran {s.version})"
             for s in study.systems if s.nearest]
    notes += list(dict.fromkeys(f"{STAND_IN_MARK} {c.port}: {stand_in_text(c)}"
                                for c in cases if c.stand_ins))
    notes += list(dict.fromkeys(f"{FAIL_MARK} {c.port} {c.profile} {c.case_id}: {c.status} "
                                f"({_failed_checks(c)}); its count is kept"
                                for c in cases if c.status == "failed"))
    return notes + power.legend(study)


def _failed_checks(case: CaseResult) -> str:
    return "; ".join(f"{k.name}: got {k.got}, want {k.want}" for k in case.checks
                     if not k.ok) or case.reason


class Lookup:
    """Our figures of one study from one run (the matrix's, or a rerun's)."""

    def __init__(self, study: Study, view: RunView | None, rerun_of: str = "",
                 units: dict[str, Lookup] | None = None, unit: str = "") -> None:
        self.study, self.view = study, view
        self.rerun = next((f.rerun for f in study.findings if f.id == rerun_of), None)
        self.units = units or {}  # unit -> the run of the operations read in it
        self.unit = unit or counted_unit(view)  # what this run counts

    def case(self, op_id: str, system: System, target: str, state: str = "idle"
             ) -> CaseResult | None:
        op = self.study.operation(op_id)
        case_id = op.mapping(system.label).case
        if self.view is None or not case_id or not system.runnable:
            return None
        port = port_of(system, self.rerun)
        base = op.profile or profiles_of(self.study, system, self.rerun)[0]
        profile = profile_name(base, state, str(self.study.file))
        toolchain = toolchains_of(self.study, self.rerun)[0]
        for c in self.view.cases:
            if (c.port, c.target, c.profile, c.case_id) == (port, target, profile, case_id) \
                    and axes.complete(c.axes)["toolchain"] == toolchain:
                return c
        return None

    def not_run(self, system: System, target: str) -> str:
        """Why a system has no result on a target (its build's reason)."""
        if system.unavailable:
            return system.unavailable
        if not system.port:
            return "no port"
        port = port_of(system, self.rerun)
        for b in self.view.builds if self.view else []:
            if b.port == port and b.target == target and b.status != "ok":
                return f"{b.status}: {b.error}"
        return "not in the stored run"

    def get(self, op_id: str, system: System, target: str, stat: str, state: str = "idle"
            ) -> Ours:
        """Our figure of one statistic ("score", "mean", ..., "flash")."""
        unit = self.study.operation(op_id).unit
        if unit and unit != self.unit:  # read in its own unit's run (Operation.unit)
            if unit in self.units:
                return self.units[unit].get(op_id, system, target, stat, state)
            return Ours(None, why=f"read in {unit}: no run of the study in {unit} here "
                                  "(`study run` runs it as study:NAME:unit:" + unit + ")")
        if stat == "percent_change":
            return self.percent_change(op_id, system, target, state)
        case = self.case(op_id, system, target, state)
        if case is None:
            return Ours(None, why=self.not_run(system, target))
        failed = f"{case.case_id} {case.status}: {case.reason}".rstrip(": ")
        marks = marks_of(system, case)
        if stat == "score" and case.score is not None and case.status in ("ok", "failed"):
            # a failed check keeps its count (marked), as in `rtosmeter report`
            period = f"{case.period_ms:g} ms" if case.period_ms else "period"
            return Ours(case.score, f"count per {period}",
                        marks + FAIL_MARK * (case.status == "failed"),
                        failed if case.status == "failed" else "", resolution=1.0)
        if case.status != "ok":
            return Ours(None, why=failed)
        if stat in ("flash", "ram"):
            return self.footprint(case, stat, marks)
        if stat == "power":
            est = power.estimated_mw(self.study, self.view, case,
                                     self.study.operation(op_id).window)
            return Ours(est.mw, "mW, estimated", one_each(marks, power.ESTIMATE_MARK), est.why)
        if stat == "rate":
            if RATE_META not in case.meta:
                return Ours(None, why=f"{case.case_id} reports no rate ({RATE_META})")
            rate = float(case.meta[RATE_META])
            return Ours(rate, "Hz (virtual time)", marks, resolution=rate * RATE_STEP)
        if stat in SERIES_STATS:
            return self.series(self.study.operation(op_id).mapping(system.label).series, case,
                               stat, marks)
        return Ours(None, why=f"no figure of ours for the statistic '{stat}'")

    def percent_change(self, op_id: str, system: System, target: str, state: str) -> Ours:
        """The operation's natural figure in `state` against idle (net-idle
        for a network stack's traffic: loads.baseline), in % (Silva's
        "performance degradation" under a network state)."""
        stat = natural_stat(self.study, op_id)
        base = baseline(state, str(self.study.file))
        idle, loaded = (self.get(op_id, system, target, stat, s) for s in (base, state))
        if not idle.ok or not loaded.ok or not idle.value:
            return Ours(None, why=idle.why or loaded.why or "no idle figure")
        assert loaded.value is not None
        marks = "".join(dict.fromkeys(idle.marks + loaded.marks))
        return Ours((loaded.value / idle.value - 1) * 100, "%", marks,
                    resolution=(idle.resolution + loaded.resolution) / idle.value * 100)

    def series(self, name: str, case: CaseResult, stat: str, marks: str) -> Ours:
        found: Distribution | None = next(
            (d for d in case.distributions if d.series == name or not name), None)
        if found is None:
            return Ours(None, why=f"{case.case_id} has no series '{name}'")
        # an emulated count is exact to one count; a host clock's noise is the
        # comparison's business (compare.py), not a resolution
        return Ours(float(getattr(found, SERIES_STATS[stat])), found.unit.label, marks,
                    emulated=found.unit.emulated, resolution=1.0 * found.unit.emulated)

    def footprint(self, case: CaseResult, stat: str, marks: str) -> Ours:
        assert self.view is not None
        for f in self.view.footprints:
            if (f.port, f.target, f.profile, f.group) == (case.port, case.target, case.profile,
                                                          case.group):
                return Ours(float(getattr(f, stat)), "bytes", marks, resolution=1.0)
        return Ours(None, why="no footprint stored")


def counted_unit(view: RunView | None) -> str:
    """"cycles" when the run counted cycles (--unit cycles, --as-board, a
    board's DWT), else "instructions"."""
    units = [b.config.get("unit", "") for b in view.builds if b.status == "ok"] if view else []
    units += [d.unit.label for c in view.cases for d in c.distributions] if view else []
    return "cycles" if any("cycle" in u for u in units) else "instructions"


def natural_stat(study: Study, op_id: str) -> str:
    """A power operation's figure is its power, a throughput one's its
    score, a rate ramp's its rate, a latency one's its mean."""
    case = study.operation(op_id).case
    if any(f.operation == op_id and f.stat == "power" for f in study.figures):
        return "power"
    if case.startswith("tm."):
        return "score"
    return "rate" if case.endswith("max_rate") else "mean"


def estimate_us(value: float, clock_hz: int) -> float:
    """Our count as µs at the study's clock: an estimate (one count per cycle)."""
    return value / clock_hz * 1e6
