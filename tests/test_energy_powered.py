"""The power runner's two ends without firmware: a stored board execution
whose live capture (a .jls trace with marker pulses, as `run --power` leaves
it) is aligned by the marker and stored; and a runner that raises inside a
capture of a fake Otii (at otii_client.OtiiClient) still leaves the whole
trace beside the store, named in the execution's runner info."""

from __future__ import annotations

from pathlib import Path

import pytest
from otii_tcp_client import otii_client
from test_energy_capture import STEPS, _record, _store
from test_energy_power_run import FakeClient

from rtosmeter.definitions import Definitions
from rtosmeter.energy import jls
from rtosmeter.energy.sessions import PowerSpec, open_session
from rtosmeter.energy.stored import read_energy
from rtosmeter.errors import UserError
from rtosmeter.protocol import parse_stream
from rtosmeter.runners.base import RunOutcome, RunRequest
from rtosmeter.runners.powered import record
from rtosmeter.store import Store


def test_a_board_with_a_marker_is_aligned_by_its_pulses(tmp_path: Path, root: Path) -> None:
    ex = _store(tmp_path)  # on nrf52840dk, which declares its marker pin
    (tmp_path / "traces").mkdir()
    want = _record(tmp_path / "traces" / "capture-1.jls")
    target = Definitions.load(root).targets["nrf52840dk"]
    with Store.open(tmp_path / "rtosmeter.sqlite") as st:
        stream = st.stream(ex)
        parsed = parse_stream(stream)
        info = {"power_trace": "traces/capture-1.jls", "power_start_s": "None",
                "power_arrivals": "", "power_analyser": "Nordic PPK2"}
        note = record(st, ex, info, stream, parsed, parsed, target, "auto")
        stored = read_energy(st, st.runs()[0].id)
        with pytest.raises(UserError, match="no host time for its first sample"):
            record(st, ex, info, stream, parsed, parsed, target, "stream")
    assert note == "2 cases measured with Nordic PPK2, aligned by marker"
    assert [m.window.energy_uj for m in stored] == pytest.approx(want, rel=1e-6)
    assert all(m.by_stream is None and m.analyser == "Nordic PPK2" for m in stored)
    assert [m.window.duration_s for m in stored] == pytest.approx([s for _, s in STEPS])


def test_a_runner_that_raises_inside_a_capture_keeps_the_trace(
        tmp_path: Path, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rtosmeter.runners.powered import PowerRun

    monkeypatch.setattr(otii_client, "OtiiClient", FakeClient)
    target = Definitions.load(root).targets["host"]

    def broken(request: RunRequest) -> RunOutcome:
        raise RuntimeError("the probe vanished")

    outcome = PowerRun(broken, PowerSpec.parse("otii"), tmp_path, open_session)(
        RunRequest(tmp_path / "none", target))
    assert outcome.status == "error" and "the probe vanished" in outcome.message
    trace = tmp_path / outcome.info["power_trace"]
    assert jls.read(trace).analyser == "Qoitech Otii Arc"
    assert FakeClient.arc.main[-2:] == [True, False]  # the Otii's output was switched off
