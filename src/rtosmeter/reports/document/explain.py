"""`rtosmeter explain`'s document: per attributed series, its functions
largest first (the counts sum to the samples' sum: a note says whether they
do) with an icicle chart for the page, or, by category, the ports side by
side; its JSON carries every function's counts."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from rtosmeter.attribution.breakdown import Breakdown
from rtosmeter.attribution.categories import CATEGORIES, MEASUREMENT, grouped
from rtosmeter.reports.document.cells import Cell, Chart, Section, Value, anchor
from rtosmeter.reports.document.sheet import Sheet

_PALETTE = ("#f4a261", "#e9c46a", "#8ab17d", "#2a9d8f", "#9c89b8", "#e76f51", "#90be6d",
            "#f9c74f", "#577590", "#f28482")
WIDTH, BAR = 1000, 26  # the icicle's viewBox width and bar height
CHAR = 7  # about one character's width at the bars' font size: a longer name is left out


def title(b: Breakdown) -> str:
    figure = b.per_sample - b.overhead
    return (f"{b.system}: {b.case_id} {b.series}: {b.samples} samples, {b.total:,} {b.unit} "
            f"in all = {b.per_sample:.2f} per sample (the figure {figure:.2f} + the "
            f"measurement overhead {b.overhead:.2f})")


def _share(b: Breakdown, cost: int) -> str:
    return f"{100 * cost / b.total if b.total else 0:.1f}%"


def functions_section(b: Breakdown, top: int = 0) -> Section:
    """The functions, largest first (top > 0: that many, the rest summed)."""
    rows = list(b.functions)
    shown, rest = (rows[:top], rows[top:]) if top > 0 else (rows, [])
    sec = Section(title(b), ["function", b.unit, "per sample", "share", "calls"], numeric=1)
    for f in shown:
        cost = b.cost(f)
        sec.add([f.function, Cell(f"{cost:,}"), Cell(f"{cost / b.samples:.2f}"),
                 Cell(_share(b, cost)), Cell(f"{f.calls:,}")])
    if rest:
        cost = sum(b.cost(f) for f in rest)
        sec.add([f"({len(rest)} more)", Cell(f"{cost:,}"), Cell(f"{cost / b.samples:.2f}"),
                 Cell(_share(b, cost)), Cell("")])
    exact = b.attributed == b.total
    sec.add([Cell("total", flag="" if exact else "fail"), Cell(f"{b.attributed:,}"),
             Cell(f"{b.attributed / b.samples:.2f}"), Cell("100.0%"), Cell("")])
    check = "= the samples' sum, exactly" if exact else f"!= the samples' sum {b.total:,}"
    sec.notes = [f"total {b.attributed:,} {check}"]
    return sec


def icicle(b: Breakdown) -> Chart:
    """The series' samples as the top bar, its functions below it, each as
    wide as its share (an SVG: the page needs no script)."""
    bars, x = [], 0.0
    for i, f in enumerate(b.functions):
        cost = b.cost(f)
        if not cost or not b.total:
            continue
        w = WIDTH * cost / b.total
        tip = f"{f.function}: {cost / b.samples:.2f} per sample ({_share(b, cost)})"
        label = f.function if w >= CHAR * (len(f.function) + 1) else ""
        bars.append(f'<g><title>{escape(tip)}</title><rect x="{x:.2f}" y="{BAR}" '
                    f'width="{w:.2f}" height="{BAR}" fill="{_PALETTE[i % len(_PALETTE)]}" '
                    f'stroke="#fff"/><text x="{x + 4:.2f}" y="{BAR + 17}">{escape(label)}'
                    "</text></g>")
        x += w
    top = f"{b.case_id} {b.series}: {b.per_sample:.2f} per sample"
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{2 * BAR}" '
           f'viewBox="0 0 {WIDTH} {2 * BAR}" font-family="sans-serif" font-size="12">'
           f'<rect width="{WIDTH}" height="{BAR}" fill="#d9d9d9" stroke="#fff"/>'
           f'<text x="4" y="17">{escape(top)}</text>{"".join(bars)}</svg>')
    return Chart(anchor(f"{b.system}-{b.case_id}-{b.series}"), title(b), svg)


def categories_section(found: Sequence[Breakdown], ports_dir: Path, width: int = 3
                       ) -> Section:
    """One column per breakdown: per category its per-sample count and its
    `width` largest functions; the totals at the bottom."""
    groups = [grouped(b, ports_dir) for b in found]
    order = [c for c in (*CATEGORIES, MEASUREMENT) if any(c in g for g in groups)]
    sec = Section("Per sample, by category", ["per sample", *(f"{b.system} {b.series}"
                                                              for b in found)])
    for c in order:
        sec.add([c, *(Cell(f"{sum(v for _, v in g[c]):.2f}" if c in g else "-")
                      for g in groups)])
        for i in range(width):
            row: list[Value] = [""]
            row += [f"{fns[i][0]} {fns[i][1]:.2f}" if i < len(fns := g.get(c, [])) else ""
                    for g in groups]
            if any(row[1:]):
                sec.add(row)
    sec.add(["total", *(Cell(f"{b.per_sample:.2f}") for b in found)])
    sec.add(["figure", *(Cell(f"{b.per_sample - b.overhead:.2f}") for b in found)])
    return sec


def _data(found: Sequence[Breakdown]) -> list[dict[str, Any]]:
    return [{"system": b.system, "port": b.port, "case": b.case_id, "series": b.series,
             "execution": b.execution_id, "unit": b.unit, "samples": b.samples,
             "total": b.total, "per_sample": b.per_sample, "overhead": b.overhead,
             "functions": [{"function": f.function, "instructions": f.instructions,
                            "cycles": f.cycles, "calls": f.calls,
                            "per_sample": b.cost(f) / b.samples,
                            "share": b.cost(f) / b.total if b.total else 0.0}
                           for f in b.functions]} for b in found]


def sheet(found: Sequence[Breakdown], heading: str, top: int = 0,
          ports_dir: Path | None = None) -> Sheet:
    """The breakdowns under `heading`; with `ports_dir` (the ports' category
    files), the categories side by side instead of each one's functions."""
    secs = [categories_section(found, ports_dir)] if ports_dir is not None else \
        [functions_section(b, top) for b in found]
    return Sheet("explain", anchor(heading), heading, [], secs,
                 charts=[icicle(b) for b in found], data={"breakdowns": _data(found)})
