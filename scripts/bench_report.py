#!/usr/bin/env python3
"""Speed benchmark: the HTML report of a run with 1,500,000 stored samples.

Stores the recorded host streams (tests/data/posix-host-*.rmstream) under
four port names through the real Store, with every series tiled until the run
holds about --samples samples, then, in a fresh process, times
`analysis.load_run()` + `reports.html.render()` (the report) and what `run`
writes beside the store (report.html and report.md with their charts), and
prints the wall times and the peak resident set size of that process.
Goal: the report in <= 2 s and <= 256 MiB.

    .venv/bin/python scripts/bench_report.py [--samples N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import math
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
PORTS = ("posix", "port-b", "port-c", "port-d")


def make_store(path: Path, want: int) -> int:
    import numpy as np

    from rtosmeter.protocol import parse_stream
    from rtosmeter.store import Store

    streams = [p.read_bytes() for p in sorted(DATA.glob("posix-host-*.rmstream"))]
    if not streams:
        sys.exit(f"Error: no recorded streams in {DATA}. Restore tests/data from git")
    per_copy = sum(len(s.samples) for d in streams for c in parse_stream(d).cases
                   for s in c.series.values())
    scale = max(1.0, want / (per_copy * len(PORTS)))
    total = 0
    with Store.open(path) as store:
        run = store.create_run({"campaign": "bench"}, {"machine": "bench"}, "bench")
        for port in PORTS:
            build = store.add_build(run, port, "host", "default", {"opt_flags": "-O2"})
            for data in streams:
                parsed = parse_stream(data)
                for case in parsed.cases:
                    for s in case.series.values():
                        # repeated cyclically (an array's `*` would scale the values)
                        s.samples = np.resize(s.samples, math.ceil(len(s.samples) * scale))
                        total += len(s.samples)
                store.add_execution(run, build, parsed.header["group"], status="ok",
                                    runner={"runner": "host"}, stream=data, parsed=parsed)
        store.finish_run(run)
    return total


def measure(path: Path) -> None:
    from rtosmeter import analysis
    from rtosmeter.commands.report import write_reports
    from rtosmeter.reports import html
    from rtosmeter.store import Store

    start = time.perf_counter()
    with Store.open(path) as store:
        view = analysis.load_run(store, 1)
    loaded = time.perf_counter()
    page = html.render(view)
    done = time.perf_counter()
    write_reports(path.parent, view)  # what `run` writes beside its store: one prepared report
    both = time.perf_counter()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)  # the chart workers, if forked
    rss = usage.ru_maxrss / 1024  # KiB on Linux
    cpu = usage.ru_utime + usage.ru_stime  # includes imports; wall time suffers on a busy box
    cpu += kids.ru_utime + kids.ru_stime
    charts = page.count("<figure class=\"chart\"")
    print(f"load_run {loaded - start:.2f} s, render {done - loaded:.2f} s, "
          f"total {done - start:.2f} s; report.html + report.md with charts "
          f"{both - done:.2f} s (CPU {cpu:.2f} s with its chart workers); peak RSS {rss:.0f} MiB "
          f"(a chart worker {kids.ru_maxrss / 1024:.0f} MiB); "
          f"{len(page) / 1e6:.1f} MB of HTML, {charts} charts")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=1_500_000)
    ap.add_argument("--keep", type=Path, help="keep the store in this folder")
    ap.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    if args.measure:
        measure(args.measure)
        return
    folder = args.keep or Path(tempfile.mkdtemp(prefix="rm-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "rtosmeter.sqlite"
    db.unlink(missing_ok=True)
    total = make_store(db, args.samples)
    print(f"stored {total:,} samples in {db}")
    # A fresh process, so the peak RSS is the report's, not the store writer's.
    subprocess.run([sys.executable, __file__, "--measure", str(db)], check=True)


if __name__ == "__main__":
    main()
