"""`rtosmeter report`: render a stored run in one format."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from rtosmeter import reports
from rtosmeter.commands.common import open_store, out_option, resolve_run

if TYPE_CHECKING:
    from rtosmeter.model import RunView


def load_view(out: Path, ref: str) -> RunView:
    """The analysed run `ref` (latest, latest~N or an id) of the store in `out`."""
    from rtosmeter import analysis  # numpy: not for --help

    with open_store(out, must_exist=True) as store:
        return analysis.load_run(store, resolve_run(store, ref))


def render_run(out: Path, ref: str, fmt: str) -> str:
    """The run `ref` of the store in `out`, rendered."""
    return reports.render(load_view(out, ref), fmt)


def write_reports(out: Path, view: RunView) -> list[Path]:
    """OUT/report.html and OUT/report.md (with its charts in OUT/charts/),
    both from one prepared report: the charts are drawn once."""
    from rtosmeter.reports import html

    prepared = html.prepare(view)
    return [html.write(prepared, out / "report.html"), html.write_markdown(prepared, out)]


@click.command("report")
@click.argument("run", default="latest")
@out_option
@click.option("--format", "fmt", type=click.Choice(reports.choices()), default="table",
              show_default=True, help="Output format; html is written to OUT/report-<run>.html.")
def report(run: str, out: Path, fmt: str) -> None:
    """Render a stored run (latest, latest~N or a run id)."""
    view = load_view(out, run)
    text = reports.render(view, fmt)
    if reports.get_format(fmt).SUFFIX == ".html":
        path = out / f"report-{view.run_id}.html"
        path.write_text(text, encoding="utf-8")
        click.echo(str(path))
    else:
        click.echo(text, nl=not text.endswith("\n"))
