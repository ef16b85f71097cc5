"""The analysed view of a stored run: what every report format renders.

`analysis.load_run()` builds these from the raw rows of the store; reports
only read them. All latency figures are already converted to `unit` and have
the measurement overhead subtracted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rtosmeter.energy.view import EnergyFigure

from rtosmeter.idle.figures import IdleFigures

FAIL_MARK = "✗"  # a failed result, in every format


class CaseStatus(StrEnum):
    """A case's outcome (docs/results-schema.md); equal to its stored text."""

    OK = "ok"
    UNSUPPORTED = "unsupported"  # the port lacks a capability: a reason, never a number
    FAILED = "failed"  # ran; the case or a property check failed (a finding)
    INCOMPLETE = "incomplete"  # the stream ended or the next case began without END
    ERROR = "error"  # a record of the case was corrupt or out of order


class BuildStatus(StrEnum):
    """A (port, target, profile) combination's build; the last two: not run here."""

    OK = "ok"
    FAILED = "failed"
    UNSUPPORTED = "unsupported"  # the port is not made for the target
    SKIPPED = "skipped"  # a tool or RTOS tree is missing here (if_available)


@dataclass(frozen=True)
class Unit:
    """A measurement unit and where it came from, e.g.
    "instructions (QEMU icount)", "ns (host clock)", "cycles (DWT)"."""

    label: str
    per_tick: float  # value in this unit = counter ticks * per_tick
    deterministic: bool  # exact under emulation (icount) or a noisy clock
    emulated: bool = False  # counted by an emulator (QEMU), with or without icount


@dataclass(frozen=True)
class Summary:
    """Figures of one series; NaN where there are too few samples (stats.py)."""

    n: int  # samples in the distribution (cold one excluded)
    cold: float
    mean: float
    std: float
    min: float
    p1: float
    p25: float
    p50: float
    p75: float
    p99: float
    max: float
    jitter: float  # max - min


@dataclass(frozen=True, kw_only=True)
class Distribution(Summary):
    """Statistics of one interval series (cold first sample excluded), in `unit`."""

    series: str
    what: str
    unit: Unit
    overhead: float  # what was subtracted from every sample, in `unit`
    # The warm samples in `unit` (overhead subtracted), kept only when asked
    # for (analysis.load_run(keep_samples=True): compare's tests need them).
    values: Any = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    got: int
    want: int


@dataclass
class CaseResult:
    port: str
    target: str
    profile: str
    group: str
    case_id: str
    status: str  # a CaseStatus
    reason: str = ""
    distributions: list[Distribution] = field(default_factory=list)
    counts: dict[str, list[int]] = field(default_factory=dict)  # name -> per period
    checks: list[Check] = field(default_factory=list)
    meta: dict[str, str] = field(default_factory=dict)
    # What the port measured in place of a capability the case needs, by the
    # capability's name (the stream's CFG stand_in.<CAP>): shown at the number.
    stand_ins: dict[str, str] = field(default_factory=dict)
    # Why this execution's timings mean nothing (its stream's CFG `timing`,
    # e.g. Zephyr's native_sim, where time stands still while code runs), or
    # "": the case is then a functional check, its figures "not meaningful".
    timing_void: str = ""
    # Throughput under deterministic emulation: the period in the unit (e.g.
    # instructions) divided by the count, so harness cost stays visible.
    per_iteration: float | None = None
    per_iteration_unit: str = ""
    period_ms: float | None = None  # throughput: the measurement period (HELLO tm_period_ms)
    # Warnings about this case's figures (run_warnings.case_warnings): ⚠ at the number.
    warned: list[str] = field(default_factory=list)
    # The coordinates beyond port/target/profile (rtosmeter.axes: toolchain),
    # and the compiler that built it with its version ("clang 14.0.6").
    axes: dict[str, str] = field(default_factory=dict)
    compiler: str = ""

    @property
    def score(self) -> float | None:
        """Throughput: mean count per period of the `total` counter."""
        total = self.counts.get("total")
        return sum(total) / len(total) if total else None


NOT_MEANINGFUL = "not meaningful"  # in place of every figure of such a case

STAND_IN_MARK = "†"  # beside every figure that depends on a stand-in
WARN_MARK = "⚠"  # beside every figure (or system) a warning is about
SETTING_MARK = "‡"  # beside a figure that an unusual setting inflates (a heap's size)


def stand_in_text(case: CaseResult) -> str:
    """"POOL measured as <what>; ..." for a case with stand-ins, else ""."""
    return "; ".join(f"{cap} measured as {what}" for cap, what in sorted(case.stand_ins.items()))


@dataclass(frozen=True)
class Footprint:
    """Bytes of one firmware, split by origin (kernel, benchmark, libc, startup...)."""

    port: str
    target: str
    profile: str
    group: str
    flash: int
    ram: int
    parts: dict[str, tuple[int, int]]  # origin -> (flash, ram)
    axes: dict[str, str] = field(default_factory=dict)  # as CaseResult's
    compiler: str = ""
    # Its port declared its stacks, heaps/pools and object slots (port.toml
    # [footprint]), so `parts` holds them apart from the kernel's own RAM.
    declared: bool = False
    reserved: list[tuple[str, str, int]] = field(default_factory=list)  # (symbol, part, RAM)


@dataclass
class BuildInfo:
    port: str
    target: str
    profile: str
    status: str
    error: str
    config: dict[str, str]  # build flags, compiler, RTOS version + the stream's CFG
    runner: dict[str, str]  # runner, QEMU version/command, icount shift, unit
    axes: dict[str, str] = field(default_factory=dict)  # as CaseResult's


@dataclass(frozen=True)
class RunWarning:
    """Something to read with care that did not fail the run: QEMU guest
    errors of an execution, an outlier, a percentile from too few samples,
    a throughput count that drifts between periods (rtosmeter.run_warnings)."""

    system: str  # "port/target/profile"
    case_id: str  # "" when it is about a whole execution (group)
    kind: str  # guest-error | clock | outlier | few-samples | drift
    text: str
    group: str = ""  # the execution's group (guest-error, clock)
    messages: tuple[tuple[str, int], ...] = ()  # guest-error: (QEMU's message, count)


@dataclass(frozen=True)
class AttributedSeries:
    """One series' attribution (run --attribute): its functions' totals over
    every sample, largest first, as the store's `attribution` table holds
    them (`rtosmeter explain` gives the whole breakdown)."""

    system: str
    case_id: str
    series: str
    group: str
    samples: int
    total: int  # the samples' sum: what the functions' counts add up to
    # (function, instructions, estimated cycles or None, calls)
    functions: tuple[tuple[str, int, int | None, int], ...]


@dataclass
class RunView:
    run_id: int
    started: str
    finished: str
    status: str
    campaign: dict[str, object]
    host: dict[str, str]
    builds: list[BuildInfo]
    cases: list[CaseResult]
    footprints: list[Footprint]
    errors: list[str]  # execution-level problems (faults, hangs, corrupt streams)
    warnings: list[RunWarning] = field(default_factory=list)
    idle: list[tuple[str, IdleFigures]] = field(default_factory=list)  # (system, figures)
    energy: list[EnergyFigure] = field(default_factory=list)  # measured and estimated
    attribution: list[AttributedSeries] = field(default_factory=list)  # run --attribute
