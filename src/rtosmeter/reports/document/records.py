"""Flat records, one per (port, target, profile, case, series): the schema
of docs/results-schema.md, written by csv.py and json.py."""

from __future__ import annotations

import math
from typing import Any

from rtosmeter import axes
from rtosmeter.model import RunView, stand_in_text
from rtosmeter.reports.document.statistics import STAT_NAMES
from rtosmeter.scores import normalise_throughput
from rtosmeter.vocabulary import family, system

SCHEMA_VERSION = 2  # 2: the idle, energy, load and net_load families; lists in coordinate order

RESULT_FIELDS = (
    "run_id", "port", "target", "profile", "group", "case_id", "family", "status", "reason",
    "series", "what", "unit", "deterministic", *STAT_NAMES, "overhead",
    "score", "percent_of_best", "multiple_of_slowest", "per_iteration", "checks_failed",
    "stand_in", "warnings", "toolchain", "compiler",
)



def _num(x: float | int | None) -> float | int | None:
    if x is None or (isinstance(x, float) and (math.isnan(x) or math.isinf(x))):
        return None
    return x


def records(view: RunView) -> list[dict[str, Any]]:
    """One record per (port, target, profile, case, series); see docs/results-schema.md."""
    norm = {(n.system, n.case_id): n for n in normalise_throughput(view.cases)}
    out: list[dict[str, Any]] = []
    for c in view.cases:
        base: dict[str, Any] = {k: None for k in RESULT_FIELDS}
        base.update(run_id=view.run_id, port=c.port, target=c.target, profile=c.profile,
                    group=c.group, case_id=c.case_id, family=family(c), status=c.status,
                    reason=c.reason, series="", what="", unit="",
                    checks_failed=sum(1 for k in c.checks if not k.ok),
                    stand_in=stand_in_text(c), warnings="; ".join(c.warned),
                    toolchain=axes.complete(c.axes)["toolchain"], compiler=c.compiler)
        rows = []
        for d in c.distributions:
            r = dict(base)
            r.update(series=d.series, what=d.what, unit=d.unit.label,
                     deterministic=d.unit.deterministic, overhead=_num(d.overhead),
                     **{k: _num(getattr(d, k)) for k in STAT_NAMES})
            rows.append(r)
        for name, values in c.counts.items():
            r = dict(base)
            n = len(values)
            mean = sum(values) / n if n else math.nan
            std = (math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
                   if n > 1 else math.nan)
            r.update(series=name, what="count per period", unit="count per period",
                     deterministic=None, n=n, mean=_num(mean), std=_num(std),
                     min=min(values) if values else None, max=max(values) if values else None,
                     jitter=(max(values) - min(values)) if values else None)
            nm = norm.get((system(c), c.case_id))
            if name == "total" and nm is not None:
                r.update(score=nm.score, percent_of_best=_num(nm.percent_of_best),
                         multiple_of_slowest=_num(nm.multiple_of_slowest),
                         per_iteration=_num(c.per_iteration))
            rows.append(r)
        out += rows or [base]
    return out
