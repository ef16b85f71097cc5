"""The breakdowns in the flame-graph tools' own formats, for `rtosmeter
explain --format folded|speedscope`: folded stacks (flamegraph.pl, inferno)
and speedscope's file. Data for those tools, not a report: the report's
formats render the breakdown's document (reports/document/explain.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rtosmeter.attribution.breakdown import Breakdown

SPEEDSCOPE_SCHEMA = "https://www.speedscope.app/file-format-schema.json"


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
