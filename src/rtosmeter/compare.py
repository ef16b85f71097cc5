"""Compare two stored runs: what changed, whether it is real, what regressed.

For every (port, target, profile, axes, case, series) present and `ok` in both
runs, one `Change` (axes: the toolchain; a system built with gcc in A is
compared with the one built with gcc in B, never with its clang build):

- Deterministic runs (QEMU -icount: the same firmware gives the same samples
  bit for bit) are compared exactly: any difference is significant, and the
  figure compared is the mean of the samples (every sample counts). Their
  threshold is a count in their unit (`exact_threshold`, 0 by default: in
  exact instructions a +53-instruction path is real, however long the path),
  not a percentage.
- Noisy runs (host clock, host-timed QEMU, boards) are compared on the raw
  samples with the Mann-Whitney U test (scipy.stats.mannwhitneyu, two-sided):
  H. B. Mann and D. R. Whitney, "On a test of whether one of two random
  variables is stochastically larger than the other", Ann. Math. Statist.
  18(1):50-60, 1947. The size of the change is the Hodges-Lehmann estimate of
  the shift (median of all pairwise differences B - A) with its
  distribution-free confidence interval (Moses): J. L. Hodges and E. L.
  Lehmann, "Estimates of location based on rank tests", Ann. Math. Statist.
  34(2):598-611, 1963; M. Hollander and D. A. Wolfe, "Nonparametric
  Statistical Methods", 2nd ed., section 4.3. The relative change is that
  shift over A's median.

A change is a regression only when it is both significant and larger than
the threshold in the worse direction, and an improvement likewise in the
better direction: the rule of asv's `_is_result_better`
(asv/commands/compare.py: a result is better only if the statistics say the
two differ *and* the ratio passes the factor), so neither noise nor a tiny
real change fails a CI job. When the samples are too few for the test ever
to reach the significance level (a throughput case with 3 periods), the size
alone decides, as asv does for results without statistics. Throughput
(count per period, per-period counts as samples): lower is worse. Latency:
higher is worse. A case that was ok in A and failed in B is a regression too.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from rtosmeter import analysis, axes, vocabulary
from rtosmeter.errors import UserError
from rtosmeter.model import BuildInfo, CaseResult, CaseStatus, RunView
from rtosmeter.store import Store

System = tuple[str, str, str, str]  # port, target, profile, axes suffix ("+clang")
Key = tuple[str, str, str, str, str, str]  # System, case, series ("score")
Samples = npt.NDArray[np.float64]

CONFIDENCE = 0.95
BAD_STATUSES = (CaseStatus.FAILED, CaseStatus.INCOMPLETE, CaseStatus.ERROR)
# Config keys whose change between A and B is news, not a fault (a new commit).
EXPECTED_CHANGES = ("source_hash", "source hash", "commit", "rtos_commit")


def _is_build_path(key: str) -> bool:
    """Where a build was made (build_dir, cmake.RM_CONFIG_DIR): differs between
    any two builds, and says nothing about fairness."""
    return key == "build_dir" or key.endswith("_DIR")


@dataclass(frozen=True)
class Change:
    port: str
    target: str
    profile: str
    case_id: str
    series: str  # a series name, or "score" for throughput
    family: str  # latency | throughput
    unit: str
    statistic: str  # what `a` and `b` are: mean | median | count per period
    a: float
    b: float
    change_pct: float  # relative change of B against A (signed; see `worse_pct`)
    deterministic: bool
    verdict: str  # regression | improvement | changed | same | not significant | broken
    p_value: float | None = None
    shift: float | None = None  # Hodges-Lehmann estimate of B - A, in `unit`
    ci: tuple[float, float] | None = None
    n_a: int = 0
    n_b: int = 0
    powered: bool = True  # False: too few samples for the test; decided on size alone
    axes: str = ""  # the axes' suffix of the system ("+clang"; rtosmeter.axes)

    @property
    def system(self) -> str:
        return f"{self.port}/{self.target}/{self.profile}{self.axes}"

    @property
    def worse_pct(self) -> float:
        """How much worse B is, in percent (negative: better)."""
        return -self.change_pct if self.family == "throughput" else self.change_pct


@dataclass
class Comparison:
    run_a: int
    run_b: int
    threshold: float
    alpha: float
    changes: list[Change]
    only_a: list[str] = field(default_factory=list)  # "system case" present only in A
    only_b: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # config differences, status changes
    # What A and B are when not two whole runs ("run 3 profile default").
    labels: tuple[str, str] | None = None
    exact_threshold: float = 0.0  # deterministic figures: counts, not percent
    # Configuration effects (compare --by profile): B is another configuration,
    # not a later version, so a difference is higher or lower, not a regression.
    effects: bool = False

    @property
    def name_a(self) -> str:
        return self.labels[0] if self.labels else f"run {self.run_a}"

    @property
    def name_b(self) -> str:
        return self.labels[1] if self.labels else f"run {self.run_b}"

    @property
    def regressions(self) -> list[Change]:
        if self.effects:
            return []
        return [c for c in self.changes if c.verdict in ("regression", "broken")]

    @property
    def improvements(self) -> list[Change]:
        if self.effects:
            return []
        return [c for c in self.changes if c.verdict == "improvement"]


# ---- statistics ---------------------------------------------------------------


def _pairs_at_most(ua: Samples, cum_a: npt.NDArray[np.int64], ub: Samples,
                   wb: npt.NDArray[np.int64], d: float) -> int:
    """How many pairs (i, j) have b_j - a_i <= d, i.e. a_i >= b_j - d, from
    the distinct values of a (with cumulative counts) and of b (weights)."""
    below = cum_a[np.searchsorted(ua, ub - d, side="left")]  # a_i < b_j - d
    return int(np.sum(wb * (cum_a[-1] - below)))


def pairwise_order_statistics(a: Samples, b: Samples, ks: Iterable[int]) -> list[float]:
    """The k-th smallest (1-based) of the n_a * n_b differences b_j - a_i,
    without forming them: bisection on the value, counting pairs through the
    distinct values of each sample (latency samples have few), so a million
    samples cost milliseconds."""
    ua, ca = np.unique(a, return_counts=True)
    ub, wb = np.unique(b, return_counts=True)
    cum_a = np.concatenate(([0], np.cumsum(ca))).astype(np.int64)
    wb = wb.astype(np.int64)
    out = []
    for k in ks:
        lo, hi = float(ub[0] - ua[-1]), float(ub[-1] - ua[0])
        if _pairs_at_most(ua, cum_a, ub, wb, lo) >= k:
            out.append(lo)
            continue
        # Invariant: count(lo) < k <= count(hi). Stop when the interval holds
        # at most one distinct difference (values are sums of samples).
        tol = max(abs(lo), abs(hi), 1.0) * 1e-12
        while hi - lo > tol:
            mid = (lo + hi) / 2
            if _pairs_at_most(ua, cum_a, ub, wb, mid) >= k:
                hi = mid
            else:
                lo = mid
        out.append(_snap(hi, ua, ub))
    return out


def _snap(d: float, ua: Samples, ub: Samples) -> float:
    """The actual difference b_j - a_i nearest to `d` (removes bisection fuzz)."""
    idx = np.clip(np.searchsorted(ua, ub - d), 0, len(ua) - 1)
    cand = ub - ua[idx]
    idx2 = np.clip(idx - 1, 0, len(ua) - 1)
    cand = np.concatenate((cand, ub - ua[idx2]))
    return float(cand[np.argmin(np.abs(cand - d))])


def hodges_lehmann(a: Samples, b: Samples, confidence: float = CONFIDENCE
                   ) -> tuple[float, tuple[float, float]]:
    """Shift B - A: the median of pairwise differences, and its Moses
    confidence interval (normal approximation of the U distribution; Hollander
    & Wolfe, section 4.3)."""
    from scipy import stats as sps  # slow to import: only when samples are compared

    m, n = len(a), len(b)
    total = m * n
    z = float(sps.norm.ppf(0.5 + confidence / 2))
    c = math.floor(total / 2 - z * math.sqrt(m * n * (m + n + 1) / 12))
    c = max(c, 1)
    ks = [c, (total + 1) // 2, total + 1 - c]
    if total % 2 == 0:
        ks.append(total // 2 + 1)
    low, med, high, *upper = pairwise_order_statistics(a, b, ks)
    estimate = (med + upper[0]) / 2 if upper else med
    return estimate, (low, high)


def mann_whitney(a: Samples, b: Samples) -> float:
    """Two-sided p-value; 1.0 when both samples are one and the same constant."""
    from scipy import stats as sps
    if np.array_equal(np.unique(a), np.unique(b)) and len(np.unique(a)) == 1:
        return 1.0
    return float(sps.mannwhitneyu(a, b, alternative="two-sided").pvalue)


def min_p_value(n_a: int, n_b: int) -> float:
    """The smallest two-sided Mann-Whitney p-value n_a and n_b samples can give
    (complete separation): 2 / C(n_a + n_b, n_a)."""
    return min(1.0, 2 / math.comb(n_a + n_b, n_a))


def _verdict(worse_pct: float, significant: bool, threshold: float) -> str:
    if not significant:
        return "not significant"
    if worse_pct > threshold:
        return "regression"
    if worse_pct < -threshold:
        return "improvement"
    return "changed" if worse_pct != 0 else "same"


def _pct(a: float, b: float) -> float:
    if a == b:
        return 0.0
    return (b - a) / abs(a) * 100 if a else math.inf


def compare_samples(key: Key, family: str, unit: str, a: Samples, b: Samples,
                    deterministic: bool, threshold: float, alpha: float,
                    exact_threshold: float = 0.0) -> Change:
    """One comparison (see the module docstring for the rule)."""
    port, target, profile, suffix, case_id, series = key
    stat = "mean count per period" if family == "throughput" else "mean"
    if deterministic:
        va, vb = float(np.mean(a)), float(np.mean(b))
        same = len(a) == len(b) and bool(np.array_equal(np.sort(a), np.sort(b)))
        change = _pct(va, vb)
        worse_count = va - vb if family == "throughput" else vb - va
        verdict = "same" if same else _verdict(worse_count, True, exact_threshold)
        if verdict == "same" and not same:
            verdict = "changed"
        return Change(port, target, profile, case_id, series, family, unit, stat, va, vb,
                      change, True, verdict, None, vb - va, None, len(a), len(b), axes=suffix)
    if family != "throughput":
        stat = "median"
    va = float(np.median(a)) if family != "throughput" else float(np.mean(a))
    vb = float(np.median(b)) if family != "throughput" else float(np.mean(b))
    if len(a) == len(b) and bool(np.array_equal(np.sort(a), np.sort(b))):
        return Change(port, target, profile, case_id, series, family, unit, stat, va, vb, 0.0,
                      False, "same", 1.0, 0.0, (0.0, 0.0), len(a), len(b), axes=suffix)
    p = mann_whitney(a, b)
    shift, ci = hodges_lehmann(a, b)
    change = shift / abs(va) * 100 if va else (0.0 if shift == 0 else math.inf)
    worse = -change if family == "throughput" else change
    # Too few samples for the test ever to reach `alpha` (3 throughput periods
    # give p >= 0.1): like asv without repeat statistics, decide on size alone.
    powered = min_p_value(len(a), len(b)) < alpha
    verdict = _verdict(worse, p < alpha or not powered, threshold)
    return Change(port, target, profile, case_id, series, family, unit, stat, va, vb, change,
                  False, verdict, p, shift, ci, len(a), len(b), powered, suffix)


# ---- loading --------------------------------------------------------------------


@dataclass
class RunSamples:
    """A run's raw samples per key, in the unit of the analysis (overhead
    subtracted, cold first sample left out), plus its view."""

    view: RunView
    samples: dict[Key, Samples]
    units: dict[Key, str]
    deterministic: dict[System, bool]


def system_of(item: CaseResult | BuildInfo) -> System:
    return (item.port, item.target, item.profile, axes.suffix(item.axes))


def load_samples(store: Store, run_id: int) -> RunSamples:
    """The run as the analysis sees it (its units and overhead rule), with
    each series' warm values kept for the tests."""
    view = analysis.load_run(store, run_id, keep_samples=True)
    samples: dict[Key, Samples] = {}
    unit_of: dict[Key, str] = {}
    deterministic: dict[System, bool] = {}
    for c in view.cases:
        for d in c.distributions if not c.timing_void else ():  # no figure, nothing to test
            key = (*system_of(c), c.case_id, d.series)
            samples[key], unit_of[key] = d.values, d.unit.label
            deterministic[system_of(c)] = d.unit.deterministic
    return RunSamples(view, samples, unit_of, deterministic)


