"""`rtosmeter run --power` end to end: a real host execution (the POSIX port
built with the host's compiler) runs inside a capture of a fake Otii at
otii-tcp-client's boundary (`otii_client.OtiiClient`: the object the library
gives a script, here serving samples of a current that rises at a known rate
over host time), and the energy per case goes into the real SQLite store and
the report, aligned by the stream's arrival times (the host has no marker)."""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import invoke
from otii_tcp_client import otii_client

from rtosmeter.energy import jls
from rtosmeter.energy.stored import read_energy
from rtosmeter.store import Store

RATE = 10_000.0  # the fake Otii's sample rate
VOLTS = 3.3
BASE_A, SLOPE_A_PER_S = 1e-3, 10e-3  # current = 1 mA + 10 mA per second since recording began


def current_at(t: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return BASE_A + SLOPE_A_PER_S * t


class FakeArc:
    """An Arc in a project, at otii-tcp-client's boundary: it records from
    start_recording to stop_recording on the host's clock."""

    id, name, type = "arc-7", "Arc", "Arc"

    def __init__(self) -> None:
        self.span = (0.0, 0.0)
        self.main: list[bool] = []

    def enable_channel(self, channel: str, enable: bool) -> None: ...

    def set_main(self, on: bool) -> None:
        self.main.append(on)

    def start_recording(self) -> None:
        self.span = (time.monotonic(), 0.0)

    def stop_recording(self) -> None:
        self.span = (self.span[0], time.monotonic())

    def get_last_recording(self) -> FakeArc:
        return self

    def _n(self) -> int:
        return int((self.span[1] - self.span[0]) * RATE)

    def get_channel_data_count(self, device_id: str, channel: str) -> int:
        return self._n() if channel in ("mc", "mv") else 1

    def get_channel_data(self, device_id: str, channel: str, index: int,
                         count: int) -> dict[str, Any]:
        if channel == "i1":  # nothing wired to the digital input
            return {"data_type": "digital", "values": [{"timestamp": 0.0, "value": False}]}
        t = np.arange(count) / RATE
        values = current_at(t) if channel == "mc" else np.full(count, VOLTS)
        return {"data_type": "analog", "timestamp": 0.0, "interval": 1 / RATE,
                "values": values.tolist()}


class FakeOtii:
    def __init__(self, arc: FakeArc) -> None:
        self.arc = arc

    def get_devices(self) -> list[FakeArc]:
        return [self.arc]

    def get_active_project(self) -> FakeArc:
        return self.arc


class FakeClient:
    arc = FakeArc()
    disconnected = 0

    def connect(self) -> FakeOtii:
        return FakeOtii(self.arc)

    def disconnect(self) -> None:
        FakeClient.disconnected += 1


@pytest.mark.slow
def test_run_power_stores_energy_per_case_aligned_by_stream(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(otii_client, "OtiiClient", FakeClient)
    out = tmp_path / "o"
    result = invoke("run", "--port", "posix", "--target", "host", "--bench", "irq.latency",
                    "--power", "otii", "--out", str(out), "-j", "1")
    assert result.exit_code == 0, result.output + result.stderr
    assert FakeClient.arc.main == [True, False] and FakeClient.disconnected == 1
    with Store.open(out / "rtosmeter.sqlite") as st:
        run = st.runs()[0].id
        (ex,) = st.executions(run)
        stored = read_energy(st, run)
        cases = [r[0] for r in st.conn.execute(
            "SELECT case_id FROM cases WHERE execution_id = ? AND status IN ('ok', 'failed') "
            "ORDER BY id", (ex.id,))]
    assert ex.status == "ok" and ex.runner["power"] == "otii"
    assert [m.case_id for m in stored] == cases and "irq.latency" in cases
    trace = jls.read(out / ex.runner["power_trace"])  # the whole capture, beside the store
    assert trace.analyser == "Qoitech Otii Arc"
    assert len(trace.current_a) / RATE == pytest.approx(
        FakeClient.arc.span[1] - FakeClient.arc.span[0], abs=2 / RATE)
    for m in stored:
        a, d = m.window.start_s, m.window.duration_s
        assert m.by_stream is not None and m.trace == ex.runner["power_trace"]
        edge, low, high = m.by_stream
        # the case's window is where its records arrived, and its energy the ramp's over it
        want = VOLTS * (BASE_A * d + SLOPE_A_PER_S * ((a + d) ** 2 - a ** 2) / 2) * 1e6
        assert m.window.energy_uj == pytest.approx(want, rel=1e-3, abs=VOLTS * 0.02e-3 * 1e6
                                                   / RATE)
        # the edge uncertainty is the host's look gap (wall time: any size under load),
        # so only its sign and the bounds it gives are exact
        assert edge > 0 and low <= m.window.energy_uj <= high
        assert a >= 0 and a + d <= len(trace.current_a) / RATE
    # the cases ran one after the other: their windows do not overlap
    for first, second in itertools.pairwise(stored):
        assert first.window.start_s + first.window.duration_s <= second.window.start_s + 1e-3
    md = invoke("report", "--out", str(out), "--format", "md", "--view", "energy")
    assert md.exit_code == 0, md.output
    assert "Energy, measured, on host" in md.output and "aligned by stream" in md.output
    print(json.dumps([(m.case_id, round(m.window.duration_s * 1e3, 3),
                       round(m.window.energy_uj, 3), [round(x, 6) for x in m.by_stream or ()])
                      for m in stored]))


@pytest.mark.slow
def test_a_capture_that_cannot_be_aligned_is_kept_and_the_run_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(otii_client, "OtiiClient", FakeClient)
    out = tmp_path / "o"
    result = invoke("run", "--port", "posix", "--target", "host", "--bench", "irq.latency",
                    "--power", "otii", "--align", "marker", "--out", str(out), "-j", "1")
    assert result.exit_code == 1
    text = result.output + result.stderr
    assert "energy not stored: target host has no marker pin in --align marker" in text
    with Store.open(out / "rtosmeter.sqlite") as st:
        run = st.runs()[0].id
        (ex,) = st.executions(run)
        assert read_energy(st, run) == []
    assert ex.status == "ok"  # the execution itself ran and is stored
    assert (out / ex.runner["power_trace"]).is_file() and ex.runner["power_trace"] in text


def test_an_unknown_analyser_or_a_lone_align_is_refused_before_the_campaign(
        tmp_path: Path) -> None:
    bad = invoke("run", "--port", "posix", "--target", "host", "--power", "fluke",
                 "--out", str(tmp_path))
    assert bad.exit_code == 1 and "unknown power analyser 'fluke' in --power fluke" in (
        bad.output + bad.stderr)
    lone = invoke("run", "--port", "posix", "--target", "host", "--align", "stream",
                  "--out", str(tmp_path))
    assert lone.exit_code == 1 and "Give --power ANALYSER too" in lone.output + lone.stderr
    assert not (tmp_path / "rtosmeter.sqlite").exists()
