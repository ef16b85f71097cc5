"""`rtosmeter compare RUN_A RUN_B`, or `compare RUN --by DIMENSION A B`: what
changed; exit 2 on a regression (CI gate)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rtosmeter.commands.common import echo_json, open_store, out_option, resolve_run
from rtosmeter.compare_within import DIMENSIONS
from rtosmeter.errors import REGRESSION_EXIT, UserError

if TYPE_CHECKING:
    from rtosmeter.compare import Comparison

DEFAULT_THRESHOLD = 10.0  # percent
DEFAULT_ALPHA = 0.01  # many cases are tested at once: a strict level keeps noise out


def run_compare(out: Path, ref_a: str, ref_b: str, threshold: float = DEFAULT_THRESHOLD,
                alpha: float = DEFAULT_ALPHA,
                by: tuple[str, str, str] | None = None) -> Comparison:
    """Two runs, or with `by` (dimension, A, B) two slices of run `ref_a`."""
    from rtosmeter import compare as comparing  # numpy and scipy: not for --help
    from rtosmeter.attribution.diff import add_notes
    from rtosmeter.compare_within import compare_within

    with open_store(out, must_exist=True) as store:
        a = resolve_run(store, ref_a)
        b = a if by else resolve_run(store, ref_b)
        if by:
            result = compare_within(store, a, *by, threshold, alpha)
        else:
            result = comparing.compare_runs(store, a, b, threshold, alpha)
        add_notes(store, result, a, b, by)  # the functions behind each change
        return result


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
@click.argument("run_b", required=False)
@out_option
@click.option("--threshold", type=click.FloatRange(min=0), default=DEFAULT_THRESHOLD,
              show_default=True, metavar="PCT",
              help="A significant change worse than this (percent) is a regression.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True),
              default=DEFAULT_ALPHA, show_default=True,
              help="Significance level of the Mann-Whitney U test (noisy runs).")
@click.option("--format", "fmt", type=click.Choice(["table", "md", "json"]), default="table",
              show_default=True, help="Terminal table, Markdown or JSON (every figure).")
@click.option("--by", type=(click.Choice(DIMENSIONS), str, str), default=None,
              metavar="DIMENSION A B",
              help="Within RUN_A, compare B against A along one dimension: "
                   "profile, version (port instance label), port or target.")
@click.option("--all", "everything", is_flag=True,
              help="Also list identical figures and changes that are not significant.")
def compare(run_a: str, run_b: str | None, out: Path, threshold: float, alpha: float,
            fmt: str, by: tuple[str, str, str] | None, everything: bool) -> None:
    """Compare two stored runs (ids, latest or latest~N), or two profiles,
    versions, ports or targets of one run (--by); exit 2 on a regression."""
    from rtosmeter import compare as comparing

    if by and run_b is not None:
        raise UserError(f"--by compares within one run, but two runs were given ({run_a}, "
                        f"{run_b})", "--by", f"Drop {run_b}, or drop --by to compare two runs")
    result = run_compare(out, run_a, run_b or "latest", threshold, alpha, by)
    if fmt == "md":
        click.echo(comparing.markdown(result, everything), nl=False)
    elif fmt == "json":
        echo_json(comparing.as_json(result))
    else:
        _print_table(result, everything)
    if result.regressions:
        click.echo(f"{len(result.regressions)} regression(s) over {threshold:g} %", err=True)
        from rtosmeter.attribution.diff import gate_lines

        for line in gate_lines(result):
            click.echo(f"  {line}", err=True)
        sys.exit(REGRESSION_EXIT)
