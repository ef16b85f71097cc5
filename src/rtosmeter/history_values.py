"""The figures of each stored run, for `history --format json` and
`publish`: per system and case, the latency series' median, mean, p99 and
sample count in their unit, and throughput's count per period."""

from __future__ import annotations

import math

from rtosmeter import analysis, vocabulary
from rtosmeter.store import Store

Values = dict[str, dict[str, dict[str, object]]]  # system -> "case series" -> figures


def _num(value: float) -> float | None:
    return value if math.isfinite(value) else None


def run_values(store: Store, run_id: int) -> Values:
    """system ("port/target/profile") -> figure name -> its values; cases that
    did not end ok have their status instead."""
    out: Values = {}
    for c in analysis.load_run(store, run_id).cases:
        figures = out.setdefault(vocabulary.system(c), {})
        if c.status != "ok":
            figures[c.case_id] = {"status": c.status}
            continue
        if vocabulary.family(c) == "throughput" and c.score is not None:
            figures[c.case_id] = {"unit": "count per period", "score": c.score,
                                  "periods": len(c.counts.get("total", []))}
        for d in c.distributions if not c.timing_void else ():
            name = c.case_id if len(c.distributions) == 1 else f"{c.case_id} {d.series}"
            figures[name] = {"unit": d.unit.label, "median": _num(d.p50), "mean": _num(d.mean),
                             "p99": _num(d.p99), "n": d.n}
    return out
