"""The warnings of an analysed run: QEMU's guest errors, clocks that differ
from the target's, outliers, and throughput that drifts between periods."""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from rtosmeter import stats
from rtosmeter.model import CaseResult, Distribution, RunWarning, Unit
from rtosmeter.qemu_binary import guest_errors
from rtosmeter.store import ExecutionRow
from rtosmeter.vocabulary import CALIB_CASE, system

OUTLIER_K = 4.0  # an extreme beyond p99 x K (or below p1 / K) is an outlier
DRIFT_LIMIT = 0.01  # throughput counts more than 1 % apart between periods


# Under exact emulation a period boundary falls between two iterations, so a
# count may be one more or one less from period to period: that is no drift.
EXACT_DRIFT_COUNTS = 2


GUEST_ERRORS_SHOWN = 3


def guest_warning(builds: Mapping[int, Any], ex: ExecutionRow) -> RunWarning | None:
    """QEMU's guest errors of one execution (runner info `guest_error_kinds`;
    for runs stored before it, the lines of the stored stderr tail)."""
    runner = ex.runner
    kinds: dict[str, int] = {}
    try:
        kinds = {str(k): int(v) for k, v in json.loads(str(runner["guest_error_kinds"])).items()}
    except (KeyError, ValueError, TypeError, AttributeError):
        kinds = dict(guest_errors(str(runner.get("stderr", "")).splitlines()))
    total = _int(runner.get("guest_errors")) or sum(kinds.values())
    if not total:
        return None
    b = builds.get(ex.build_id)
    key = f"{b.port}/{b.target}/{b.profile}" if b else f"build {ex.build_id}"
    shown = "; ".join(f"{msg} (x{n})" for msg, n in sorted(kinds.items(), key=lambda kv: -kv[1])
                      [:GUEST_ERRORS_SHOWN])
    return RunWarning(key, "", "guest-error",
                      f"{ex.group}: QEMU logged {total} guest error(s)"
                      + (f": {shown}" if shown else ""), ex.group,
                      tuple(sorted(kinds.items(), key=lambda kv: -kv[1])))


def clock_warning(builds: Mapping[int, Any], ex: ExecutionRow) -> RunWarning:
    """The firmware's clocks differ from its target.toml (clocks.clock_info)."""
    b = builds.get(ex.build_id)
    key = f"{b.port}/{b.target}/{b.profile}" if b else f"build {ex.build_id}"
    return RunWarning(key, "", "clock", f"{ex.group}: {ex.runner['clock_warning']}")


def _int(value: Any) -> int:
    try:
        return int(str(value))
    except ValueError:
        return 0


def outlier_text(d: Distribution) -> str:
    """"max 105,324 is 6.8x the p99 15,900" when an extreme lies far outside
    the 1-99 % range, else "" (a preempted host sample, a missed period: the
    box plots cut such a value off, so it is said in words)."""
    if math.isnan(d.p99) or d.n < 2:
        return ""
    out = []
    if d.max > OUTLIER_K * max(d.p99, 1.0):
        out.append(f"max {d.max:,.0f} is {d.max / max(d.p99, 1.0):.1f}x the p99 {d.p99:,.0f}")
    if d.min > 0 and d.min * OUTLIER_K < d.p1:  # a 0 deviation is no outlier
        out.append(f"min {d.min:,.0f} is under the p1 {d.p1:,.0f} / {OUTLIER_K:g}")
    return (f"{d.series}: " + " and ".join(out) + f" (median {d.p50:,.0f} {d.unit.label})"
            if out else "")


def exact_cases(results: Mapping[int, CaseResult], exec_of: Mapping[int, int],
                units: Mapping[int, Unit]) -> set[int]:
    """The ids (id()) of cases counted exactly (emulated under -icount)."""
    return {id(c) for row, c in results.items()
            if (u := units.get(exec_of.get(row, -1))) is not None and u.deterministic
            and u.emulated}


def _drift(total: list[int], exact: bool) -> float:
    """How far the counts per period spread (max - min over the mean), 0
    when they are within one count of their middle under exact emulation."""
    mean = sum(total) / len(total) if total else 0.0
    spread = max(total) - min(total) if total else 0
    if mean <= 0 or (exact and spread <= EXACT_DRIFT_COUNTS):
        return 0.0
    return spread / mean


def case_warnings(cases: Iterable[CaseResult], exact: Collection[int] = ()) -> list[RunWarning]:
    """Outliers, percentiles from too few samples, drifting throughput counts
    (not a ±1 count under exact emulation: `exact` holds those cases' id())."""
    out: list[RunWarning] = []
    p99 = next(s for s in stats.STATISTICS if s.name == "p99")
    for c in cases:
        key = system(c)
        for d in c.distributions:
            if (text := outlier_text(d)):
                out.append(RunWarning(key, c.case_id, "outlier", text))
        thin = [d for d in c.distributions if c.case_id != CALIB_CASE
                and not stats.resting_on_samples(p99, d.n) and d.n]
        if thin:
            fewest = min(thin, key=lambda d: d.n)
            out.append(RunWarning(key, c.case_id, "few-samples",
                                  f"p99 of {len(thin)} series from too few samples (fewest: "
                                  f"{fewest.n} in {fewest.series}; a p99 needs "
                                  f"{stats.min_samples_for_percentile(99)})"))
        total = c.counts.get("total", [])
        if c.case_id.startswith("tm.") and (drift := _drift(total, id(c) in exact)) > DRIFT_LIMIT:
            out.append(RunWarning(key, c.case_id, "drift",
                                  f"counts per period drift by {100 * drift:.1f} % "
                                  f"({min(total):,} to {max(total):,})"))
    return out
