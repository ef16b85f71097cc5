"""Report formats: one module per format, found by name in this package.

Every format renders the one report document (the `document` package,
built once from the analysed run), and the `document.sheet.Sheet` that
`compare`, `study report` and `explain` build. A format module exposes
`render(source: RunView | Document | Sheet) -> str` and `SUFFIX` (the file
extension its output is saved with, e.g. ".md"); those that also render the
document's other views (`--view load`, `--view thread-metric`) take
`view=`. Every module of this package whose name does not start with "_" is
a format (the `document` package is none): adding a format is adding a
module here, and the CLI's `--format` choices follow. Names are listed
without importing the modules, as html pulls in matplotlib and Jinja2.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING, Protocol, cast

from rtosmeter.errors import UserError

if TYPE_CHECKING:
    from rtosmeter.model import RunView
    from rtosmeter.reports.document import Document
    from rtosmeter.reports.document.sheet import Sheet

# The one `--format` vocabulary of every command (a command that gives
# fewer says so, naming the ones it gives).
FORMATS = ("table", "md", "csv", "json", "html")
# Names a format module goes by on the command line, and the former names
# still accepted (not shown in help), so existing scripts keep working.
ALIASES = {"md": "markdown", "htm": "html", "text": "table", "terminal": "table",
           "rich": "table"}
PUBLIC = {"markdown": "md"}  # a module whose public name is not its own
# Formats that render the document's other views, not only the report.
VIEW_FORMATS = ("table", "markdown")
REPORT = "report"  # the report itself; document.VIEWS lists the others


class ReportFormat(Protocol):
    SUFFIX: str

    def render(self, source: RunView | Document | Sheet) -> str: ...


class ViewFormat(Protocol):
    def render(self, source: RunView | Document | Sheet, view: str = REPORT) -> str: ...


def names() -> list[str]:
    """The formats: the public modules of this package."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__)
                  if not m.name.startswith("_") and not m.ispkg)


def public(name: str) -> str:
    """The name `--format` shows for a format module or one of its aliases
    ("markdown", "text" -> "md", "table"); an unknown name is returned as it is."""
    name = ALIASES.get(name, name)
    return PUBLIC.get(name, name)


def choices() -> list[str]:
    """What `--format` shows: every format by its public name."""
    found = [public(n) for n in names()]
    return [f for f in FORMATS if f in found] + [f for f in found if f not in FORMATS]


def get_format(name: str) -> ReportFormat:
    """The format called `name` (or an alias); an unknown name lists the valid ones."""
    name = ALIASES.get(name, name)
    if name not in names():
        raise UserError(f"unknown report format {name!r}", "--format",
                        f"Use one of: {', '.join(sorted(choices()))}")
    return cast(ReportFormat, importlib.import_module(f"{__name__}.{name}"))


def render(source: RunView | Document | Sheet, name: str, view: str = REPORT) -> str:
    """The report (or its view `view`) in the format `name`."""
    fmt = get_format(name)
    if view == REPORT:
        return fmt.render(source)
    if ALIASES.get(name, name) not in VIEW_FORMATS:
        raise UserError(f"the {view} view has no {name} format", "--view",
                        "Use --format table or --format md")
    return cast(ViewFormat, fmt).render(source, view=view)

