"""Thread-Metric scores side by side: each normalised against the others of
its case on its target, and the floor check of every port's tm.basic
against bare metal's ("calibration" is only calib.overhead, the
measurement overhead)."""

from __future__ import annotations

import dataclasses
import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from rtosmeter import axes
from rtosmeter.model import CaseResult, CaseStatus, Check
from rtosmeter.vocabulary import (
    FLOOR_CASE,
    FLOOR_CHECK,
    FLOOR_PORT,
    FLOOR_TOLERANCE,
    family,
    system,
)


@dataclass(frozen=True)
class Normalised:
    """One throughput score against the others of its case on its target."""

    case_id: str
    target: str
    system: str
    score: float
    percent_of_best: float  # best system = 100 %
    multiple_of_slowest: float  # slowest system = 1.0x


def normalise_throughput(cases: Iterable[CaseResult]) -> list[Normalised]:
    """Per (target, case): percent of the best score and multiple of the slowest.

    Scores of different measurement periods compare per ms of the period.
    Only systems on the same target are compared (a host and an emulated
    Cortex-M count in different time bases). Cases without a score (failed,
    unsupported) are left out.
    """
    groups: dict[tuple[str, str], list[CaseResult]] = defaultdict(list)
    for c in cases:
        if c.score is not None and c.status == CaseStatus.OK and family(c) == "throughput":
            groups[(c.target, c.case_id)].append(c)
    out = []
    for (target, case_id), found in sorted(groups.items()):
        # counts of periods of different lengths (profile quick: 20 ms) compare
        # as counts per ms; with the same period (or an unknown one), as counts
        periods = {c.period_ms for c in found}
        per_ms = len(periods) > 1 and None not in periods
        rates = [(c, (c.score or 0.0) / (c.period_ms or 1.0) if per_ms else c.score or 0.0)
                 for c in found]
        best = max(r for _, r in rates)
        slowest = min(r for _, r in rates)
        for c, rate in rates:
            out.append(Normalised(
                case_id, target, system(c), c.score or 0.0,
                100.0 * rate / best if best > 0 else math.nan,
                rate / slowest if slowest > 0 else math.nan))
    return out


@dataclass(frozen=True)
class FloorCheck:
    """One port's tm.basic score against the bare-metal score on the same
    target, profile and axes (same compiler and flags: the fair comparison)."""

    port: str
    target: str
    profile: str
    score: float
    floor: float | None  # None: no bare-metal tm.basic score in this run
    axes: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def system(self) -> str:
        return axes.name(self.port, self.target, self.profile, self.axes)

    @property
    def deviation(self) -> float | None:
        """(score - floor) / floor; None without a floor."""
        if self.floor is None or self.floor <= 0:
            return None
        return (self.score - self.floor) / self.floor

    @property
    def ok(self) -> bool | None:
        dev = self.deviation
        return None if dev is None else abs(dev) <= FLOOR_TOLERANCE

    def describe(self) -> str:
        """"+0.40 % vs bare metal" or "no bare-metal floor in this run"."""
        dev = self.deviation
        if dev is None:
            return "no bare-metal floor in this run"
        return f"{100 * dev:+.2f} % vs bare metal"


def floor_checks(cases: Iterable[CaseResult]) -> list[FloorCheck]:
    """tm.basic of every port but bare metal, against bare metal's tm.basic
    score on the same target and profile (docs/benchmarks.md: the arithmetic loop
    makes no kernel call, so it should score the same everywhere; a port more
    than 1 % away steals time, e.g. with its tick, or was built differently)."""
    basic = [c for c in cases if c.case_id == FLOOR_CASE and c.score is not None]
    floors = {(c.target, c.profile, axes.canonical(c.axes)): c.score for c in basic
              if c.port == FLOOR_PORT and c.status == CaseStatus.OK}
    return [FloorCheck(c.port, c.target, c.profile, c.score or 0.0,
                       floors.get((c.target, c.profile, axes.canonical(c.axes))), c.axes)
            for c in basic if c.port != FLOOR_PORT]


def add_floor_checks(cases: list[CaseResult]) -> None:
    """Append the derived check to each port's tm.basic when a floor exists.

    The check flags the port (reports mark it, csv counts it in
    `checks_failed`) but leaves the case's status alone: the count is still a
    valid measurement of that port.
    """
    by_key = {system(c): c for c in cases if c.case_id == FLOOR_CASE}
    for cal in floor_checks(cases):
        case = by_key[cal.system]
        if cal.floor is None or any(k.name == FLOOR_CHECK for k in case.checks):
            continue
        case.checks.append(Check(FLOOR_CHECK, bool(cal.ok), round(cal.score),
                                 round(cal.floor)))