def _results(view: RunView) -> dict[tuple[str, str, str, str, str], CaseResult]:
    return {(*system_of(c), c.case_id): c for c in view.cases}


def _qemu_versions(view: RunView) -> set[str]:
    return {x.runner["qemu"] for x in view.builds if _measured(x) and x.runner.get("qemu")}


def qemu_note(a: RunView, b: RunView) -> str:
    """A sentence when the two runs ran on different QEMU versions ("" when
    not): exact counts are the same on every QEMU rtosmeter supports, but a
    device model or a plugin API limit can differ (docs/qemu.md)."""
    va, vb = _qemu_versions(a), _qemu_versions(b)
    if not va or not vb or va == vb:
        return ""
    return (f"QEMU differs: run {a.run_id} ran on QEMU {', '.join(sorted(va))}, run "
            f"{b.run_id} on {', '.join(sorted(vb))}; exact counts are expected to agree "
            "(docs/qemu.md says what each version gives and what it cannot)")


def _config_notes(a: RunView, b: RunView) -> list[str]:
    notes = [n for n in (qemu_note(a, b),) if n]
    configs_b = {system_of(x): x.config for x in b.builds if _measured(x)}
    for x in a.builds:
        other = configs_b.get(system_of(x))
        if other is None or not _measured(x):  # a system that did not run: nothing to set
            continue
        for k in sorted(k for k in set(x.config) | set(other) if not _is_build_path(k)):
            va, vb = x.config.get(k, "—"), other.get(k, "—")
            if va != vb:
                kind = "changed" if k in EXPECTED_CHANGES else "differs (check fairness)"
                notes.append(f"{vocabulary.build_name(x)}: {k} {kind}: {va} -> {vb}")
    return notes


