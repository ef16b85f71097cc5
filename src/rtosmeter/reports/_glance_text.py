"""The first screen as terminal lines (reports/document/glance.py): the last
lines of the terminal report and all `rtosmeter run` prints of the results.

Per target: what the figures are, a table of each system's cost as a
multiple of the best of each case ("x best", the smallest and largest case
in brackets, the marks after), profile by profile with the floor under each, one sentence per
family, the profiles against each other, the caveats. About twenty lines
for four systems in two profiles.
"""

from __future__ import annotations

from rtosmeter.reports.document.answer_text import ratio_text
from rtosmeter.reports.document.glance import (
    EMULATED,
    Block,
    Glance,
    GlanceBar,
    across_line,
    lower,
)
from rtosmeter.textsafe import terminal_safe

FLOOR_LABEL = "bare metal"


def _cell(bar: GlanceBar | None) -> str:
    if bar is None:
        return "-"
    spread = "" if abs(bar.high - bar.low) < 0.005 * bar.low else \
        f" ({bar.low:.2f}-{ratio_text(bar.high).removesuffix('x')})"
    return f"{ratio_text(bar.ratio)}{spread}" + (f" {bar.marks}" if bar.marks else "")


def _floor_cell(block: Block | None) -> str:
    return ratio_text(block.floor) if block is not None and block.floor else "-"


def _profile_rows(blocks: dict[str, dict[str, Block]], fams: list[str], p: str
                  ) -> list[list[str]]:
    """One profile's rows: each system's bars, family by family, then the floor."""
    here = [f for f in fams if p in blocks[f]]
    order = list(dict.fromkeys(b.label for f in here for b in blocks[f][p].bars))
    rows = []
    for i, label in enumerate(order):
        bars = [next((b for b in blocks[f][p].bars if b.label == label), None)
                if p in blocks[f] else None for f in fams]
        rows.append([p if i == 0 else "", label, *(_cell(b) for b in bars)])
    if any(blocks[f][p].floor for f in here):
        rows.append(["", f"{FLOOR_LABEL} (floor)", *(_floor_cell(blocks[f].get(p)) for f in fams)])
    return rows


def _table(g: Glance, fams: list[str]) -> list[str]:
    """The x-best table, profile by profile, its columns padded to one width."""
    blocks = {f: {b.profile: b for b in g.blocks[f]} for f in fams}
    profiles = list(dict.fromkeys(p for f in fams for p in blocks[f]))
    rows: list[list[str]] = [["", "x best (min-max)", *(lower(f) for f in fams)]]
    for p in profiles:
        rows += _profile_rows(blocks, fams, p)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
            for r in rows]


def lines(g: Glance) -> list[str]:
    fams = g.families
    out = [f"The answer on {g.target}." + (f" {EMULATED}" if g.emulated else "")]
    if g.no_rtos:
        out.append(g.no_rtos)
    if not fams:
        return out
    out += _table(g, fams)
    out += [g.sentence(f) for f in fams]
    if (line := across_line(g.across)):
        out.append(line)
    out += g.caveats
    return [terminal_safe(x) for x in out]


def text(glances: list[Glance]) -> str:
    return "\n".join(line for g in glances for line in lines(g))
