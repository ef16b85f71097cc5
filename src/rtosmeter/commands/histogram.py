"""`rtosmeter histogram RUN`: each latency series' histogram and tail
percentiles (p99, p99.9, p99.99 where the samples support them) as CSV or
JSON, for plotting elsewhere (distribution.py)."""

from __future__ import annotations

import fnmatch
from dataclasses import asdict
from pathlib import Path

import click

from rtosmeter.commands.common import (
    echo_json,
    format_option,
    open_store,
    out_option,
    resolve_run,
)
from rtosmeter.errors import UserError


@click.command("histogram")
@click.argument("run", default="latest")
@out_option
@click.option("--case", "pattern", default="*", show_default=True, metavar="GLOB",
              help="Case IDs to export (fnmatch), e.g. 'lat.sem.*'.")
@click.option("--bins", "max_bins", type=click.IntRange(1, 10_000), default=200,
              show_default=True, help="At most this many bins per series.")
@format_option(("csv", "json"), default="csv",
               help_text="One CSV row per bin, or JSON per series.")
def histogram(run: str, out: Path, pattern: str, max_bins: int, fmt: str) -> None:
    """Histograms and tail percentiles of a run's latency series (p99.9 needs
    1,000 samples, p99.99 10,000: left empty below that)."""
    from rtosmeter import analysis, distribution, vocabulary

    with open_store(out, must_exist=True) as store:
        view = analysis.load_run(store, resolve_run(store, run), keep_samples=True)
    found = [distribution.of_series(vocabulary.system(c), c.case_id, d.series, d.unit.label,
                                    d.values, max_bins)
             for c in view.cases if fnmatch.fnmatchcase(c.case_id, pattern)
             and c.status == "ok" and not c.timing_void
             for d in c.distributions if d.values is not None]
    if not found:
        raise UserError(f"run {view.run_id} has no latency series of a case matching "
                        f"'{pattern}'", "--case", "Check the pattern (`rtosmeter report` "
                        "lists the cases)")
    if fmt == "json":
        echo_json({"run": view.run_id, "rule": "a p-th percentile needs 100 / (100 - p) "
                   "samples: p99 100, p99.9 1,000, p99.99 10,000",
                   "series": [asdict(d) for d in found]})
        return
    import csv
    import sys

    from rtosmeter.textsafe import csv_safe

    rows = [row for d in found for row in distribution.as_rows(d)]
    writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: csv_safe(v) for k, v in row.items()} for row in rows)
