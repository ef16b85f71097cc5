"""`run`'s machine outputs for CI, written when the run ends (as hyperfine's
--export-*): the report as JSON, Markdown or CSV, and its checks as JUnit
XML (junit.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from rtosmeter.safe_write import write_text

if TYPE_CHECKING:
    from rtosmeter.model import RunView

F = TypeVar("F", bound=Callable[..., Any])
EXPORTS = {"export_json": "json", "export_md": "markdown", "export_csv": "csv"}


def _path_option(name: str, help_text: str) -> Callable[[F], F]:
    return click.option(name, type=click.Path(dir_okay=False, path_type=Path), default=None,
                        metavar="FILE", help=help_text)


def export_options(f: F) -> F:
    """--export-json/--export-md/--export-csv FILE and --junit FILE."""
    for name, what in (("--junit", "the run's checks and cases as JUnit XML"),
                       ("--export-csv", "the report as CSV"),
                       ("--export-md", "the report as Markdown"),
                       ("--export-json", "the report as JSON (docs/results-schema.md)")):
        f = _path_option(name, f"When the run ends, write {what} here.")(f)
    return f


def write_exports(view: RunView, paths: dict[str, Path | None]) -> list[Path]:
    """Each asked-for export of `view`; the paths written."""
    from rtosmeter import junit, reports

    written = []
    for key, fmt in EXPORTS.items():
        path = paths.get(key)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_text(path, reports.render(view, fmt))
            written.append(path)
    if (path := paths.get("junit")) is not None:
        written.append(junit.write(path, "rtosmeter.run", junit.check_verdicts(view)))
    return written
