"""Estimated energy: a window's idle figures (rtosmeter.idle) priced by a
chip's power model (rtosmeter.energy.model).

    energy = active time * run power + sleep time * sleep power
             + wake-ups * wake-up energy

The active time is the window's awake instructions at the chip's clock,
one instruction per cycle (QEMU counts instructions, not the chip's
cycles); the sleep time is the rest of the window, whose length timers set
(virtual time under -icount is exact). That holds where the system sleeps
when it waits; a window with no sleep at all is a kernel whose idle spins,
and the chip spins as long: awake throughout. A WFI sleep is the chip's Sleep
mode, whose wake-up costs a few cycles already among the awake
instructions; a `deep` sleep is its stop mode, whose wake-up costs the
model's wake-up time at run current. Every figure is an estimate and is
labelled with its model and source wherever it is shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from rtosmeter.energy.model import PowerModel
from rtosmeter.idle.figures import IdleFigures

# The battery a life is stated for: a coin cell, as IoT nodes use.
BATTERY = "CR2032 coin cell, 225 mAh nominal at 3 V (Energizer CR2032 datasheet)"
BATTERY_MAH = 225.0
HOURS_PER_DAY = 24.0


@dataclass(frozen=True)
class Estimate:
    """One window's estimated energy on one chip model at one clock."""

    model: PowerModel
    clock_hz: int
    deep: bool  # sleeps priced as the stop mode (tickless) rather than WFI sleep
    window_s: float
    active_s: float  # awake instructions at clock_hz
    sleep_s: float
    wakeups: int
    energy_uj: float
    operations: int  # what "per operation" divides by (0: no operation count)
    saturated: bool  # the awake instructions need more than the window at clock_hz

    @property
    def average_mw(self) -> float:
        return self.energy_uj / self.window_s / 1e3 if self.window_s else 0.0

    @property
    def duty_cycle(self) -> float:
        """The fraction of the window the CPU is awake at the chip's clock."""
        return min(self.active_s / self.window_s, 1.0) if self.window_s else 1.0

    @property
    def battery_days(self) -> float:
        """Days on BATTERY at this window's duty cycle, repeated."""
        average_ma = self.average_mw / self.model.supply_v.value
        return BATTERY_MAH / average_ma / HOURS_PER_DAY if average_ma else float("inf")

    @property
    def label(self) -> str:
        """What every shown figure of this estimate carries."""
        how = "stop mode between wake-ups" if self.deep else "WFI sleep mode"
        return (f"estimated ({self.model.name} at {self.clock_hz / 1e6:g} MHz, "
                f"{self.model.supply_v.value:g} V, {how}; source: {self.model.sources})")


def estimate(figures: IdleFigures, model: PowerModel, clock_hz: int, deep: bool = False,
             operations: int = 0) -> Estimate:
    """Price one window's idle figures with `model` at `clock_hz`."""
    if clock_hz <= 0:
        raise ValueError(f"a clock of {clock_hz} Hz cannot price instructions")
    window_s = figures.window_ns / 1e9
    spins = figures.asleep_ns == 0  # its waits are instructions too, as long on the chip
    active_s = window_s if spins else figures.instructions_awake / clock_hz
    saturated = not spins and active_s > window_s
    active_s = min(active_s, window_s) if window_s else active_s
    sleep_s = max(window_s - active_s, 0.0)
    volts = model.supply_v.value
    sleep_ma = model.stop_ua.value / 1e3 if deep else model.sleep_ma(clock_hz)
    wake_uj = model.wakeup_uj(clock_hz) if deep else 0.0
    energy_uj = (active_s * model.run_ma(clock_hz) * volts * 1e3
                 + sleep_s * sleep_ma * volts * 1e3
                 + figures.wakeups * wake_uj)
    return Estimate(model, clock_hz, deep, window_s, active_s, sleep_s, figures.wakeups,
                    energy_uj, operations, saturated)


def busy(model: PowerModel, clock_hz: int) -> float:
    """The chip's estimated power in mW when it never sleeps (a case that
    keeps the CPU busy, such as Thread-Metric's switching tests)."""
    return model.run_ma(clock_hz) * model.supply_v.value
