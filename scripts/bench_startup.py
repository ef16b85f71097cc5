#!/usr/bin/env python3
"""Speed benchmark: how long the CLI takes to start.

Runs `rtosmeter --version`, `--help` and `list` (and `report --format table`
when --out names a campaign folder with a store) several times each in fresh
processes and prints the median wall and CPU time of each. Goals: --help and
--version under 0.3 s, list under 0.5 s.

    .venv/bin/python scripts/bench_startup.py [--runs N] [--out DIR]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXE = Path(sys.executable).parent / "rtosmeter"  # the installed entry point
GOALS = {"--version": 0.3, "--help": 0.3, "list": 0.5}


def median_seconds(args: list[str], runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system) of the process:
    the CPU time is what a busy machine inflates least."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([str(EXE), *args], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="runs per command (median shown)")
    ap.add_argument("--out", type=Path, help="a campaign folder: also time its table report")
    args = ap.parse_args()
    commands = [["--version"], ["--help"], ["list"]]
    if args.out:
        commands.append(["report", "--out", str(args.out), "--format", "table"])
        commands.append(["report", "--out", str(args.out), "--format", "html"])
    for cmd in commands:
        seconds, cpu = median_seconds(cmd, args.runs)
        goal = GOALS.get(cmd[0])
        verdict = "" if goal is None else \
            f"  (goal < {goal} s: {'met' if seconds < goal else 'MISSED'})"
        print(f"rtosmeter {' '.join(cmd):<40} median {seconds:.3f} s (CPU {cpu:.3f} s) "
              f"over {args.runs}{verdict}")


if __name__ == "__main__":
    main()
