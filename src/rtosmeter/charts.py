"""Charts for the reports, drawn with matplotlib (Agg) from statistics only.

Every chart is drawn from summary figures the analysis already computed
(percentiles, scores, byte counts), never from raw samples, so a run with
millions of samples costs the same to plot as a run with a hundred. Box plots
use `Axes.bxp`, which takes precomputed statistics.

Charts come back as SVG text: the HTML report inlines it (no network, no
CDN), the Markdown report writes it next to the .md file. Names from the run
(ports, cases, series) are drawn as plain text: math-text parsing is off, so a
`$` in a name is not a formula, and matplotlib escapes the text it writes.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import re
import textwrap
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure

matplotlib.use("Agg")  # no display, no GUI toolkit: charts are files

# Okabe-Ito palette: distinguishable with the common colour-vision deficiencies.
PALETTE = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#CC79A7",
    "#56B4E9",
    "#F0E442",
    "#000000",
)
PART_COLOURS = {
    "kernel": "#0072B2",
    "benchmark": "#E69F00",
    "libc": "#009E73",
    "startup": "#CC79A7",
    "start-up": "#CC79A7",
}
_RC: Any = {  # matplotlib types rc keys as a Literal union
    "svg.fonttype": "none",  # text stays text: small, searchable, selectable
    "text.parse_math": False,  # a "$" in a port name is not a formula
    "font.size": 9,
    "font.family": "sans-serif",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.grid.axis": "x",
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "axes.axisbelow": True,
}


def colour_for(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


@dataclass(frozen=True)
class BoxStats:
    """One box of a box plot: percentiles of a distribution, in its unit."""

    label: str
    p1: float
    p25: float
    p50: float
    p75: float
    p99: float
    min: float
    max: float
    mean: float
    colour: str = PALETTE[0]


@dataclass(frozen=True)
class Bar:
    label: str  # the category on the axis (a case)
    group: str  # the series within the category (a port)
    value: float
    colour: str = PALETTE[0]


@dataclass(frozen=True)
class Stack:
    """One stacked bar: origin -> bytes."""

    label: str
    parts: dict[str, int]


@dataclass(frozen=True)
class Line:
    """One line of a history chart: x positions and (value, low, high)."""

    label: str
    xs: list[int]
    values: list[float]
    lows: list[float]
    highs: list[float]
    colour: str = PALETTE[0]


_counter = 0
PER_WORKER = 4  # box plots a forked worker draws at a time


def reset_ids() -> None:
    """Number chart ids from 1 again (call at the start of a report, so the
    same run gives the same report bytes)."""
    global _counter
    _counter = 0


@contextmanager
def _figure(width: float, height: float) -> Iterator[Figure]:
    # A bare Figure, not pyplot: no global figure list to leak into.
    with matplotlib.rc_context(_RC):
        yield Figure(figsize=(width, height))


def _margins(fig: Figure, labels: Sequence[str], top_in: float = 0.2,
             bottom_in: float = 0.5) -> None:
    """Room for the y labels, computed from their length: cheaper than
    bbox_inches="tight", which draws every chart twice."""
    width, height = fig.get_size_inches()
    left_in = 0.25 + 0.062 * max((len(x) for x in labels), default=4)
    fig.subplots_adjust(left=min(left_in / width, 0.6), right=1 - 0.35 / width,
                        bottom=bottom_in / height, top=1 - top_in / height)


def _svg(fig: Figure, tight: bool = False, salt: int | None = None) -> str:
    """The figure as an SVG document, with ids unique in the page (`salt`:
    the chart's number, taken from the page's count when None)."""
    global _counter
    if salt is None:
        _counter += 1
        salt = _counter
    buf = io.StringIO()
    # A per-chart salt keeps the ids of clip paths and markers of two inlined
    # charts apart; dropping the date keeps output reproducible.
    with matplotlib.rc_context({"svg.hashsalt": f"rm{salt}", **_RC}):
        fig.savefig(buf, format="svg", bbox_inches="tight" if tight else None,
                    metadata={"Date": None})
    return buf.getvalue()


def inline(svg: str) -> str:
    """An SVG document as an element to place in HTML, scaled by the page's CSS
    (the fixed size in pt is dropped; the viewBox keeps the aspect ratio)."""
    element = svg[svg.find("<svg") :]
    # The RDF metadata block only names namespaces by URL; a page needs none of it.
    element = re.sub(r"\s*<metadata>.*?</metadata>", "", element, count=1, flags=re.S)
    # matplotlib numbers its groups from 1 in every figure (id="figure_1"):
    # ids nothing refers to are dropped, so a page of charts keeps ids unique
    # (clip paths, which are referred to, carry the per-chart hash salt).
    used = set(re.findall(r"#([\w.-]+)", element))
    element = re.sub(r'\s+id="([^"]*)"', lambda m: m[0] if m[1] in used else "", element)
    return re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r"<svg\1", element, count=1)


def _wrap(label: str, width: int = 28) -> str:
    return label if len(label) <= width else label[: width - 1] + "…"


def box_plot(boxes: Sequence[BoxStats], axis_label: str, title: str = "",
             salt: int | None = None) -> str:
    """Horizontal box plot: box 25-75 %, line median, whiskers 1-99 %,
    dots min and max, diamond mean. One row per box, first at the top.
    Each kind of mark is one collection for all the boxes (matplotlib's
    bxp draws a line per whisker, cap and median: ten times slower)."""
    height = 0.9 + 0.36 * len(boxes)
    rows = list(reversed(boxes))
    ys = list(range(1, len(rows) + 1))
    half, cap = 0.3, 0.15  # half the box's height; half a cap's
    with _figure(7.5, height) as fig:
        ax = fig.add_subplot()
        ax.add_collection(PolyCollection(
            [[(b.p25, y - half), (b.p75, y - half), (b.p75, y + half), (b.p25, y + half)]
             for b, y in zip(rows, ys, strict=True)],
            facecolors=[to_rgba(b.colour, 0.75) for b in rows], edgecolors="#000000",
            linewidths=1.0))
        Segment = list[tuple[float, float]]
        whiskers: list[Segment] = [[(b.p1, y), (b.p25, y)]
                                   for b, y in zip(rows, ys, strict=True)]
        whiskers += [[(b.p75, y), (b.p99, y)] for b, y in zip(rows, ys, strict=True)]
        whiskers += [[(x, y - cap), (x, y + cap)] for b, y in zip(rows, ys, strict=True)
                     for x in (b.p1, b.p99)]
        ax.add_collection(LineCollection(whiskers, colors="#000000", linewidths=1.0))
        ax.add_collection(LineCollection(
            [[(b.p50, y - half), (b.p50, y + half)] for b, y in zip(rows, ys, strict=True)],
            colors="#111111", linewidths=1.4))
        ax.scatter([x for b in rows for x in (b.min, b.max)], [y for y in ys for _ in (0, 1)],
                   s=9, marker="o", c="#333333", edgecolors="none", zorder=3)
        ax.scatter([b.mean for b in rows], ys, s=16, marker="D", c="white",
                   edgecolors="#333333", linewidths=1.0, zorder=3)
        labels = [_wrap(b.label, 40) for b in rows]
        ax.set_yticks([])  # the labels as plain text: a tick per row costs a third of the chart
        for y, label in zip(ys, labels, strict=True):
            ax.text(-0.01, y, label, transform=ax.get_yaxis_transform(), ha="right",
                    va="center")
        ax.set_ylim(0.5, len(rows) + 0.5)
        ax.set_xlabel(axis_label)
        _limit(ax, boxes)
        if title:
            ax.set_title(title, loc="left", fontsize=9)
        _margins(fig, labels, top_in=0.35 if title else 0.15)
        return _svg(fig, salt=salt)


BoxPlot = tuple[Sequence[BoxStats], str]  # the boxes and the axis label


def _box_plot(job: tuple[BoxPlot, int]) -> str:
    (boxes, axis_label), salt = job
    return box_plot(boxes, axis_label, salt=salt)


def box_plots(plots: Sequence[BoxPlot]) -> list[str]:
    """box_plot of each, in order, with the ids they would get one after the
    other; many on a machine with cores to spare, drawn by forked workers
    (matplotlib draws on one core, and a report holds a chart per case).
    Only a process running no other thread forks (a fork copies no thread,
    so a lock another held would stay taken in the copy)."""
    global _counter
    jobs = [(plot, _counter + i + 1) for i, plot in enumerate(plots)]
    _counter += len(jobs)
    cores = min(os.cpu_count() or 1, 4)
    if len(jobs) < 2 * PER_WORKER or cores < 2 or threading.active_count() > 1 \
            or "fork" not in multiprocessing.get_all_start_methods():
        return [_box_plot(job) for job in jobs]
    with ProcessPoolExecutor(cores, mp_context=multiprocessing.get_context("fork")) as pool:
        return list(pool.map(_box_plot, jobs, chunksize=PER_WORKER))


def _limit(ax: Axes, boxes: Sequence[BoxStats]) -> None:
    """Show the boxes and whiskers; a min or max far outside them (a host
    preempted once in 100,000 samples) would squash every box to a line, so
    the axis stops short of it and the value is written at the edge."""
    lo = min(b.min for b in boxes)
    core_hi = max(b.p99 for b in boxes)
    core_lo = min(b.p1 for b in boxes)
    spread = (core_hi - core_lo) or max(abs(core_hi), 1.0)
    hi = max(b.max for b in boxes)
    limit = core_hi + 2 * spread
    clipped = hi > limit
    top = limit if clipped else hi
    span = (top - lo) or max(abs(top), 1.0)
    ax.set_xlim(lo - 0.04 * span, top + (0.22 if clipped else 0.04) * span)
    if not clipped:
        return
    for y, b in enumerate(reversed(boxes), start=1):
        if b.max > limit:
            text = f"max {b.max:,.0f} ▸" if abs(b.max) >= 100 else f"max {b.max:.3g} ▸"
            ax.annotate(text, xy=(1.0, y), xycoords=("axes fraction", "data"),
                        ha="right", va="center", fontsize=7, color="#555555")


def grouped_bars(
    bars: Sequence[Bar], axis_label: str, value_format: str, reference: float | None = None
) -> str:
    """Horizontal grouped bars: one block per category, one bar per group,
    the value written at the end of each bar. `reference` draws a line (100 %
    or 1.0x)."""
    categories = list(dict.fromkeys(b.label for b in bars))
    groups = list(dict.fromkeys(b.group for b in bars))
    per = {(b.label, b.group): b for b in bars}
    slot = 0.8 / max(len(groups), 1)
    height = 0.8 + len(categories) * (0.22 * len(groups) + 0.25)
    with _figure(7.5, height) as fig:
        ax = fig.add_subplot()
        top = max((b.value for b in bars), default=1.0)
        for gi, group in enumerate(groups):
            ys, vals, cols = [], [], []
            for ci, cat in enumerate(categories):
                bar = per.get((cat, group))
                if bar is None:
                    continue
                ys.append(len(categories) - 1 - ci + 0.4 - slot * (gi + 0.5))
                vals.append(bar.value)
                cols.append(bar.colour)
            ax.barh(ys, vals, height=slot * 0.9, color=cols, label=group)
            for y, v in zip(ys, vals, strict=True):
                ax.text(v + top * 0.01, y, value_format.format(v), va="center", fontsize=7)
        ax.set_yticks(range(len(categories)), [_wrap(c) for c in reversed(categories)])
        ax.set_xlim(0, top * 1.15)
        if reference is not None:
            ax.axvline(reference, color="#555555", linewidth=0.8, linestyle="--")
        ax.set_xlabel(axis_label)
        if len(groups) > 1:
            ax.legend(loc="lower right", fontsize=7, frameon=False,
                      bbox_to_anchor=(1.0, 1.0), ncols=min(len(groups), 4))
        _margins(fig, [_wrap(c) for c in categories], top_in=0.4 if len(groups) > 1 else 0.15)
        return _svg(fig)


def stacked_bars(stacks: Sequence[Stack], axis_label: str, title: str = "") -> str:
    """Horizontal stacked bars (footprint: kernel / benchmark / libc / start-up)."""
    origins: list[str] = []
    for s in stacks:
        for o in s.parts:
            if o not in origins:
                origins.append(o)
    height = 0.9 + 0.3 * len(stacks)
    with _figure(7.5, height) as fig:
        ax = fig.add_subplot()
        ys = list(range(len(stacks) - 1, -1, -1))
        left = [0.0] * len(stacks)
        # origins without a colour of their own (framework, other...) take the
        # palette's unused colours in turn, so no two parts look alike
        spare = iter([c for c in PALETTE if c not in PART_COLOURS.values()] * 2)
        colours = {o: PART_COLOURS.get(o) or next(spare, PALETTE[-1]) for o in origins}
        for origin in origins:
            widths = [float(s.parts.get(origin, 0)) for s in stacks]
            ax.barh(ys, widths, left=left, height=0.6, label=origin, color=colours[origin])
            left = [a + b for a, b in zip(left, widths, strict=True)]
        for y, total in zip(ys, left, strict=True):
            ax.text(total, y, f" {total:,.0f}", va="center", fontsize=7)
        ax.set_yticks(ys, [_wrap(s.label, 40) for s in stacks])
        ax.set_xlim(0, max(left, default=1.0) * 1.15 or 1.0)
        ax.set_xlabel(axis_label)
        if title:
            ax.set_title(title, loc="left", fontsize=9)
        if origins:  # a footprint without parts has nothing to name
            ax.legend(loc="lower right", fontsize=7, frameon=False,
                      bbox_to_anchor=(1.0, 1.0), ncols=len(origins))
        _margins(fig, [_wrap(s.label, 40) for s in stacks], top_in=0.6 if title else 0.4)
        return _svg(fig)


@dataclass(frozen=True)
class Panel:
    """One axis of a history chart: the lines that share a target and unit."""

    title: str
    unit: str
    lines: list[Line]


def history_chart(panels: Sequence[Panel], x_labels: dict[int, str], what: str,
                  png: Path | None = None) -> str:
    """One value per run along the x axis, with a band (e.g. 25-75 %), one
    panel (its own y axis) per target and unit, the runs shared. With `png`,
    the chart is also written there as a PNG image."""
    with _figure(7.5, 0.8 + 2.8 * max(len(panels), 1)) as fig:
        axes = fig.subplots(max(len(panels), 1), 1, sharex=True, squeeze=False)[:, 0]
        for ax, panel in zip(axes, panels, strict=False):
            ax.grid(True, axis="both")
            for line in panel.lines:
                ax.fill_between(line.xs, line.lows, line.highs, color=line.colour, alpha=0.18,
                                linewidth=0)
                ax.plot(line.xs, line.values, marker="o", markersize=3.5, color=line.colour,
                        label=_wrap(line.label, 50))
            ax.set_ylabel("\n".join(textwrap.wrap(panel.unit, 26)), fontsize=8)
            ax.set_title(f"{panel.title}: {what}", loc="left", fontsize=9)
            if panel.lines:
                ax.legend(fontsize=7, frameon=False)
        xs = sorted(x_labels)
        axes[-1].set_xticks(xs, [x_labels[x] for x in xs], rotation=30, ha="right",
                            fontsize=7)
        axes[-1].set_xlabel("run")
        if png is not None:
            fig.savefig(png, format="png", dpi=150, bbox_inches="tight")
        return _svg(fig, tight=True)


def save(svg: str, path: str) -> None:
    """Write a chart as a standalone SVG file (for Markdown reports)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(svg)


