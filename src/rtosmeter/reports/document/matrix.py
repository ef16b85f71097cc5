"""A case with one series per ready-list layout (lat.thread.lifecycle: call
x other threads x priority gap) as a matrix: medians in a call x threads by
system x gap grid, each tinted against the same call alone."""

from __future__ import annotations

from dataclasses import dataclass

from rtosmeter.model import CaseResult, Distribution
from rtosmeter.numbers import whole_or_none
from rtosmeter.reports.document.cells import Cell, Section, fmt
from rtosmeter.reports.document.systems import BuildKey, Column, key_of

# Tints of a layout's median against the same call alone (same system):
# (at least this ratio, css class). Class names only: the page keeps no script.
TINTS = ((2.0, "up3"), (1.5, "up2"), (1.1, "up1"))
CLAMPED = "†"


@dataclass
class Matrix:
    unit: str
    systems: list[tuple[str, str]]  # (label, colour)
    gaps: list[int]
    table: Section  # rows "call · N other threads"; cells per system x gap
    notes: list[str]


class _Grid:
    """The layouts of one case in one unit: which calls, thread counts, gaps."""

    def __init__(self, layouts: dict[str, tuple[str, int, int]]) -> None:
        self.layouts = layouts
        self.calls = list(dict.fromkeys(c for c, _, _ in layouts.values()))
        self.threads = sorted({n for _, n, _ in layouts.values()})
        self.gaps = sorted({g for _, _, g in layouts.values()})
        self.clamped = False

    def series(self, call: str, n: int, g: int) -> str:
        name = f"{call}@{n}" + (f"/g{g}" if g != 1 else "")
        return name if name in self.layouts else f"{call}@{n}/g{g}"

    def cells(self, r: CaseResult, ds: dict[str, Distribution], call: str, n: int
              ) -> list[Cell]:
        """One system's cells of a row: the call alone over every gap, or
        one per gap ("first": the border between two systems)."""
        alone = ds.get(call)
        if n == 0:
            return [_layout_cell(alone, None, "", len(self.gaps))]
        out = []
        for g in self.gaps:
            mark = ""
            count = r.meta.get(f"clamped@{n}/g{g}", "")
            if whole_or_none(count, 1) is not None:
                mark, self.clamped = CLAMPED, True
            out.append(_layout_cell(ds.get(self.series(call, n, g)), alone, mark, 1, count,
                                    first=g == self.gaps[0]))
        return out


def matrix(results: list[CaseResult], unit: str, layouts: dict[str, tuple[str, int, int]],
           col_of: dict[BuildKey, Column]) -> Matrix:
    """Medians of every layout: one row per (call, other threads), per system
    one column per priority gap; the call alone first, over every gap."""
    grid = _Grid(layouts)
    systems = [r for r in results if any(d.unit.label == unit for d in r.distributions)]
    dists = {(key_of(r), r.group): {d.series: d for d in r.distributions if d.unit.label == unit}
             for r in systems}
    table = Section("", [])  # the template writes the two header rows
    for call in grid.calls:
        for n in [0, *grid.threads]:
            cells = [c for r in systems for c in grid.cells(r, dists[(key_of(r), r.group)],
                                                            call, n)]
            label = f"{call} · alone" if n == 0 else f"{call} · {n} others"
            table.add([label, *cells], "alone" if n == 0 else "")
    notes = ["Median per layout (hover: the series, p99 and max). Tint: the median against "
             "the same call alone on the same port: ≥ 1.1x, ≥ 1.5x, ≥ 2x."]
    if grid.clamped:
        notes.append(f"{CLAMPED} some of the other threads share the highest priority below "
                     "the measured thread: the priority range ran out at this gap (META "
                     "clamped@N/gG says how many).")
    labels = [(col_of[key_of(r)].label + (f" · {r.group}" if len(
        {x.group for x in systems if key_of(x) == key_of(r)}) > 1 else ""),
        col_of[key_of(r)].colour) for r in systems]
    return Matrix(unit, labels, grid.gaps, table, notes)


def _layout_cell(d: Distribution | None, alone: Distribution | None, mark: str, span: int,
                 clamped: str = "", first: bool = True) -> Cell:
    edge = "first" if first else ""
    if d is None:
        return Cell("—", flag="dim", span=span, kind=edge)
    title = f"{d.series}: median {fmt(d.p50)}, p99 {fmt(d.p99)}, max {fmt(d.max)}"
    if clamped and mark:
        title += f"; {clamped} threads clamped to the top priority"
    css = ""
    if alone is not None and alone.p50 > 0:
        ratio = d.p50 / alone.p50
        css = next((c for least, c in TINTS if ratio >= least), "")
        title += f"; {ratio:.2f}x the call alone"
    return Cell(fmt(d.p50) + mark, title=title, span=span, kind=f"{css} {edge}".strip())
