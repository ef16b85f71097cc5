"""`rtosmeter study list | run NAME | report NAME`: published studies re-run
(studies/NAME/study.toml, docs/studies.md)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rtosmeter.commands.common import echo_json, format_option, open_store, out_option
from rtosmeter.errors import UserError
from rtosmeter.reports import FORMATS
from rtosmeter.safe_write import write_text
from rtosmeter.textsafe import terminal_safe

if TYPE_CHECKING:
    from rtosmeter.board_memory import BoardMemory
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
@format_option(("table", "json"), help_text="A terminal table, or JSON.")
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
    from rich.text import Text

    table = Table(title="Studies", title_justify="left")
    for key in LIST_KEYS:
        table.add_column(key, overflow="fold")
    for row in rows:
        systems = row["systems"]
        assert isinstance(systems, list)
        # a study file's text is shown as text: no escape codes, no rich markup
        table.add_row(*(Text(terminal_safe(", ".join(systems) if k == "systems"
                                           else str(row[k]))) for k in LIST_KEYS))
    Console(width=None if sys.stdout.isatty() else 140).print(table)


@study.command("run")
@click.argument("name", required=False)
@out_option
@click.option("--source", "sources", multiple=True, metavar="NAME=PATH",
              help="An RTOS source tree for a port or instance (freertos@V9.0.0=PATH).")
@click.option("-j", "jobs", type=int, default=2, show_default=True, help="Parallel jobs.")
@click.option("--resume", metavar="RUN_ID",
              help="Finish an interrupted run of the study (the one an interruption names), "
                   "then run its campaigns not yet stored (its reruns), then print the report.")
@click.option("--no-rerun", is_flag=True, help="Run the matrix only, not the findings' reruns.")
@click.option("--boards", is_flag=True,
              help="Build and run the board targets too (a board is attached); without it "
                   "they are stored as not run here, and their verdicts are untestable.")
@click.option("--all", "every", is_flag=True,
              help="Every study of studies/, one after the other; then each one's headline "
                   "and the total (as `study report --all`).")
@click.option("--unit", type=click.Choice(["instructions", "cycles", "ticks"]),
              help="Count every emulated run in this unit (as `run --unit`), reruns too.")
@click.option("--as-board", "as_board", metavar="BOARD[,BOARD...]", default="",
              help="Estimate cycles as on this board (as `run --as-board`); several, one "
                   "per core, for a study with targets of several cores.")
@click.option("--attribute", is_flag=True,
              help="Attribute every interval to the firmware's functions (as `run "
                   "--attribute`; `rtosmeter explain`).")
@click.option("--qemu", metavar="PATH", default="",
              help="The qemu-system-arm to run emulated targets with (as `run --qemu`).")
def run_study(name: str | None, out: Path, sources: tuple[str, ...], jobs: int,
              resume: str | None, no_rerun: bool, boards: bool, every: bool,
              unit: str | None, as_board: str, attribute: bool, qemu: str) -> None:
    """Run study NAME's matrix here, then each finding's confirming rerun; print the report."""
    from rtosmeter.catalog import load_catalog
    from rtosmeter.commands.run import out_folder, signals_interrupt
    from rtosmeter.definitions import Definitions
    from rtosmeter.instances import split as split_instance
    from rtosmeter.runs import RunInterrupted, execute
    from rtosmeter.sources import parse_source_options, tree_given
    from rtosmeter.studies import definition
    from rtosmeter.studies.run import executor, latest_runs, run_study, with_study_versions

    if jobs < 1:
        raise UserError(f"-j {jobs} is not a job count", "-j", "Give -j 1 or more")
    if every == (name is not None):
        raise UserError("give one study NAME, or --all", "study run",
                        "rtosmeter study run beningo2024, or rtosmeter study run --all")
    if every and resume is not None:
        raise UserError("--resume finishes one run of one study", "--resume",
                        "Give the NAME the interruption printed")
    board, core_boards = _as_boards(as_board)
    defs = Definitions.load()
    catalog = load_catalog(defs.root)
    studies = definition.load_all(defs, catalog) if every else \
        [definition.load(str(name), defs, catalog)]
    folder = out_folder(out)
    trees = parse_source_options(sources)

    def given(name: str) -> bool:  # the study's own version: is its tree here?
        return tree_given(defs.port(name), trees, split_instance(name)[1])

    for the_study in studies:
        label = name if name is not None else the_study.name
        try:
            with open_store(folder) as store, signals_interrupt():
                done: frozenset[str] = frozenset()
                if resume is not None:  # that run finished; then the campaigns not yet run
                    execute(defs, catalog, store, folder, None,
                            resume=store.resolve_run(resume))
                    done = frozenset(latest_runs(store, the_study.name))
                go = executor(defs, catalog, store, folder, trees,
                              jobs, boards=boards, unit=unit, board=board,
                              core_boards=core_boards, attribute=attribute, qemu=qemu)
                outcomes = run_study(with_study_versions(the_study, given), go,
                                     reruns=not no_rerun, one_unit=bool(unit or board),
                                     done=done)
        except RunInterrupted as exc:
            click.echo(f"Interrupted: run {exc.run_id} is stored as interrupted with every "
                       f"execution that finished. Finish it with:\n  rtosmeter study run "
                       f"{shlex.quote(label)} --resume {exc.run_id} --out "
                       f"{shlex.quote(str(folder))}", err=True)
            raise click.exceptions.Exit(128 + exc.signum) from None
        for o in outcomes:
            click.echo(terminal_safe(f"{o.name}: " + (o.summary or f"nothing ran: {o.error}")))
        if not every:
            _print_report(the_study, out, "first-screen")
    if every:
        _print_all(studies, out)


def _as_boards(names: str) -> tuple[BoardMemory | None, tuple[BoardMemory, ...]]:
    """--as-board A[,B...]: each board's memory, read once (an unknown board
    fails before any study), one board per core."""
    from rtosmeter.board_memory import memory_of

    if not names:
        return None, ()
    boards = [memory_of(n.strip()) for n in names.split(",") if n.strip()]
    for i, b in enumerate(boards):
        other = next((x for x in boards[:i] if x.qemu_target == b.qemu_target), None)
        if other is not None:
            raise UserError(f"--as-board names two boards of one core ({other.board} and "
                            f"{b.board}, both {b.cpu})", "--as-board",
                            "Give one board per core: each estimates its core's QEMU target")
    return boards[0], tuple(boards[1:])


@study.command("report")
@click.argument("name", required=False)
@out_option
@format_option(FORMATS, help_text="Output format; every one but table is also written to "
                                   "OUT/study-NAME.<suffix> (html: its path is the output).")
@click.option("--all", "every", is_flag=True,
              help="Every study's headline from the store of --out, and the total.")
def report_study(name: str | None, out: Path, fmt: str, every: bool) -> None:
    """Study NAME's report from the latest runs of it in the store of --out."""
    from rtosmeter.catalog import load_catalog
    from rtosmeter.definitions import Definitions
    from rtosmeter.studies import definition

    defs = Definitions.load()
    catalog = load_catalog(defs.root)
    if every:
        _print_all(definition.load_all(defs, catalog), out)
        return
    if name is None:
        raise UserError("no study named", "study report", "Give NAME, or --all")
    _print_report(definition.load(name, defs, catalog), out, fmt)


