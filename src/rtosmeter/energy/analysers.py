"""Captures from the power analysers people own, through their own libraries.

Each function takes a device object of the analyser's library, opened by
the caller with the library's own calls (`joulescope.scan_require_one()`,
`ppk2_api.ppk2_api.PPK2_API(port)`, `otii_tcp_client.otii_client.OtiiClient
().connect()`), and returns a `Capture`:

- Nordic PPK2 (`ppk2-api`, installed by its user: docs/energy.md): 100 kHz current in µA from
  `get_samples`, its eight logic inputs from `digital_channels`; the
  supply is the PPK2's own source voltage.
- Joulescope (`joulescope`, v1 `Device.read(out_format="samples_get")`):
  current and voltage; the marker is wired to a general-purpose input, which
  the JS110 records in its `current_lsb` field.
- Qoitech Otii (`otii-tcp-client`, `Arc`/`Ace` device and a recording):
  main current `mc` and voltage `mv`, the marker on digital input `i1`.

The loops stop when `until()` says the execution is over (the power
runner passes its runner's completion), so a capture spans the execution;
each capture records the host's monotonic time when recording began, and
`started(t)` is told it (the power runner starts the firmware then).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from rtosmeter.energy.capture import Capture
from rtosmeter.errors import UserError

PPK2_RATE_HZ = 100_000.0  # the PPK2 samples at a fixed 100 kHz
POLL_S = 0.01


def _ignore(at: float) -> None:
    pass


def ppk2(device: Any, source_mv: int, until: Callable[[], bool], channel: int = 0,
         where: str = "PPK2", started: Callable[[float], None] = _ignore) -> Capture:
    """Capture with a PPK2 in source-meter mode at `source_mv`, the marker
    on logic input D`channel`."""
    device.get_modifiers()
    device.use_source_meter()
    device.set_source_voltage(source_mv)
    device.toggle_DUT_power("ON")
    device.start_measuring()
    t0 = time.monotonic()
    started(t0)
    current: list[float] = []
    bits: list[int] = []
    try:
        done = False
        while not done:
            done = until()  # then one read more: what came before the execution ended
            data = device.get_data()
            if data:
                samples, raw = device.get_samples(data)
                current += samples
                bits += device.digital_channels(raw)[channel]
            elif not done:
                time.sleep(POLL_S)
    finally:
        device.stop_measuring()
    if len(bits) != len(current):
        raise UserError(f"the PPK2 gave {len(current)} current samples and {len(bits)} "
                        "logic samples", where, "Update ppk2-api, or record again")
    amps = np.asarray(current, dtype=np.float64) / 1e6
    return Capture("Nordic PPK2", PPK2_RATE_HZ, amps, np.full(len(amps), source_mv / 1e3),
                   np.asarray(bits, dtype=bool), where, t0)


def joulescope(device: Any, seconds: float, marker: str = "current_lsb",
               where: str = "Joulescope") -> Capture:
    """Capture `seconds` with a Joulescope (v1 API), the marker on the input
    the `marker` field records."""
    data = device.read(contiguous_duration=seconds, out_format="samples_get",
                       fields=["current", "voltage", marker])
    return joulescope_samples(data, marker, where)


def joulescope_samples(data: dict[str, Any], marker: str = "current_lsb",
                       where: str = "Joulescope", start_host_s: float | None = None,
                       analyser: str = "Joulescope") -> Capture:
    """A capture from a Joulescope's `samples_get` data (a `read`, or its
    stream buffer after `start`/`stop`), its first sample at `start_host_s`."""
    signals, timing = data["signals"], data["time"]
    for name in ("current", "voltage", marker):
        if name not in signals:
            raise UserError(f"the Joulescope returned no '{name}' field", where,
                            "Enable that input (the marker is a general-purpose input)")
    rate = float(timing["sampling_frequency"]["value"])
    return Capture(analyser, rate, np.asarray(signals["current"]["value"], np.float64),
                   np.asarray(signals["voltage"]["value"], np.float64),
                   np.asarray(signals[marker]["value"]).astype(bool), where, start_host_s)


def otii(project: Any, device: Any, until: Callable[[], bool], marker: str = "i1",
         where: str = "Otii", started: Callable[[float], None] = _ignore) -> Capture:
    """Record with an Otii device (`otii-tcp-client`): main current `mc`,
    main voltage `mv` and the marker on digital input `marker`."""
    for channel in ("mc", "mv", marker):
        device.enable_channel(channel, True)
    device.set_main(True)
    project.start_recording()
    t0 = time.monotonic()
    started(t0)
    try:
        while not until():
            time.sleep(POLL_S)
    finally:
        project.stop_recording()
        device.set_main(False)
    recording = project.get_last_recording()
    series = {}
    for channel in ("mc", "mv", marker):
        count = recording.get_channel_data_count(device.id, channel)
        series[channel] = recording.get_channel_data(device.id, channel, 0, count)
    current, volts, gpi = series["mc"], series["mv"], series[marker]
    if current["interval"] != volts["interval"]:
        raise UserError("the Otii's current and voltage have different sample intervals",
                        where, "Record both channels at the same rate")
    n = len(current["values"])
    return Capture(f"Qoitech Otii {getattr(device, 'type', '')}".strip(),
                   1.0 / float(current["interval"]),
                   np.asarray(current["values"], np.float64),
                   np.asarray(volts["values"][:n], np.float64),
                   _held(gpi, current, n), where, t0)


def _held(gpi: dict[str, Any], current: dict[str, Any], n: int) -> np.ndarray[Any, Any]:
    """The Otii records a digital input as its changes ({timestamp, value});
    hold each value until the next change, on the current's sample times."""
    times = float(current["timestamp"]) + np.arange(n) * float(current["interval"])
    changes = gpi["values"]
    at = np.asarray([c["timestamp"] for c in changes], dtype=np.float64)
    values = np.asarray([bool(c["value"]) for c in changes], dtype=bool)
    if not len(changes):
        return np.zeros(n, dtype=bool)
    index = np.searchsorted(at, times, side="right") - 1
    return np.where(index >= 0, values[np.clip(index, 0, None)], False)
