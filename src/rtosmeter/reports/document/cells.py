"""The document's building blocks, the same for every format: a table
(`Section`) of cells (`Cell`) with a class and marks, a chart, and the
number format every figure is written in."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from rtosmeter.model import (
    FAIL_MARK,
    NOT_MEANINGFUL,
    STAND_IN_MARK,
    WARN_MARK,
    CaseResult,
    CaseStatus,
    RunView,
)
from rtosmeter.textsafe import chart_name
from rtosmeter.vocabulary import system


@dataclass(frozen=True)
class Cell:
    """One table cell of every format: a main figure, an optional secondary
    one shown small (dim in the terminal, <sub> in Markdown), and a flag:
    "fail" marks a result whose property check failed or that did not finish
    (its figure stays, marked ✗); "dim" a cell with no figure (unsupported)
    or a figure to read with care; "best" the best of its row; "worse" and
    "better" a change found worse or better (a comparison's verdict: nothing
    failed, so no ✗).

    `title` (detail on hover), `span` (columns covered) and `kind` (what the
    cell holds, for formats that style it: "what", "text", a tint "up1".."up3",
    "first" of a group) are for the HTML; the text formats leave them out."""

    text: str
    sub: str = ""
    flag: str = ""
    title: str = ""
    span: int = 1
    kind: str = ""

    def plain(self) -> str:
        mark = f"{FAIL_MARK} " if self.flag == "fail" else ""
        return mark + self.text + (f" ({self.sub})" if self.sub else "")


Value = str | Cell

# A row of this kind is detail the terminal leaves out (Section.compact_notes
# says what); every other format shows it.
DETAIL = "detail"


@dataclass
class Section:
    """A titled table of every format: the first cell of a row labels it."""

    title: str
    headers: list[str]
    rows: list[list[Value]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    numeric: int = 0  # columns from this index on are right-aligned
    # per row, what it is, for formats that style rows (HTML: differs,
    # identity, specific, alone, check-failed; DETAIL); empty: nothing to say
    kinds: list[str] = field(default_factory=list)
    lead: int = 0  # the first `lead` notes are the headline (the answer's rankings)
    compact_notes: list[str] = field(default_factory=list)  # what the DETAIL rows hold

    def add(self, row: list[Value], kind: str = "") -> None:
        if kind and not self.kinds:
            self.kinds = [""] * len(self.rows)
        if self.kinds:
            self.kinds.append(kind)
        self.rows.append(row)

    def compact(self) -> Section:
        """The terminal's table: without the DETAIL rows, saying what they hold."""
        if DETAIL not in self.kinds:
            return self
        keep = [i for i, k in enumerate(self.kinds) if k != DETAIL]
        return Section(self.title, self.headers, [self.rows[i] for i in keep],
                       self.compact_notes + self.notes, self.numeric,
                       [self.kinds[i] for i in keep], self.lead)


@dataclass
class Chart:
    name: str  # a file name stem for the Markdown report
    title: str
    svg: str  # a standalone SVG document

    @property
    def inline(self) -> str:
        from rtosmeter import charts

        return charts.inline(self.svg)


def anchor(text: str) -> str:
    """An HTML id and chart file stem, unique per text (textsafe.chart_name)."""
    return "c-" + chart_name(text)


def fmt(x: float | int | None) -> str:
    """A figure to 4-5 significant digits; "-" for a missing one."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if isinstance(x, int) or float(x).is_integer():
        return f"{int(x):,}"
    a = abs(x)
    if a >= 100:
        return f"{x:,.0f}"
    if a >= 10:
        return f"{x:.1f}"
    if a >= 1:
        return f"{x:.2f}"
    return f"{x:.3g}"


def title(view: RunView) -> str:
    finished = f", finished {view.finished}" if view.finished else ""
    return f"rtosmeter run {view.run_id} ({view.status}), started {view.started}{finished}"


def flag(case: CaseResult) -> str:
    return "" if case.status == CaseStatus.OK else "fail"


def empty(case: CaseResult | None) -> Cell:
    """The cell of a case without a figure: why there is none."""
    if case is None:
        return Cell("")
    if case.status == CaseStatus.UNSUPPORTED:
        return Cell(CaseStatus.UNSUPPORTED, flag="dim")
    if case.timing_void and case.status == CaseStatus.OK:
        return Cell(NOT_MEANINGFUL, case.timing_void, flag="dim")
    return Cell(case.status, flag="fail")


def marked(text: str, case: CaseResult) -> str:
    """A figure with the stand-in mark when it depends on one, and the
    warning mark when a warning is about it; no figure at all where the
    case's timings are not meaningful (analysis._void_timings)."""
    if case.timing_void:
        return NOT_MEANINGFUL
    marks = STAND_IN_MARK * bool(case.stand_ins) + WARN_MARK * bool(case.warned)
    return f"{text} {marks}" if marks else text


def table_notes(cases: Iterable[CaseResult]) -> list[str]:
    """A comparison table's notes: one per system and stand-in, and one
    counting the figures marked ⚠ (the Warnings section lists each once)."""
    cases = list(cases)
    notes = dict.fromkeys(f"{STAND_IN_MARK} {system(c)}: {cap} measured as {what}"
                          for c in cases for cap, what in sorted(c.stand_ins.items()))
    warned = [c for c in cases if c.warned]
    if warned:
        n = sum(len(c.warned) for c in warned)
        notes[f"{WARN_MARK} {n} warning{'s' * (n != 1)} about {len(warned)} of these cases: "
              "each is listed once, under Warnings."] = None
    return list(notes)


def stand_in_notes(cases: Iterable[CaseResult]) -> list[str]:
    """One note per system and stand-in, and per warning, for the table that
    shows the marks."""
    cases = list(cases)
    notes = dict.fromkeys(f"{STAND_IN_MARK} {system(c)}: {cap} measured as {what}"
                          for c in cases for cap, what in sorted(c.stand_ins.items()))
    notes.update(dict.fromkeys(f"{WARN_MARK} {system(c)} {c.case_id}: {w}"
                               for c in cases for w in c.warned))
    return list(notes)
