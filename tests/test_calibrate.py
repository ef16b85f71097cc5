"""`rtosmeter calibrate`: against a board stand-in whose cycles the model
itself produces with known parameters, the fit recovers them, reports the
error per case, and writes the fit where --as-board reads it."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest
from conftest import invoke

from rtosmeter.board_memory import board_named, read_memory
from rtosmeter.calibrate import ranking_kept
from rtosmeter.definitions import Definitions

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cortexm_firmware as fw


def test_the_options_are_checked(tmp_path: Path) -> None:
    res = invoke("calibrate", "b-l475e-iot01a", "--work", str(tmp_path))
    assert res.exit_code == 1 and "give either --from-run" in res.stderr
    res = invoke("calibrate", "b-l475e-iot01a", "--stand-in", "waits=3", "--work", str(tmp_path))
    assert res.exit_code == 1 and "unknown parameter 'waits'" in res.stderr
    res = invoke("calibrate", "b-l475e-iot01a", "--stand-in", "ws=16", "--work", str(tmp_path))
    assert res.exit_code == 1 and "ws" in res.stderr and "--stand-in" in res.stderr


def test_ranking() -> None:
    assert ranking_kept({"a": 1.0, "b": 2.0}, {"a": 10.0, "b": 20.0})
    assert not ranking_kept({"a": 1.0, "b": 2.0}, {"a": 30.0, "b": 20.0})


@pytest.mark.slow
@pytest.mark.skipif(not fw.have_toolchain(), reason="needs the cross toolchain and QEMU")
def test_the_fit_recovers_a_stand_in_s_parameters(tmp_path: Path) -> None:
    res = invoke("calibrate", "B-L475E-IOT01A", "--stand-in", "ws=2,prefetch=0,div=7",
                 "--work", str(tmp_path / "work"), "--write-to", str(tmp_path))
    assert res.exit_code == 0, res.output + res.stderr
    out = res.output
    assert "declared: Params(ws=4, prefetch=1, div=12)  ->  fitted: Params(ws=2, prefetch=0, " \
           "div=7)" in out
    assert "fitted 0.00 %; ranking of the cases kept: yes" in out
    rows = {ln.split()[0]: ln.split() for ln in out.splitlines() if ln.startswith("calib.flash/")}
    assert set(rows) == {"calib.flash/straight", "calib.flash/jumps", "calib.flash/divide"}
    for row in rows.values():  # measured, declared, fitted, error
        assert row[1] == row[3] and row[4] == "0.00" and row[1] != row[2]
    text = (tmp_path / "calibration.toml").read_text()
    assert "ws = 2\nprefetch = false\ndiv = 7\n" in text
    # --as-board reads the fit beside the board
    board = board_named(Definitions.load(), "b-l475e-iot01a")
    mem = read_memory(dataclasses.replace(board, dir=tmp_path))
    assert (mem.ws, mem.prefetch, mem.div, mem.calibrated) == (2, False, 7, True)
    assert mem.spec(12).div == 7 and "calibrated" in mem.label()
    assert "ws=2" in mem.spec(12).args() and "prefetch=0" in mem.spec(12).args()
