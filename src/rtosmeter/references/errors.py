"""The error arithmetic: per reference, ours (instructions, estimated
cycles, cycles as on the board) beside the published figure, their ratio,
and the mean absolute error of the ratios per core and per kind."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rtosmeter.references.model import Reference

if TYPE_CHECKING:
    from rtosmeter.model import RunView


@dataclass(frozen=True)
class Compared:
    """One reference with ours; `why` says why a figure of ours is missing."""

    ref: Reference
    instructions: float | None = None
    cycles: float | None = None
    board_cycles: float | None = None
    board: str = ""  # the board the estimate is as on ("" none)
    board_clock_hz: int = 0
    why: str = ""

    @property
    def estimate(self) -> float | None:
        """Ours as compared: the board's estimate if there is one, else the
        core's cycles, times the reference's scale."""
        value = self.board_cycles if self.board_cycles is not None else self.cycles
        return None if value is None else value * self.ref.scale

    @property
    def ratio(self) -> float | None:
        """Ours / theirs: 1.0 is exact, 0.5 ours half of theirs."""
        est = self.estimate
        return None if est is None else est / self.ref.published_cycles

    @property
    def board_us(self) -> float | None:
        if self.board_cycles is None or not self.board_clock_hz:
            return None
        return self.board_cycles * self.ref.scale / self.board_clock_hz * 1e6


def our_figure(views: list[RunView], ref: Reference) -> tuple[float | None, str]:
    """Our figure in the latest of the runs that has it (with a caution when
    its case's check failed), or why none has (the latest run's reason)."""
    reasons = []
    for view in views:
        value, why = figure_in(view, ref)
        if value is not None:
            return value, why
        reasons.append(why)
    return None, reasons[0] if reasons else "not run"


def figure_in(view: RunView, ref: Reference) -> tuple[float | None, str]:
    """Our figure in one run (the series' mean, or a count's cycles per
    pass), or why there is none."""
    for case in view.cases:
        if (case.port, case.target, case.case_id) != (ref.port, ref.qemu_target, ref.case):
            continue
        failed = f"{case.case_id} {case.status}: {case.reason}".rstrip(": ")
        if ref.figure == "per_iteration" and case.status in ("ok", "failed"):
            # a failed check keeps its count, marked (as `rtosmeter report` does)
            if case.per_iteration is None:
                return None, f"{ref.case} has no count per period in this unit"
            return case.per_iteration, failed if case.status == "failed" else ""
        if case.status != "ok":
            return None, failed
        for dist in case.distributions:
            if dist.series == ref.series or not ref.series:
                value = float(dist.mean)
                return (None, "no samples") if math.isnan(value) else (value, "")
        return None, f"{ref.case} has no series '{ref.series}'"
    build = next((b for b in view.builds if (b.port, b.target) == (ref.port, ref.qemu_target)
                  and b.status != "ok"), None)
    if build is not None:
        return None, f"{build.status}: {build.error}"
    return None, f"{ref.case} not in run {view.run_id}"


def absolute_errors(rows: list[Compared], key: str) -> dict[str, tuple[float, int]]:
    """Mean |ratio - 1| in % and the count of references, per value of
    `key` ("core", "kind", or "all")."""
    groups: dict[str, list[float]] = {}
    for row in rows:
        if row.ratio is None:
            continue
        name = "all" if key == "all" else str(getattr(row.ref, key))
        groups.setdefault(name, []).append(abs(row.ratio - 1) * 100)
    return {k: (sum(v) / len(v), len(v)) for k, v in sorted(groups.items())}
