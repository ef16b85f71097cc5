"""Terminal report: one rich table per section, returned as text.

The CLI prints the text; tests assert on it. Colour is left to the caller
(`render(view, color=True)` keeps the ANSI styles).
"""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table

from rtosmeter.model import RunView
from rtosmeter.reports._common import Section, sections, title

SUFFIX = ".txt"


def _table(sec: Section) -> Table:
    table = Table(title=sec.title, title_justify="left", caption=" ".join(sec.notes) or None,
                  caption_justify="left")
    for i, h in enumerate(sec.headers):
        numeric = bool(sec.numeric) and i >= sec.numeric
        # names stay on one line; only long free text (reasons, errors) folds
        table.add_column(h, justify="right" if numeric else "left", overflow="fold",
                         no_wrap=h in ("system", "case", "series"))
    for row in sec.rows:
        style = "red" if "FAILED" in row or row[-1:] == ["failed"] else None
        table.add_row(*row, style=style)
    return table


def render(view: RunView, width: int = 160, color: bool = False) -> str:
    console = Console(record=True, width=width, force_terminal=color, no_color=not color,
                      file=io.StringIO())
    console.print(title(view))
    secs = sections(view)
    if not secs:
        console.print("No results stored for this run.")
    for sec in secs:
        console.print()
        console.print(_table(sec))
    return console.export_text(styles=color)
