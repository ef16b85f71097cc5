"""`rtosmeter compare RUN_A RUN_B`, or `compare RUN --by DIMENSION A B`: what
changed; exit 2 on a regression (CI gate)."""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rtosmeter.commands.common import (
    echo_sheet,
    format_option,
    open_store,
    out_option,
    resolve_run,
    split_list,
)
from rtosmeter.compare_within import DIMENSIONS
from rtosmeter.errors import REGRESSION_EXIT, UserError
from rtosmeter.reports import FORMATS
from rtosmeter.textsafe import terminal_safe

if TYPE_CHECKING:
    from rtosmeter.compare import Comparison, RunSamples
    from rtosmeter.gate import Gate

DEFAULT_THRESHOLD = 10.0  # percent
DEFAULT_EXACT_THRESHOLD = 0.0  # counts: in exact units any worse count is real
DEFAULT_ALPHA = 0.01  # many cases are tested at once: a strict level keeps noise out


@dataclass
class Compared:
    """A comparison, the samples it read, and its gate."""

    comparison: Comparison
    a: RunSamples
    b: RunSamples
    gate: Gate | None = None


def run_compare(out: Path, ref_a: str, ref_b: str, threshold: float = DEFAULT_THRESHOLD,
                alpha: float = DEFAULT_ALPHA, by: tuple[str, str, str] | None = None,
                exact_threshold: float = DEFAULT_EXACT_THRESHOLD) -> Compared:
    """Two runs, or with `by` (dimension, A, B) two slices of run `ref_a`."""
    from rtosmeter import compare as comparing  # numpy and scipy: not for --help
    from rtosmeter.attribution.diff import add_notes
    from rtosmeter.compare_within import split

    with open_store(out, must_exist=True) as store:
        a = resolve_run(store, ref_a)
        b = a if by else resolve_run(store, ref_b)
        labels = None
        if by:
            sa, sb = split(comparing.load_samples(store, a), *by)
            labels = (f"run {a} {by[0]} {by[1]}", f"run {a} {by[0]} {by[2]}")
        else:
            sa = comparing.load_samples(store, a)
            sb = comparing.load_samples(store, b)
        comp = comparing.compare(sa, sb, threshold, alpha, labels, exact_threshold)
        # Profiles are configurations, not versions: their differences are effects.
        comp.effects = by is not None and by[0] == "profile"
        add_notes(store, comp, a, b, by)  # the functions behind each change
    return Compared(comp, sa, sb)


@click.command("compare")
@click.argument("run_a")
@click.argument("run_b", required=False)
@out_option
@click.option("--threshold", type=click.FloatRange(min=0), default=DEFAULT_THRESHOLD,
              show_default=True, metavar="PCT",
              help="Noisy runs: a significant change worse than this (percent) is a "
                   "regression.")
@click.option("--exact-threshold", type=click.FloatRange(min=0),
              default=DEFAULT_EXACT_THRESHOLD, show_default=True, metavar="COUNT",
              help="Exact runs (QEMU -icount): a change worse than this many counts "
                   "(instructions, cycles, ticks, counts per period) is a regression.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True),
              default=DEFAULT_ALPHA, show_default=True,
              help="Significance level of the Mann-Whitney U test (noisy runs).")
@click.option("--fail-on", "fail_on", metavar="STAT:+N%[,...]",
              help="Also fail when a statistic of B is worse than A's by more than N % "
                   "(or N counts without %), e.g. p50:+1%,max:+10% (min, max, mean, "
                   "median, p50, p90, p95, p99, p99.9, p99.99).")
@click.option("--allow-missing", "allow_missing", multiple=True, metavar="PATTERN",
              help="A system, port or case of A that may be absent from B (fnmatch; "
                   "repeat or comma-separate). Anything else that disappears fails.")
@click.option("--gate", "gate_profiles", is_flag=True,
              help="--by profile: gate (exit 2) on differences as between two runs; "
                   "without it a profile comparison shows effects and exits 0.")
@click.option("--junit", "junit_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the gate's verdicts (figures, missing systems and cases, "
                   "--fail-on rules) as JUnit XML here.")
@format_option(FORMATS, help_text="The comparison as a terminal table, Markdown, CSV, JSON "
                                   "(every figure) or an HTML page.")
@click.option("--by", type=(click.Choice(DIMENSIONS), str, str), default=None,
              metavar="DIMENSION A B",
              help="Within RUN_A, compare B against A along one dimension: "
                   "profile, version (port instance label), port or target.")
@click.option("--all", "everything", is_flag=True,
              help="Also list identical figures and changes that are not significant.")
def compare(run_a: str, run_b: str | None, out: Path, threshold: float,
            exact_threshold: float, alpha: float, fail_on: str | None,
            allow_missing: tuple[str, ...], gate_profiles: bool, junit_path: Path | None,
            fmt: str, by: tuple[str, str, str] | None, everything: bool) -> None:
    """Compare two stored runs (ids, latest or latest~N), or two profiles,
    versions, ports or targets of one run (--by); exit 2 when the gate fails:
    a regression, a system or case of A missing from B, a --fail-on rule."""
    from rtosmeter import gate as gating

    if by and run_b is not None:
        raise UserError(f"--by compares within one run, but two runs were given ({run_a}, "
                        f"{run_b})", "--by", f"Drop {run_b}, or drop --by to compare two runs")
    rules = gating.parse_rules(fail_on)
    done = run_compare(out, run_a, run_b or "latest", threshold, alpha, by, exact_threshold)
    result = done.comparison
    if gate_profiles:
        result.effects = False
    gated = not result.effects
    gate = gating.evaluate(result, done.a, done.b, split_list(allow_missing), rules,
                           two_runs=by is None) if gated else gating.Gate()
    _echo(result, gate, gated, fmt, everything)
    if junit_path is not None:
        from rtosmeter import junit

        junit.write(junit_path, "rtosmeter.compare", gate.verdicts if gated else [])
    if gated:
        _exit_on_failure(result, gate, threshold, exact_threshold)


def _echo(result: Comparison, gate: Gate, gated: bool, fmt: str, everything: bool) -> None:
    """The comparison in `fmt` on stdout; its JSON also carries the gate's verdicts."""
    from rtosmeter.reports.document.comparison import sheet

    extra = {"gate": [asdict(v) for v in gate.verdicts if v.check != "figure"],
             "gate_failures": len(gate.failures) if gated else 0}
    # one line is wider than a pipe's 160 columns: the table keeps its rows whole
    echo_sheet(sheet(result, everything, extra), fmt, width=None if sys.stdout.isatty() else 200)


def _exit_on_failure(result: Comparison, gate: Gate, threshold: float,
                     exact_threshold: float) -> None:
    """Each failure of the gate on stderr, then exit 2 (CI's gate)."""
    others = [v for v in gate.failures if v.check != "figure"]
    for v in others:
        click.echo(f"gate: {terminal_safe(v.message)}", err=True)
    if not (result.regressions or others):
        return
    parts = [f"{len(result.regressions)} regression(s) over {threshold:g} % "
             f"({exact_threshold:g} count(s) in exact runs)"]
    if missing := sum(v.check == "missing" for v in others):
        parts.append(f"{missing} missing from {result.name_b} (--allow-missing to accept)")
    if broken := sum(v.check == "rule" for v in others):
        parts.append(f"{broken} --fail-on rule(s) broken")
    click.echo("gate failed: " + ", ".join(parts), err=True)
    from rtosmeter.attribution.diff import gate_lines

    for line in gate_lines(result):
        click.echo(f"  {line}", err=True)
    sys.exit(REGRESSION_EXIT)
