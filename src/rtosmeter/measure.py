"""What an execution counts, as the plan chose it: the unit (`--unit`) and
the inputs of the cycle model and of emulated time (`--cycle-ws`,
`--cycle-div`, `--no-icount`).

The plan stores a `Measure` per build; each runner makes of it what its kind
can (runners/qemu.py: -icount and the rmcycles plugin; hosts and boards keep
their own counter), so neither the planner nor the build names a runner.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

DEFAULT_DIV = 12  # SDIV/UDIV: the TRM's worst case (2-12, data dependent)


class Unit(StrEnum):
    """What the samples count; the display label is the counter's
    (rtosmeter.qemu_plugin.unit_label for the plugin's units)."""

    INSTRUCTIONS = "instructions"  # the QEMU plugin: exact
    CYCLES = "cycles"  # the QEMU plugin: a cycle model's estimate
    TICKS = "ticks"  # the target's own counter: host clock, DWT, the QEMU timer

    @classmethod
    def stored(cls, value: str) -> Unit:
        """A plan's unit as stored; "" is how plans before the enum said TICKS."""
        return cls(value) if value else cls.TICKS


@dataclass(frozen=True)
class Measure:
    """One build's measurement choices, as the plan resolved them."""

    unit: Unit = Unit.TICKS
    icount: bool = True  # False: emulated runs are host-timed (noisy, labelled so)
    ws: int = 0  # cycles: flash wait states
    div: int = DEFAULT_DIV  # cycles: SDIV/UDIV cycles
    board: str = ""  # cycles: estimated as on this board (--as-board; rtosmeter.board_memory)
    qemu: str = ""  # emulated runs: the QEMU binary (--qemu; rtosmeter.qemu_binary), "": default
    attribute: bool = False  # plugin runs: per-function attribution too (--attribute)
