"""A current capture and the energy in its case windows.

Whatever the analyser (Joulescope, PPK2, Otii), a capture is the same
thing: current samples at a fixed rate, the supply voltage (per sample or
constant), and, when the analyser records a digital input, the GPIO
marker the target holds high while a case runs. Each marker pulse is one
case's window, in the order the cases ran; its energy is the sum of
current * voltage over the pulse.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from rtosmeter.errors import UserError

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Window:
    """One marker pulse: samples [start, stop) of the capture."""

    start: int
    stop: int


@dataclass(frozen=True)
class WindowEnergy:
    """The energy of one window, as measured."""

    start_s: float
    duration_s: float
    energy_uj: float
    mean_ma: float
    mean_v: float

    @property
    def average_mw(self) -> float:
        return self.energy_uj / self.duration_s / 1e3 if self.duration_s else 0.0


@dataclass(frozen=True)
class Capture:
    """Samples of one analyser over one execution."""

    analyser: str  # "Joulescope JS220", "Nordic PPK2", "Qoitech Otii Arc"
    rate_hz: float
    current_a: Floats
    voltage_v: Floats  # one value per sample
    marker: npt.NDArray[np.bool_] | None  # the GPIO marker, or None (no digital input)
    where: str  # the file or device it came from, for messages
    start_host_s: float | None = None  # host monotonic time of sample 0, when captured live

    def __post_init__(self) -> None:
        n = len(self.current_a)
        if not self.rate_hz > 0:
            raise UserError(f"sample rate {self.rate_hz} Hz", self.where,
                            "A capture needs a positive sample rate")
        if len(self.voltage_v) != n or (self.marker is not None and len(self.marker) != n):
            raise UserError("current, voltage and marker have different lengths "
                            f"({n}, {len(self.voltage_v)}, "
                            f"{'-' if self.marker is None else len(self.marker)})",
                            self.where, "Record the signals over the same span")
        if not (np.isfinite(self.current_a).all() and np.isfinite(self.voltage_v).all()):
            raise UserError("the capture holds samples that are not finite numbers",
                            self.where, "Record it again (a dropped sample reads as NaN)")

    def windows(self) -> list[Window]:
        """The marker's pulses (high spans), in order. A pulse open at the
        start or still open at the end is not a whole window: an error."""
        if self.marker is None:
            raise UserError("the capture has no marker channel", self.where,
                            "Record the target's GPIO marker on the analyser's digital "
                            "input (Joulescope gpi[0], PPK2 D0, Otii GPI1)")
        m = self.marker.astype(np.int8)
        if len(m) and (m[0] or m[-1]):
            raise UserError("the marker is high at the start or the end of the capture",
                            self.where, "Start the capture before the first case and stop "
                            "it after the last")
        edges = np.diff(m)
        rises, falls = np.flatnonzero(edges == 1) + 1, np.flatnonzero(edges == -1) + 1
        return [Window(int(a), int(b)) for a, b in zip(rises, falls, strict=True)]

    def energy(self, window: Window) -> WindowEnergy:
        if window.stop <= window.start:  # shorter than a sample: no energy, the current there
            at = min(window.start, len(self.current_a) - 1)
            return WindowEnergy(window.start / self.rate_hz, 0.0, 0.0,
                                float(self.current_a[at]) * 1e3, float(self.voltage_v[at]))
        i = self.current_a[window.start:window.stop]
        v = self.voltage_v[window.start:window.stop]
        joules = float(np.sum(i * v)) / self.rate_hz
        return WindowEnergy(window.start / self.rate_hz,
                            (window.stop - window.start) / self.rate_hz,
                            joules * 1e6, float(np.mean(i)) * 1e3, float(np.mean(v)))


def align(capture: Capture, case_ids: list[str]) -> dict[str, WindowEnergy]:
    """Each case's energy: the n-th marker pulse is the n-th case that ran.
    A count that differs means the capture is not this execution's."""
    found = capture.windows()
    if len(found) != len(case_ids):
        raise UserError(f"the capture has {len(found)} marker pulses, the execution "
                        f"{len(case_ids)} cases", capture.where,
                        "Pass the capture recorded during this execution")
    return {case: capture.energy(w) for case, w in zip(case_ids, found, strict=True)}
