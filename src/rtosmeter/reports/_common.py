"""What the text formats share: the sections of a report as plain rows.

`sections()` builds titled tables of strings once; table.py draws them with
rich and markdown.py as GitHub tables. `records()` is the flat schema of
docs/results-schema.md, written by csv.py and json.py.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from rtosmeter.analysis import CALIB_CASE, family, normalise_throughput, system
from rtosmeter.model import CaseResult, Distribution, RunView

SCHEMA_VERSION = 1

RECORD_FIELDS = (
    "run_id", "port", "target", "profile", "group", "case_id", "family", "status", "reason",
    "series", "what", "unit", "deterministic", "n", "cold", "mean", "std", "min", "p1",
    "p25", "p50", "p75", "p99", "max", "jitter", "overhead", "score", "percent_of_best",
    "multiple_of_slowest", "checks_failed",
)

EMULATION_NOTE = ("Emulated (QEMU icount): exception entry and exit cost no virtual time, so "
                  "interrupt latencies are code-path lengths, not hardware latencies.")


@dataclass
class Section:
    title: str
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    numeric: int = 0  # columns from this index on are right-aligned


def fmt(x: float | int | None) -> str:
    """A figure to 4-5 significant digits; "-" for a missing one."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if isinstance(x, int) or float(x).is_integer():
        return f"{int(x):,}"
    a = abs(x)
    if a >= 100:
        return f"{x:,.0f}"
    if a >= 10:
        return f"{x:.1f}"
    if a >= 1:
        return f"{x:.2f}"
    return f"{x:.3g}"


def title(view: RunView) -> str:
    finished = f", finished {view.finished}" if view.finished else ""
    return f"rtosmeter run {view.run_id} ({view.status}), started {view.started}{finished}"


def _systems(cases: list[CaseResult]) -> list[str]:
    return sorted({system(c) for c in cases})


def throughput_sections(view: RunView) -> list[Section]:
    tm = [c for c in view.cases if family(c) == "throughput" and c.status != "unsupported"]
    if not tm:
        return []
    norm = {(n.system, n.case_id): n for n in normalise_throughput(tm)}
    out = []
    for target in sorted({c.target for c in tm}):
        cases = [c for c in tm if c.target == target]
        systems = _systems(cases)
        ids = sorted({c.case_id for c in cases})
        by = {(system(c), c.case_id): c for c in cases}
        raw = Section(f"Throughput on {target}: mean count per period (higher is better)",
                      ["case", *systems], numeric=1)
        rel = Section(f"Throughput on {target}: % of the best, multiple of the slowest",
                      ["case", *systems], numeric=1)
        for cid in ids:
            raw_row, rel_row = [cid], [cid]
            for s in systems:
                c = by.get((s, cid))
                n = norm.get((s, cid))
                raw_row.append(fmt(c.score) if c and c.status == "ok" else
                               (c.status if c else ""))
                rel_row.append(f"{n.percent_of_best:.1f} % / {n.multiple_of_slowest:.2f}x"
                               if n else "")
            raw.rows.append(raw_row)
            rel.rows.append(rel_row)
        out += [raw, rel]
    return out


LATENCY_HEADERS = ["system", "case", "series", "n", "cold", "mean", "std", "min", "p50",
                   "p99", "max", "jitter", "overhead"]


def latency_sections(view: RunView) -> list[Section]:
    by_unit: dict[str, list[tuple[CaseResult, Distribution]]] = defaultdict(list)
    for c in view.cases:
        if c.case_id == CALIB_CASE:
            continue  # shown apart, in overhead_section()
        for d in c.distributions:
            by_unit[d.unit.label].append((c, d))
    out = []
    for label in sorted(by_unit):
        sec = Section(f"Latency in {label} (overhead subtracted; lower is better)",
                      LATENCY_HEADERS, numeric=3)
        rows = sorted(by_unit[label], key=lambda cd: (cd[0].case_id, system(cd[0])))
        for c, d in rows:
            sec.rows.append([system(c), c.case_id, d.series, fmt(d.n), fmt(d.cold),
                             fmt(d.mean), fmt(d.std), fmt(d.min), fmt(d.p50), fmt(d.p99),
                             fmt(d.max), fmt(d.jitter), fmt(d.overhead)])
        if by_unit[label][0][1].unit.deterministic:
            sec.notes.append(EMULATION_NOTE)
        out.append(sec)
    return out


