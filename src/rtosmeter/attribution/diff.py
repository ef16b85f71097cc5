"""Diffs that name the function: for every figure `compare` finds changed,
the functions whose per-sample counts changed and by how much, from the two
sides' attribution ("lat.sem.nocs give +3: xQueueGenericSend +3
(prvCopyDataToQueue unchanged)").

Counts are per sample over all of a series' samples (the figures leave the
cold first one out), so the functions' changes sum exactly to the change of
the samples' mean.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rtosmeter import instances
from rtosmeter.attribution.breakdown import Breakdown, breakdowns

if TYPE_CHECKING:
    from rtosmeter.compare import Change, Comparison
    from rtosmeter.store import Store

SHOWN = 4  # changed functions named per figure
UNCHANGED = 2  # unchanged functions named, the largest
VERDICTS = ("regression", "improvement", "changed")
EPS = 0.005  # per sample: below this a change does not show at 2 decimals


def _num(v: float) -> str:
    text = f"{v:+.2f}".rstrip("0").rstrip(".")
    return "±0" if text in ("+0", "-0") else text


def sentence(figure: str, a: Breakdown, b: Breakdown) -> str:
    """`figure` +N: f +x, g -y (h unchanged)."""
    fa = {f.function: a.cost(f) / a.samples for f in a.functions}
    fb = {f.function: b.cost(f) / b.samples for f in b.functions}
    deltas = [(name, fb.get(name, 0.0) - fa.get(name, 0.0)) for name in {*fa, *fb}]
    changed = sorted((d for d in deltas if abs(d[1]) >= EPS), key=lambda d: (-abs(d[1]), d[0]))
    same = sorted((n for n, d in deltas if abs(d) < EPS), key=lambda n: (-fa.get(n, 0.0), n))
    parts = []
    for name, d in changed[:SHOWN]:
        new = " (new)" if name not in fa else " (gone)" if name not in fb else ""
        parts.append(f"{name} {_num(d)}{new}")
    if len(changed) > SHOWN:
        parts.append(f"{len(changed) - SHOWN} more {_num(sum(d for _, d in changed[SHOWN:]))}")
    text = f"{figure} {_num(b.per_sample - a.per_sample)}: " + (
        ", ".join(parts) if parts else "no function's count changed")
    if same:
        text += f" ({', '.join(same[:UNCHANGED])} unchanged)"
    return text


class _Sides:
    """Breakdowns of one run, loaded once per case."""

    def __init__(self, store: Store, run: int) -> None:
        self.store, self.run = store, run
        self.cache: dict[str, dict[tuple[str, str], Breakdown]] = {}

    def get(self, system: str, case_id: str, series: str) -> Breakdown | None:
        if case_id not in self.cache:
            self.cache[case_id] = {(b.system, b.series): b
                                   for b in breakdowns(self.store, self.run, case_id)}
        return self.cache[case_id].get((system, series))


def _side(c: Change, by: tuple[str, str, str] | None, index: int) -> str:
    """The system of side `index` (0: A) of a change of `compare --by`."""
    if by is None:
        return c.system
    dim, value = by[0], by[1 + index]
    port, target, profile = c.port, c.target, c.profile
    if dim == "version":
        port = instances.join(port.partition(instances.SEP)[0], value)
    elif dim == "port":
        port = value
    elif dim == "target":
        target = value
    else:
        profile = value
    return f"{port}/{target}/{profile}{c.axes}"


def explain_changes(store: Store, comp: Comparison, run_a: int, run_b: int,
                    by: tuple[str, str, str] | None = None) -> list[tuple[Change, str]]:
    """(change, sentence) for every changed figure both sides attributed."""
    sides = (_Sides(store, run_a), _Sides(store, run_b))
    out = []
    for c in comp.changes:
        if c.verdict not in VERDICTS:
            continue
        a = sides[0].get(_side(c, by, 0), c.case_id, c.series)
        b = sides[1].get(_side(c, by, 1), c.case_id, c.series)
        if a is not None and b is not None:
            out.append((c, sentence(f"{c.system} {c.case_id} {c.series}", a, b)))
    return out


NOTE = "functions: "  # how the sentences stand among the comparison's notes


def add_notes(store: Store, comp: Comparison, run_a: int, run_b: int,
              by: tuple[str, str, str] | None = None) -> None:
    """compare's hook: the sentences become notes of the comparison (shown in
    every format)."""
    comp.notes += [NOTE + text for _, text in explain_changes(store, comp, run_a, run_b, by)]


def gate_lines(comp: Comparison) -> list[str]:
    """The sentences of the regressions, for the gate's failure message."""
    heads = [f"{c.system} {c.case_id} {c.series} " for c in comp.regressions]
    return [n.removeprefix(NOTE) for n in comp.notes
            if n.startswith(NOTE) and any(n[len(NOTE):].startswith(h) for h in heads)]
