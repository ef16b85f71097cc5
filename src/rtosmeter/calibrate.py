"""`rtosmeter calibrate BOARD`: fit a board's cycle model to what the board
measures. The kernels (bare metal's `KERNELS`: exception entry and return,
a compute loop, interrupt paths) are built once for the QEMU machine of the
board's core as `run --as-board` builds them, run on the board (DWT
cycles, a stored board run) or on a stand-in, and re-run under QEMU with
the model's free parameters moved within their bounds:

  ws        flash wait states seen   0 .. 15 (the plugin's range)
  prefetch  sequential lines hidden  0 | 1
  div       SDIV/UDIV cycles         2 .. 12 (the TRM's range)

The search is a bounded coordinate descent over those integer grids (each
axis in turn, until none moves): the parameters are few, discrete and
bounded, so a grid finds the exact optimum of each axis without a solver's
tolerance, and every point is a real QEMU run. The error is the mean
absolute % error over the cases; the ranking check asks whether the cases
keep their order, and calibrate_rtos whether the RTOS ports do. The fit is written beside the board
(targets/<board>/calibration.toml), which `--as-board` then uses.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from rtosmeter.board_memory import BOUNDS, CALIBRATION_FILE, BoardMemory
from rtosmeter.errors import UserError
from rtosmeter.protocol import parse_stream
from rtosmeter.qemu_plugin import MAX_DIV, counter_address, plugin_path
from rtosmeter.safe_write import write_text

KERNELS = "lat.isr.*,tm.basic,calib.flash"
# what the fit cannot do without: the flash kernels' series (wait states,
# prefetch, the divide's cycles)
FLASH_KERNELS = ("calib.flash/straight", "calib.flash/jumps", "calib.flash/divide")
Figures = dict[str, float]  # "case/series" -> median cycles (or count per period)


@dataclass(frozen=True)
class Params:
    ws: int
    prefetch: int
    div: int

    def args(self, mem: BoardMemory) -> list[str]:
        memory = [a for a in mem.args() if not a.startswith("prefetch=")]
        return [f"ws={self.ws}", f"div={self.div}", *memory, f"prefetch={self.prefetch}"]


def declared(mem: BoardMemory, div: int = MAX_DIV) -> Params:
    return Params(mem.ws, int(mem.prefetch), div)


def figures(stream: bytes) -> Figures:
    """Each series' median and each count's per-period median of one stream."""
    out: Figures = {}
    parsed = parse_stream(stream)
    for case in parsed.cases:
        if case.status != "ok":
            continue
        for s in case.series.values():
            if len(s.samples) > 1:
                out[f"{case.id}/{s.name}"] = float(np.median(s.samples[1:]))
        totals = [c.value for c in case.counts if c.name == "total"]
        if totals:
            out[f"{case.id}/count"] = float(np.median(totals))
    return out


def stream(elf: Path, machine: str, mem: BoardMemory, p: Params, cpu: str) -> bytes:
    """One firmware's result stream under QEMU with the model at `p`: what a
    board whose cycles the model produces would report."""
    so = plugin_path()
    if so is None:
        raise UserError("the rmcycles plugin is not built", "plugins/qemu",
                        "Run scripts/install.sh")
    counter = counter_address(elf)
    args = ["mode=cycles", f"cpu={cpu}", *p.args(mem), f"counter=0x{counter:x}"]
    cmd = ["qemu-system-arm", "-M", machine, "-nographic", "-monitor", "none",
           "-serial", "stdio", "-semihosting-config", "enable=on,target=native",
           "-icount", "shift=6,align=off,sleep=off", "-plugin", ",".join([str(so), *args]),
           "-kernel", str(elf)]
    return subprocess.run(cmd, capture_output=True, timeout=300, check=False).stdout


def simulate(elfs: list[Path], machine: str, mem: BoardMemory, p: Params,
             cpu: str) -> Figures:
    """The kernels under QEMU with the model at `p`."""
    out: Figures = {}
    for elf in elfs:
        out.update(figures(stream(elf, machine, mem, p, cpu)))
    return out


def error(measured: Mapping[str, float], estimated: Mapping[str, float]) -> dict[str, float]:
    """% error of the estimate, per case both have."""
    return {k: 100.0 * (estimated[k] - v) / v for k, v in measured.items()
            if k in estimated and v}


def mape(errors: Mapping[str, float]) -> float:
    return float(np.mean([abs(e) for e in errors.values()])) if errors else float("inf")


def ranking_kept(measured: Mapping[str, float], estimated: Mapping[str, float]) -> bool:
    keys = [k for k in measured if k in estimated]
    return sorted(keys, key=lambda k: measured[k]) == sorted(keys, key=lambda k: estimated[k])


def fit(measured: Mapping[str, float], start: Params,
        run: Callable[[Params], Figures]) -> tuple[Params, Figures]:
    """Coordinate descent over the bounded integer grids of BOUNDS."""
    cache: dict[Params, float] = {}
    runs: dict[Params, Figures] = {}

    def cost(p: Params) -> float:
        if p not in cache:
            runs[p] = run(p)
            cache[p] = mape(error(measured, runs[p]))
        return cache[p]

    def costs(points: list[Params]) -> None:
        """Every point's cost, the QEMU runs side by side (one per core)."""
        todo = [p for p in dict.fromkeys(points) if p not in cache]
        with ThreadPoolExecutor(max(1, min(len(todo), os.cpu_count() or 1))) as pool:
            for p, figures in zip(todo, pool.map(run, todo), strict=True):
                runs[p], cache[p] = figures, mape(error(measured, figures))

    best = start
    for _ in range(4):
        moved = False
        for axis, (low, high) in BOUNDS.items():
            # the points of one axis differ from `best` on that axis alone, whichever
            # of them becomes best: all are known before the walk along it
            costs([best] + [replace(best, **{axis: v}) for v in range(low, high + 1)])
            for value in range(low, high + 1):
                p = replace(best, **{axis: value})
                if cost(p) < cost(best) - 1e-9:
                    best, moved = p, True
        if not moved:
            break
    cost(best)
    return best, runs[best]


def write(board_dir: Path, p: Params, errors: Mapping[str, float], kept: bool,
          source: str) -> Path:
    path = board_dir / CALIBRATION_FILE
    lines = [f"# Fitted by rtosmeter calibrate ({source}); --as-board {board_dir.name} uses it.",
             f"ws = {p.ws}", f"prefetch = {'true' if p.prefetch else 'false'}", f"div = {p.div}",
             f"mape_percent = {mape(errors):.3f}", f"ranking_kept = {'true' if kept else 'false'}"]
    write_text(path, "\n".join(lines) + "\n")
    return path
