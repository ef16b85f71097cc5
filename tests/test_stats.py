"""Statistics against independent computations: Python's `statistics`
module and small cases worked by hand."""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from collections.abc import Sequence

import pytest

from rtosmeter.stats import (
    STATISTICS,
    min_samples_for_percentile,
    percentiles,
    resting_on_samples,
    summarize,
)


def type7(values: Sequence[float], p: float) -> float:
    """Hyndman & Fan type 7 by its definition: h = (n - 1) p, linear between neighbours."""
    xs = sorted(values)
    h = (len(xs) - 1) * p / 100
    lo = math.floor(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])


def test_hand_computed_small_case() -> None:
    # cold sample 100, then 1..5
    s = summarize([100, 3, 1, 4, 5, 2])
    assert s.cold == 100 and s.n == 5
    assert s.mean == 3.0
    assert s.std == pytest.approx(math.sqrt(2.5))  # ((4+1+0+1+4) / 4) ** 0.5
    assert (s.min, s.max, s.jitter) == (1, 5, 4)
    assert s.p50 == 3.0
    assert s.p25 == 2.0 and s.p75 == 4.0  # h = 1 and 3 exactly
    assert s.p1 == pytest.approx(1.04)  # h = 0.04 -> 1 + 0.04 * (2 - 1)
    assert s.p99 == pytest.approx(4.96)


def test_against_the_statistics_module() -> None:
    rng = random.Random(3)
    values = [rng.randint(0, 10_000) for _ in range(2001)]
    s = summarize(values)
    warm = values[1:]
    assert s.mean == pytest.approx(statistics.fmean(warm))
    assert s.std == pytest.approx(statistics.stdev(warm))
    assert s.p50 == pytest.approx(statistics.median(warm))
    # statistics.quantiles(method="inclusive") is type 7 too
    q = statistics.quantiles(warm, n=100, method="inclusive")
    assert s.p1 == pytest.approx(q[0])
    assert s.p25 == pytest.approx(q[24])
    assert s.p75 == pytest.approx(q[74])
    assert s.p99 == pytest.approx(q[98])
    for p in (1, 12.5, 50, 99, 99.9):
        assert percentiles(warm, (p,))[0] == pytest.approx(type7(warm, p))


def test_too_few_samples() -> None:
    assert summarize([]).n == 0 and math.isnan(summarize([]).cold)
    one = summarize([7])
    assert one.cold == 7 and one.n == 0 and math.isnan(one.mean)
    two = summarize([7, 9])
    assert two.n == 1 and two.mean == 9 and math.isnan(two.std) and two.jitter == 0


def test_samples_needed_per_percentile() -> None:
    assert min_samples_for_percentile(50) == 2
    assert min_samples_for_percentile(99) == 100
    assert min_samples_for_percentile(1) == 100
    assert min_samples_for_percentile(99.9) == 1000
    assert min_samples_for_percentile(99.99) == 10_000
    with pytest.raises(ValueError):
        min_samples_for_percentile(100)


def test_one_list_of_statistics_for_summary_reports_and_schema() -> None:
    """stats.STATISTICS is the one list: Summary's fields, the statistics
    tables' columns and the results schema's columns follow it."""
    from rtosmeter.model import Summary
    from rtosmeter.reports.document.records import RESULT_FIELDS
    from rtosmeter.reports.document.statistics import STAT_HEADERS

    names = [s.name for s in STATISTICS]
    assert [f.name for f in dataclasses.fields(Summary)] == names
    assert STAT_HEADERS[3:-1] == names
    start = RESULT_FIELDS.index("n")
    assert list(RESULT_FIELDS[start:start + len(names)]) == names
    assert [s.percentile for s in STATISTICS if s.percentile] == [1.0, 25.0, 50.0, 75.0, 99.0]


def test_percentile_resting_on_too_few_samples() -> None:
    p99 = next(s for s in STATISTICS if s.name == "p99")
    assert not resting_on_samples(p99, 99) and resting_on_samples(p99, 100)
    assert resting_on_samples(next(s for s in STATISTICS if s.name == "max"), 1)
