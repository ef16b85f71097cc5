"""Alignment by the stream's arrival times (rtosmeter.energy.by_stream): a
recorded capture of known current steps, written and read back as a .jls
file with pyjls, and a recorded stream (a real bare-metal QEMU stream) whose
records arrived at known host times. Each case's energy, its edges'
uncertainty and its bounds are computed by hand below."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from rtosmeter.energy import jls
from rtosmeter.energy.arrivals import Arrivals
from rtosmeter.energy.by_stream import align, record_ends
from rtosmeter.energy.capture import Capture
from rtosmeter.errors import UserError
from rtosmeter.protocol import parse_stream

STREAM = (Path(__file__).parent / "data"
          / "baremetal-qemu-mps2-an386-quick-tm_basic.rmstream").read_bytes()
RATE, VOLTS, BASE = 100_000, 3.0, 0.1e-3
T0 = 100.0  # host time of the capture's first sample
LOOK = 0.001  # the harness looks at the stream every millisecond
# case -> (current, host time its CASE record was seen, host time its END was seen)
STEPS = {"calib.overhead": (2e-3, 100.0105, 100.0305), "tm.basic": (5e-3, 100.0405, 100.0805)}


def _capture(tmp_path: Path) -> Capture:
    """0.1 mA, and each case's current from half a look before its CASE was
    seen to half a look before its END was (the middle of each look's gap)."""
    n = round(0.1 * RATE)
    current = np.full(n, BASE)
    for amps, seen_case, seen_end in STEPS.values():
        a, b = (round((t - LOOK / 2 - T0) * RATE) for t in (seen_case, seen_end))
        current[a:b] = amps
    capture = Capture("Qoitech Otii Arc", RATE, current, np.full(n, VOLTS), None, "rec")
    back = jls.read(jls.write(capture, tmp_path / "rec.jls"))  # a recorded trace
    return replace(back, start_host_s=T0)


def _arrivals() -> tuple[Arrivals, list[tuple[str, int]]]:
    """The stream's records arrived at STEPS' times, the harness looking every LOOK."""
    parsed = parse_stream(STREAM)
    cases = [(c.id, c.offset) for c in parsed.cases]
    arrivals = Arrivals()
    for case_id, offset in cases:
        case_end, end_end = record_ends(STREAM, case_id, offset)
        for size, seen in ((case_end + 1, STEPS[case_id][1]), (end_end + 1, STEPS[case_id][2])):
            arrivals.note(size - 1, seen - LOOK)  # the look before: one byte short
            arrivals.note(size, seen)
    arrivals.note(len(STREAM), 100.09)
    return arrivals, cases


def test_cases_are_aligned_by_their_records_arrival_with_stated_uncertainty(
        tmp_path: Path) -> None:
    arrivals, cases = _arrivals()
    assert [c for c, _ in cases] == ["calib.overhead", "tm.basic"]
    # the runner info carries the arrivals as text: align from what is stored
    windows = align(_capture(tmp_path), STREAM, cases, Arrivals.from_text(arrivals.as_text()))
    edge = LOOK / 2 + 1 / RATE  # half the look's gap, and one sample period
    for case_id, (amps, seen_case, seen_end) in STEPS.items():
        w = windows[case_id]
        seconds = seen_end - seen_case
        assert w.energy.start_s == pytest.approx(seen_case - LOOK / 2 - T0, abs=1 / RATE)
        assert w.energy.duration_s == pytest.approx(seconds, abs=1 / RATE)
        assert w.energy.energy_uj == pytest.approx(amps * VOLTS * seconds * 1e6, rel=1e-5)
        assert w.edge_s == pytest.approx(edge, rel=1e-9)
        # shrunk: the case's current over the window less both edges
        assert w.low_uj == pytest.approx(amps * VOLTS * (seconds - 2 * edge) * 1e6, rel=1e-4)
        # grown: plus the 0.1 mA between cases over both edges
        assert w.high_uj == pytest.approx(
            (amps * seconds + BASE * 2 * edge) * VOLTS * 1e6, rel=1e-4)
        assert w.low_uj < w.energy.energy_uj < w.high_uj
    print({k: (round(w.energy.energy_uj, 3), round(w.edge_s * 1e3, 3), round(w.low_uj, 3),
               round(w.high_uj, 3)) for k, w in windows.items()})


def test_a_uart_adds_each_records_transmission_time_to_the_uncertainty(
        tmp_path: Path) -> None:
    arrivals, cases = _arrivals()
    windows = align(_capture(tmp_path), STREAM, cases, arrivals, baud=115_200)
    # the record took up to len * 10 / 115200 s to come over the line before it was seen
    case_end, end_end = record_ends(STREAM, "tm.basic", cases[1][1])
    longest = max(end - STREAM.rfind(b"\n", 0, end) for end in (case_end, end_end))
    assert windows["tm.basic"].edge_s == pytest.approx(
        (LOOK + longest * 10 / 115_200) / 2 + 1 / RATE, rel=0.05)


def test_a_capture_without_host_time_or_a_case_outside_it_is_refused(tmp_path: Path) -> None:
    arrivals, cases = _arrivals()
    capture = _capture(tmp_path)
    with pytest.raises(UserError, match="no host time for its first sample"):
        align(replace(capture, start_host_s=None), STREAM, cases, arrivals)
    with pytest.raises(UserError, match="ran outside the capture"):
        align(replace(capture, start_host_s=T0 + 0.05), STREAM, cases, arrivals)
    with pytest.raises(UserError, match=r"never saw case calib\.overhead's CASE arrive"):
        align(capture, STREAM, cases, Arrivals())
