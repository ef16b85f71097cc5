"""`rtosmeter explain RUN CASE [SERIES]`: where a measured interval's
instructions go, per function of the firmware (docs/explain.md)."""

from __future__ import annotations

import json

import click

from rtosmeter.commands.common import open_store, out_option, resolve_run, split_list
from rtosmeter.errors import UserError

FORMATS = ("table", "folded", "speedscope", "json", "html")


@click.command()
@click.argument("run_ref", metavar="RUN")
@click.argument("case_id", metavar="CASE")
@click.argument("series", metavar="[SERIES]", required=False)
@out_option
@click.option("--port", "ports", multiple=True, metavar="P[,P...]",
              help="Only these ports (default: every port of the run that ran CASE).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="table; folded stacks (flamegraph.pl, inferno); speedscope's JSON; JSON; "
                   "an HTML page with an icicle chart.")
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

    from rtosmeter.attribution import categories, html
    from rtosmeter.attribution import explain as render
    from rtosmeter.attribution.breakdown import breakdowns

    assert isinstance(out, Path)
    with open_store(out, must_exist=True) as store:
        run_id = resolve_run(store, run_ref)
        found = breakdowns(store, run_id, case_id, series, split_list(ports))
    if not found:
        raise UserError(f"no attribution of {case_id}{' ' + series if series else ''} in run "
                        f"{run_id}", str(out), "Run it with `rtosmeter run --attribute` (QEMU "
                        "targets with the plugin counter); a series whose samples span several "
                        "intervals has none (the run's notes say which)")
    if by == "category":
        click.echo(categories.side_by_side(found, Path(__file__).resolve().parents[3] / "ports"))
    elif fmt == "table":
        click.echo("\n\n".join(render.table(b, top) for b in found))
    elif fmt == "folded":
        click.echo(render.folded(found), nl=False)
    elif fmt == "speedscope":
        click.echo(json.dumps(render.speedscope(found, f"run {run_id} {case_id}"), indent=1))
    elif fmt == "json":
        click.echo(json.dumps(render.as_json(found), indent=2))
    else:
        click.echo(html.page(found, f"run {run_id}: {case_id}"))
