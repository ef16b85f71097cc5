"""Terminal report: the comparison as rich tables, returned as text.

One table per target and family, one column per compared system; the
secondary figure of a cell (p99, % of the best) is dim, a failed result is
red and marked ✗. The CLI prints the text; tests assert on it. Colour is
left to the caller (`render(view, color=True)` keeps the ANSI styles).
"""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table
from rich.text import Text

from rtosmeter.model import FAIL_MARK, RunView
from rtosmeter.reports._common import Cell, Section, Value, sections, title
from rtosmeter.textsafe import terminal_safe

SUFFIX = ".txt"
NAME_COLUMNS = ("system", "case", "series", "group", "check", "figure")


def _text(value: Value) -> Text:
    """A cell as rich Text (never parsed as markup: names and reasons are data)."""
    if isinstance(value, str):
        return Text(terminal_safe(value))
    cell: Cell = value
    style = {"fail": "red", "dim": "dim"}.get(cell.flag, "")
    out = Text(f"{FAIL_MARK} " if cell.flag == "fail" else "", style=style)
    out.append(terminal_safe(cell.text), style=style)
    if cell.sub:
        out.append(f" {terminal_safe(cell.sub)}", style="dim")
    return out


def _table(sec: Section) -> Table:
    table = Table()
    for i, h in enumerate(sec.headers):
        numeric = bool(sec.numeric) and i >= sec.numeric
        # names stay on one line; only long free text (reasons, errors) folds
        table.add_column(h, justify="right" if numeric else "left", overflow="fold",
                         no_wrap=h in NAME_COLUMNS)
    for row in sec.rows:
        table.add_row(*(_text(v) for v in row))
    return table


def render(view: RunView, width: int = 160, color: bool = False) -> str:
    console = Console(record=True, width=width, force_terminal=color, no_color=not color,
                      file=io.StringIO())
    console.print(terminal_safe(title(view)), markup=False, highlight=False)
    secs = sections(view, compact=True)
    if not secs:
        console.print("No results stored for this run.")
    for sec in secs:
        # title and notes at the console's width, not folded to a narrow table's
        console.print()
        console.print(Text(terminal_safe(sec.title), style="bold"))
        console.print(_table(sec))
        for note in sec.notes:
            console.print(Text(terminal_safe(note), style="italic"))
    return console.export_text(styles=color)
