"""A study's [[table]] re-rendered: rows x columns of "ours · published",
normalised to the slowest or fastest system where the table says so, the
lowest or highest cell marked, in our native unit, as estimated µs at the
study's clock, or normalised."""

from __future__ import annotations

from dataclasses import dataclass

from rtosmeter.reports.document.cells import Cell, Section, fmt
from rtosmeter.studies.figures import Lookup, Ours, estimate_us
from rtosmeter.studies.model import TABLE_AXES, Figure, Study, Table

MARK_SIGN = {"lowest": " ▼", "highest": " ▲"}  # the marked cell, in every format
NONE = "-"  # no figure on that side (as cells.fmt)


@dataclass(frozen=True)
class Coord:
    operation: str
    system: str
    stat: str
    state: str
    hardware: str


def _axis(study: Study, t: Table, axis: str) -> list[str]:
    ops = [o.id for o in study.operations if o.case or o.id in t.operations]
    return {"operation": list(t.operations) or ops,
            "system": list(t.systems) or [s.label for s in study.systems],
            "stat": list(t.stats), "state": list(t.states),
            "hardware": [t.hardware] if t.hardware else list(study.hardware_keys)}[axis]


def _coord(t: Table, study: Study, row: str, col: str) -> Coord:
    """A cell's coordinates: its row's and column's, the first of each other axis."""
    fixed = {axis: _axis(study, t, axis)[0] for axis in TABLE_AXES}
    fixed[t.rows], fixed[t.columns] = row, col
    return Coord(**fixed)


def published(study: Study, c: Coord, unit: str) -> Figure | None:
    stat = "normalised" if unit == "normalised" else c.stat
    return next((f for f in study.figures
                 if (f.operation, f.system, f.stat, f.state, f.hardware)
                 == (c.operation, c.system, stat, c.state, c.hardware)), None)


class TableBuilder:
    def __init__(self, study: Study, lookup: Lookup, target: str) -> None:
        self.study, self.lookup, self.target = study, lookup, target

    def ours(self, c: Coord) -> Ours:
        if not self.study.operation(c.operation).case:
            return Ours(None, why=self.study.operation(c.operation).untestable)
        return self.lookup.get(c.operation, self.study.system(c.system), self.target, c.stat,
                               c.state)

    def scale(self, t: Table, coords: dict[tuple[str, str], Coord], unit: str
              ) -> dict[tuple[str, str], float | None]:
        """Each cell's number in `unit`; normalised: ÷ the slowest (or
        fastest) system of the cells that share every other coordinate."""
        raw = {k: (o.value if (o := self.ours(c)).ok else None) for k, c in coords.items()}
        if unit == "us":
            return {k: estimate_us(v, self.study.clock_hz) if v is not None and
                    self.ours(coords[k]).emulated else None for k, v in raw.items()}
        if unit != "normalised" or not t.normalise:
            return raw
        groups: dict[tuple[object, ...], list[float]] = {}
        for k, c in coords.items():
            if raw[k] is not None:
                groups.setdefault(_others(c), []).append(raw[k] or 0.0)
        pick = min if t.normalise == "slowest" else max
        out: dict[tuple[str, str], float | None] = {}
        for k, c in coords.items():
            base, value = pick(groups.get(_others(c), [0.0])), raw[k]
            out[k] = value / base if value is not None and base else None
        return out

    def section(self, t: Table, unit: str) -> Section:
        rows, cols = _axis(self.study, t, t.rows), _axis(self.study, t, t.columns)
        coords = {(r, c): _coord(t, self.study, r, c) for r in rows for c in cols}
        values = self.scale(t, coords, unit)
        best = _marked(t, values, rows, cols)
        label = {"native": "our unit", "us": f"estimated µs at {self.study.clock_hz / 1e6:g} "
                 "MHz", "normalised": f"normalised to the {t.normalise or 'slowest'}"}[unit]
        sec = Section(f"{t.title} — {self.target}, {label} (ours · published)",
                      [t.rows, *cols], numeric=1)
        units: set[str] = set()
        for r in rows:
            row: list[Cell | str] = [r]
            for c in cols:
                ours, pub = self.ours(coords[(r, c)]), published(self.study, coords[(r, c)], unit)
                v = values[(r, c)]
                text = (fmt(round(v, 2) if unit == "normalised" else v) + ours.marks
                        if v is not None else NONE)
                units |= {f"ours: {ours.unit}"} if ours.unit and unit == "native" else set()
                units |= {f"published: {pub.unit}"} if pub else set()
                mark = MARK_SIGN[t.mark] if (r, c) in best else ""
                row.append(Cell(f"{text}{mark} · {fmt(pub.value) if pub else NONE}",
                                flag="best" if (r, c) in best else "",
                                title=ours.why or (pub.source if pub else "")))
            sec.add(row)
        sec.notes = sorted(units) + _mark_note(t)
        return sec


def _others(c: Coord) -> tuple[object, ...]:
    return (c.operation, c.stat, c.state, c.hardware)


def _marked(t: Table, values: dict[tuple[str, str], float | None], rows: list[str],
            cols: list[str]) -> set[tuple[str, str]]:
    """The lowest/highest cell of each column (of each row with mark_along = "row")."""
    if not t.mark:
        return set()
    pick = min if t.mark == "lowest" else max
    lines = [[(r, c) for r in rows] for c in cols] if t.mark_along == "column" else \
        [[(r, c) for c in cols] for r in rows]
    out: set[tuple[str, str]] = set()
    for line in lines:
        found = [(values[k], k) for k in line if values[k] is not None]
        if found:
            best = pick(found, key=lambda vk: vk[0] or 0.0)[0]
            out.update(k for v, k in found if v == best)  # a tie: every cell of it
    return out


def _mark_note(t: Table) -> list[str]:
    return [f"{MARK_SIGN[t.mark].strip()} the {t.mark} of ours in each {t.mark_along}."] \
        if t.mark else []


def sections(study: Study, lookup: Lookup, target: str) -> list[Section]:
    builder = TableBuilder(study, lookup, target)
    return [builder.section(t, unit) for t in study.tables for unit in t.units
            if not t.hardware or any(x.name == target and x.hardware == t.hardware
                                     for x in study.targets)]
