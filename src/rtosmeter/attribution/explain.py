"""`rtosmeter explain`'s outputs: the breakdown as a table, as folded stacks
(flamegraph.pl, inferno), as speedscope's JSON, and as JSON."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rtosmeter.attribution.breakdown import Breakdown

SPEEDSCOPE_SCHEMA = "https://www.speedscope.app/file-format-schema.json"


def title(b: Breakdown) -> str:
    figure = b.per_sample - b.overhead
    return (f"{b.system}: {b.case_id} {b.series}: {b.samples} samples, {b.total:,} {b.unit} "
            f"in all = {b.per_sample:.2f} per sample (the figure {figure:.2f} + the "
            f"measurement overhead {b.overhead:.2f})")


def table(b: Breakdown, top: int = 0) -> str:
    """The functions, largest first (top > 0: that many, the rest summed)."""
    rows = list(b.functions)
    shown, rest = (rows[:top], rows[top:]) if top > 0 else (rows, [])
    width = max([len(f.function) for f in shown] + [len("function"), len("total")])
    lines = [title(b), f"  {'function':<{width}}  {b.unit:>12}  {'per sample':>10}  "
             f"{'share':>6}  {'calls':>8}"]
    for f in shown:
        cost = b.cost(f)
        lines.append(f"  {f.function:<{width}}  {cost:>12,}  {cost / b.samples:>10.2f}  "
                     f"{100 * cost / b.total if b.total else 0:>5.1f}%  "
                     f"{f.calls:>8,}")
    if rest:
        cost = sum(b.cost(f) for f in rest)
        label = f"({len(rest)} more)"
        lines.append(f"  {label:<{width}}  {cost:>12,}  {cost / b.samples:>10.2f}  "
                     f"{100 * cost / b.total if b.total else 0:>5.1f}%")
    check = "= the samples' sum, exactly" if b.attributed == b.total else (
        f"!= the samples' sum {b.total:,}")
    lines.append(f"  {'total':<{width}}  {b.attributed:>12,}  {b.attributed / b.samples:>10.2f}"
                 f"  100.0%  {check}")
    return "\n".join(lines)


def _frame(text: str) -> str:
    """A frame name folded stacks can hold (';' separates frames, ' ' ends them)."""
    return text.replace(";", ":").replace(" ", "_")


def folded(breakdowns: Sequence[Breakdown]) -> str:
    """One line per function: `system;case series;function count`."""
    lines = []
    for b in breakdowns:
        root = f"{_frame(b.system)};{_frame(b.case_id + '.' + b.series)}"
        lines += [f"{root};{_frame(f.function)} {b.cost(f)}" for f in b.functions if b.cost(f)]
    return "\n".join(lines) + "\n"


def speedscope(breakdowns: Sequence[Breakdown], name: str) -> dict[str, Any]:
    """speedscope's file format: one sampled profile per breakdown, each
    function a stack under the series, weighted by its count."""
    frames: list[dict[str, str]] = []
    index: dict[str, int] = {}

    def frame(text: str) -> int:
        if text not in index:
            index[text] = len(frames)
            frames.append({"name": text})
        return index[text]

    profiles = []
    for b in breakdowns:
        root = frame(f"{b.case_id} {b.series}")
        stacks = [[root, frame(f.function)] for f in b.functions if b.cost(f)]
        weights = [b.cost(f) for f in b.functions if b.cost(f)]
        profiles.append({"type": "sampled", "name": f"{b.system} {b.case_id} {b.series}",
                         "unit": "none", "startValue": 0, "endValue": sum(weights),
                         "samples": stacks, "weights": weights})
    return {"$schema": SPEEDSCOPE_SCHEMA, "name": name, "exporter": "rtosmeter explain",
            "activeProfileIndex": 0, "shared": {"frames": frames}, "profiles": profiles}


def as_json(breakdowns: Sequence[Breakdown]) -> list[dict[str, Any]]:
    return [{"system": b.system, "port": b.port, "case": b.case_id, "series": b.series,
             "execution": b.execution_id, "unit": b.unit, "samples": b.samples,
             "total": b.total, "per_sample": b.per_sample, "overhead": b.overhead,
             "functions": [{"function": f.function, "instructions": f.instructions,
                            "cycles": f.cycles, "calls": f.calls,
                            "per_sample": b.cost(f) / b.samples,
                            "share": b.cost(f) / b.total if b.total else 0.0}
                           for f in b.functions]} for b in breakdowns]
