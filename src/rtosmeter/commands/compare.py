"""`rtosmeter compare RUN_A RUN_B`: what changed; exit 2 on a regression (CI gate)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rtosmeter.commands.common import open_store, out_option, resolve_run
from rtosmeter.errors import REGRESSION_EXIT

if TYPE_CHECKING:
    from rtosmeter.compare import Comparison

DEFAULT_THRESHOLD = 10.0  # percent
DEFAULT_ALPHA = 0.01  # many cases are tested at once: a strict level keeps noise out


def run_compare(out: Path, ref_a: str, ref_b: str, threshold: float = DEFAULT_THRESHOLD,
                alpha: float = DEFAULT_ALPHA) -> Comparison:
    from rtosmeter import compare as comparing  # numpy and scipy: not for --help

    with open_store(out, must_exist=True) as store:
        a, b = resolve_run(store, ref_a), resolve_run(store, ref_b)
        return comparing.compare_runs(store, a, b, threshold, alpha)


def _print_table(result: Comparison, everything: bool) -> None:
    from rich.console import Console

    from rtosmeter import compare as comparing
    from rtosmeter.textsafe import terminal_safe

    console = Console(file=sys.stdout, width=200 if not sys.stdout.isatty() else None)
    console.print(comparing.rich_table(result, everything))
    for title, items in (("only in A", result.only_a), ("only in B", result.only_b),
                         ("note", result.notes)):
        for item in items:
            console.print(f"{title}: {terminal_safe(item)}", markup=False, highlight=False)


@click.command("compare")
@click.argument("run_a")
@click.argument("run_b", default="latest")
@out_option
@click.option("--threshold", type=click.FloatRange(min=0), default=DEFAULT_THRESHOLD,
              show_default=True, metavar="PCT",
              help="A significant change worse than this (percent) is a regression.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True),
              default=DEFAULT_ALPHA, show_default=True,
              help="Significance level of the Mann-Whitney U test (noisy runs).")
@click.option("--format", "fmt", type=click.Choice(["table", "md"]), default="table",
              show_default=True, help="Terminal table or Markdown.")
@click.option("--all", "everything", is_flag=True,
              help="Also list identical figures and changes that are not significant.")
def compare(run_a: str, run_b: str, out: Path, threshold: float, alpha: float, fmt: str,
            everything: bool) -> None:
    """Compare two stored runs (ids, latest or latest~N); exit 2 on a regression."""
    from rtosmeter import compare as comparing

    result = run_compare(out, run_a, run_b, threshold, alpha)
    if fmt == "md":
        click.echo(comparing.markdown(result, everything), nl=False)
    else:
        _print_table(result, everything)
    if result.regressions:
        click.echo(f"{len(result.regressions)} regression(s) over {threshold:g} %", err=True)
        sys.exit(REGRESSION_EXIT)
