"""Estimates as on a board (`--unit cycles --as-board BOARD`): the board
target's `[memory]` table (its flash wait states at its clock, its prefetch
buffer and caches, each cited from the reference manual), the QEMU machine
with the same core, and the cycle model's arguments and label for both.

The plugin's memory system (plugins/qemu/memory.c) charges the flash wait
per line fetched that neither a cache nor the prefetch buffer holds; the
core's model is the board's (an M0+ board runs on the M0 machine with the
M0+ table). µs are at the board's clock: `board.clock_hz`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from rtosmeter.definitions import Definitions, Target
from rtosmeter.errors import UserError
from rtosmeter.measure import Unit
from rtosmeter.qemu_plugin import CYCLE_CPUS, MAX_DIV, MAX_WS, MIN_DIV, MODEL, PluginSpec
from rtosmeter.toml_table import REQUIRED, TomlTable, read_toml

# The QEMU target each core is estimated on.
QEMU_FOR_CPU = {"cortex-m0": "qemu-microbit", "cortex-m0plus": "qemu-microbit",
                "cortex-m3": "qemu-mps2-an385", "cortex-m4": "qemu-mps2-an386",
                "cortex-m7": "qemu-mps2-an500"}
# The plugin's bounds (plugins/qemu/rmcycles.c, memory.c).
LINES = (4, 8, 16, 32, 64)
MAX_CACHE, MAX_WAYS = 65536, 16
# What `rtosmeter calibrate` fits (rtosmeter.calibrate), within these bounds,
# and where it writes the fit: beside the board's target.toml.
BOUNDS: dict[str, tuple[int, int]] = {"ws": (0, MAX_WS), "prefetch": (0, 1),
                                      "div": (MIN_DIV, MAX_DIV)}
CALIBRATION_FILE = "calibration.toml"


@dataclass(frozen=True)
class BoardMemory:
    """One board's memory system at its clock, as its target.toml declares it."""

    board: str
    cpu: str  # the board's core, e.g. cortex-m4
    clock_hz: int
    ws: int
    line: int
    prefetch: bool
    icache: int
    dcache: int
    ways: int
    accelerator: str
    div: int = MAX_DIV  # SDIV/UDIV cycles: the TRM's worst case unless calibrated
    calibrated: bool = False  # ws, prefetch and div come from calibration.toml

    @property
    def qemu_target(self) -> str:
        return QEMU_FOR_CPU[self.cpu]

    def spec(self, div: int) -> PluginSpec:
        div = self.div if self.calibrated else div
        return PluginSpec(Unit.CYCLES, CYCLE_CPUS[self.cpu], self.ws, div, board=self.board,
                          memory=tuple(self.args()), board_label=self.label(),
                          clock_hz=self.clock_hz)

    def label(self) -> str:
        """What every figure estimated as on this board says it is."""
        fit = ", calibrated" if self.calibrated else ""
        return (f"cycles (estimated as on {self.board}: {MODEL}, {CYCLE_CPUS[self.cpu]}, "
                f"{self.ws} ws at {self.clock_hz / 1e6:g} MHz, {self.accelerator}{fit}; "
                f"QEMU {self.qemu_target})")

    def args(self) -> list[str]:
        return [f"line={self.line}", f"icache={self.icache}", f"dcache={self.dcache}",
                f"ways={self.ways}", f"prefetch={int(self.prefetch)}"]


