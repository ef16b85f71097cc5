"""The study file's contents as typed records (the schema: docs/studies.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

STATS = ("score", "mean", "std", "min", "max", "median", "p1", "p25", "p75", "p99",
         "jitter", "normalised", "flash", "ram", "percent_change", "rate", "value", "power")
KINDS = ("lowest", "highest", "order", "less", "ratio", "change", "untestable")
CAUSES = ("version", "compiler", "configuration", "operation", "clock-memory", "emulation",
          "study-fault", "unexplained")
TABLE_AXES = ("operation", "system", "stat", "state", "hardware")
TABLE_UNITS = ("native", "us", "normalised")
OPERATION_UNITS = ("", "cycles")
NORMALISE = ("", "slowest", "fastest")
MARKS = ("", "lowest", "highest")
MARK_ALONG = ("column", "row")
BETTER = ("", "lower", "higher")
# a ratio's or a change's tolerance where the paper states none (docs/studies.md)
DEFAULT_TOLERANCE = {"score": 0.10, "normalised": 0.10, "flash": 0.10, "ram": 0.10,
                     "std": 0.50, "jitter": 0.50, "percent_change": 0.25}
TOLERANCE = 0.20  # every other statistic: a latency's mean, median, percentile, a rate, ...
DEFAULT_HARDWARE = "default"  # a target's hardware key when the study has one hardware


@dataclass(frozen=True)
class System:
    label: str
    version: str
    port: str = ""  # our port or instance; "" when we have none
    nearest: str = ""  # we run another version: which and why
    unavailable: str = ""  # we cannot run it: why
    profile: str = ""  # the profile this system runs in ("" : the matrix's first)
    # the instance of the study's own version (freertos@V10.2.0), run instead
    # of `port` whenever its tree is given; `port` and `nearest` stand in otherwise
    study_port: str = ""

    @property
    def runnable(self) -> bool:
        return bool(self.port) and not self.unavailable


@dataclass(frozen=True)
class StudyTarget:
    name: str
    hardware: str
    stands_for: str
    power_model: str = ""  # the board whose power.toml prices this target (stat `power`)


@dataclass(frozen=True)
class Matrix:
    profiles: tuple[str, ...]
    bench: str
    loads: tuple[str, ...]
    toolchains: tuple[str, ...]


@dataclass(frozen=True)
class Mapping:
    """The case and series one operation is on one system, and why."""

    case: str
    series: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Operation:
    id: str
    label: str
    case: str = ""
    series: str = ""
    reason: str = ""
    untestable: str = ""
    window: str = ""  # stat `power`: the case's idle window (META idle_windows), "" the case's
    profile: str = ""  # the profile its case is read in ("lowpower"); "" : the system's first
    # the unit its figures are read in where instructions leave out what the
    # paper measured ("cycles": exception entry and exit counted); "" : the run's
    unit: str = ""
    # (system label, its own case): the operation is another object there
    per_system: tuple[tuple[str, Mapping], ...] = ()

    def mapping(self, system: str) -> Mapping:
        """This system's case and series: its own, else the operation's."""
        return dict(self.per_system).get(system, Mapping(self.case, self.series, self.reason))

    @property
    def cases(self) -> tuple[str, ...]:
        """Every case the operation reads, its own first."""
        return tuple(dict.fromkeys(c for c in (self.case, *(m.case for _, m in self.per_system))
                                   if c))


@dataclass(frozen=True)
class Figure:
    operation: str
    system: str
    stat: str
    value: float
    unit: str
    source: str
    hardware: str
    state: str = "idle"
    note: str = ""


@dataclass(frozen=True)
class Rerun:
    """A confirming re-run with one cause removed (exactly one kind set)."""

    source: str = ""  # PORT@VERSION: the study's version
    unit: str = ""  # "cycles": our counter as the board's cycles
    cycle_ws: int | None = None  # the cycle model's flash wait states
    profile: str = ""
    toolchain: str = ""

    @property
    def kind(self) -> str:
        for name in ("source", "unit", "profile", "toolchain"):
            if getattr(self, name):
                return name
        return ""


@dataclass(frozen=True)
class Operand:
    """One side of a finding across operations: a system's figure of one
    operation ("RIOT's malloc" against "µC/OS-II's OSMemGet")."""

    system: str
    operation: str
    stat: str = ""  # "" : the finding's stat, else the operation's natural one

    def label(self) -> str:
        return f"{self.system} {self.operation}" + (f" ({self.stat})" if self.stat else "")


@dataclass(frozen=True)
class Finding:
    id: str
    text: str
    source: str
    kind: str
    operations: tuple[str, ...] = ()
    system: str = ""
    systems: tuple[str, ...] = ()
    stat: str = ""
    better: str = ""
    value: float | None = None
    tolerance: float | None = None  # None: DEFAULT_TOLERANCE of the stat
    margin: float | None = None  # the paper's own stated margin, a fraction of the figure
    from_state: str = "idle"
    to_state: str = ""
    direction: str = ""
    hardware: str = ""
    why: str = ""
    cause: str = ""
    cause_text: str = ""
    quote: str = ""  # the paper's words that state the cause's mechanism
    citation: str = ""  # the paper's words the cause rests on that state no mechanism
    emulation: str = ""  # where emulation cannot answer ("" : derived from the cases)
    trivial: str = ""  # why the claim holds by construction under emulation (not a reproduction)
    rerun: Rerun | None = None
    left: Operand | None = None  # less / ratio across operations: left < right, left / right
    right: Operand | None = None

    @property
    def operands(self) -> tuple[Operand, ...]:
        return tuple(x for x in (self.left, self.right) if x is not None)

    def tolerance_for(self, stat: str) -> float:
        """The finding's own tolerance, else the default of its statistic."""
        if self.tolerance is not None:
            return self.tolerance
        return DEFAULT_TOLERANCE.get(stat, TOLERANCE)


@dataclass(frozen=True)
class Table:
    id: str
    title: str
    rows: str = "operation"
    columns: str = "system"
    operations: tuple[str, ...] = ()
    systems: tuple[str, ...] = ()
    stats: tuple[str, ...] = ("score",)
    units: tuple[str, ...] = ("native",)
    normalise: str = ""
    mark: str = ""
    mark_along: str = "column"  # the lowest/highest marked in each column, or each row
    states: tuple[str, ...] = ("idle",)
    hardware: str = ""


@dataclass(frozen=True)
class Study:
    name: str
    title: str
    authors: str
    year: int
    seed: str
    hardware: str
    clock_hz: int
    summary: str
    conditions: dict[str, str]
    systems: tuple[System, ...]
    targets: tuple[StudyTarget, ...]
    matrix: Matrix
    operations: tuple[Operation, ...]
    figures: tuple[Figure, ...]
    findings: tuple[Finding, ...]
    tables: tuple[Table, ...]
    file: Path
    params: dict[str, dict[str, int]] = field(default_factory=dict)

    def system(self, label: str) -> System:
        return next(s for s in self.systems if s.label == label)

    def operation(self, op_id: str) -> Operation:
        return next(o for o in self.operations if o.id == op_id)

    @property
    def hardware_keys(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.hardware for t in self.targets))
