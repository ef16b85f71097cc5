"""`rtosmeter validate`: our estimates against published board figures
(references/*.toml), the error per reference, per core and per kind."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from rtosmeter.commands.common import echo_sheet, format_option, open_store, out_option
from rtosmeter.errors import UserError
from rtosmeter.reports import FORMATS

if TYPE_CHECKING:
    from rtosmeter.board_memory import BoardMemory
    from rtosmeter.definitions import Campaign
    from rtosmeter.runs import RunSummary


@click.command()
@click.option("--as-board", "as_board", metavar="BOARD", default="",
              help="Estimate the references that name no board of ours as on this board "
                   "(those of its core).")
@click.option("--source", "sources", multiple=True, metavar="NAME=PATH",
              help="An RTOS source tree for a port (as `run --source`).")
@out_option
@format_option(FORMATS, help_text="A terminal table, Markdown, CSV, JSON or an HTML page.")
@click.option("-j", "jobs", type=int, default=2, show_default=True, help="Parallel jobs.")
@click.option("--rerun", is_flag=True,
              help="Run again even where a stored run of the references' cases exists.")
@click.option("--references", "folder", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="The folder of reference files (default: references/).")
def validate(as_board: str, sources: tuple[str, ...], out: Path, fmt: str, jobs: int,
             rerun: bool, folder: Path | None) -> None:
    """Run the references' cases (or reuse a stored run) and print ours beside each
    published figure, with the ratio and the mean absolute error per core and kind."""
    from rtosmeter.board_memory import memory_of
    from rtosmeter.catalog import load_catalog
    from rtosmeter.commands.run import out_folder, signals_interrupt
    from rtosmeter.definitions import Definitions
    from rtosmeter.references.definition import load_all, references_dir
    from rtosmeter.references.run import missing_tree, run_views, views_of
    from rtosmeter.references.sheet import compare, sheet
    from rtosmeter.runs import RunInterrupted
    from rtosmeter.sources import parse_source_options
    from rtosmeter.studies.run import executor

    if jobs < 1:
        raise UserError(f"-j {jobs} is not a job count", "-j", "Give -j 1 or more")
    defs = Definitions.load()
    catalog = load_catalog(defs.root)
    refs = load_all(defs, catalog, folder)
    fallback = memory_of(as_board) if as_board else None
    boards = {name: memory_of(name) for name in {r.as_board for r in refs if r.as_board}}
    trees = parse_source_options(sources)
    not_run = {r.id: why for r in refs if (why := missing_tree(r, defs, trees))}
    runnable = [r for r in refs if r.id not in not_run]
    folder_out = out_folder(out)
    try:
        with open_store(folder_out) as store, signals_interrupt():
            def runner(camp: Campaign, board: BoardMemory | None) -> RunSummary:
                go = executor(defs, catalog, store, folder_out, trees, jobs,
                              quiet=fmt != "table", unit=camp.unit, board=board)
                return go(camp)

            file = folder or references_dir(defs.root)
            runs = run_views(store, views_of(runnable, boards, fallback), runner, file, rerun)
    except RunInterrupted as exc:  # the finished runs stay; the next call runs the rest
        click.echo(f"Interrupted: run {exc.run_id} is stored as interrupted. Run the same "
                   "`rtosmeter validate` again: it reuses every finished run and runs the "
                   "rest", err=True)
        raise click.exceptions.Exit(128 + exc.signum) from None
    echo_sheet(sheet(compare(refs, runs, boards, fallback, not_run)), fmt)