@dataclass(frozen=True)
class RatioBar:
    """One system against the best: the geometric mean and its case range."""

    label: str
    ratio: float
    low: float
    high: float
    marks: str = ""
    colour: str = PALETTE[0]


@dataclass(frozen=True)
class RatioPanel:
    """The bars of one group (a profile), with the floor's reference line."""

    title: str
    bars: list[RatioBar]
    floor: float | None = None
    floor_label: str = ""


def ratio_bars(panels: Sequence[RatioPanel], axis_label: str, width: float = 4.2) -> str:
    """Horizontal bars of x-the-best (1 = best), the smallest-largest case as
    a whisker, the marks and value at the bar's end, a dashed line for the
    floor; one panel per group, sharing the axis. A whisker far beyond the
    bars is cut at the axis' end and its value written there."""
    rows = sum(len(p.bars) for p in panels)
    height = 0.55 + 0.3 * len(panels) + 0.27 * rows
    bar_top = max((b.ratio for p in panels for b in p.bars), default=1.0)
    floor_top = max((p.floor or 0.0 for p in panels), default=0.0)
    limit = max(bar_top * 1.6, floor_top * 1.1, 1.25)
    with _figure(width, height) as fig:
        axes = fig.subplots(len(panels), 1, sharex=True, squeeze=False,
                            height_ratios=[max(len(p.bars), 1) for p in panels])[:, 0]
        for ax, panel in zip(axes, panels, strict=True):
            ys = list(range(len(panel.bars) - 1, -1, -1))
            ax.barh(ys, [b.ratio for b in panel.bars], height=0.62,
                    color=[b.colour for b in panel.bars], alpha=0.85)
            for y, b in zip(ys, panel.bars, strict=True):
                hi = min(b.high, limit)
                ax.plot([b.low, hi], [y, y], color="#333333", linewidth=1.0)
                ax.plot([b.low, b.low], [y - 0.18, y + 0.18], color="#333333", linewidth=1.0)
                if b.high <= limit:
                    ax.plot([hi, hi], [y - 0.18, y + 0.18], color="#333333", linewidth=1.0)
                else:
                    ax.annotate(f"{b.high:.3g}x ▸", xy=(limit, y + 0.12), ha="right",
                                va="bottom", fontsize=6.5, color="#555555")
                text = f"{b.ratio:.2f}x" + (f" {b.marks}" if b.marks else "")
                ax.text(max(b.ratio, hi) + limit * 0.015, y, text, va="center", fontsize=7.5)
            if panel.floor is not None:
                ax.axvline(panel.floor, color="#555555", linewidth=0.9, linestyle="--")
                ax.annotate(panel.floor_label, xy=(panel.floor, 1.0),
                            xycoords=("data", "axes fraction"), ha="left", va="bottom",
                            fontsize=6.5, color="#555555", xytext=(2, 0),
                            textcoords="offset points")
            ax.axvline(1.0, color="#999999", linewidth=0.6)
            ax.set_yticks(ys, [_wrap(b.label, 22) for b in panel.bars])
            ax.set_ylim(-0.6, len(panel.bars) - 0.4)
            ax.set_title(panel.title, loc="left", fontsize=8, color="#333333")
        axes[-1].set_xlim(0, limit * 1.2)  # room for the last value's text
        axes[-1].set_xlabel(axis_label, fontsize=8)
        labels = [_wrap(b.label, 22) for p in panels for b in p.bars]
        _margins(fig, labels, top_in=0.3, bottom_in=0.45)
        fig.subplots_adjust(hspace=0.9 / max(height, 1.0) * len(panels))
        return _svg(fig)
