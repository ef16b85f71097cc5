#!/usr/bin/env python3
"""Speed benchmark: the board runner's stream through a GDB server, semihosting vs RTT.

Builds the STM32F407 board firmware (a benchmark group) twice, with the
semihosting console (the default) and with `[board] stream = "rtt"`, and
runs each through the `gdb` probe against QEMU's gdbstub (netduinoplus2,
an STM32F405, started empty): the runner loads the ELF over the gdb
protocol, resets, and reads the stream. Prints, per stream kind, the time to
load the ELF, the run's wall time, the records and bytes received, and the
wall time per record (what a record costs to get off the core through the
adapter: a semihosting write halts the core; RTT is polled while it runs).
Both streams must hold the same records.

    .venv/bin/python scripts/bench_board_stream.py [--group lat_isr] [--samples 1024]
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from cortexm_firmware import build  # noqa: E402

from rtosmeter import qemu_binary  # noqa: E402
from rtosmeter.definitions import Definitions  # noqa: E402
from rtosmeter.protocol import parse_stream  # noqa: E402
from rtosmeter.runners import runner_for  # noqa: E402
from rtosmeter.runners.base import RunOutcome, RunRequest  # noqa: E402

BOARD = "stm32f407"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_through_gdbstub(elf: Path) -> RunOutcome:
    port = free_port()
    qemu = subprocess.Popen([qemu_binary.chosen(), "-M", "netduinoplus2", "-nographic",
                             "-monitor", "none", "-serial", "null",
                             "-gdb", f"tcp:127.0.0.1:{port}", "-S"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        target = Definitions.load(ROOT).targets[BOARD]
        board = {**target.board, "probe": "gdb", "gdb": f"127.0.0.1:{port}",
                 "gdb_reset": "system_reset"}
        t = replace(target, board=board)
        runner = runner_for(t)
        runner.prepare(RunRequest(elf, t))
        return runner.run()
    finally:
        qemu.kill()
        qemu.wait()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--group", default="lat_isr")
    ap.add_argument("--samples", type=int, default=1024)
    args = ap.parse_args()
    extra = {"RM_SAMPLES": str(args.samples), "RM_BATCH": str(min(args.samples, 256))}
    records: dict[str, list[tuple[str, list[int]]]] = {}
    print(f"{BOARD} firmware, group {args.group}, {args.samples} samples, "
          "through QEMU's gdbstub (netduinoplus2)")
    print(f"{'stream':<12}{'ELF bytes':>10}{'load s':>8}{'run s':>8}{'records':>9}"
          f"{'bytes':>8}{'ms/record':>11}  halts/polls")
    with tempfile.TemporaryDirectory(prefix="rm-bench-board-") as tmp:
        for kind, more in (("semihosting", {}), ("rtt", {"RM_STREAM_RTT": "1"})):
            elf = build(Path(tmp) / kind, BOARD, [args.group],
                        cases=ROOT / "bench" / "cases", extra={**extra, **more})[args.group]
            out = run_through_gdbstub(elf)
            if out.status != "ok":
                print(f"{kind}: {out.status}: {out.message}")
                return 1
            parsed = parse_stream(out.stream)
            n = out.stream.count(b"\n@RM ") + out.stream.startswith(b"@RM ")
            records[kind] = [(c.id, [int(x) for s in c.series.values() for x in s.samples])
                             for c in parsed.cases]
            halts = (f"{out.info['semihosting_calls']} semihosting calls"
                     + (f", {out.info['rtt_polls']} RTT polls" if "rtt_polls" in out.info
                        else ""))
            print(f"{kind:<12}{out.info['loaded_bytes']:>10}{float(out.info['load_s']):>8.3f}"
                  f"{out.wall_s:>8.2f}{n:>9}{len(out.stream):>8}"
                  f"{1000 * out.wall_s / max(n, 1):>11.3f}  {halts}")
    same = [c for c, _ in records["semihosting"]] == [c for c, _ in records["rtt"]]
    print(f"same cases in both streams: {same} (QEMU has no DWT: the samples are zeros)")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
