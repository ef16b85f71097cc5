"""`run --power joulescope|ppk2[:SERIAL]` on a real host execution, each
analyser faked at its library's boundary: `joulescope.scan()` giving a
device with the v1 API's open/start/stop/stream_buffer, and a
`ppk2_api.ppk2_api` module whose PPK2_API lists and opens devices (ppk2-api
is not in the lock: docs/energy.md). Each serves a constant current over
the host time it recorded, so each case's energy is that power over its
window; a serial that names no device is refused, naming the ones found."""

from __future__ import annotations

import sys
import time
import types
from pathlib import Path
from typing import Any, ClassVar

import joulescope
import numpy as np
import pytest
from conftest import invoke

from rtosmeter.energy.stored import read_energy
from rtosmeter.store import Store

AMPS, VOLTS, RATE = 4e-3, 3.3, 10_000


class FakeStreamBuffer:
    def __init__(self) -> None:
        self.span = (0.0, 0.0)

    @property
    def sample_id_range(self) -> tuple[int, int]:
        return 0, int((self.span[1] - self.span[0]) * RATE)

    def samples_get(self, start: int, stop: int, fields: list[str]) -> dict[str, Any]:
        n = stop - start
        signals = {"current": {"value": np.full(n, AMPS, np.float32), "units": "A"},
                   "voltage": {"value": np.full(n, VOLTS, np.float32), "units": "V"},
                   "current_lsb": {"value": np.zeros(n, np.uint8), "units": ""}}
        return {"time": {"sampling_frequency": {"value": float(RATE), "units": "Hz"}},
                "signals": {f: signals[f] for f in fields}}


class FakeJS220:
    """joulescope v1 Device: open, start/stop streaming, its stream buffer."""

    calls: ClassVar[list[str]] = []

    def __init__(self) -> None:
        self.stream_buffer = FakeStreamBuffer()

    def __str__(self) -> str:
        return "JS220-004321"

    def open(self) -> None:
        self.calls.append("open")

    def start(self) -> None:
        self.stream_buffer.span = (time.monotonic(), 0.0)

    def stop(self) -> None:
        self.stream_buffer.span = (self.stream_buffer.span[0], time.monotonic())

    def close(self) -> None:
        self.calls.append("close")


class FakePPK2:
    """ppk2_api.ppk2_api.PPK2_API: 100 kHz samples of AMPS in µA over the host time."""

    opened: ClassVar[list[str]] = []

    def __init__(self, port: str) -> None:
        self.opened.append(port)
        self.last = 0.0
        self.mv = 0

    @staticmethod
    def list_devices() -> list[tuple[str, str]]:
        return [("/dev/ttyACM0", "C4E1A2B3")]

    def get_modifiers(self) -> None: ...

    def use_source_meter(self) -> None: ...

    def set_source_voltage(self, mv: int) -> None:
        self.mv = mv

    def toggle_DUT_power(self, state: str) -> None: ...  # the library's name

    def start_measuring(self) -> None:
        self.last = time.monotonic()

    def stop_measuring(self) -> None: ...

    def get_data(self) -> bytes:
        now = time.monotonic()
        n = int((now - self.last) * 100_000)
        self.last += n / 100_000
        return b"\x00" * 4 * n

    def get_samples(self, buf: bytes) -> tuple[list[float], list[int]]:
        n = len(buf) // 4
        return [AMPS * 1e6] * n, [0] * n

    @staticmethod
    def digital_channels(bits: list[int]) -> list[list[int]]:
        return [[(b >> ch) & 1 for b in bits] for ch in range(8)]


@pytest.fixture
def fake_libraries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(joulescope, "scan", lambda *a, **k: [FakeJS220()])
    package, module = types.ModuleType("ppk2_api"), types.ModuleType("ppk2_api.ppk2_api")
    module.PPK2_API = FakePPK2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ppk2_api", package)
    monkeypatch.setitem(sys.modules, "ppk2_api.ppk2_api", module)


@pytest.mark.slow
@pytest.mark.usefixtures("fake_libraries")
@pytest.mark.parametrize(("power", "analyser", "rate"), [
    ("joulescope:004321", "Joulescope JS220-004321", RATE), ("ppk2:C4E1", "Nordic PPK2", 100_000)])
def test_each_analyser_drives_a_real_run(tmp_path: Path, power: str, analyser: str,
                                         rate: int) -> None:
    out = tmp_path / "o"
    result = invoke("run", "--port", "posix", "--target", "host", "--bench", "irq.latency",
                    "--power", power, "--out", str(out), "-j", "1")
    assert result.exit_code == 0, result.output + result.stderr
    with Store.open(out / "rtosmeter.sqlite") as st:
        run = st.runs()[0].id
        stored = read_energy(st, run)
    assert [m.case_id for m in stored] == ["calib.overhead", "irq.latency"]
    for m in stored:
        w = m.window
        assert m.analyser == analyser and m.by_stream is not None
        assert w.energy_uj == pytest.approx(AMPS * VOLTS * w.duration_s * 1e6, rel=1e-5,
                                            abs=1e-9)
    assert stored[1].window.duration_s > 0
    if analyser == "Nordic PPK2":  # sourced at the host's default supply, 3.3 V
        assert FakePPK2.opened == ["/dev/ttyACM0"]
    else:
        assert FakeJS220.calls == ["open", "close"]


@pytest.mark.usefixtures("fake_libraries")
def test_a_serial_that_names_no_analyser_is_an_error_naming_those_found() -> None:
    from rtosmeter.energy.sessions import PowerSpec, open_session
    from rtosmeter.errors import UserError

    with pytest.raises(UserError, match=r"no ppk2 with serial 999 \(found: /dev/ttyACM0 C4E1"):
        open_session(PowerSpec.parse("ppk2:999"), 3.0)
    with pytest.raises(UserError, match="no joulescope with serial 777 "):
        open_session(PowerSpec.parse("joulescope:777"), 3.0)
