"""Power models: every board's power.toml reads, a broken one is an error
naming its file and key, and an estimate is the model's arithmetic on the
idle figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtosmeter.definitions import Definitions
from rtosmeter.energy.estimate import BATTERY_MAH, busy, estimate
from rtosmeter.energy.model import FILE, load_model, models_for
from rtosmeter.errors import UserError
from rtosmeter.idle.figures import IdleFigures

ROOT = Path(__file__).resolve().parents[1]
BOARDS = ("b-l475e-iot01a", "stm32f407", "frdm-k64f", "nrf52840dk", "nucleo-l053r8")


@pytest.fixture(scope="module")
def defs() -> Definitions:
    return Definitions.load(ROOT)


def test_every_board_that_stands_for_a_chip_has_a_cited_model(defs: Definitions) -> None:
    for board in BOARDS:
        (model,) = models_for(defs.targets[board], defs.targets)
        assert model.target == board and model.chip and model.datasheet
        for v in (model.supply_v, model.run_ua_per_mhz, model.sleep, model.stop_ua,
                  model.wakeup_us):
            assert v.source.strip() and v.value >= 0
    assert not [t for t in defs.targets.values()
                if t.kind == "board" and not (t.dir / FILE).is_file()]


def test_a_qemu_machine_prices_with_the_boards_it_stands_in_for(defs: Definitions) -> None:
    chips = [m.chip for m in models_for(defs.targets["qemu-mps2-an386"], defs.targets)]
    assert chips == ["STM32L475VG", "nRF52840", "STM32F407VG", "MK64FN1M0VLL12"]
    assert models_for(defs.targets["qemu-mps2-an385"], defs.targets) == []


GOOD = """chip = "X1"
datasheet = "DS1"
[supply_v]
value = 3.0
source = "Table 1"
checked = true
[run_ua_per_mhz]
value = 50.0
source = "Table 2"
checked = true
[sleep_ua]
value = 3.0
source = "Table 3"
checked = false
[stop_ua]
value = 1.0
source = "Table 4"
checked = true
[wakeup_us]
value = 4.0
source = "Table 5"
checked = true
"""


@pytest.mark.parametrize(("old", "new", "message"), [
    ('value = 50.0', 'value = nan', "run_ua_per_mhz.value': nan is not a finite number"),
    ('value = 50.0', 'value = "50"', "run_ua_per_mhz.value': '50' is not a number"),
    ('value = 3.0\nsource = "Table 1"', 'value = 30.0\nsource = "Table 1"',
     "supply_v.value"),
    ('source = "Table 2"', 'source = " "', "'run_ua_per_mhz.source' is empty"),
    ('checked = false\n', '', "missing key 'sleep_ua.checked'"),
    ('[sleep_ua]', '[sleep_ua_per_mhz]\nvalue = 1.0\nsource = "x"\nchecked = true\n[sleep_ua]',
     "give one of [sleep_ua_per_mhz] and [sleep_ua]"),
    ('chip = "X1"', 'chip = "X1"\nclock = 3', "unknown key 'clock'"),
    ('[wakeup_us]', '[wakeup]', "missing table [wakeup_us]"),
    # a 309-digit number is echoed cut, with its length, not whole
    ('value = 50.0', 'value = 1' + '0' * 308,
     "run_ua_per_mhz.value': 1000000000000000… (309 characters) is larger than"),
])
def test_a_broken_model_names_its_file_and_key(tmp_path: Path, old: str, new: str,
                                               message: str) -> None:
    path = tmp_path / FILE
    path.write_text(GOOD.replace(old, new, 1))
    with pytest.raises(UserError) as err:
        load_model(path, "board")
    assert message in str(err.value) and str(path) in str(err.value)


def test_estimate_is_the_model_arithmetic(tmp_path: Path) -> None:
    path = tmp_path / FILE
    path.write_text(GOOD)
    model = load_model(path, "board")
    # 1 s window, 100 wake-ups, 5 M instructions awake at 50 MHz: 0.1 s active
    figures = IdleFigures(1_000_000_000, 990_000_000, 10_000_000, 100, {"tick": 100},
                          5_000_000)
    e = estimate(figures, model, 50_000_000)
    run_uj = 0.1 * 50 * 50e-3 * 3.0 * 1e3  # 0.1 s at 2.5 mA and 3 V: 750 µJ
    sleep_uj = 0.9 * 3e-3 * 3.0 * 1e3  # 0.9 s at 3 µA: 8.1 µJ
    assert e.energy_uj == pytest.approx(run_uj + sleep_uj) == pytest.approx(758.1)
    assert e.average_mw == pytest.approx(0.7581)
    assert e.duty_cycle == pytest.approx(0.1)
    assert e.battery_days == pytest.approx(BATTERY_MAH / (0.7581 / 3.0) / 24)
    # tickless: each wake-up leaves stop mode (4 µs at run current), the rest at stop current
    deep = estimate(figures, model, 50_000_000, deep=True)
    assert deep.energy_uj == pytest.approx(750 + 0.9 * 1e-3 * 3e3 + 100 * 4e-6 * 2.5e-3 * 3e6)
    assert "estimated (X1 (DS1) at 50 MHz, 3 V" in e.label and "Table 3 (unchecked)" in e.label
    assert busy(model, 50_000_000) == pytest.approx(7.5)


def test_an_estimate_saturates_when_the_work_outlasts_the_window(tmp_path: Path) -> None:
    path = tmp_path / FILE
    path.write_text(GOOD)
    model = load_model(path, "board")
    e = estimate(IdleFigures(1_000_000, 10_000, 990_000, 1, {"timer": 1}, 10_000_000), model,
                 1_000_000)
    assert e.saturated and e.sleep_s == 0 and e.active_s == pytest.approx(1e-3)
    with pytest.raises(ValueError, match="clock"):
        estimate(IdleFigures(1, 0, 1, 0), model, 0)


def test_the_nrf52840_model_at_its_clock(defs: Definitions) -> None:
    """A literal check of one shipped model: 64 MHz, 10 % awake, 1 s."""
    (model,) = models_for(defs.targets["nrf52840dk"], defs.targets)
    e = estimate(IdleFigures(1_000_000_000, 900_000_000, 100_000_000, 1000, {"tick": 1000},
                             6_400_000), model, 64_000_000)
    assert e.energy_uj == pytest.approx(0.1 * 3.328 * 3.0 * 1e3 + 0.9 * 3.16e-3 * 3.0 * 1e3)


def test_a_window_that_never_sleeps_is_awake_throughout(tmp_path: Path) -> None:
    """A spinning idle: its instructions are waiting, as long on any chip."""
    path = tmp_path / FILE
    path.write_text(GOOD)
    model = load_model(path, "board")
    spin = IdleFigures(1_000_000_000, 0, 1_000_000_000, 0, {}, 15_625_000)
    e = estimate(spin, model, 50_000_000)
    assert e.active_s == pytest.approx(1.0) and e.sleep_s == 0 and not e.saturated
    assert e.average_mw == pytest.approx(busy(model, 50_000_000))
