#!/usr/bin/env python3
"""Speed benchmark: sections 1-2 of the catalog (throughput, latency and the
signal/wait scenarios) for one port on one QEMU target, from a cold build.

Runs what `rtosmeter run --port P --target T --bench 'tm.*,lat.*,sw.*' -j 2
--out <fresh tmp dir>` runs (the same run_campaign() the command calls),
times each build (rtosmeter.build.build, wrapped here) and the whole, and
prints build time, run time (the rest) and the total, with the executions'
own wall times from the store. Goal: <= 60 s on a 2-core machine.

    .venv/bin/python scripts/bench_campaign.py [--port baremetal] [--target qemu-mps2-an386]
        [--source freertos=/path/to/FreeRTOS-Kernel] [-j 2] [--keep DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SECTIONS_1_2 = "tm.*,lat.*,sw.*"
GOAL_S = 60.0


def timed_builds(executor: Any) -> list[float]:
    """Wrap the executor's build() so each build's wall time is recorded."""
    seconds: list[float] = []
    real: Callable[..., Any] = executor.build

    def build(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            seconds.append(time.perf_counter() - t0)

    executor.build = build
    return seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", default="baremetal")
    ap.add_argument("--target", default="qemu-mps2-an386")
    ap.add_argument("--source", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("--bench", default=SECTIONS_1_2)
    ap.add_argument("-j", dest="jobs", type=int, default=2)
    ap.add_argument("--keep", type=Path, help="Keep the output here (default: a temp dir)")
    args = ap.parse_args()

    from rtosmeter import execute
    from rtosmeter.commands.run import RunOptions, run_campaign
    from rtosmeter.errors import UserError
    from rtosmeter.sources import parse_source_options
    from rtosmeter.store import Store

    with tempfile.TemporaryDirectory(prefix="rm-bench-campaign-") as tmp:
        out = args.keep or Path(tmp) / "out"
        if out.exists() and any(out.iterdir()):
            print(f"Error: {out} is not empty in --keep. Give a new directory, so the "
                  "build starts cold", file=sys.stderr)
            return 1
        builds = timed_builds(execute)
        opts = RunOptions(out=out, ports=(args.port,), targets=(args.target,),
                          bench=args.bench, sources=parse_source_options(tuple(args.source)),
                          jobs=args.jobs, quiet=True)
        t0 = time.perf_counter()
        try:
            summary = run_campaign(opts, ROOT)
        except UserError as exc:
            print(f"Error: {exc}", file=sys.stderr)
            return 1
        total = time.perf_counter() - t0
        with Store.open(out / "rtosmeter.sqlite") as store:
            execs = store.executions(summary.run_id)
            statuses = {b.status for b in store.builds(summary.run_id)}
    build_s = sum(builds)
    run_wall = sum(e.wall_s or 0.0 for e in execs)
    print(f"{args.port} on {args.target}, --bench '{args.bench}', -j {args.jobs}: "
          f"run {summary.run_id} {summary.status}, builds {', '.join(sorted(statuses))}")
    print(f"  build:  {build_s:6.1f} s  ({len(builds)} build tree(s), cold)")
    print(f"  run:    {total - build_s:6.1f} s  ({len(execs)} executions, "
          f"{summary.failed} failed; {run_wall:.1f} s of emulator wall time, "
          f"up to {args.jobs} at once)")
    print(f"  total:  {total:6.1f} s  (goal <= {GOAL_S:.0f} s: "
          f"{'met' if total <= GOAL_S else 'missed'})")
    if summary.not_run:
        print(f"  not run here: {summary.not_run} combination(s); see "
              "`rtosmeter report` for the reason")
    return 0 if summary.executions and not summary.builds_failed else 1


if __name__ == "__main__":
    sys.exit(main())
