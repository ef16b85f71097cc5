#!/usr/bin/env python3
"""CPU-time cost of per-function attribution (plugins/qemu/attrib.c) against
a plain plugin run of the same firmware.

Runs each given firmware (built with the plugin counter, e.g. the ELFs of an
`rtosmeter run` under <out>/build/PORT/TARGET/PROFILE@instructions/) under
`-icount shift=6,align=off,sleep=off` with the rmcycles plugin alone and with
attribution on (funcs= and attrib=), several times each, and prints the
median CPU time (user + system of QEMU) and the ratio; the goal is <= 1.5.
Also checks that the plugin's instruction count is the same both ways.

    .venv/bin/python scripts/bench_attribution.py ELF [ELF...] [--repeat 5]
        [--mode instructions|cycles] [--machine mps2-an386]
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
sys.path.insert(0, str(ROOT / "src"))

from rtosmeter import qemu_binary, qemu_plugin  # noqa: E402
from rtosmeter.attribution import funcmap  # noqa: E402

SHIFT = 6
GOAL = 1.5


def cpu_seconds(cmd: list[str]) -> float:
    """User + system CPU time of one child process run to completion."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):  # 1: a firmware with a failed case
        raise SystemExit(f"Error: {' '.join(cmd)} exited with {status}")
    return usage.ru_utime + usage.ru_stime


def command(machine: str, elf: Path, plugin: list[str]) -> list[str]:
    return [qemu_binary.chosen(), "-M", machine, "-nographic", "-monitor", "none",
            "-serial", "null", "-semihosting-config", "enable=on,target=native",
            "-icount", f"shift={SHIFT},align=off,sleep=off", "-plugin", ",".join(plugin),
            "-kernel", str(elf)]


def measure(elf: Path, machine: str, mode: str, repeat: int) -> tuple[float, float, int]:
    """(plain CPU s, attributed CPU s, guest instructions) for one firmware."""
    so = qemu_plugin.plugin_path()
    if so is None:
        raise SystemExit("Error: the plugin is not built: make -C plugins/qemu")
    counter = qemu_plugin.counter_address(elf)
    if counter is None:
        raise SystemExit(f"Error: {elf} has no rm_plugin_counter (built without the plugin)")
    spec = qemu_plugin.PluginSpec(mode, "m4" if mode == "cycles" else "")
    with tempfile.TemporaryDirectory(prefix="rm-bench-attrib-") as tmp:
        summary = Path(tmp) / "summary.json"
        base = [str(so), *spec.args(counter, summary)]
        fmap, names, out = (Path(tmp) / "f.map", Path(tmp) / "f.json", Path(tmp) / "a.txt")
        funcmap.write_map(elf, fmap, names)
        attributed = [*base, f"funcs={fmap}", f"attrib={out}"]
        plain_t, attr_t = [], []
        counts = set()
        for _ in range(repeat):  # interleaved: a load change hits both alike
            plain_t.append(cpu_seconds(command(machine, elf, base)))
            counts.add(json.loads(summary.read_text())["instructions"])
            attr_t.append(cpu_seconds(command(machine, elf, attributed)))
            counts.add(json.loads(summary.read_text())["instructions"])
        if len(counts) != 1:
            raise SystemExit(f"Error: {elf}: the instruction count differs: {sorted(counts)}")
    return statistics.median(plain_t), statistics.median(attr_t), counts.pop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="CPU-time cost of per-function attribution.")
    ap.add_argument("elfs", nargs="+", type=Path)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--mode", choices=["instructions", "cycles"], default="instructions")
    ap.add_argument("--machine", default="mps2-an386")
    args = ap.parse_args(argv)
    print(f"-icount shift={SHIFT}, mode={args.mode}, median of {args.repeat} runs "
          f"(CPU = user + system of QEMU)")
    print(f"{'firmware':<58}{'insns':>12}{'plugin s':>10}{'+attrib s':>11}{'ratio':>7}")
    worst = 0.0
    for elf in args.elfs:
        plain, attr, insns = measure(elf, args.machine, args.mode, args.repeat)
        ratio = attr / plain
        worst = max(worst, ratio)
        name = f"{elf.parts[-4]} {elf.parts[-2]} {elf.stem}"[-57:]
        print(f"{name:<58}{insns:>12,}{plain:>10.3f}{attr:>11.3f}{ratio:>7.2f}")
    print(f"worst ratio {worst:.2f} (goal <= {GOAL})")
    return 0 if worst <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