def _comparable(a: RunView, b: RunView, common: int, names: tuple[str, str]) -> None:
    """An empty run, or two runs with no case in common, compare nothing:
    an error, never "every figure is identical"."""
    for view, name in zip((a, b), names, strict=True):
        if not view.cases:
            raise UserError(f"{name} holds no results", "compare",
                            "Pick runs that ran cases (`rtosmeter history` lists them)")
    if not common:
        raise UserError(f"{names[0]} and {names[1]} have no case in common (same port, "
                        "target, profile, toolchain and case id)", "compare",
                        "Compare runs of the same systems (`rtosmeter history` lists them)")


# The measurement method (the firmware's CFG `method`, bench/core/runner.c):
# what code lies between the timestamps. Streams without it are method 1.
METHODS = {
    "1": "a generic signal/wait layer and a forwarding interrupt path between the timestamps",
    "2": "typed inline kernel calls, the interrupt handler as the vector",
    "3": "as 2, with tm.* calling Thread-Metric's porting layer, its own translation unit",
}


def method_of(config: dict[str, str]) -> str:
    return config.get("method", "1")


def _measured(build: BuildInfo) -> bool:
    """A build that ran: its config holds what the firmware said (CFG)."""
    return build.status == "ok"


def _same_method(a: RunView, b: RunView) -> None:
    """Figures of two measurement methods differ by rtosmeter's own code,
    not by the kernel: comparing them would report the harness as a change."""
    # A system that never ran (no tree: a skipped build) has no method: it is
    # missing from the comparison, not measured another way.
    methods_b = {system_of(x): method_of(x.config) for x in b.builds if _measured(x)}
    for x in a.builds:
        if not _measured(x):
            continue
        mb = methods_b.get(system_of(x))
        ma = method_of(x.config)
        if mb is not None and ma != mb:
            raise UserError(
                f"run {a.run_id} measured {vocabulary.build_name(x)} with measurement "
                f"method {ma} ({METHODS.get(ma, 'unknown')}) and run {b.run_id} with method "
                f"{mb} ({METHODS.get(mb, 'unknown')}): their figures differ by rtosmeter's "
                "own code, not by the kernel", "compare",
                "Re-run the older campaign with this rtosmeter (`rtosmeter run`, same "
                "--campaign/--port/--target) and compare the two new runs")


