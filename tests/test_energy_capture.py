"""The power runner end to end on recorded captures: a .jls file written with
pyjls (Joulescope's own format library) holding known current steps and
marker edges goes through `rtosmeter energy import` into a real SQLite store
and out through the reports, with the known energy per case. The analysers'
device APIs are exercised with fake devices at the library boundary: objects
with the PPK2_API, Joulescope and Otii methods returning known samples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pyjls
import pytest
from conftest import invoke

from rtosmeter.energy import analysers, jls
from rtosmeter.energy.capture import Capture
from rtosmeter.energy.stored import read_energy
from rtosmeter.errors import UserError
from rtosmeter.protocol import parse_stream
from rtosmeter.store import Store

DATA = Path(__file__).parent / "data"
STREAM = DATA / "baremetal-qemu-mps2-an386-quick-tm_basic.rmstream"  # calib.overhead, tm.basic
RATE = 100_000
VOLTS = 3.0
# Each case: (current while marked, marked time); 0.1 mA between cases.
STEPS = [(2e-3, 0.010), (5e-3, 0.020)]
BASE = 0.1e-3


def _record(path: Path, steps: list[tuple[float, float]] = STEPS) -> list[float]:
    """A Joulescope-style .jls capture with the marker on gpi[0]; the known
    energy of each marked step in µJ."""
    current, marker = [np.full(RATE // 100, BASE)], [np.zeros(RATE // 100, bool)]
    for amps, seconds in steps:
        n = round(seconds * RATE)
        current += [np.full(n, amps), np.full(RATE // 100, BASE)]
        marker += [np.ones(n, bool), np.zeros(RATE // 100, bool)]
    i, m = np.concatenate(current), np.concatenate(marker)
    with pyjls.Writer(str(path)) as w:
        w.source_def(source_id=1, name="JS220", vendor="Jetperch", model="JS220",
                     version="1.0", serial_number="000415")
        w.signal_def(1, source_id=1, sample_rate=RATE, name="current", units="A")
        w.signal_def(2, source_id=1, sample_rate=RATE, name="voltage", units="V")
        w.signal_def(3, source_id=1, sample_rate=RATE, name="gpi[0]", units="",
                     data_type=pyjls.DataType.U1)
        w.fsr(1, 0, i.astype(np.float32))
        w.fsr(2, 0, np.full(len(i), VOLTS, np.float32))
        w.fsr(3, 0, np.packbits(m.astype(np.uint8), bitorder="little"))
    return [amps * VOLTS * seconds * 1e6 for amps, seconds in steps]


def _store(out: Path) -> int:
    """A stored board execution of a real recorded stream (two cases ran)."""
    stream = STREAM.read_bytes()
    with Store.open(out / "rtosmeter.sqlite") as st:
        run = st.create_run({"name": "energy"}, {}, "test")
        build = st.add_build(run, "baremetal", "nrf52840dk", "default", {})
        ex = st.add_execution(run, build, "tm_basic", status="ok", stream=stream,
                              parsed=parse_stream(stream))
        st.finish_run(run)
    return ex


def test_a_recorded_capture_goes_into_the_store_and_the_reports(tmp_path: Path) -> None:
    ex = _store(tmp_path)
    want = _record(tmp_path / "capture.jls")  # 60 µJ and 300 µJ
    result = invoke("energy", "import", str(tmp_path / "capture.jls"), "--execution", str(ex),
                    "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "calib.overhead" in result.output and "300.000" in result.output
    with Store.open(tmp_path / "rtosmeter.sqlite") as st:
        stored = read_energy(st, st.runs()[0].id)
    assert [m.case_id for m in stored] == ["calib.overhead", "tm.basic"]
    for m, uj, (amps, seconds) in zip(stored, want, STEPS, strict=True):
        assert m.window.energy_uj == pytest.approx(uj, rel=1e-6)
        assert m.window.duration_s == pytest.approx(seconds)
        assert m.window.mean_ma == pytest.approx(amps * 1e3, rel=1e-6)
        assert m.analyser == "Jetperch JS220"
    # the trace is kept beside the store, and reads back as the same capture
    trace = tmp_path / stored[0].trace
    assert trace.is_file() and trace.parent.name == "traces"
    again = jls.read(trace)
    assert len(again.windows()) == 2 and again.rate_hz == RATE

    md = invoke("report", "--out", str(tmp_path), "--format", "md")
    assert md.exit_code == 0, md.output
    assert "Energy, measured, on nrf52840dk" in md.output
    assert "300" in md.output and "measured (Jetperch JS220)" in md.output
    view = invoke("report", "--out", str(tmp_path), "--format", "table", "--view", "energy")
    assert view.exit_code == 0 and "tm.basic" in view.output and "15.0" in view.output  # mW
    html = invoke("report", "--out", str(tmp_path), "--format", "html")
    assert html.exit_code == 0, html.output
    page = Path(html.output.strip()).read_text()
    assert 'id="energy"' in page and "300" in page
    assert "measured (Jetperch JS220, trace traces/execution-1.jls)" in page


def test_a_capture_of_another_execution_is_refused(tmp_path: Path) -> None:
    ex = _store(tmp_path)
    _record(tmp_path / "three.jls", [*STEPS, (1e-3, 0.01)])
    result = invoke("energy", "import", str(tmp_path / "three.jls"), "--execution", str(ex),
                    "--out", str(tmp_path))
    assert result.exit_code == 1
    assert "3 marker pulses, the execution 2 cases" in result.output + result.stderr
    assert "three.jls" in result.output + result.stderr
    with Store.open(tmp_path / "rtosmeter.sqlite") as st:
        assert read_energy(st, st.runs()[0].id) == []


def test_a_capture_without_marker_or_with_a_cut_pulse_says_so(tmp_path: Path) -> None:
    n = 1000
    plain = Capture("Joulescope", RATE, np.full(n, 1e-3), np.full(n, 3.0), None, "x.jls")
    with pytest.raises(UserError, match="no marker channel"):
        plain.windows()
    cut = np.zeros(n, bool)
    cut[500:] = True
    with pytest.raises(UserError, match="high at the start or the end"):
        Capture("Joulescope", RATE, np.full(n, 1e-3), np.full(n, 3.0), cut, "x.jls").windows()
    with pytest.raises(UserError, match="no such capture file"):
        jls.read(tmp_path / "missing.jls")
    (tmp_path / "junk.jls").write_bytes(b"not a jls file")
    with pytest.raises(UserError, match="cannot read the capture"):
        jls.read(tmp_path / "junk.jls")


class FakePPK2:
    """PPK2_API's measuring methods, serving known samples: 1 mA, marked for
    the middle half, in two reads."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.reads = [b"\x00" * 400, b"\x00" * 400]

    def get_modifiers(self) -> None:
        self.calls.append("get_modifiers")

    def use_source_meter(self) -> None:
        self.calls.append("use_source_meter")

    def set_source_voltage(self, mv: int) -> None:
        self.calls.append(f"set_source_voltage {mv}")

    def toggle_DUT_power(self, state: str) -> None:  # the library's name
        self.calls.append(f"toggle_DUT_power {state}")

    def start_measuring(self) -> None:
        self.calls.append("start_measuring")

    def stop_measuring(self) -> None:
        self.calls.append("stop_measuring")

    def get_data(self) -> bytes:
        return self.reads.pop(0) if self.reads else b""

    def get_samples(self, buf: bytes) -> tuple[list[float], list[int]]:
        n = len(buf) // 4  # 4 bytes a sample, as the PPK2 sends them
        first = not hasattr(self, "_seen")
        self._seen = True
        bits = [0] * 50 + [1] * 50 if first else [1] * 50 + [0] * 50
        return [1000.0] * n, bits  # µA

    @staticmethod
    def digital_channels(bits: list[int]) -> list[list[int]]:
        return [[(b >> ch) & 1 for b in bits] for ch in range(8)]


