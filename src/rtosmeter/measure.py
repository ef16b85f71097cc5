"""What an execution counts (`--unit`): exact instructions, estimated
cycles or the target's own ticks; the plan's `Measure` (runners/base.py)
carries it with every other measurement choice to the runner."""

from __future__ import annotations

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