def compare(a: RunSamples, b: RunSamples, threshold: float, alpha: float,
            labels: tuple[str, str] | None = None, exact_threshold: float = 0.0
            ) -> Comparison:
    """B against A; `labels` name them when they are not two whole runs."""
    ra, rb = _results(a.view), _results(b.view)
    result = Comparison(a.view.run_id, b.view.run_id, threshold, alpha, [],
                        notes=_config_notes(a.view, b.view), labels=labels,
                        exact_threshold=exact_threshold)
    _comparable(a.view, b.view, len(ra.keys() & rb.keys()), (result.name_a, result.name_b))
    _same_method(a.view, b.view)
    for key, ca in ra.items():
        cb = rb.get(key)
        name = f"{'/'.join(key[:3])}{key[3]} {key[4]}"
        if cb is None:
            result.only_a.append(name)
            continue
        if ca.status != CaseStatus.OK or cb.status != CaseStatus.OK:
            if ca.status == CaseStatus.OK and cb.status in BAD_STATUSES:
                result.changes.append(_broken(ca, cb))
            elif ca.status != cb.status:
                result.notes.append(f"{name}: {ca.status} -> {cb.status}"
                                    + (f" ({cb.reason})" if cb.reason else ""))
            continue
        result.changes += _case_changes(a, b, ca, cb, threshold, alpha, exact_threshold)
    result.only_b = [f"{'/'.join(k[:3])}{k[3]} {k[4]}" for k in rb if k not in ra]
    return result


