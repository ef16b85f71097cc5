"""Statistics on raw samples: the target sends integers, the host does this.

Percentiles use numpy's default method "linear", which is definition 7 of
R. J. Hyndman and Y. Fan, "Sample quantiles in statistical packages", The
American Statistician 50(4):361-365, 1996 (also R's and Excel's default):
for n sorted values x[0..n-1], the p-th percentile is at position
h = (n - 1) * p / 100, interpolated linearly between x[floor(h)] and
x[floor(h) + 1].

The standard deviation is the sample standard deviation (divisor n - 1).
The first sample of every series is the cold one (caches, first use of a
kernel object): it is reported apart and left out of every other figure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from rtosmeter.model import Summary

PERCENTILES = (1.0, 25.0, 50.0, 75.0, 99.0)
METHOD: Final = "linear"  # Hyndman & Fan (1996) type 7


@dataclass(frozen=True)
class Statistic:
    """One figure of a series: a field of `model.Summary`, a column of every
    statistics table and of the results schema (docs/results-schema.md)."""

    name: str
    percentile: float | None = None  # the p-th percentile: needs enough samples


# The statistics every report and the results schema show, in this order.
# Adding one: a field of model.Summary, its computation in summarize_warm(),
# an entry here and a row in docs/results-schema.md (tests check all four).
STATISTICS = (
    Statistic("n"), Statistic("cold"), Statistic("mean"), Statistic("std"), Statistic("min"),
    *(Statistic(f"p{p:g}", p) for p in PERCENTILES),
    Statistic("max"), Statistic("jitter"),
)


def percentiles(values: npt.ArrayLike, ps: tuple[float, ...] = PERCENTILES) -> list[float]:
    """Hyndman & Fan type 7 percentiles (see the module docstring)."""
    arr = np.asarray(values, dtype=np.float64)
    if arr.size == 0:
        return [math.nan] * len(ps)
    qs = np.asarray(ps, dtype=np.float64)
    result: list[float] = np.percentile(arr, qs, method=METHOD).tolist()
    return result


def summarize(samples: npt.ArrayLike) -> Summary:
    """Summary of a series whose first sample is the cold one."""
    arr = np.asarray(samples, dtype=np.float64)
    nan = math.nan
    if arr.size == 0:
        return Summary(0, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan)
    return summarize_warm(arr[1:], cold=float(arr[0]))


def summarize_warm(warm: npt.NDArray[np.float64], cold: float = math.nan) -> Summary:
    """Summary of samples that are all warm (the cold one given apart)."""
    n = int(warm.size)
    nan = math.nan
    if n == 0:
        return Summary(0, cold, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan)
    p1, p25, p50, p75, p99 = percentiles(warm)
    lo, hi = float(warm.min()), float(warm.max())
    std = float(warm.std(ddof=1)) if n > 1 else nan
    return Summary(n, cold, float(warm.mean()), std, lo, p1, p25, p50, p75, p99, hi, hi - lo)


def min_samples_for_percentile(p: float) -> int:
    """How many samples a p-th percentile needs to rest on an observation.

    With n samples the tail beyond the p-th percentile holds n * (100 - p) /
    100 of them (n * p / 100 below a low percentile); it needs at least one,
    so n >= 100 / min(p, 100 - p). The median needs 2, p1 and p99 need 100,
    p99.9 needs 1,000 and p99.99 needs 10,000. Below that, the figure is an
    interpolation towards the extreme sample, not a measured percentile.
    """
    if not 0 < p < 100:
        raise ValueError(f"percentile {p} is not between 0 and 100 (exclusive)")
    tail = min(p, 100.0 - p)
    return max(1, math.ceil(round(100.0 / tail, 9)))


def resting_on_samples(stat: Statistic, n: int) -> bool:
    """Whether `stat` over n samples is a measured figure: a percentile from
    fewer samples than min_samples_for_percentile() is an interpolation."""
    return stat.percentile is None or n >= min_samples_for_percentile(stat.percentile)


def median(values: npt.ArrayLike) -> float:
    arr = np.asarray(values, dtype=np.float64)
    return float(np.median(arr)) if arr.size else math.nan
