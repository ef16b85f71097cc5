"""`rtosmeter report`: render a stored run in one format."""

from __future__ import annotations

from pathlib import Path

import click

from rtosmeter import analysis, reports
from rtosmeter.commands.common import open_store, out_option

ALIASES = {"md": "markdown", "htm": "html", "text": "table"}
CHOICES = ("table", "md", "markdown", "csv", "json", "html")


def format_module(name: str) -> str:
    return ALIASES.get(name, name)


def render_run(out: Path, ref: str, fmt: str) -> str:
    """The run `ref` (latest, latest~N or an id) of the store in `out`, rendered."""
    with open_store(out, must_exist=True) as store:
        run_id = store.resolve_run(ref)
        view = analysis.load_run(store, run_id)
    return reports.render(view, format_module(fmt))


def write_reports(out: Path, run_id: int) -> list[Path]:
    """OUT/report.html and OUT/report.md (with its charts in OUT/charts/)."""
    from rtosmeter.reports import html

    with open_store(out, must_exist=True) as store:
        view = analysis.load_run(store, run_id)
    return [html.write(view, out / "report.html"), html.write_markdown(view, out)]


@click.command("report")
@click.argument("run", default="latest")
@out_option
@click.option("--format", "fmt", type=click.Choice(CHOICES), default="table", show_default=True,
              help="Output format; html is written to OUT/report-<run>.html.")
def report(run: str, out: Path, fmt: str) -> None:
    """Render a stored run (latest, latest~N or a run id)."""
    text = render_run(out, run, fmt)
    if format_module(fmt) == "html":
        with open_store(out, must_exist=True) as store:
            run_id = store.resolve_run(run)
        path = out / f"report-{run_id}.html"
        path.write_text(text, encoding="utf-8")
        click.echo(str(path))
    else:
        click.echo(text, nl=not text.endswith("\n"))
