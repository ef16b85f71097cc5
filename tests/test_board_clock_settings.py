"""The board clock setting outside the firmware: the profile key
board_clock, the target's [clock] table and the build it selects, and the
wait states the firmware reports (CFG flash_ws), as the real definitions
and the real parser read them."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtosmeter.build import BuildSpec, cmake_configure_command, config_header
from rtosmeter.catalog import load_catalog
from rtosmeter.clocks import clock_info
from rtosmeter.definitions import Definitions, load_profile, load_target
from rtosmeter.errors import UserError
from rtosmeter.protocol import StreamWriter, parse_stream

ROOT = Path(__file__).resolve().parents[1]


def _spec(defs: Definitions, target: str, profile: str) -> BuildSpec:
    p = defs.profiles[profile]
    t = defs.targets[target].at_clock(p.board_clock)
    return BuildSpec(defs.ports["baremetal"], t, p, p.params_for(t.kind), ("tm_basic",), None,
                     Path("/tmp/unused"), defs.toolchains["gcc"])


@pytest.mark.parametrize("target,max_hz,reset_hz,reset_counter", [
    ("b-l475e-iot01a", 80_000_000, 4_000_000, 4_000_000),
    ("stm32f407", 168_000_000, 16_000_000, 16_000_000),
    ("frdm-k64f", 120_000_000, 20_971_520, 20_971_520),
    ("nrf52840dk", 64_000_000, 64_000_000, 64_000_000),
    ("nucleo-l053r8", 32_000_000, 2_097_152, 2_097_152),
])
def test_the_profile_chooses_the_clock_the_build_compiles_in(
        target: str, max_hz: int, reset_hz: int, reset_counter: int) -> None:
    defs = Definitions.load(ROOT)
    catalog = load_catalog(ROOT)
    fast, slow = _spec(defs, target, "default"), _spec(defs, target, "reset-clock")
    assert (fast.target.cpu_hz, fast.target.counter.hz) == (max_hz, max_hz)
    assert (slow.target.cpu_hz, slow.target.counter.hz) == (reset_hz, reset_counter)
    assert f"#define RM_CPU_HZ {max_hz}u" in config_header(fast, catalog)
    assert f"#define RM_CPU_HZ {reset_hz}u" in config_header(slow, catalog)
    assert "-DRM_BOARD_CLOCK=max" in cmake_configure_command(fast, ROOT, Path("/tmp/c"))
    assert "-DRM_BOARD_CLOCK=reset" in cmake_configure_command(slow, ROOT, Path("/tmp/c"))


def test_a_qemu_target_is_the_same_at_either_setting() -> None:
    defs = Definitions.load(ROOT)
    t = defs.targets["qemu-mps2-an386"]
    assert t.at_clock("reset") == t
    assert not any(a.startswith("-DRM_BOARD_CLOCK")
                   for a in cmake_configure_command(_spec(defs, t.name, "reset-clock"), ROOT,
                                                    Path("/tmp/c")))


def test_an_unknown_board_clock_names_the_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "fast.toml"
    path.write_text('name = "fast"\nopt = "speed"\nboard_clock = "turbo"\n')
    with pytest.raises(UserError) as err:
        load_profile(path)
    assert "board_clock" in str(err.value) and "turbo" in str(err.value)
    assert str(path) in err.value.where and "max, reset" in err.value.fix


def test_a_timer_counter_needs_its_reset_rate(tmp_path: Path) -> None:
    """A chip timer's rate at the reset clock cannot be guessed (a DWT
    counter's is the core clock): the key is required, named with its file."""
    text = (ROOT / "targets" / "nucleo-l053r8" / "target.toml").read_text()
    path = tmp_path / "nucleo-l053r8" / "target.toml"
    path.parent.mkdir()
    path.write_text(text.replace("reset_counter_hz = 2097152  # TIM2 counts HCLK\n", ""))
    with pytest.raises(UserError) as err:
        load_target(path)
    assert "reset_counter_hz" in str(err.value)


def _stream(flash_ws: str) -> bytes:
    w = StreamWriter()
    w.record("HELLO", dict(v=1, port="baremetal", target="stm32f407", group="tm_basic",
                           ts="DWT", unit="cycles", hz=168000000, samples=8, batch=4,
                           tm_period=100, tm_periods=3, profile="default"))
    w.record("CFG", {"k": "cpu_hz", "v": "168000000"})
    w.record("CFG", {"k": "flash_ws", "v": flash_ws})
    w.record("BYE", {"cases": 0, "status": 0})
    return w.getvalue()


def test_the_wait_states_reach_the_execution_s_runner_facts() -> None:
    defs = Definitions.load(ROOT)
    parsed = parse_stream(_stream("5"))
    assert parsed.config["flash_ws"] == "5"
    info = clock_info(defs.targets["stm32f407"], parsed.config, plugin=False)
    assert info["flash_ws"] == "5" and info["cpu_hz"] == "168000000"
    assert "clock_warning" not in info


@pytest.mark.parametrize("value", ["16", "-1", "4.0", "", "٤"])
def test_a_wait_state_count_out_of_range_is_an_error_of_its_record(value: str) -> None:
    parsed = parse_stream(_stream(value))
    assert "flash_ws" not in parsed.config
    assert any("CFG flash_ws" in str(e) for e in parsed.errors), parsed.errors
