"""Terminal report: the comparison as rich tables, returned as text.

One table per target and family, one column per compared system; the
secondary figure of a cell (p99, % of the best) is dim, a failed result is
red and marked ✗. The CLI prints the text; tests assert on it. Colour is
left to the caller (`render(view, color=True)` keeps the ANSI styles).
"""

from __future__ import annotations

import io
import os
import shutil

from rich.console import Console
from rich.table import Table
from rich.text import Text

from rtosmeter.model import FAIL_MARK, RunView
from rtosmeter.reports import REPORT, document
from rtosmeter.reports._glance_text import text as glance_text
from rtosmeter.reports.document import Document
from rtosmeter.reports.document.cells import Cell, Section, Value
from rtosmeter.reports.document.sheet import Sheet
from rtosmeter.textsafe import terminal_safe

SUFFIX = ".txt"
NAME_COLUMNS = ("system", "case", "series", "group", "check", "figure")
STYLE = {"fail": "red", "dim": "dim", "worse": "bold red", "better": "green"}  # Cell.flag


def _text(value: Value, color: bool = False) -> Text:
    """A cell as rich Text (never parsed as markup: names and reasons are data);
    without colour the secondary figure is bracketed, so it stays apart."""
    if isinstance(value, str):
        return Text(terminal_safe(value))
    cell: Cell = value
    style = STYLE.get(cell.flag, "")
    out = Text(f"{FAIL_MARK} " if cell.flag == "fail" else "", style=style)
    out.append(terminal_safe(cell.text), style=style)
    if cell.sub:
        sub = terminal_safe(cell.sub)
        out.append(f" {sub}" if color else f" ({sub})", style="dim")
    return out


def _table(sec: Section, color: bool = False) -> Table:
    table = Table()
    for i, h in enumerate(sec.headers):
        numeric = bool(sec.numeric) and i >= sec.numeric
        # names stay on one line; only long free text (reasons, errors) folds
        table.add_column(h, justify="right" if numeric else "left", overflow="fold",
                         no_wrap=h in NAME_COLUMNS)
    for row in sec.rows:
        table.add_row(*(_text(v, color) for v in row))
    return table


def terminal_width() -> int:
    """COLUMNS, else the terminal's width, else 160 (a file or a pipe)."""
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else \
        shutil.get_terminal_size((160, 24)).columns


def _sections(doc: Document, view: str) -> tuple[str, list[Section], str]:
    """(title, sections, what to say without any) of the report or a view:
    the report's tables, the latency layouts left out (Section.compact);
    the answer per target follows them (`render`)."""
    if view == REPORT:
        return (doc.title, [s.compact() for s in doc.comparison],
                "No results stored for this run." if not doc.comparison else "")
    v = doc.view_named(view)
    return f"{doc.title}: {v.heading}", v.sections, "" if v.sections else v.empty


def _print_sections(console: Console, secs: list[Section], color: bool) -> None:
    for sec in secs:
        # title and notes at the console's width, not folded to a narrow table's
        console.print()
        console.print(Text(terminal_safe(sec.title), style="bold"))
        console.print(_table(sec, color))
        for note in sec.notes:
            console.print(Text(terminal_safe(note), style="italic"))


def _console(width: int | None, color: bool) -> Console:
    return Console(record=True, width=width or terminal_width(), force_terminal=color,
                   no_color=not color, file=io.StringIO())


def _sheet(sheet: Sheet, width: int | None, color: bool) -> str:
    """A comparison, a study or a breakdown: its headline and sentences, its
    tables, its notes (the title names the page and the file: the first
    screen is the headline)."""
    console = _console(width, color)
    for i, line in enumerate(sheet.lead):
        console.print(Text(terminal_safe(line), style="bold" if i == 0 else ""))
    _print_sections(console, sheet.sections, color)
    if sheet.notes:
        console.print()
    for note in sheet.notes:
        console.print(Text(terminal_safe(note), style="italic"))
    return console.export_text(styles=color)


def render(source: RunView | Document | Sheet, width: int | None = None, color: bool = False,
           view: str = REPORT) -> str:
    """The report (or another view of it) as the terminal shows it."""
    if isinstance(source, Sheet):
        return _sheet(source, width, color)
    source = document.of(source)
    heading, secs, empty = _sections(source, view)
    console = _console(width, color)
    console.print(terminal_safe(heading), markup=False, highlight=False)
    if empty:
        console.print(empty)
    _print_sections(console, secs, color)
    if view == REPORT and source.glances:  # the last lines: the answer, as `run` prints it
        console.print()
        console.print(Text(glance_text(source.glances)))
    return console.export_text(styles=color)
