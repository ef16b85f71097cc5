"""What a stored sample counts: the unit and rate of an execution's samples,
from its HELLO, its CFG clocks and the runner that recorded it (see
rtosmeter.analysis for the units)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rtosmeter import measure, qemu_plugin
from rtosmeter.model import Unit
from rtosmeter.numbers import whole_or_none
from rtosmeter.protocol import MAX_CLOCK_HZ


def format_hz(hz: float) -> str:
    """25000000 -> "25 MHz", 1000000000 -> "1 GHz", 32768 -> "32.768 kHz"."""
    for scale, name in ((1e9, "GHz"), (1e6, "MHz"), (1e3, "kHz")):
        if hz >= scale:
            return f"{hz / scale:g} {name}"
    return f"{hz:g} Hz"


def _shift(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    return whole_or_none(str(value).strip(), 0, 10)


def stream_hz(hello: Mapping[str, str], runner: Mapping[str, Any]) -> float:
    """The timestamp rate: the firmware's own report (CFG ts_hz, kept in the
    runner info), else HELLO hz, the build's copy of target.toml (clocks.py)."""
    text = str(runner.get("ts_hz") or hello.get("hz", "0"))
    return float(whole_or_none(text, 1, MAX_CLOCK_HZ) or 0)


def unit_for(hello: Mapping[str, str], runner: Mapping[str, Any],
             clock_hz: int | None = None) -> Unit:
    """The unit of one stream's samples (see the module docstring)."""
    hz = stream_hz(hello, runner)
    counted = qemu_plugin.unit_of(runner)  # the plugin's unit, as the run recorded it
    if counted is not None:
        declared = hello.get("unit") or str(runner.get("unit", counted.value))
        if clock_hz:
            label, per_count = qemu_plugin.estimated_time(counted, declared, clock_hz)
            return Unit(label, per_count, True, True)
        return Unit(declared, 1.0, True, True)
    counter = f"{hello.get('ts', '')} {hello.get('unit', '')}".lower()
    kind = str(runner.get("runner", "")).lower()
    if hz <= 0:
        return Unit(f"{hello.get('unit', 'ticks') or 'ticks'} (rate unknown)", 1.0, False)
    if "dwt" in counter or hello.get("unit", "") == "cycles":
        return Unit("cycles (DWT)", 1.0, False)
    if kind == "host" or (not kind and hello.get("target") == "host"):
        return Unit("ns (host clock)", 1e9 / hz, False)
    if kind == "qemu":
        shift = _shift(runner.get("icount_shift"))
        if shift is not None:
            return Unit("instructions (QEMU icount)", (1e9 / hz) / 2**shift, True, True)
        return Unit(f"timer ticks @{format_hz(hz)} (host-timed, noisy)", 1.0, False, True)
    return Unit(f"{hello.get('unit', 'ticks') or 'ticks'} @{format_hz(hz)}", 1.0, False)


# Series whose interval the kernel's tick sets (lat.jitter.periodic: A sleeps
# one tick). The tick is emulated target time, derived from the emulated
# clock: 1 ms is 1 ms on a board too. The instructions counted in it
# converted at a clock (15,625 at 80 MHz: 195 µs) would shorten the tick, so
# under a clock these stay in emulated time, labelled as such. Under a
# cycle counter (--unit cycles, --as-board) the series is the estimated
# cycles of one emulated tick (bench/cases/lat_jitter.c) and stays in
# cycles: no clock converts it.
TICK_SET = frozenset({("lat.jitter.periodic", "period")})


def tick_unit(hello: Mapping[str, str], runner: Mapping[str, Any],
              clock_hz: int | None) -> Unit | None:
    """The unit of a TICK_SET series under a clock: µs of emulated time when
    the plugin counted instructions (under -icount, exact virtual time at the
    stream's rate), else the counts unconverted; None without a clock."""
    counted = qemu_plugin.unit_of(runner)
    if not clock_hz or counted is None:
        return None
    hz = stream_hz(hello, runner)
    if counted is measure.Unit.INSTRUCTIONS and hz > 0:
        return Unit(f"µs of emulated time (the kernel's tick; not converted at "
                    f"{format_hz(clock_hz)})", 1e6 / hz, True, True)
    return unit_for(hello, runner, None)
