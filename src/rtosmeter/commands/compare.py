"""`rtosmeter compare RUN_A RUN_B`: what changed; exit 2 on a regression (CI gate)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rtosmeter import compare as comparing
from rtosmeter.commands.common import open_store, out_option

REGRESSION_EXIT = 2


def run_compare(out: Path, ref_a: str, ref_b: str, threshold: float, alpha: float
                ) -> comparing.Comparison:
    with open_store(out, must_exist=True) as store:
        a, b = store.resolve_run(ref_a), store.resolve_run(ref_b)
        return comparing.compare_runs(store, a, b, threshold, alpha)


@click.command("compare")
@click.argument("run_a")
@click.argument("run_b", default="latest")
@out_option
@click.option("--threshold", type=click.FloatRange(min=0), default=comparing.DEFAULT_THRESHOLD,
              show_default=True, metavar="PCT",
              help="A significant change worse than this (percent) is a regression.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True),
              default=comparing.DEFAULT_ALPHA, show_default=True,
              help="Significance level of the Mann-Whitney U test (noisy runs).")
@click.option("--format", "fmt", type=click.Choice(["table", "md"]), default="table",
              show_default=True, help="Terminal table or Markdown.")
@click.option("--all", "everything", is_flag=True,
              help="Also list identical figures and changes that are not significant.")
def compare(run_a: str, run_b: str, out: Path, threshold: float, alpha: float, fmt: str,
            everything: bool) -> None:
    """Compare two stored runs (ids, latest or latest~N); exit 2 on a regression."""
    result = run_compare(out, run_a, run_b, threshold, alpha)
    if fmt == "md":
        click.echo(comparing.markdown(result, everything), nl=False)
    else:
        from rich.console import Console

        console = Console(file=sys.stdout, width=200 if not sys.stdout.isatty() else None)
        console.print(comparing.rich_table(result, everything))
        for title, items in (("only in A", result.only_a), ("only in B", result.only_b),
                             ("note", result.notes)):
            for item in items:
                console.print(f"{title}: {item}", markup=False, highlight=False)
    if result.regressions:
        click.echo(f"{len(result.regressions)} regression(s) over {threshold:g} %", err=True)
        sys.exit(REGRESSION_EXIT)
