"""A verdict per finding per target: the claim in the paper's form, ours in
the same form, reproduced | tie | differs | trivial | untestable (why), the
ratio error where numbers exist; then what a rerun without the cause says.

Evidence strength: two figures within their resolution (one count, one
step of a rate ramp: figures.Ours.resolution) are a tie, and a tie never
reproduces a strict order or a lowest/highest; a claim true by construction
under emulation (the finding's `trivial`) is trivial; a figure that failed
its own check (✗) or rests on a stand-in (†) cannot reproduce a finding."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from rtosmeter.model import FAIL_MARK, STAND_IN_MARK
from rtosmeter.reports.document.cells import fmt
from rtosmeter.studies.figures import Lookup, Ours, natural_stat, one_each
from rtosmeter.studies.model import Finding, Study, System
from rtosmeter.studies.run import finding_systems

REPRODUCED, TIE, DIFFERS = "reproduced", "tie", "differs"
TRIVIAL, UNTESTABLE = "trivial", "untestable"
VERDICTS = (REPRODUCED, TIE, DIFFERS, TRIVIAL, UNTESTABLE)
CONFIRMED, EXPLAINED = "cause confirmed (rerun reproduces)", "explained by the paper"
TRIED = "cause tried, not confirmed"
WEAK = {FAIL_MARK: "a figure failed its own check (✗)",
        STAND_IN_MARK: "a figure rests on a stand-in (†)"}


@dataclass(frozen=True)
class Check:
    """One operation's check of a finding."""

    verdict: str
    ours: str
    error: float | None = None  # ours / published - 1
    marks: str = ""  # the marks of the figures that decide it


def _side(a: Ours, b: Ours, margin: float | None = None) -> int:
    """-1 when a is below b by more than their resolution (or the paper's own
    stated margin, a fraction of the larger), 1 above, 0 a tie."""
    x, y = a.value or 0.0, b.value or 0.0
    if abs(x - y) <= max(a.resolution, b.resolution, (margin or 0.0) * max(abs(x), abs(y))):
        return 0
    return -1 if x < y else 1


def _strict(sides: list[int]) -> str:
    """The verdict of a strict claim from its comparisons (-1: as claimed)."""
    if any(side > 0 for side in sides):
        return DIFFERS
    return TIE if any(side == 0 for side in sides) else REPRODUCED


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


