"""The firmware's own clocks against its target.toml.

The firmware reads back the clocks it runs at (target.h rm_target_ts_hz,
rm_target_cpu_hz: the MCG/RCC clock tree of a board, the fixed 25 MHz of
MPS2) and reports them as `CFG ts_hz` and `CFG cpu_hz`; a board whose flash
controller holds a wait-state setting reports it as `CFG flash_ws`, kept
with them among the execution's runner facts. Counts are
converted to time with the reported `ts_hz`; a stream without it (a target
layer that cannot read its clock, a port with its own target layer, an
older stream) falls back to `HELLO hz`, the build's copy of target.toml's
`[counter] hz`. target.toml's values stay what the build compiles in (the
kernel tick's SysTick reload from `cpu_hz`, the cases' periods from the
counter rate): a report that differs from them is a warning naming the file.
"""

from __future__ import annotations

from collections.abc import Mapping

from rtosmeter.definitions import Target
from rtosmeter.numbers import whole_or_none
from rtosmeter.protocol import MAX_CLOCK_HZ, MAX_FLASH_WS


def reported(config: Mapping[str, str], key: str) -> int:
    """A clock the firmware reported (CFG ts_hz / cpu_hz), 0 when it did not
    (the parser refuses a value that is not a clock: this is a stored one)."""
    return whole_or_none(str(config.get(key, "")), 1, MAX_CLOCK_HZ) or 0


def clock_info(target: Target, config: Mapping[str, str], plugin: bool) -> dict[str, str]:
    """Runner info for one execution: the reported clocks, and the warning
    when they differ from target.toml (a plugin build's counter is the
    plugin's, whose rate the build sets: only the core clock is checked)."""
    ts_hz, cpu_hz = reported(config, "ts_hz"), reported(config, "cpu_hz")
    info = {k: str(v) for k, v in (("ts_hz", ts_hz), ("cpu_hz", cpu_hz)) if v}
    flash_ws = whole_or_none(str(config.get("flash_ws", "")), 0, MAX_FLASH_WS)
    if flash_ws is not None:
        info["flash_ws"] = str(flash_ws)
    differ = []
    if ts_hz and not plugin and ts_hz != target.counter.hz:
        differ.append(f"its timestamp counter ({target.counter.name}) at {ts_hz} Hz, "
                      f"but {target.file} says [counter] hz = {target.counter.hz} "
                      "(times are converted with the firmware's rate)")
    if cpu_hz and target.cpu_hz and cpu_hz != target.cpu_hz:
        differ.append(f"its core clock at {cpu_hz} Hz, but {target.file} says "
                      f"cpu_hz = {target.cpu_hz} (the kernel tick was built from that)")
    if differ:
        info["clock_warning"] = (f"target {target.name}: the firmware reports "
                                 + "; and ".join(differ) + f". Correct {target.file}")
    return info
