"""A series' whole distribution, for export: its histogram, and the tail
percentiles cyclictest and Zephyr's benchmarks report (p99.9, p99.99) where
the sample count supports them.

The rule (stats.min_samples_for_percentile): a p-th percentile rests on an
observation only when the tail beyond it holds at least one sample, so
p99 needs 100 samples, p99.9 needs 1,000 and p99.99 needs 10,000; with fewer
the figure is left out (null) and the reason given, never interpolated
towards the maximum.

Bins: exact integer units whose values span no more than the bin limit get
one bin per value ([v, v+1)), so a path of 530 or 531 instructions is two
bars, not a blur; otherwise numpy's "auto" edges (the larger of Sturges'
and Freedman-Diaconis' bin counts), at most `max_bins`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from rtosmeter import stats

TAIL = (99.0, 99.9, 99.99)
DEFAULT_MAX_BINS = 200


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    count: int


@dataclass(frozen=True)
class SeriesDistribution:
    system: str
    case_id: str
    series: str
    unit: str
    n: int
    tail: dict[str, float | None]  # "p99.9" -> value, None when n is too small
    tail_rule: dict[str, str]  # "p99.9" -> "needs >= 1,000 samples (has 400)" or ""
    bins: list[Bin]


def _name(p: float) -> str:
    return f"p{p:g}"


def tail(values: npt.NDArray[np.float64]) -> tuple[dict[str, float | None], dict[str, str]]:
    n = int(values.size)
    out: dict[str, float | None] = {}
    why: dict[str, str] = {}
    for p in TAIL:
        need = stats.min_samples_for_percentile(p)
        if n >= need:
            out[_name(p)] = stats.percentiles(values, (p,))[0]
            why[_name(p)] = ""
        else:
            out[_name(p)] = None
            why[_name(p)] = f"needs >= {need:,} samples (has {n:,})"
    return out, why


def histogram(values: npt.NDArray[np.float64], max_bins: int = DEFAULT_MAX_BINS) -> list[Bin]:
    if not values.size:
        return []
    lo, hi = float(values.min()), float(values.max())
    integral = bool(np.all(values == np.round(values)))
    if integral and hi - lo + 1 <= max_bins:
        edges = np.arange(lo, hi + 2)
    else:
        edges = np.histogram_bin_edges(values, bins="auto")
        if len(edges) - 1 > max_bins:
            edges = np.histogram_bin_edges(values, bins=max_bins)
    counts, edges = np.histogram(values, bins=edges)
    return [Bin(float(a), float(b), int(c))
            for a, b, c in zip(edges[:-1], edges[1:], counts, strict=True)]


def of_series(system: str, case_id: str, series: str, unit: str,
              values: npt.NDArray[np.float64], max_bins: int = DEFAULT_MAX_BINS
              ) -> SeriesDistribution:
    finite = values[np.isfinite(values)]
    figures, why = tail(finite)
    return SeriesDistribution(system, case_id, series, unit, int(finite.size), figures, why,
                              histogram(finite, max_bins))


def as_rows(d: SeriesDistribution) -> list[dict[str, object]]:
    """One CSV row per bin, with the series' tail percentiles on each."""
    tails = {k: ("" if v is None or math.isnan(v) else v) for k, v in d.tail.items()}
    return [{"system": d.system, "case_id": d.case_id, "series": d.series, "unit": d.unit,
             "n": d.n, **tails, "bin_low": b.low, "bin_high": b.high, "count": b.count}
            for b in d.bins]