def _broken(ca: CaseResult, cb: CaseResult) -> Change:
    return Change(ca.port, ca.target, ca.profile, ca.case_id, f"status: {cb.reason}"[:60],
                  vocabulary.family(ca), "", "status", math.nan, math.nan, math.nan, False,
                  "broken", axes=axes.suffix(ca.axes))


def _case_changes(a: RunSamples, b: RunSamples, ca: CaseResult, cb: CaseResult,
                  threshold: float, alpha: float, exact: float) -> list[Change]:
    system = system_of(ca)
    det = a.deterministic.get(system, False) and b.deterministic.get(system, False)
    out = []
    if vocabulary.family(ca) == "throughput":
        ta, tb = ca.counts.get("total"), cb.counts.get("total")
        if ta and tb:
            key: Key = (*system, ca.case_id, "score")
            out.append(compare_samples(key, "throughput", "",
                                       np.asarray(ta, np.float64), np.asarray(tb, np.float64),
                                       det, threshold, alpha, exact))
        return out
    for d in ca.distributions:
        key = (*system, ca.case_id, d.series)
        sa, sb = a.samples.get(key), b.samples.get(key)
        if sa is None or sb is None or not sa.size or not sb.size:
            continue
        out.append(compare_samples(key, "latency", a.units[key], sa, sb, det, threshold,
                                   alpha, exact))
    return out


def compare_runs(store: Store, run_a: int, run_b: int, threshold: float, alpha: float,
                 exact_threshold: float = 0.0) -> Comparison:
    """Compare two runs of one store (ids already resolved); `threshold` in
    percent, `alpha` the significance level, `exact_threshold` in counts
    (the CLI's defaults: commands/compare.py)."""
    return compare(load_samples(store, run_a), load_samples(store, run_b), threshold, alpha,
                   exact_threshold=exact_threshold)
