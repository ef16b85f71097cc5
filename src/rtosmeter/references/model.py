"""One published figure, as references/NAME.toml states it, mapped to an
rtosmeter case and series. A reference only measures our error: no model
parameter is ever fitted to it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rtosmeter.board_memory import QEMU_FOR_CPU

# What the operation is, for the error per kind: a kernel call that does not
# switch, a switch, an interrupt path, or work with no kernel call (calibration).
KINDS = ("call", "switch", "interrupt", "compute")
CONFIDENCES = ("exact", "close", "doubtful")  # how well our case matches their operation
UNITS = ("cycles", "us")  # the figure's unit as published
# Which figure of ours: the series' mean (an interval), or a throughput case's
# period in the unit over its count (Thread-Metric's cycles per pass).
FIGURES = ("mean", "per_iteration")
CORES = tuple(QEMU_FOR_CPU)


@dataclass(frozen=True)
class Reference:
    """A published figure and the case and series of ours that times the same."""

    id: str
    file: Path
    title: str  # the source document's title (the file's)
    operation: str  # the source's own name for what it timed
    port: str  # our port running that kernel
    version: str  # the kernel's version the source ran
    core: str  # e.g. cortex-m4
    core_stated: str  # "" when the source names it; else how it was inferred
    board: str  # the source's board, or "not stated"
    clock_hz: int  # the core clock of the figure (0: not stated / not needed)
    flash_ws: str  # the flash wait states as stated, or "not stated"
    value: float
    unit: str  # cycles | us
    source: str  # URL or document id, with the section or table
    case: str
    series: str  # "" the case's first series
    figure: str  # one of FIGURES
    kind: str
    confidence: str
    reason: str
    as_board: str = ""  # our board target that stands for the source's board
    scale: float = 1.0  # their figure holds `scale` of our intervals (two yields per pass)
    note: str = ""

    @property
    def qemu_target(self) -> str:
        """The emulated target of the reference's core."""
        return QEMU_FOR_CPU[self.core]

    @property
    def published_cycles(self) -> float:
        """The figure in cycles: µs converted at the stated clock."""
        return self.value if self.unit == "cycles" else self.value * self.clock_hz / 1e6
