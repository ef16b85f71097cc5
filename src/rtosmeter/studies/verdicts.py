"""A verdict per finding per target: the claim in the paper's form, ours in
the same form, reproduced | differs | untestable (why), the ratio error
where numbers exist; then what a rerun without the cause says."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from rtosmeter.reports.document.cells import fmt
from rtosmeter.studies.figures import Lookup, Ours, natural_stat, one_each
from rtosmeter.studies.model import Finding, Study, System
from rtosmeter.studies.run import finding_systems

REPRODUCED, DIFFERS, UNTESTABLE = "reproduced", "differs", "untestable"


@dataclass(frozen=True)
class Check:
    """One operation's check of a finding."""

    verdict: str
    ours: str
    error: float | None = None  # ours / published - 1


@dataclass
class Verdict:
    finding: Finding
    target: str
    verdict: str
    paper: str
    ours: str
    error: float | None = None
    rerun: Check | None = None
    confirmation: str = ""


def paper_form(f: Finding) -> str:
    """The claim in the form ours is stated in."""
    names = f.systems or tuple(o.label() for o in f.operands)
    forms = {
        "lowest": f"lowest: {f.system}", "highest": f"highest: {f.system}",
        "order": " < ".join(names), "less": " < ".join(names),
        "ratio": f"{'/'.join(names)} = {f.value:g}" if f.value is not None else "",
        "change": f"{f.from_state} → {f.to_state}: {f.direction}"
        + (f" {f.value:g} %" if f.value is not None else ""),
    }
    return forms.get(f.kind, "-")


def _pct(x: float) -> str:
    return f"{x * 100:+.0f} %"


