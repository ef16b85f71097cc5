"""The estimated energy in the run report: idle figures stored for a QEMU
execution are priced by each model of the boards the machine stands in for,
and every figure is labelled "estimated (model, ...)" at the number, in the
report's comparison and in `--view energy`."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import invoke

from rtosmeter.analysis import load_run
from rtosmeter.energy.view import ESTIMATED
from rtosmeter.idle.figures import IdleFigures
from rtosmeter.idle.stored import write_idle
from rtosmeter.store import Store


def _stored(out: Path) -> None:
    with Store.open(out / "rtosmeter.sqlite") as st:
        run = st.create_run({"name": "idle"}, {}, "test")
        build = st.add_build(run, "freertos", "qemu-mps2-an386", "lowpower", {})
        ex = st.add_execution(run, build, "idle", status="ok")
        write_idle(st, ex, IdleFigures(3_000_000_000, 2_970_000_000, 30_000_000, 3000,
                                       {"tick": 3000}, 468_750))
        write_idle(st, ex, IdleFigures(1_000_000_000, 999_000_000, 1_000_000, 100,
                                       {"timer": 100}, 15_625, "idle.sampling@100hz"))
        # 1 ms of virtual time holding 200,000 instructions: no chip here runs them in 1 ms
        write_idle(st, ex, IdleFigures(1_000_000, 100_000, 900_000, 1, {"timer": 1}, 200_000,
                                       "busy"))
        st.finish_run(run)


def test_idle_figures_become_estimates_on_every_stand_in_model(tmp_path: Path) -> None:
    _stored(tmp_path)
    with Store.open(tmp_path / "rtosmeter.sqlite") as st:
        view = load_run(st, st.runs()[0].id)
    estimated = [f for f in view.energy if f.kind == ESTIMATED]
    assert {f.chip for f in estimated} == {"STM32L475VG", "nRF52840", "STM32F407VG",
                                           "MK64FN1M0VLL12"}
    nrf = next(f for f in estimated if f.chip == "nRF52840" and f.window.endswith("100hz"))
    # 15,625 instructions at 64 MHz, the rest of 1 s asleep at 3.16 µA, 3 V
    awake = 15_625 / 64e6
    assert nrf.average_mw == pytest.approx(awake * 3.328 * 3 + (1 - awake) * 3.16e-3 * 3)
    assert nrf.residency == pytest.approx(0.999) and nrf.wakeups == 100
    assert nrf.label.startswith("estimated (nRF52840 (Nordic nRF52840 Product Specification")

    md = invoke("report", "--out", str(tmp_path), "--format", "md")
    assert md.exit_code == 0, md.output
    assert "Energy, estimated, on qemu-mps2-an386" in md.output
    assert "idle.sampling@100hz" in md.output and "estimated (nRF52840)" in md.output
    assert "CR2032" in md.output
    busy = [f for f in estimated if f.window == "busy"]
    assert len(busy) == 4 and all(f.saturated for f in busy)
    assert not any(f.saturated for f in estimated if f.window != "busy")
    assert "⚠ saturated" in md.output and "its run power" in md.output
    view_text = invoke("report", "--out", str(tmp_path), "--format", "table", "--view",
                       "energy")
    assert view_text.exit_code == 0 and "estimated (STM32L475VG)" in view_text.output
