"""Idle figures of one window of one execution: how long the CPU slept and
was awake in QEMU's virtual time, how often it woke and why, and the
instructions each wake-up cost. Times are virtual nanoseconds under
`-icount`: exact and the same on every run, not the host's.

One `IdleFigures` per execution and window: the window "execution" is the
whole run of the firmware; a case's id is that case's window.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

# Why the CPU left WFI: the exception taken first after it.
WAKE_CAUSES = ("tick", "timer", "interrupt")
WHOLE = "execution"  # the window of the whole execution


@dataclass(frozen=True)
class IdleFigures:
    """Idle figures of one window of one execution (virtual time)."""

    window_ns: int  # the window's length: asleep_ns + awake_ns
    asleep_ns: int  # time between WFI entries and the wake-ups that ended them
    awake_ns: int
    wakeups: int  # WFI exits
    wake_causes: Mapping[str, int] = field(default_factory=dict)  # WAKE_CAUSES -> count
    instructions_awake: int = 0  # instructions executed in the window
    window: str = WHOLE
    # Exceptions entered in a case's window, by WAKE_CAUSES, asleep or not
    # (a spinning idle takes its ticks awake); empty for the whole execution.
    interrupts: Mapping[str, int] = field(default_factory=dict)
    # Why time asleep is unknown ("" when measured): on a QEMU whose plugin
    # cannot read virtual time, asleep_ns is 0 and window_ns only the time
    # awake, so every figure of time says so (docs/qemu.md).
    time_limit: str = ""

    def __post_init__(self) -> None:
        causes = {k: int(v) for k, v in self.wake_causes.items()}
        entered = {k: int(v) for k, v in self.interrupts.items()}
        unknown = sorted((set(causes) | set(entered)) - set(WAKE_CAUSES))
        if unknown:
            raise ValueError(f"unknown wake-up causes {unknown} (known: {WAKE_CAUSES})")
        object.__setattr__(self, "wake_causes", MappingProxyType(causes))
        object.__setattr__(self, "interrupts", MappingProxyType(entered))
        if min(self.window_ns, self.asleep_ns, self.awake_ns, self.wakeups,
               self.instructions_awake, *causes.values(), *entered.values(), 0) < 0:
            raise ValueError("idle figures are never negative")

    @property
    def timed(self) -> bool:
        """Whether time asleep (so the window's length) was measured."""
        return not self.time_limit

    @property
    def residency(self) -> float | None:
        """The fraction of the window spent asleep (0 for an empty window;
        None when time asleep was not measured)."""
        if not self.timed:
            return None
        return self.asleep_ns / self.window_ns if self.window_ns else 0.0

    @property
    def wakeups_per_s(self) -> float | None:
        if not self.timed:
            return None
        return self.wakeups * 1e9 / self.window_ns if self.window_ns else 0.0

    @property
    def instructions_per_wakeup(self) -> float:
        return self.instructions_awake / self.wakeups if self.wakeups else 0.0
