"""`rtosmeter explain RUN CASE [SERIES]`: where a measured interval's
instructions go, per function of the firmware (docs/explain.md)."""

from __future__ import annotations

import json

import click

from rtosmeter.commands.common import (
    echo_sheet,
    format_option,
    open_store,
    out_option,
    resolve_run,
    split_list,
)
from rtosmeter.errors import UserError
from rtosmeter.reports import FORMATS

STACKS = ("folded", "speedscope")  # the flame-graph tools' own files (attribution/stacks.py)


@click.command()
@click.argument("run_ref", metavar="RUN")
@click.argument("case_id", metavar="CASE")
@click.argument("series", metavar="[SERIES]", required=False)
@out_option
@click.option("--port", "ports", multiple=True, metavar="P[,P...]",
              help="Only these ports (default: every port of the run that ran CASE).")
@format_option(FORMATS, extra=STACKS,
               help_text="The breakdown as a table, Markdown, CSV, JSON or an HTML page with "
                         "an icicle chart; also folded stacks (folded: flamegraph.pl, inferno) "
                         "or speedscope's JSON (speedscope).")
@click.option("--top", type=int, default=0, metavar="N",
              help="table: the N largest functions, the rest summed (default: all).")
@click.option("--by", "by", type=click.Choice(["function", "category"]), default="function",
              show_default=True,
              help="category: the ports side by side, their functions grouped into kernel "
                   "entry/exit, critical section, lists, scheduler, port layer "
                   "(ports/PORT/attribution.toml).")
def explain(run_ref: str, case_id: str, series: str | None, out: object, ports: tuple[str, ...],
            fmt: str, top: int, by: str) -> None:
    """Per-function breakdown of CASE's intervals in RUN (a run made with
    `rtosmeter run --attribute`)."""
    from pathlib import Path

    from rtosmeter.attribution import stacks
    from rtosmeter.attribution.breakdown import breakdowns
    from rtosmeter.reports.document.explain import sheet

    assert isinstance(out, Path)
    with open_store(out, must_exist=True) as store:
        run_id = resolve_run(store, run_ref)
        found = breakdowns(store, run_id, case_id, series, split_list(ports))
    if not found:
        raise UserError(f"no attribution of {case_id}{' ' + series if series else ''} in run "
                        f"{run_id}", str(out), "Run it with `rtosmeter run --attribute` (QEMU "
                        "targets with the plugin counter); a series whose samples span several "
                        "intervals has none (the run's notes say which)")
    if fmt == "folded":
        click.echo(stacks.folded(found), nl=False)
    elif fmt == "speedscope":
        click.echo(json.dumps(stacks.speedscope(found, f"run {run_id} {case_id}"), indent=1))
    else:
        ports_dir = Path(__file__).resolve().parents[3] / "ports" if by == "category" else None
        echo_sheet(sheet(found, f"run {run_id}: {case_id}", top, ports_dir), fmt)
