"""`rtosmeter calibrate`: against a board stand-in whose cycles the model
itself produces with known parameters, the fit recovers them, reports the
error per case, and writes the fit where --as-board reads it."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import pytest
from _datahalf import parse_named
from conftest import invoke

from rtosmeter import calibrate_rtos as cr
from rtosmeter.board_memory import board_named, memory_of, read_memory
from rtosmeter.calibrate import KERNELS, Params, ranking_kept, stream
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import Definitions
from rtosmeter.qemu_plugin import CYCLE_CPUS
from rtosmeter.store import Store

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


def test_the_ranking_of_rtoses_compares_ports_per_series() -> None:
    board = {"freertos": {"lat.sem.pass/take": 100.0, "lat.yield/yield": 50.0, "tm.x/count": 1.0},
             "threadx": {"lat.sem.pass/take": 80.0, "lat.yield/yield": 60.0}}
    same = cr.ranking(board, {"freertos": {"lat.sem.pass/take": 900.0, "lat.yield/yield": 5.0},
                              "threadx": {"lat.sem.pass/take": 800.0, "lat.yield/yield": 6.0}})
    assert same.ports == ("freertos", "threadx") and not same.differs
    assert same.series == ("lat.sem.pass/take", "lat.yield/yield")  # tm.* is not a latency
    assert "kept in 2 of 2" in cr.text(same, "fitted")
    swapped = cr.ranking(board, {"freertos": {"lat.sem.pass/take": 70.0, "lat.yield/yield": 5.0},
                                 "threadx": {"lat.sem.pass/take": 80.0, "lat.yield/yield": 6.0}})
    line = cr.text(swapped, "declared")
    assert "kept in 1 of 2" in line
    assert "lat.sem.pass/take (measured threadx < freertos; model freertos < threadx)" in line
    alone = cr.ranking({"freertos": board["freertos"]}, {"freertos": board["freertos"]})
    assert "not checked: 1 RTOS port measured (freertos)" in cr.text(alone, "fitted")


def _stand_in_store(board_out: Path, work: Path, truth: Params) -> None:
    """A board run whose figures the model itself produces at `truth`: bare
    metal's kernels built as calibrate builds them, each one's stream under
    QEMU with the model at `truth`, stored as a run on the board."""
    opts = RunOptions(out=work, ports=("baremetal",), bench=KERNELS,
                      board=memory_of("b-l475e-iot01a"), quiet=True, jobs=1)
    summary = run_campaign(opts)
    defs = Definitions.load()
    mem = read_memory(board_named(defs, "b-l475e-iot01a"), calibrated=False)
    machine = defs.targets[mem.qemu_target].qemu
    assert machine is not None
    board_out.mkdir()
    with Store.open(work / "rtosmeter.sqlite") as built, \
            Store.open(board_out / "rtosmeter.sqlite") as st:
        run = st.create_run({"name": "board"}, {"machine": "x86_64"}, "0.1.0")
        build = st.add_build(run, "baremetal", "b-l475e-iot01a", "default", {})
        for e in built.executions(summary.run_id):
            data = stream(Path(e.runner["elf"]), machine.machine, mem, truth, CYCLE_CPUS[mem.cpu])
            parsed = parse_named(data)
            st.add_execution(run, build, parsed.header["group"], status="ok", exit_code=0,
                             runner={"runner": "board", "counter": "DWT (stand-in)"},
                             stream=data, parsed=parsed)
        st.finish_run(run)


@pytest.mark.slow
@pytest.mark.skipif(not fw.have_toolchain(), reason="needs the cross toolchain and QEMU")
def test_from_run_reads_a_board_run(tmp_path: Path) -> None:
    """--from-run on a stored board run (a stand-in store: the model's own
    cycles at ws=2, prefetch=0, div=7) recovers those parameters."""
    work = tmp_path / "work"
    _stand_in_store(tmp_path / "board", work, Params(ws=2, prefetch=0, div=7))
    res = invoke("calibrate", "B-L475E-IOT01A", "--from-run", "latest",
                 "--board-out", str(tmp_path / "board"), "--work", str(work),
                 "--write-to", str(tmp_path))
    assert res.exit_code == 0, res.output + res.stderr
    assert "against board run latest" in res.output
    assert "fitted: Params(ws=2, prefetch=0, div=7)" in res.output
    assert "fitted 0.00 %" in res.output
    assert "ranking of RTOSes: not checked: 0 RTOS port measured (none)" in res.output
    assert "ws = 2\nprefetch = false\ndiv = 7\n" in (tmp_path / "calibration.toml").read_text()
    # the same run for another board, or a --write-to that is no folder: refused, nothing fitted
    other = invoke("calibrate", "STM32F407", "--from-run", "latest", "--board-out",
                   str(tmp_path / "board"), "--work", str(tmp_path / "w2"))
    assert other.exit_code == 1 and "not of stm32f407" in other.output + other.stderr
    nowhere = invoke("calibrate", "B-L475E-IOT01A", "--from-run", "latest", "--board-out",
                     str(tmp_path / "board"), "--write-to", str(tmp_path / "missing"))
    assert nowhere.exit_code == 1 and "is not a folder" in nowhere.output + nowhere.stderr
    assert not (tmp_path / "w2").exists()  # refused before any build


def test_a_board_run_without_the_kernels_is_refused(tmp_path: Path) -> None:
    """A stored board run of other cases (no calib.flash): the fit would rest
    on nothing; calibrate names what the run lacks."""
    with Store.open(tmp_path / "rtosmeter.sqlite") as st:
        run = st.create_run({"name": "board"}, {"machine": "x86_64"}, "0.1.0")
        st.add_build(run, "baremetal", "b-l475e-iot01a", "default", {})
        st.finish_run(run)
    res = invoke("calibrate", "B-L475E-IOT01A", "--from-run", "latest", "--board-out",
                 str(tmp_path), "--work", str(tmp_path / "work"))
    assert res.exit_code == 1, res.output
    assert "lacks bare metal's kernels calib.flash/straight" in res.output + res.stderr
    assert not (tmp_path / "work").exists()


@pytest.mark.slow
@pytest.mark.rtos
@pytest.mark.skipif(not fw.have_toolchain(), reason="needs the cross toolchain and QEMU")
def test_the_ranking_of_rtoses_under_the_stand_in(tmp_path: Path) -> None:
    """FreeRTOS and ThreadX lat.* kernel calls under the stand-in's parameters
    against the model: the fitted model (the stand-in's own) keeps their
    order in every series."""
    for var in ("RTOSMETER_FREERTOS", "RTOSMETER_THREADX"):
        if not os.environ.get(var):
            pytest.skip(f"set {var} to the RTOS tree")
    res = invoke("calibrate", "B-L475E-IOT01A", "--stand-in", "ws=2,prefetch=0,div=7",
                 "--rtos", "freertos,threadx", "--work", str(tmp_path / "work"),
                 "--write-to", str(tmp_path))
    assert res.exit_code == 0, res.output + res.stderr
    fitted = next(ln for ln in res.output.splitlines()
                  if ln.startswith("ranking of RTOSes") and "fitted model" in ln)
    n = int(fitted.split(" common")[0].split("over their ")[1])
    assert n >= 4 and fitted.endswith(f"kept in {n} of {n}"), fitted
    assert any(ln.startswith("ranking of RTOSes (freertos, threadx)") and "declared model" in ln
               for ln in res.output.splitlines())