def test_ppk2_capture_through_its_device_api() -> None:
    device = FakePPK2()
    capture = analysers.ppk2(device, 3300, until=lambda: not device.reads)
    assert device.calls == ["get_modifiers", "use_source_meter", "set_source_voltage 3300",
                            "toggle_DUT_power ON", "start_measuring", "stop_measuring"]
    (window,) = capture.windows()
    e = capture.energy(window)
    assert e.duration_s == pytest.approx(100 / 100_000)
    assert e.energy_uj == pytest.approx(1e-3 * 3.3 * 1e-3 * 1e6)  # 1 mA, 3.3 V, 1 ms


class FakeJoulescope:
    """joulescope v1 Device.read(out_format='samples_get') with known samples."""

    def read(self, contiguous_duration: float, out_format: str,
             fields: list[str]) -> dict[str, Any]:
        assert out_format == "samples_get"
        n = round(contiguous_duration * 1000)
        lsb = np.zeros(n, np.uint8)
        lsb[n // 4:n // 2] = 1
        signals = {"current": {"value": np.full(n, 4e-3, np.float32), "units": "A"},
                   "voltage": {"value": np.full(n, 1.8, np.float32), "units": "V"},
                   "current_lsb": {"value": lsb, "units": ""}}
        return {"time": {"sampling_frequency": {"value": 1000.0, "units": "Hz"}},
                "signals": {f: signals[f] for f in fields}}


def test_joulescope_capture_through_its_device_api() -> None:
    capture = analysers.joulescope(FakeJoulescope(), 2.0)
    (window,) = capture.windows()
    assert capture.energy(window).energy_uj == pytest.approx(4e-3 * 1.8 * 0.5 * 1e6, rel=1e-6)


class FakeOtii:
    """otii-tcp-client's device, project and recording, with known data: 2 mA
    at 3.7 V for 1 s at 1 kHz, GPI1 high from 0.2 s to 0.7 s."""

    id, type = "arc-1", "Arc"

    def __init__(self) -> None:
        self.enabled: list[str] = []
        self.main: list[bool] = []

    def enable_channel(self, channel: str, enable: bool) -> None:
        self.enabled.append(channel)

    def set_main(self, on: bool) -> None:
        self.main.append(on)

    def start_recording(self) -> None: ...

    def stop_recording(self) -> None: ...

    def get_last_recording(self) -> FakeOtii:
        return self

    def get_channel_data_count(self, device_id: str, channel: str) -> int:
        return 1000 if channel in ("mc", "mv") else 3

    def get_channel_data(self, device_id: str, channel: str, index: int,
                         count: int) -> dict[str, Any]:
        assert device_id == "arc-1"
        if channel == "i1":
            return {"data_type": "digital", "values": [
                {"timestamp": 0.0, "value": False}, {"timestamp": 0.2, "value": True},
                {"timestamp": 0.7, "value": False}]}
        value = 2e-3 if channel == "mc" else 3.7
        return {"data_type": "analog", "timestamp": 0.0, "interval": 0.001,
                "values": [value] * count}


def test_otii_capture_through_its_device_api() -> None:
    otii = FakeOtii()
    capture = analysers.otii(otii, otii, until=lambda: True)
    assert otii.enabled == ["mc", "mv", "i1"] and otii.main == [True, False]
    (window,) = capture.windows()
    e = capture.energy(window)
    assert e.duration_s == pytest.approx(0.5)
    assert e.energy_uj == pytest.approx(2e-3 * 3.7 * 0.5 * 1e6)
    assert json.dumps(capture.analyser) == '"Qoitech Otii Arc"'