class Judge:
    def __init__(self, study: Study, lookup: Lookup) -> None:
        self.study, self.lookup = study, lookup

    def values(self, f: Finding, op: str, systems: list[System], target: str,
               state: str = "") -> dict[str, Ours]:
        """Our figures of a finding; every kind but change is judged in its
        from_state (idle unless the claim is about a load or network state)."""
        stat = f.stat or natural_stat(self.study, op)
        return {s.label: self.lookup.get(op, s, target, stat, state or f.from_state)
                for s in systems}

    def extreme(self, f: Finding, op: str, target: str) -> Check:
        vals = self.values(f, op, finding_systems(self.study, f), target)
        ranked = sorted(vals.items(), key=lambda kv: kv[1].value or 0.0,
                        reverse=f.kind == "highest")
        # a tie for first place is shared: the claimed system counts if it is one of them
        tied = [n for n, v in ranked if v.value == ranked[0][1].value]
        first = f.system if f.system in tied else ranked[0][0]
        first_v = vals[first]
        text = f"{f.kind}: {first}{first_v.marks}"
        if len(tied) > 1:
            text += f" (tied with {', '.join(n for n in tied if n != first)})"
        elif len(ranked) > 1 and first_v.value:
            second, second_v = ranked[1]
            text += f" ({second} 2nd, {_pct((second_v.value or 0.0) / first_v.value - 1)})"
        return Check(REPRODUCED if first == f.system else DIFFERS, text)

    def ordered(self, f: Finding, op: str, target: str) -> Check:
        systems = [self.study.system(n) for n in f.systems]
        vals = self.values(f, op, systems, target)
        order = sorted(f.systems, key=lambda n: vals[n].value or 0.0)
        ours = "".join(
            ("" if i == 0 else " = " if vals[n].value == vals[order[i - 1]].value else " < ")
            + f"{n}{vals[n].marks}" for i, n in enumerate(order))
        if f.kind == "less":
            a, b = (vals[n].value or 0.0 for n in f.systems)
            ours += f" ({'/'.join(f.systems)} = {a / b:.2f})" if b else ""
        # the claim is a strict order: a tie does not reproduce "A < B"
        claimed = [vals[n].value or 0.0 for n in f.systems]
        strict = all(a < b for a, b in pairwise(claimed))
        return Check(REPRODUCED if strict else DIFFERS, ours)

    def ratio(self, f: Finding, op: str, target: str) -> Check:
        systems = [self.study.system(n) for n in f.systems]
        vals = self.values(f, op, systems, target)
        a, b = (vals[n].value or 0.0 for n in f.systems)
        assert f.value is not None
        ours = a / b if b else float("nan")
        error = ours / f.value - 1 if f.value else None
        ok = error is not None and abs(error) <= f.tolerance
        marks = one_each(*(vals[n].marks for n in f.systems))
        return Check(REPRODUCED if ok else DIFFERS,
                     f"{'/'.join(f.systems)} = {ours:.2f}{marks}", error)

    def change(self, f: Finding, op: str, target: str) -> Check:
        systems = [self.study.system(n) for n in (f.systems or (f.system,)) if n]
        before = self.values(f, op, systems, target, f.from_state)
        after = self.values(f, op, systems, target, f.to_state)
        parts, ok, error = [], True, None
        for s in systems:
            x, y = before[s.label].value or 0.0, after[s.label].value or 0.0
            # the direction is the sign of the change: from 0 a % is undefined,
            # and no change reproduces neither "up" nor "down"
            ok &= y != x and (y < x) == (f.direction == "down")
            pct = (y / x - 1) * 100 if x else float("nan")
            if f.value is not None and pct == pct:
                error = abs(pct) / abs(f.value) - 1
                ok &= abs(error) <= f.tolerance
            parts.append(f"{s.label}: {pct:+.1f} %" if x else f"{s.label}: {fmt(x)} → {fmt(y)}")
        return Check(REPRODUCED if ok else DIFFERS, ", ".join(parts), error)

    def across(self, f: Finding, target: str) -> Check:
        """less / ratio of two operands, each a system's figure of an operation."""
        vals = []
        for o in f.operands:
            system = self.study.system(o.system)
            why = self.study.operation(o.operation).untestable or system.unavailable
            v = self.lookup.get(o.operation, system, target,
                                o.stat or f.stat or natural_stat(self.study, o.operation),
                                f.from_state)
            if why or not v.ok:
                return Check(UNTESTABLE, f"{o.label()}: {why or v.why}")
            vals.append(v)
        (a, b), labels = (v.value or 0.0 for v in vals), [o.label() for o in f.operands]
        marks = [v.marks for v in vals]
        ratio = a / b if b else float("nan")
        if f.kind == "less":
            first, second = (0, 1) if a < b else (1, 0)
            return Check(REPRODUCED if a < b else DIFFERS,
                         f"{labels[first]}{marks[first]} < {labels[second]}{marks[second]} "
                         f"(left/right = {ratio:.2f})")
        assert f.value is not None
        error = ratio / f.value - 1 if f.value else None
        ok = error is not None and abs(error) <= f.tolerance
        return Check(REPRODUCED if ok else DIFFERS,
                     f"{labels[0]}{marks[0]} / {labels[1]}{marks[1]} = {ratio:.2f}", error)

    def missing(self, f: Finding, op: str, target: str) -> str:
        """Why this operation cannot be checked here ("" when it can)."""
        if self.study.operation(op).untestable:
            return self.study.operation(op).untestable
        named = [f.system, *f.systems] if f.kind in ("lowest", "highest") else [*f.systems]
        for name in filter(None, named):
            if self.study.system(name).unavailable:
                return f"{name}: {self.study.system(name).unavailable}"
        systems = finding_systems(self.study, f) if f.kind in ("lowest", "highest") else \
            [self.study.system(n) for n in (f.systems or (f.system,))]
        for state in dict.fromkeys((f.from_state, f.to_state or f.from_state)):
            for label, v in self.values(f, op, systems, target, state).items():
                if not v.ok:
                    return f"{label}: {v.why}"
        return ""

    def check(self, f: Finding, target: str) -> Check:
        """Every operation of the finding; reproduced when each is."""
        if f.kind == "untestable":
            return Check(UNTESTABLE, f.why)
        if f.operands:
            return self.across(f, target)
        how = {"lowest": self.extreme, "highest": self.extreme, "order": self.ordered,
               "less": self.ordered, "ratio": self.ratio, "change": self.change}[f.kind]
        checks: list[Check] = []
        for op in f.operations:
            if why := self.missing(f, op, target):
                return Check(UNTESTABLE, why)
            checks.append(how(f, op, target))
        errors = [c.error for c in checks if c.error is not None]
        worst = max(errors, key=abs) if errors else None
        many = len(checks) > 1
        ours = "; ".join(f"{op}: {c.ours}" if many else c.ours
                         for op, c in zip(f.operations, checks, strict=True))
        verdict = REPRODUCED if all(c.verdict == REPRODUCED for c in checks) else DIFFERS
        return Check(verdict, ours, worst)


def confirmation(f: Finding, verdict: str, rerun: Check | None) -> str:
    """What stands behind a difference's cause."""
    if verdict != DIFFERS:
        return ""
    if not f.cause or f.cause == "unexplained":
        return "unexplained"
    if rerun is not None and rerun.verdict == REPRODUCED:
        return "cause confirmed (rerun reproduces)"
    if f.quote:
        return "explained by the paper"
    return "not confirmed"  # the rerun's verdict, if any, is shown beside it


def judge(study: Study, main: Lookup, reruns: dict[str, Lookup]) -> list[Verdict]:
    """A verdict per finding and target; `reruns` by finding id."""
    out = []
    for f in study.findings:
        for t in study.targets:
            if f.hardware and t.hardware != f.hardware:
                continue
            c = Judge(study, main).check(f, t.name)
            again = Judge(study, reruns[f.id]).check(f, t.name) if f.id in reruns else None
            out.append(Verdict(f, t.name, c.verdict, paper_form(f), c.ours, c.error, again,
                               confirmation(f, c.verdict, again)))
    return out


def headline(study: Study, verdicts: list[Verdict]) -> tuple[int, int, int, int]:
    """(reproduced, findings, differ, untestable) on the primary target (the first)."""
    primary = [v for v in verdicts if v.target == study.targets[0].name]
    count = {k: sum(v.verdict == k for v in primary) for k in (REPRODUCED, DIFFERS, UNTESTABLE)}
    return count[REPRODUCED], len(primary), count[DIFFERS], count[UNTESTABLE]
