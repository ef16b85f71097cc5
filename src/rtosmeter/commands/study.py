"""`rtosmeter study list | run NAME | report NAME`: published studies re-run
(studies/NAME/study.toml, docs/studies.md)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from rtosmeter.commands.common import echo_json

if TYPE_CHECKING:
    from rtosmeter.studies.model import Study

LIST_KEYS = ("name", "title", "year", "hardware", "systems", "figures", "findings")


def _row(study: Study) -> dict[str, object]:
    return {"name": study.name, "title": study.title, "year": study.year,
            "hardware": study.hardware, "systems": [s.label for s in study.systems],
            "figures": len(study.figures), "findings": len(study.findings)}


@click.group("study")
def study() -> None:
    """Published studies: their matrix run here, their tables beside ours, a verdict per finding."""


@study.command("list")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="A terminal table, or JSON.")
def list_studies(fmt: str) -> None:
    """The studies of studies/, each file checked (an error names the file and key)."""
    from rtosmeter.catalog import load_catalog
    from rtosmeter.definitions import Definitions
    from rtosmeter.studies.definition import load_all

    defs = Definitions.load()
    rows = [_row(s) for s in load_all(defs, load_catalog(defs.root))]
    if fmt == "json":
        echo_json(rows)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Studies", title_justify="left")
    for key in LIST_KEYS:
        table.add_column(key, overflow="fold")
    for row in rows:
        systems = row["systems"]
        assert isinstance(systems, list)
        table.add_row(*(", ".join(systems) if k == "systems" else str(row[k])
                        for k in LIST_KEYS))
    Console(width=None if sys.stdout.isatty() else 140).print(table)
