"""One line per system of a comparison, before its table: how many figures
rose, fell or stayed, and the geometric mean of B/A over the figures both
sides measured above zero (a figure from 0 has no ratio: counted as new).

A profile comparison (441 rows in the table) is read from these lines first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rtosmeter.compare import Change, Comparison


@dataclass(frozen=True)
class SystemSummary:
    system: str
    figures: int
    higher: int
    lower: int
    same: int
    new: int  # from 0 in A
    latency_ratio: float | None  # geometric mean of B/A, latency figures
    throughput_ratio: float | None  # the same, throughput scores

    def line(self, name_a: str, name_b: str) -> str:
        parts = [f"{self.system}: {self.figures} figures, {self.higher} higher, "
                 f"{self.lower} lower, {self.same} identical"]
        if other := self.figures - self.higher - self.lower - self.same:
            parts.append(f"{other} with the same figure from other samples or not significant")
        if self.new:
            parts.append(f"{self.new} from 0")
        if self.latency_ratio is not None:
            parts.append(f"latency {self.latency_ratio:.3f}x")
        if self.throughput_ratio is not None:
            parts.append(f"throughput {self.throughput_ratio:.3f}x")
        return ", ".join(parts) + f" ({name_b} over {name_a}, geometric mean)"


def _geomean(ratios: list[float]) -> float | None:
    if not ratios:
        return None
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios))


def _ratio(c: Change) -> float | None:
    if not (math.isfinite(c.a) and math.isfinite(c.b)) or c.a <= 0 or c.b <= 0:
        return None
    return c.b / c.a


def per_system(comp: Comparison) -> list[SystemSummary]:
    by_system: dict[str, list[Change]] = {}
    for c in comp.changes:
        by_system.setdefault(c.system, []).append(c)
    out = []
    for system, changes in sorted(by_system.items()):
        moved = [c for c in changes if c.verdict in ("regression", "improvement", "changed")]
        lat = [r for c in changes if c.family == "latency" and (r := _ratio(c)) is not None]
        thr = [r for c in changes if c.family == "throughput" and (r := _ratio(c)) is not None]
        out.append(SystemSummary(
            system, len(changes), sum(c.b > c.a for c in moved), sum(c.b < c.a for c in moved),
            sum(c.verdict == "same" for c in changes),
            sum(c.a == 0 and c.b != 0 for c in changes), _geomean(lat), _geomean(thr)))
    return out


def lines(comp: Comparison) -> list[str]:
    return [s.line(comp.name_a, comp.name_b) for s in per_system(comp)]