def overhead_section(view: RunView) -> list[Section]:
    """The measured cost of an empty measurement, per firmware (system and group)."""
    sec = Section("Measurement overhead (median subtracted from every interval of the same "
                  "firmware)", ["system", "group", "unit", "n", "median", "min", "p99", "max"],
                  numeric=3)
    for c in view.cases:
        if c.case_id == CALIB_CASE:
            for d in c.distributions:
                sec.rows.append([system(c), c.group, d.unit.label, fmt(d.n), fmt(d.p50),
                                 fmt(d.min), fmt(d.p99), fmt(d.max)])
    return [sec] if sec.rows else []


def other_sections(view: RunView) -> list[Section]:
    out = []
    unsup = Section("Unsupported", ["system", "case", "reason"])
    unsup.rows = [[system(c), c.case_id, c.reason] for c in view.cases
                  if c.status == "unsupported"]
    checks = Section("Checks", ["system", "case", "check", "result", "got", "want"], numeric=4)
    checks.rows = [[system(c), c.case_id, k.name, "ok" if k.ok else "FAILED", fmt(k.got),
                    fmt(k.want)] for c in view.cases for k in c.checks]
    failed = Section("Failures", ["system", "case", "status", "reason"])
    failed.rows = [[system(c), c.case_id, c.status, c.reason] for c in view.cases
                   if c.status not in ("ok", "unsupported")]
    errors = Section("Errors", ["error"])
    errors.rows = [[e] for e in view.errors]
    fp = Section("Footprint (bytes)", ["system", "group", "flash", "ram"], numeric=2)
    fp.rows = [[f"{f.port}/{f.target}/{f.profile}", f.group, fmt(f.flash), fmt(f.ram)]
               for f in view.footprints]
    for sec in (unsup, checks, failed, errors, fp):
        if sec.rows:
            out.append(sec)
    return out


def sections(view: RunView) -> list[Section]:
    return (throughput_sections(view) + latency_sections(view) + overhead_section(view)
            + other_sections(view))


# ---- flat records (CSV / JSON) ---------------------------------------------


def _num(x: float | int | None) -> float | int | None:
    if x is None or (isinstance(x, float) and (math.isnan(x) or math.isinf(x))):
        return None
    return x


def records(view: RunView) -> list[dict[str, Any]]:
    """One record per (port, target, profile, case, series); see docs/results-schema.md."""
    norm = {(n.system, n.case_id): n for n in normalise_throughput(view.cases)}
    out: list[dict[str, Any]] = []
    for c in view.cases:
        base: dict[str, Any] = {k: None for k in RECORD_FIELDS}
        base.update(run_id=view.run_id, port=c.port, target=c.target, profile=c.profile,
                    group=c.group, case_id=c.case_id, family=family(c), status=c.status,
                    reason=c.reason, series="", what="", unit="",
                    checks_failed=sum(1 for k in c.checks if not k.ok))
        rows = []
        for d in c.distributions:
            r = dict(base)
            r.update(series=d.series, what=d.what, unit=d.unit.label,
                     deterministic=d.unit.deterministic, overhead=_num(d.overhead),
                     **{k: _num(getattr(d, k)) for k in (
                         "n", "cold", "mean", "std", "min", "p1", "p25", "p50", "p75",
                         "p99", "max", "jitter")})
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
                         multiple_of_slowest=_num(nm.multiple_of_slowest))
            rows.append(r)
        out += rows or [base]
    return out
