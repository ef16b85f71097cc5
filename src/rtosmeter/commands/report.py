"""`rtosmeter report`: render a stored run in one format."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from rtosmeter import reports
from rtosmeter.commands.common import format_option, open_store, out_option, resolve_run
from rtosmeter.errors import UserError
from rtosmeter.reports import REPORT
from rtosmeter.safe_write import write_text

# The views, without importing the document (numpy, for --help): see
# reports.document.VIEWS, which a test holds this to.
VIEWS = (REPORT, "load", "thread-metric", "energy")

if TYPE_CHECKING:
    from rtosmeter.model import RunView
    from rtosmeter.reports.document import Document


def load_view(out: Path, ref: str, clock: str | None = None, as_board: str = "") -> RunView:
    """The analysed run `ref` (latest, latest~N or an id) of the store in `out`;
    with `clock` (e.g. 80MHz), emulated counts also as estimated µs; with
    `as_board`, at that board's clock, from a run estimated as on it."""
    from rtosmeter import analysis  # numpy: not for --help
    from rtosmeter.qemu_plugin import parse_clock

    clock_hz = parse_clock(clock) if clock else None
    if as_board:
        from rtosmeter.board_memory import memory_of

        mem = memory_of(as_board)
        if clock_hz is not None and clock_hz != mem.clock_hz:
            raise UserError(f"--clock {clock} is not the clock of {mem.board} "
                            f"({mem.clock_hz / 1e6:g} MHz)", "--clock",
                            "Leave --clock out: --as-board converts at the board's clock")
        clock_hz = mem.clock_hz
    with open_store(out, must_exist=True) as store:
        run_id = resolve_run(store, ref)
        if as_board:
            boards = {str(e.runner.get("as_board", "")) for e in store.executions(run_id)}
            if mem.board not in boards:
                raise UserError(f"run {run_id} was not estimated as on {mem.board}", "--as-board",
                                f"Run it with rtosmeter run --unit cycles --as-board {mem.board}")
        return analysis.load_run(store, run_id, clock_hz=clock_hz)


def render_run(out: Path, ref: str, fmt: str, view: str = "report") -> str:
    """The run `ref` of the store in `out`, rendered."""
    return reports.render(load_view(out, ref), fmt, view)


def write_reports(out: Path, view: RunView | Document) -> list[Path]:
    """OUT/report-<run>.html and OUT/report-<run>.md (its charts in
    OUT/charts/run-<run>/), both from one document (the charts are drawn
    once), and OUT/report.html and report.md: copies of the latest."""
    import shutil

    from rtosmeter.reports import document, html, markdown
    from rtosmeter.reports._explain_pages import write_pages

    doc = document.of(view)
    run = doc.view.run_id
    with open_store(out, must_exist=True) as store:
        explain = write_pages(store, out, run)  # the cases' per-function pages, if attributed
    written = [html.write(doc, out / f"report-{run}.html", explain),
               markdown.write(doc, out, f"report-{run}.md")]
    latest = [out / "report.html", out / "report.md"]
    for src, dst in zip(written, latest, strict=True):
        shutil.copyfile(src, dst)
    return latest + written


# Former formats that are views now: `--format load` is `--format md --view load`.
DEPRECATED_FORMATS = {"load": ("markdown", "load")}


@click.command("report")
@click.argument("run", default="latest")
@out_option
@format_option(reports.choices(), extra=tuple(DEPRECATED_FORMATS),
               help_text="Output format; html is written to OUT/report-<run>.html "
                         "(load: deprecated, use --view load).")
@click.option("--view", "view_name", type=click.Choice(VIEWS), default=REPORT,
              show_default=True,
              help="What to show: the report, behaviour under load and the application "
                   "benchmarks (load), Thread-Metric's relative tables (thread-metric), "
                   "or the estimated and measured energy (energy); "
                   "the views are written as table or md.")
@click.option("--clock", metavar="RATE",
              help="Show the QEMU plugin's counts as estimated µs at this clock, e.g. 80MHz "
                   "(always labelled estimated).")
@click.option("--as-board", "as_board", metavar="BOARD", default="",
              help="Show a run estimated as on BOARD (run --as-board) as µs at the board's "
                   "clock.")
@click.option("--write", is_flag=True,
              help="Write OUT/report-<run>.<format> instead of printing it; Markdown with "
                   "its charts in OUT/charts/run-<run>/ (html is always written).")
def report(run: str, out: Path, fmt: str, view_name: str, clock: str | None,
           as_board: str, write: bool) -> None:
    """Render a stored run (latest, latest~N or a run id)."""
    if fmt in DEPRECATED_FORMATS:
        fmt, view_name = DEPRECATED_FORMATS[fmt]
        click.echo(f"--format {view_name} is deprecated: use --format md --view {view_name}",
                   err=True)
    view = load_view(out, run, clock, as_board)
    name = reports.ALIASES.get(fmt, fmt)
    suffix = reports.get_format(fmt).SUFFIX
    # A view must not take the report's file.
    tag = f"-{view_name}" if view_name != REPORT else ""
    path = out / f"report-{view.run_id}{tag}{suffix}"
    if name == "markdown" and write and view_name == REPORT:  # with its charts
        from rtosmeter.reports import markdown

        out.mkdir(parents=True, exist_ok=True)
        click.echo(str(markdown.write(view, out, path.name)))
        return
    if name == "html" and view_name == REPORT:  # with the cases' per-function pages
        from rtosmeter.reports import html
        from rtosmeter.reports._explain_pages import write_pages

        with open_store(out, must_exist=True) as store:
            links = write_pages(store, out, view.run_id)
        click.echo(str(html.write(view, path, links)))
        return
    text = reports.render(view, fmt, view_name)
    if suffix == ".html" or write:
        write_text(path, text)
        click.echo(str(path))
    else:
        click.echo(text, nl=not text.endswith("\n"))
