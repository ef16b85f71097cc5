"""The CI gate of `compare`: what must hold for B to pass against A, beyond
each figure's verdict (compare.py).

- Nothing disappears: a system or case that ran in A and is absent from B
  fails the gate (a port whose tree went missing, a case dropped), unless
  `--allow-missing` names it: an fnmatch pattern on the system
  (`threadx/qemu-mps2-an386/default`), the port, the case id or
  "system case".
- Per-statistic rules (`--fail-on p50:+1%,max:+10%`, after pytest-benchmark's
  `--benchmark-compare-fail`): each statistic of B's samples against A's,
  worse by more than the limit (percent of A, or a count in the figure's
  unit without `%`) fails. Worse is higher for latency, lower for throughput
  (per-period counts).

Each check is a `Verdict`: the terminal lists the failed ones, JUnit XML
(junit.py) every one.
"""

from __future__ import annotations

import fnmatch
import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from rtosmeter.errors import UserError

if TYPE_CHECKING:
    from rtosmeter.compare import Comparison, RunSamples, Samples

STATISTICS = ("min", "max", "mean", "median", "p50", "p90", "p95", "p99", "p99.9", "p99.99")
_RULE = re.compile(r"^(?P<stat>[a-z0-9.]+):(?P<sign>[+-]?)(?P<value>\d+(\.\d+)?)(?P<pct>%?)$")


@dataclass(frozen=True)
class Rule:
    statistic: str
    limit: float
    percent: bool

    def __str__(self) -> str:
        return f"{self.statistic}:+{self.limit:g}{'%' if self.percent else ''}"


@dataclass(frozen=True)
class Verdict:
    check: str  # the kind: missing | rule | figure
    name: str  # what was checked ("threadx/qemu-mps2-an386/default lat.sem.pass")
    passed: bool
    message: str


@dataclass
class Gate:
    verdicts: list[Verdict] = field(default_factory=list)

    @property
    def failures(self) -> list[Verdict]:
        return [v for v in self.verdicts if not v.passed]


def parse_rules(text: str | None) -> list[Rule]:
    """`p50:+1%,max:+10%,mean:5` -> rules; an error names the bad item."""
    rules = []
    for item in (text or "").split(","):
        item = item.strip().replace(" ", "")
        if not item:
            continue
        m = _RULE.match(item)
        if m is None or m["stat"] not in STATISTICS or m["sign"] == "-":
            raise UserError(f"'{item}' is not a statistic and a limit", "--fail-on",
                            "Write STAT:+N% or STAT:+N (a count in the figure's unit), "
                            f"comma-separated; STAT is one of {', '.join(STATISTICS)}")
        rules.append(Rule("p50" if m["stat"] == "median" else m["stat"],
                          float(m["value"]), m["pct"] == "%"))
    return rules


def statistic(values: Samples, name: str) -> float:
    if name == "min":
        return float(np.min(values))
    if name == "max":
        return float(np.max(values))
    if name == "mean":
        return float(np.mean(values))
    return float(np.percentile(values, float(name[1:])))


def _allowed(patterns: tuple[str, ...], system: str, port: str, case: str = "") -> bool:
    names = [system, port] + ([case, f"{system} {case}"] if case else [])
    return any(fnmatch.fnmatchcase(n, p) for p in patterns for n in names)


