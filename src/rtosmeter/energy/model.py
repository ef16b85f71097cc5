"""Datasheet power models: targets/<t>/power.toml, read by a strict reader.

A board target that stands for a real chip declares its model: run and
sleep current per MHz, stop current, wake-up time, supply voltage, each
value with the datasheet table or section it comes from. A QEMU machine
declares no chip of its own; its power.toml names the boards whose chip it
stands in for (`stands_for`), and an estimate for it is made with each of
their models. Errors name the file and the key (toml_table).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rtosmeter.definitions.targets import Target
from rtosmeter.errors import UserError
from rtosmeter.numbers import finite, plain
from rtosmeter.toml_table import REQUIRED, TomlTable, read_toml

FILE = "power.toml"
MAX_MA = 1e4  # no microcontroller draws 10 A: a larger figure is a unit slip


@dataclass(frozen=True)
class Value:
    """One datasheet figure and where it comes from."""

    value: float
    source: str  # datasheet, table or section
    checked: bool  # compared with a copy of the datasheet (False: transcribed, to check)

    @property
    def cite(self) -> str:
        return self.source + ("" if self.checked else " (unchecked)")


@dataclass(frozen=True)
class PowerModel:
    """A chip's power model, currents in mA at `supply_v`."""

    target: str
    chip: str
    datasheet: str
    file: Path
    supply_v: Value
    run_ua_per_mhz: Value  # Run mode, code from flash, peripherals off
    sleep: Value  # Sleep mode (WFI): µA per MHz of the core clock, or µA (sleep_per_mhz False)
    sleep_per_mhz: bool
    stop_ua: Value  # the deepest mode that keeps RAM and wakes on a timer
    wakeup_us: Value  # from that stop mode to the first instruction

    @property
    def name(self) -> str:
        return f"{self.chip} ({self.datasheet})"

    def run_ma(self, clock_hz: int) -> float:
        return self.run_ua_per_mhz.value * clock_hz / 1e9

    def sleep_ma(self, clock_hz: int) -> float:
        if self.sleep_per_mhz:
            return self.sleep.value * clock_hz / 1e9
        return self.sleep.value / 1e3

    def wakeup_uj(self, clock_hz: int) -> float:
        """A wake-up from stop: the chip draws about its run current while
        its regulator and clock restart (an approximation, said so)."""
        return self.wakeup_us.value * self.run_ma(clock_hz) * self.supply_v.value / 1e3

    @property
    def sources(self) -> str:
        """The model's citation, as shown at every estimated figure."""
        return f"{self.name}: run {self.run_ua_per_mhz.cite}; sleep " \
               f"{self.sleep.cite}; stop {self.stop_ua.cite}; wake-up " \
               f"{self.wakeup_us.cite}"


def _value(t: TomlTable, key: str, low: float, high: float) -> Value:
    sub = t.table(key)
    if sub is None:
        raise UserError(f"missing table [{key}]", str(t.path),
                        f"Add [{key}] with value, source and checked")
    sub.used.add("value")
    if "value" not in sub.data:
        raise UserError(f"missing key '{key}.value'", str(t.path), "Add value = <number>")
    try:
        value = finite(sub.data["value"], low, high)
    except ValueError as exc:
        raise UserError(f"'{key}.value': {exc}", str(t.path),
                        f"Give a number from {plain(low)} to {plain(high)}") from None
    source = sub.text("source", REQUIRED)
    if not source.strip():
        raise UserError(f"'{key}.source' is empty", str(t.path),
                        "Name the datasheet table or section the value comes from")
    checked = sub.flag("checked", REQUIRED)
    sub.done()
    return Value(float(value), source, checked)


def load_model(path: Path, target: str) -> PowerModel:
    """The chip model of one board target's power.toml."""
    t = TomlTable(read_toml(path), path)
    chip, datasheet = t.text("chip", REQUIRED), t.text("datasheet", REQUIRED)
    sleep, per_mhz = _sleep(t)
    model = PowerModel(
        target, chip, datasheet, path,
        supply_v=_value(t, "supply_v", 0.5, 6.0),
        run_ua_per_mhz=_value(t, "run_ua_per_mhz", 1.0, 5000.0),
        sleep=sleep, sleep_per_mhz=per_mhz,
        stop_ua=_value(t, "stop_ua", 0.0, MAX_MA * 1e3),
        wakeup_us=_value(t, "wakeup_us", 0.0, 1e6))
    t.done()
    if model.sleep_per_mhz and model.sleep.value > model.run_ua_per_mhz.value:
        raise UserError("sleep_ua_per_mhz is above run_ua_per_mhz", str(path),
                        "Check both values against the datasheet (µA per MHz)")
    return model


def _sleep(t: TomlTable) -> tuple[Value, bool]:
    """Sleep current per MHz (the core's clock keeps the buses running), or a
    fixed current (a chip that stops its clock whenever the CPU sleeps)."""
    per_mhz, fixed = "sleep_ua_per_mhz" in t.data, "sleep_ua" in t.data
    if per_mhz == fixed:
        raise UserError("give one of [sleep_ua_per_mhz] and [sleep_ua]", str(t.path),
                        "Per MHz when the clock runs in sleep, a fixed µA when it stops")
    key = "sleep_ua_per_mhz" if per_mhz else "sleep_ua"
    return _value(t, key, 0.0, 5000.0 if per_mhz else MAX_MA * 1e3), per_mhz


def stand_ins(path: Path) -> tuple[str, ...]:
    """The boards a QEMU machine's power.toml says it stands in for."""
    t = TomlTable(read_toml(path), path)
    boards: tuple[str, ...] = t.strs("stands_for", REQUIRED)
    t.text("why", REQUIRED)
    t.done()
    return boards


def models_for(target: Target, targets: dict[str, Target]) -> list[PowerModel]:
    """The chip models an estimate for `target` uses: its own (a board), or
    those of the boards it stands in for (a QEMU machine); none without a
    power.toml."""
    path = target.dir / FILE
    if not path.is_file():
        return []
    if target.kind == "board":
        return [load_model(path, target.name)]
    out = []
    for board in stand_ins(path):
        found = targets.get(board)
        if found is None or found.kind != "board":
            raise UserError(f"'stands_for' names {board!r}, which is not a board target",
                            str(path), "Name board targets that have a power.toml")
        own = found.dir / FILE
        if not own.is_file():
            raise UserError(f"'stands_for' names {board!r}, which has no {FILE}", str(path),
                            f"Add {found.dir / FILE} or remove {board!r}")
        out.append(load_model(own, board))
    return out
