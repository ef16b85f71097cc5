"""`rtosmeter report`: render a stored run in one format."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from rtosmeter import reports
from rtosmeter.commands.common import open_store, out_option, resolve_run

if TYPE_CHECKING:
    from rtosmeter.model import RunView


def load_view(out: Path, ref: str, clock: str | None = None) -> RunView:
    """The analysed run `ref` (latest, latest~N or an id) of the store in `out`;
    with `clock` (e.g. 80MHz), emulated counts also as estimated µs."""
    from rtosmeter import analysis  # numpy: not for --help
    from rtosmeter.qemu_plugin import parse_clock

    clock_hz = parse_clock(clock) if clock else None
    with open_store(out, must_exist=True) as store:
        return analysis.load_run(store, resolve_run(store, ref), clock_hz=clock_hz)


def render_run(out: Path, ref: str, fmt: str) -> str:
    """The run `ref` of the store in `out`, rendered."""
    return reports.render(load_view(out, ref), fmt)


def write_reports(out: Path, view: RunView) -> list[Path]:
    """OUT/report-<run>.html and OUT/report-<run>.md (its charts in
    OUT/charts/run-<run>/), both from one prepared report (the charts are
    drawn once), and OUT/report.html and report.md: copies of the latest."""
    import shutil

    from rtosmeter.reports import html

    prepared = html.prepare(view)
    run = view.run_id
    written = [html.write(prepared, out / f"report-{run}.html"),
               html.write_markdown(prepared, out, f"report-{run}.md")]
    latest = [out / "report.html", out / "report.md"]
    for src, dst in zip(written, latest, strict=True):
        shutil.copyfile(src, dst)
    return latest + written


@click.command("report")
@click.argument("run", default="latest")
@out_option
@click.option("--format", "fmt", type=click.Choice(reports.choices()), default="table",
              show_default=True, help="Output format; html is written to OUT/report-<run>.html.")
@click.option("--clock", metavar="RATE",
              help="Show the QEMU plugin's counts as estimated µs at this clock, e.g. 80MHz "
                   "(always labelled estimated).")
@click.option("--write", is_flag=True,
              help="Write OUT/report-<run>.<format> instead of printing it; Markdown with "
                   "its charts in OUT/charts/run-<run>/ (html is always written).")
def report(run: str, out: Path, fmt: str, clock: str | None, write: bool) -> None:
    """Render a stored run (latest, latest~N or a run id)."""
    view = load_view(out, run, clock)
    name = reports.ALIASES.get(fmt, fmt)
    suffix = reports.get_format(fmt).SUFFIX
    # Another Markdown format (load) must not take the Markdown report's file.
    tag = f"-{name}" if suffix == ".md" and name != "markdown" else ""
    path = out / f"report-{view.run_id}{tag}{suffix}"
    if name == "markdown" and write:  # the charts are drawn by the HTML report's preparation
        from rtosmeter.reports import html

        out.mkdir(parents=True, exist_ok=True)
        click.echo(str(html.write_markdown(html.prepare(view), out, path.name)))
        return
    text = reports.render(view, fmt)
    if suffix == ".html" or write:
        path.write_text(text, encoding="utf-8")
        click.echo(str(path))
    else:
        click.echo(text, nl=not text.endswith("\n"))