def _print_all(studies: list[Study], out: Path) -> None:
    from rtosmeter.studies.report import build
    from rtosmeter.studies.verdicts import headline

    total = [0, 0, 0, 0]  # reproduced, findings, answered, testable
    with open_store(out, must_exist=True) as store:
        for s in studies:
            doc = build(s, store)
            h = headline(s, doc.verdicts)
            total = [a + b for a, b in zip(total, (h.reproduced, h.findings, h.answered,
                                                   h.testable), strict=True)]
            click.echo(terminal_safe(doc.headline)
                       + ("" if doc.runs else " (not run in this store)"))
    share = f" ({total[2] / total[3]:.0%})" if total[3] else ""
    click.echo(f"All studies: {total[0]} of {total[1]} findings reproduced; of the {total[3]} "
               f"testable, {total[2]} reproduced or with a confirmed cause{share}")


def _print_report(the_study: Study, out: Path, fmt: str) -> None:
    """The report in `fmt` ("first-screen": the end of `study run`)."""
    from rtosmeter import reports
    from rtosmeter.studies.report import build, first_screen, sheet

    with open_store(out, must_exist=True) as store:
        doc = build(the_study, store)
    if fmt == "first-screen":
        click.echo("\n".join(terminal_safe(line) for line in first_screen(doc).splitlines()))
        return
    page = sheet(doc)
    text = reports.render(page, fmt)
    if fmt != "table":
        path = out / f"{page.name}{reports.get_format(fmt).SUFFIX}"
        write_text(path, text)
        if fmt == "html":  # a page is for the browser: its path is the output
            click.echo(str(path))
            return
        click.echo(f"Written: {path}", err=True)  # stdout holds the report alone
    click.echo(text, nl=not text.endswith("\n"))