def read_memory(target: Target, calibrated: bool = True) -> BoardMemory:
    """A board target's [memory] table, checked against what the plugin takes;
    with its calibration.toml's fit applied when there is one."""
    if target.kind != "board":
        raise UserError(f"'{target.name}' is a {target.kind} target, not a board", "--as-board",
                        "Name a board target (targets/<board>/target.toml with [board])")
    if not target.memory:
        raise UserError(f"board '{target.name}' declares no [memory] table", str(target.file),
                        "Add [memory] with its flash wait states and caches (docs/boards.md)")
    if target.cpu not in QEMU_FOR_CPU:
        raise UserError(f"no QEMU machine has the core of board '{target.name}' "
                        f"({target.cpu})", str(target.file),
                        f"Estimates exist for {', '.join(QEMU_FOR_CPU)}")
    t = TomlTable(target.memory, target.file, "memory.")
    mem = BoardMemory(target.name, target.cpu, t.num("clock_hz", REQUIRED, 1, 1_000_000_000),
                      t.num("flash_wait_states", REQUIRED, 0, MAX_WS),
                      t.num("flash_line_bytes", REQUIRED, 4, 64), t.flag("prefetch", REQUIRED),
                      t.num("icache_bytes", REQUIRED, 0, MAX_CACHE),
                      t.num("dcache_bytes", REQUIRED, 0, MAX_CACHE),
                      t.num("cache_ways", REQUIRED, 1, MAX_WAYS), t.text("accelerator", REQUIRED))
    t.done()
    if mem.line not in LINES:
        raise UserError(f"flash_line_bytes = {mem.line} is not a power of two from 4 to 64",
                        f"{target.file} [memory]", "Give the flash read width in bytes")
    for key, size in (("icache_bytes", mem.icache), ("dcache_bytes", mem.dcache)):
        lines = size // mem.line
        if size % mem.line or (size and (lines % mem.ways or lines > 4096)):
            raise UserError(f"{key} = {size} is not a whole number of {mem.line}-byte lines "
                            f"in {mem.ways} ways", f"{target.file} [memory]",
                            "Give the cache size in bytes, a multiple of line x ways")
    fit = fitted(target.dir) if calibrated else None
    if fit is not None:
        mem = replace(mem, ws=fit["ws"], prefetch=bool(fit["prefetch"]), div=fit["div"],
                      calibrated=True)
    return mem


def fitted(board_dir: Path) -> dict[str, int] | None:
    """A board's fitted parameters (ws, prefetch, div), if it was calibrated."""
    path = board_dir / CALIBRATION_FILE
    if not path.is_file():
        return None
    # every value through the checked reader: `ws = inf`, `1.9`, "٣" or
    # `prefetch = "false"` are errors naming the file, never applied
    t = TomlTable(read_toml(path), path)
    out = {"ws": t.num("ws", REQUIRED, *BOUNDS["ws"]),
           "prefetch": int(t.flag("prefetch", REQUIRED)),
           "div": t.num("div", REQUIRED, *BOUNDS["div"])}
    t.seconds("mape_percent", 0.0, 0.0, 1e6)  # the fit's record (rtosmeter.calibrate.write)
    t.flag("ranking_kept", False)
    t.done()
    return out


def board_named(defs: Definitions, name: str) -> Target:
    """The board target `name` (any case: B-L475E-IOT01A is b-l475e-iot01a)."""
    boards = {t.name.lower(): t for t in defs.targets.values() if t.kind == "board"}
    target = boards.get(name.lower())
    if target is None:
        raise UserError(f"unknown board '{name}'", "--as-board",
                        f"Boards: {', '.join(sorted(boards))}")
    return target


def memory_of(name: str, root: Path | None = None, calibrated: bool = True) -> BoardMemory:
    return read_memory(board_named(Definitions.load(root), name), calibrated)


def check_target(mem: BoardMemory, target: Target, unit: str | None) -> None:
    """An estimate as on a board runs in cycles on the QEMU target of its core."""
    if unit not in (None, Unit.CYCLES):
        raise UserError(f"--as-board estimates cycles, not {unit}", "--unit",
                        "Give --unit cycles with --as-board (or leave --unit out)")
    if target.name != mem.qemu_target:
        raise UserError(f"board '{mem.board}' ({mem.cpu}) is estimated on {mem.qemu_target}, "
                        f"not on target '{target.name}'", "--as-board",
                        f"Give --target {mem.qemu_target}, or leave --target out")
