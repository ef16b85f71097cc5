"""Report formats: one module per format, found by name in this package.

A format module exposes `render(view: RunView) -> str` and `SUFFIX` (the
file extension its output is saved with, e.g. ".md"). Every module of this
package whose name does not start with "_" is a format (helpers such as
`_common` do): adding a format is adding a module here, and the CLI's
`--format` choices follow. Names are listed without importing the modules,
as html pulls in matplotlib and Jinja2.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING, Protocol, cast

from rtosmeter.errors import UserError

if TYPE_CHECKING:
    from rtosmeter.model import RunView

# Short names the CLI also accepts; each points at a format module.
ALIASES = {"md": "markdown", "htm": "html", "text": "table"}


class ReportFormat(Protocol):
    SUFFIX: str

    def render(self, view: RunView) -> str: ...


def names() -> list[str]:
    """The formats: the public modules of this package."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def choices() -> list[str]:
    """What `--format` accepts: every format and the aliases of present ones."""
    found = names()
    return found + [alias for alias, name in ALIASES.items() if name in found]


def get_format(name: str) -> ReportFormat:
    """The format called `name` (or an alias); an unknown name lists the valid ones."""
    name = ALIASES.get(name, name)
    if name not in names():
        raise UserError(f"unknown report format {name!r}", "--format",
                        f"Use one of: {', '.join(choices())}")
    return cast(ReportFormat, importlib.import_module(f"{__name__}.{name}"))


def render(view: RunView, name: str) -> str:
    return get_format(name).render(view)
