#!/usr/bin/env python3
"""CPU-time cost of the rmcycles QEMU plugin against a plain QEMU run.

Builds one bare-metal firmware group twice for a QEMU MPS2 target (the timer
timestamp, and the plugin counter: RM_TS_PLUGIN), runs it plain, with
mode=instructions and with mode=cycles, several times each under the same
`-icount shift=6,align=off,sleep=off`, and prints the median CPU time (user +
system of the QEMU process) with the ratio to the plain run. The groups are
bounded in virtual time, so every run executes about the same number of
guest instructions (printed from the plugin's own count).

    .venv/bin/python scripts/bench_plugin.py [--group tm_basic] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import cortexm_firmware as fw  # noqa: E402

from rtosmeter import qemu_binary, qemu_plugin  # noqa: E402
from rtosmeter.catalog import load_catalog  # noqa: E402
from rtosmeter.definitions import Definitions  # noqa: E402

SHIFT = 6


def cpu_seconds(cmd: list[str]) -> float:
    """User + system CPU time of one child process run to completion."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"Error: {' '.join(cmd)} exited with {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def qemu(machine: str, elf: Path, plugin: list[str] | None) -> list[str]:
    cmd = [qemu_binary.chosen(), "-M", machine, "-nographic", "-monitor", "none",
           "-serial", "stdio", "-semihosting-config", "enable=on,target=native",
           "-icount", f"shift={SHIFT},align=off,sleep=off"]
    if plugin:
        cmd += ["-plugin", ",".join(plugin)]
    return [*cmd, "-kernel", str(elf)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="CPU-time cost of the rmcycles plugin.")
    ap.add_argument("--target", default="qemu-mps2-an386")
    ap.add_argument("--group", default="tm_basic", help="a bench/cases group (bare metal)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--port", default="baremetal")
    ap.add_argument("--source", type=Path, help="the RTOS tree, for a port that needs one")
    ap.add_argument("--periods", type=int, default=30,
                    help="RM_TM_PERIODS (100 ms of virtual time each): the run's length")
    args = ap.parse_args(argv)
    subprocess.run(["make", "-s", "-C", str(qemu_plugin.PLUGIN_DIR)], check=True)
    so = qemu_plugin.plugin_path()
    if so is None:
        print("Error: the plugin did not build in plugins/qemu. Run make -C plugins/qemu",
              file=sys.stderr)
        return 1
    machine = args.target.removeprefix("qemu-")
    cpu = {"mps2-an385": "m3", "mps2-an386": "m4"}.get(machine, "")
    cases = ROOT / "bench" / "cases"
    defs = Definitions.load(ROOT)
    caps = load_catalog(ROOT).caps_mask(defs.port(args.port).caps)
    where = {"port": args.port, "caps": caps, "source": args.source}
    with tempfile.TemporaryDirectory(prefix="rm-bench-plugin-") as tmp:
        length = {"RM_TM_PERIODS": str(args.periods)}
        plain = fw.build(Path(tmp) / "plain", args.target, [args.group], cases=cases,
                         extra=length, **where)  # type: ignore[arg-type]
        summary = Path(tmp) / "summary.json"
        modes: list[tuple[str, Path, list[str] | None]] = [("plain", plain[args.group], None)]
        specs = [qemu_plugin.PluginSpec("instructions")]
        if cpu:
            specs.append(qemu_plugin.PluginSpec("cycles", cpu))
        for spec in specs:  # each unit its own build (cycles: RM_TS_IS_TIME 0)
            elf = fw.build(Path(tmp) / spec.mode, args.target, [args.group], cases=cases,
                           extra=qemu_plugin.build_defines(spec, SHIFT) | length,
                           **where)[args.group]  # type: ignore[arg-type]
            counter = qemu_plugin.counter_address(elf)
            modes.append((spec.mode, elf, [str(so), *spec.args(counter, summary)]))
        print(f"{args.port} on {args.target}, group {args.group}, -icount shift={SHIFT}, "
              f"median of {args.repeat} runs (CPU = user + system of QEMU)")
        print(f"{'mode':<14}{'CPU s':>8}{'x plain':>9}{'guest insns':>14}{'ns/insn':>9}")
        base = 0.0
        for name, elf, plugin in modes:
            times = [cpu_seconds(qemu(machine, elf, plugin)) for _ in range(args.repeat)]
            t = statistics.median(times)
            base = base or t
            insns = ""
            per = ""
            if plugin:
                n = int(json.loads(summary.read_text())["instructions"])
                insns, per = f"{n:,}", f"{t * 1e9 / n:.1f}"
            print(f"{name:<14}{t:>8.3f}{t / base:>9.2f}{insns:>14}{per:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