def missing(comp: Comparison, a: RunSamples, b: RunSamples,
            allow: tuple[str, ...] = ()) -> list[Verdict]:
    """One verdict per system of A absent from B (with B's reason when B
    stored one: a tree that was missing), and per case of A absent from a
    system B has."""
    from rtosmeter.compare import system_of

    def name(system: tuple[str, str, str, str]) -> str:
        return f"{'/'.join(system[:3])}{system[3]}"

    in_b = {(system_of(c), c.case_id) for c in b.view.cases}
    systems_b = {s for s, _ in in_b}
    why_b = {system_of(x): x.error for x in b.view.builds if x.status != "ok" and x.error}
    out: list[Verdict] = []
    cases_a: dict[tuple[str, str, str, str], list[str]] = {}
    for c in a.view.cases:
        if c.status != "unsupported":  # a case that ran; one that cannot is no loss
            cases_a.setdefault(system_of(c), []).append(c.case_id)
    for system, cases in sorted(cases_a.items()):
        sname = name(system)
        if system not in systems_b:
            ok = _allowed(allow, sname, system[0])
            why = why_b.get(system)
            out.append(Verdict("missing", sname, ok,
                               f"{sname}: ran {len(cases)} case(s) in {comp.name_a}, none in "
                               f"{comp.name_b}" + (f" (not run: {why})" if why else "")
                               + (" — allowed by --allow-missing" if ok else "")))
            continue
        for case in sorted(set(cases)):
            if (system, case) not in in_b:
                ok = _allowed(allow, sname, system[0], case)
                out.append(Verdict("missing", f"{sname} {case}", ok,
                                   f"{sname} {case}: in {comp.name_a}, not in {comp.name_b}"
                                   + (" — allowed by --allow-missing" if ok else "")))
    return out


def _worse(family: str, va: float, vb: float, rule: Rule) -> float:
    """How far B is worse than A, in the rule's terms (percent or count)."""
    delta = va - vb if family == "throughput" else vb - va
    if not rule.percent:
        return delta
    if va == 0:
        return 0.0 if delta <= 0 else math.inf
    return delta / abs(va) * 100


def rule_verdicts(comp: Comparison, a: RunSamples, b: RunSamples,
                  rules: list[Rule]) -> list[Verdict]:
    """Each rule on each figure the comparison compared (latency series on
    their samples, throughput on its per-period counts)."""
    if not rules:
        return []
    from rtosmeter.compare import system_of

    counts_a = {(*system_of(c), c.case_id): c.counts.get("total") for c in a.view.cases}
    counts_b = {(*system_of(c), c.case_id): c.counts.get("total") for c in b.view.cases}
    out = []
    for ch in comp.changes:
        if ch.verdict == "broken":
            continue
        key = (ch.port, ch.target, ch.profile, ch.axes, ch.case_id, ch.series)
        if ch.family == "throughput":
            ta, tb = counts_a.get(key[:5]), counts_b.get(key[:5])
            sa = np.asarray(ta, np.float64) if ta else None
            sb = np.asarray(tb, np.float64) if tb else None
        else:
            sa, sb = a.samples.get(key), b.samples.get(key)
        if sa is None or sb is None or not sa.size or not sb.size:
            continue
        for rule in rules:
            va, vb = statistic(sa, rule.statistic), statistic(sb, rule.statistic)
            worse = _worse(ch.family, va, vb, rule)
            ok = worse <= rule.limit
            unit = "%" if rule.percent else f" {ch.unit or 'counts'}"
            out.append(Verdict(
                "rule", f"{ch.system} {ch.case_id} {ch.series} {rule}", ok,
                f"{ch.system} {ch.case_id} {ch.series}: {rule.statistic} {va:,.6g} -> "
                f"{vb:,.6g}, worse by {worse:+,.4g}{unit} (limit {rule})"))
    return out


def figure_verdicts(comp: Comparison) -> list[Verdict]:
    """Each compared figure as a verdict: a regression or a broken case fails."""
    from rtosmeter.compare_table import MARK

    return [Verdict("figure", f"{c.system} {c.case_id} {c.series}",
                    c.verdict not in ("regression", "broken"),
                    f"{MARK[c.verdict]}: {c.statistic} {c.a:,.6g} -> {c.b:,.6g} "
                    f"({c.change_pct:+.2f} %)") for c in comp.changes]


def evaluate(comp: Comparison, a: RunSamples, b: RunSamples, allow: tuple[str, ...] = (),
             rules: list[Rule] | None = None, two_runs: bool = True) -> Gate:
    """Every verdict; what disappears only between two runs (two slices of
    one run, `--by`, hold different systems by design)."""
    gone = missing(comp, a, b, allow) if two_runs else []
    return Gate(figure_verdicts(comp) + gone + rule_verdicts(comp, a, b, rules or []))
