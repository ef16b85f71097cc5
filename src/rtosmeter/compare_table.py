"""What a comparison says, as words and figures: each change's row (worst
first), its verdict's word, the summary sentence and the JSON value; the
report's document (reports/document/comparison.py) lays them out."""

from __future__ import annotations

import math
from dataclasses import asdict

from rtosmeter.compare import Change, Comparison


def fmt_value(v: float) -> str:
    if math.isnan(v):
        return "—"
    if v == int(v) and abs(v) < 1e15:
        return f"{int(v):,}"
    return f"{v:,.1f}" if abs(v) >= 10 else f"{v:,.3g}"


def _p(c: Change) -> str:
    if c.deterministic:
        return "exact"
    if c.p_value is None:
        return "—"
    if not c.powered:
        return f"{c.p_value:.2g} (n={c.n_a}/{c.n_b}: size only)"
    return "<1e-6" if c.p_value < 1e-6 else f"{c.p_value:.2g}"


def _ci(c: Change) -> str:
    if c.deterministic and c.shift is not None:
        return f"{c.shift:+,.4g}"
    if c.shift is None or c.ci is None:
        return "—"
    return f"{c.shift:+,.4g} [{c.ci[0]:+,.4g}, {c.ci[1]:+,.4g}]"


def _change(c: Change) -> str:
    if math.isnan(c.change_pct):
        return "—"
    if math.isinf(c.change_pct):  # from 0: no ratio
        return "new (from 0)"
    return "±0 %" if c.change_pct == 0 else f"{c.change_pct:+.2f} %"


MARK = {"regression": "REGRESSION", "broken": "BROKEN", "improvement": "improved",
        "changed": "changed", "same": "same", "not significant": "noise"}


def mark(comp: Comparison, c: Change) -> str:
    """The verdict's word; for configuration effects, the direction of B's
    figure (a 100 Hz tick's longer period is an effect, not a regression)."""
    if comp.effects and c.verdict in ("regression", "improvement", "changed") and c.b != c.a:
        return "higher" if c.b > c.a else "lower"
    return MARK[c.verdict]


def _size(c: Change) -> float:
    """Sort key: the largest finite change first; from 0 (infinite) after them."""
    return -abs(c.worse_pct) if math.isfinite(c.worse_pct) else 0.0


def rows(comp: Comparison, everything: bool = False) -> list[list[str]]:
    """Table rows, worst first. Without `everything`, figures that are
    identical or whose difference is not significant are left out."""
    order = {"broken": 0, "regression": 1, "improvement": 2, "changed": 3,
             "not significant": 4, "same": 5}
    if comp.effects:  # no worse or better: by size
        order = {**order, "regression": 1, "improvement": 1, "changed": 1}
    shown = [c for c in comp.changes
             if everything or c.verdict not in ("same", "not significant")]
    shown.sort(key=lambda c: (order[c.verdict], _size(c), c.system, c.case_id, c.series))
    return [[mark(comp, c), c.system, c.case_id, c.series, f"{c.statistic} ({c.unit})"
             if c.unit else c.statistic, fmt_value(c.a), fmt_value(c.b), _change(c),
             _ci(c), _p(c)] for c in shown]


HEAD = ["verdict", "system", "case", "series", "figure (unit)", "A", "B", "change",
        "shift B-A [95 % CI]", "p"]


def summary_line(comp: Comparison) -> str:
    n = len(comp.changes)
    same = sum(c.verdict == "same" for c in comp.changes)
    if comp.effects:
        higher = sum(mark(comp, c) == "higher" for c in comp.changes)
        lower = sum(mark(comp, c) == "lower" for c in comp.changes)
        return (f"{comp.name_a} -> {comp.name_b}: configuration effects over {n} figures: "
                f"{higher} higher, {lower} lower, {same} identical (threshold "
                f"{comp.threshold:g} % for noisy runs, {comp.exact_threshold:g} count(s) "
                "for exact ones); a profile comparison is no regression gate.")
    return (f"{comp.name_a} -> {comp.name_b}: {n} figures compared, "
            f"{len(comp.regressions)} regression(s), {len(comp.improvements)} improvement(s), "
            f"{same} identical; threshold {comp.threshold:g} %, significance level "
            f"{comp.alpha:g} (Mann-Whitney U) for noisy runs; exact runs: any change worse "
            f"than {comp.exact_threshold:g} count(s).")


def _finite(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, tuple):
        return [_finite(v) for v in value]
    return value


def as_json(comp: Comparison) -> dict[str, object]:
    """The comparison as a JSON-ready dict (docs/results-schema.md); a figure
    that does not exist (NaN: a broken case) is null."""
    return {"a": comp.name_a, "b": comp.name_b, "run_a": comp.run_a, "run_b": comp.run_b,
            "threshold_pct": comp.threshold, "alpha": comp.alpha,
            "exact_threshold": comp.exact_threshold,
            "summary": summary_line(comp), "regressions": len(comp.regressions),
            "improvements": len(comp.improvements),
            "effects": comp.effects,
            "changes": [{**{k: _finite(v) for k, v in asdict(c).items()},
                         "system": c.system, "worse_pct": _finite(c.worse_pct),
                         "mark": mark(comp, c)}
                        for c in comp.changes],
            "only_a": comp.only_a, "only_b": comp.only_b, "notes": comp.notes}
