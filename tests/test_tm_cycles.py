"""Thread-Metric under --unit cycles counts per period of estimated time:
the reporter's period is RM_TM_PERIOD_MS of the cycle counter (at the
board's clock with --as-board), not of emulated instruction time, so a
count changes with the cycle estimate (bench/cases/rm_case_util.h,
rm_tm_sleep_cycles). Real FreeRTOS on real QEMU."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rtosmeter.board_memory import memory_of
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.protocol import parse_stream
from rtosmeter.store import Store

pytestmark = [pytest.mark.slow]


def _run(tmp: Path, tree: Path | None, unit: str, board: str = "",
         case: str = "tm.sync") -> tuple[list[int], dict[str, str]]:
    port = "freertos" if tree else "baremetal"
    summary = run_campaign(RunOptions(out=tmp, ports=(port,), bench=case,
                                      targets=("qemu-mps2-an386",),
                                      sources={port: tree} if tree else {},
                                      unit=unit, board=memory_of(board) if board else None,
                                      quiet=True, jobs=1))
    assert summary.failed == 0 and summary.builds_failed == 0
    with Store.open(tmp / "rtosmeter.sqlite") as st:
        (ex,) = st.executions(summary.run_id)
        counts = parse_stream(st.stream(ex.id)).case(case).counts
        total = sorted((c.period, c.value) for c in counts if c.name == "total")
        return [v for _, v in total], dict(ex.runner)


@pytest.mark.rtos
def test_thread_metric_counts_per_period_of_estimated_cycles(tmp_path: Path) -> None:
    tree = os.environ.get("RTOSMETER_FREERTOS", "")
    if not tree or not Path(tree).is_dir():
        pytest.skip("RTOSMETER_FREERTOS is not set to the FreeRTOS tree")
    insns, _ = _run(tmp_path / "i", Path(tree), "instructions")
    cycles, runner = _run(tmp_path / "c", Path(tree), "cycles")
    board, board_runner = _run(tmp_path / "b", Path(tree), "cycles", "b-l475e-iot01a")
    # the same work per period of a longer time base: fewer counts, by the
    # run's cycles per instruction (the whole run's, so within 15 %)
    cpi = int(runner["plugin_cycles"]) / int(runner["plugin_instructions"])
    assert cpi > 1.05
    for i, c in zip(insns, cycles, strict=True):
        assert c < i and c * cpi == pytest.approx(i, rel=0.15)
    # as on the board: 100 ms at 80 MHz, 8,000,000 cycles a period, against
    # 1,562,500 at the nominal rate: about 80 / 15.625 times the counts
    bcpi = int(board_runner["plugin_cycles"]) / int(board_runner["plugin_instructions"])
    for c, b in zip(cycles, board, strict=True):
        assert b * bcpi / 80.0 == pytest.approx(c * cpi / 15.625, rel=0.15)
    # each period normalised to the same length: the counts of one run agree
    assert max(cycles) - min(cycles) <= 0.02 * max(cycles)


def test_bare_metal_basic_processing_per_period_of_estimated_cycles(tmp_path: Path) -> None:
    """Bare metal's tm.basic, whose reporter is the periodic timer interrupt:
    its period too is one of estimated cycles under --unit cycles."""
    insns, _ = _run(tmp_path / "i", None, "instructions", case="tm.basic")
    cycles, runner = _run(tmp_path / "c", None, "cycles", case="tm.basic")
    board, _ = _run(tmp_path / "b", None, "cycles", "b-l475e-iot01a", case="tm.basic")
    cpi = int(runner["plugin_cycles"]) / int(runner["plugin_instructions"])
    for i, c, b in zip(insns, cycles, board, strict=True):
        assert c < i and c * cpi == pytest.approx(i, rel=0.1)
        assert b == pytest.approx(c * 80 / 15.625, rel=0.05)  # 8,000,000 cycles a period