def _within(f: Finding) -> str:
    """What made two unequal figures one."""
    return f"the paper's margin of {f.margin * 100:g} %" if f.margin else "one count or step"


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
        sign = -1 if f.kind == "highest" else 1
        ranked = sorted(vals.items(), key=lambda kv: sign * (kv[1].value or 0.0))
        best = ranked[0][1]
        # first place within the figures' resolution of the best is shared
        tied = [n for n, v in ranked if _side(v, best, f.margin) == 0]
        first = f.system if f.system in tied else ranked[0][0]
        first_v = vals[first]
        text = f"{f.kind}: {first}{first_v.marks}"
        others = [n for n in tied if n != first]
        if others:
            exact = all(vals[n].value == first_v.value for n in others)
            text += f" (tied with {', '.join(others)}" + \
                ("" if exact else f", within {_within(f)}") + ")"
        elif len(ranked) > 1 and first_v.value:
            second, second_v = next((n, v) for n, v in ranked if n != first)
            text += f" ({second} 2nd, {_pct((second_v.value or 0.0) / first_v.value - 1)})"
        deciding = [first, *(others or [n for n, _ in ranked if n != first][:1])]
        marks = one_each(*(vals[n].marks for n in deciding))
        if first != f.system:
            return Check(DIFFERS, text, marks=marks)
        return Check(TIE if others else REPRODUCED, text, marks=marks)

    def ordered(self, f: Finding, op: str, target: str) -> Check:
        systems = [self.study.system(n) for n in f.systems]
        vals = self.values(f, op, systems, target)
        order = sorted(f.systems, key=lambda n: vals[n].value or 0.0)
        ours = "".join(
            ("" if i == 0 else " = " if _side(vals[order[i - 1]], vals[n], f.margin) == 0
             else " < ")
            + f"{n}{vals[n].marks}" for i, n in enumerate(order))
        if f.kind == "less":
            a, b = (vals[n].value or 0.0 for n in f.systems)
            ours += f" ({'/'.join(f.systems)} = {a / b:.2f})" if b else ""
        # the claim is a strict order: a tie does not reproduce "A < B"
        sides = [_side(vals[a], vals[b], f.margin) for a, b in pairwise(f.systems)]
        return Check(_strict(sides), ours,
                     marks=one_each(*(vals[n].marks for n in f.systems)))

    def ratio(self, f: Finding, op: str, target: str) -> Check:
        systems = [self.study.system(n) for n in f.systems]
        vals = self.values(f, op, systems, target)
        a, b = (vals[n].value or 0.0 for n in f.systems)
        assert f.value is not None
        ours = a / b if b else float("nan")
        error = ours / f.value - 1 if f.value else None
        ok = error is not None and abs(error) <= f.tolerance_for(f.stat or natural_stat(
            self.study, op))
        marks = one_each(*(vals[n].marks for n in f.systems))
        return Check(REPRODUCED if ok else DIFFERS,
                     f"{'/'.join(f.systems)} = {ours:.2f}{marks}", error, marks)

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
                ok &= abs(error) <= f.tolerance_for("percent_change")
            parts.append(f"{s.label}: {pct:+.1f} %" if x else f"{s.label}: {fmt(x)} → {fmt(y)}")
        marks = one_each(*(v.marks for v in (*before.values(), *after.values())))
        return Check(REPRODUCED if ok else DIFFERS, ", ".join(parts), error, marks)

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
            side = _side(vals[0], vals[1], f.margin)
            first, second = (0, 1) if side <= 0 else (1, 0)
            return Check(_strict([side]),
                         f"{labels[first]}{marks[first]} {'=' if side == 0 else '<'} "
                         f"{labels[second]}{marks[second]} (left/right = {ratio:.2f})",
                         marks=one_each(*marks))
        assert f.value is not None
        error = ratio / f.value - 1 if f.value else None
        left = f.operands[0]
        ok = error is not None and abs(error) <= f.tolerance_for(
            left.stat or f.stat or natural_stat(self.study, left.operation))
        return Check(REPRODUCED if ok else DIFFERS,
                     f"{labels[0]}{marks[0]} / {labels[1]}{marks[1]} = {ratio:.2f}", error,
                     one_each(*marks))

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
        """The evidence, then what it is worth: a claim true by construction
        is trivial, a would-be reproduction on a ✗ or † figure untestable."""
        c = self.measure(f, target)
        if f.trivial and c.verdict != UNTESTABLE:
            return Check(TRIVIAL, f"{f.trivial}; ours: {c.ours}", c.error, c.marks)
        weak = [why for mark, why in WEAK.items() if mark in c.marks]
        if c.verdict == REPRODUCED and weak:
            return Check(UNTESTABLE, f"would reproduce, but {' and '.join(weak)}: {c.ours}",
                         c.error, c.marks)
        return c

    def measure(self, f: Finding, target: str) -> Check:
        """Every operation of the finding; reproduced when each is, a tie
        when none differs and one ties."""
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
        verdicts = {c.verdict for c in checks}
        verdict = DIFFERS if DIFFERS in verdicts else TIE if TIE in verdicts else REPRODUCED
        return Check(verdict, ours, worst, one_each(*(c.marks for c in checks)))


def confirmation(f: Finding, verdict: str, rerun: Check | None) -> str:
    """What stands behind a difference's cause."""
    if verdict != DIFFERS:
        return ""
    if not f.cause or f.cause == "unexplained":
        return "unexplained"
    if rerun is not None and rerun.verdict == REPRODUCED:
        return CONFIRMED
    if f.quote:  # the paper's words state the mechanism (a citation does not)
        return EXPLAINED
    if rerun is not None:  # the figures the re-run without the cause gave
        return f"{TRIED}: the rerun {rerun.verdict} ({rerun.ours})"
    return "not confirmed (no rerun)"


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


@dataclass(frozen=True)
class Headline:
    """The verdicts on the primary target (the study's first), by kind; the
    differences by what stands behind their cause."""

    findings: int
    count: dict[str, int]
    confirmed: int
    explained: int
    tried: int  # of the unconfirmed: a rerun without the cause did not reproduce

    @property
    def reproduced(self) -> int:
        return self.count[REPRODUCED]

    @property
    def testable(self) -> int:
        """The findings a run here can decide: neither untestable nor trivial."""
        return self.findings - self.count[UNTESTABLE] - self.count[TRIVIAL]

    @property
    def answered(self) -> int:
        """Of the testable: reproduced, or differing by a cause a rerun confirms."""
        return self.reproduced + self.confirmed

    def text(self) -> str:
        differ = self.count[DIFFERS]
        unconfirmed = differ - self.confirmed - self.explained
        return (f"{self.count[TIE]} tie, {differ} differ ({self.confirmed} cause confirmed, "
                f"{self.explained} explained, {unconfirmed} unconfirmed"
                + (f" of which {self.tried} tried" if self.tried else "") + "), "
                f"{self.count[TRIVIAL]} trivial, {self.count[UNTESTABLE]} untestable")


def headline(study: Study, verdicts: list[Verdict]) -> Headline:
    primary = [v for v in verdicts if v.target == study.targets[0].name]
    return Headline(len(primary), {k: sum(v.verdict == k for v in primary) for k in VERDICTS},
                    sum(v.confirmation == CONFIRMED for v in primary),
                    sum(v.confirmation == EXPLAINED for v in primary),
                    sum(v.confirmation.startswith(TRIED) for v in primary))
