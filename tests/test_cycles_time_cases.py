"""The time-based cases run under --unit cycles and --as-board, their periods
in emulated time and their figures in estimated time (docs/estimates.md,
"The other time-based cases under --unit cycles"): lat.jitter.periodic,
irq.max_rate, app.sampling and app.schedulability were `unsupported` there
before. Real firmware, real cross-compiler, real QEMU with the rmcycles
plugin; bare metal always, FreeRTOS and RIOT when their trees are given."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rtosmeter.analysis import load_run
from rtosmeter.board_memory import memory_of
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.protocol import parse_stream
from rtosmeter.protocol.records import ParsedCase
from rtosmeter.reports import markdown
from rtosmeter.store import Store

pytestmark = [pytest.mark.slow]

TIME_CASES = ("lat.jitter.periodic", "irq.max_rate", "app.sampling", "app.schedulability")


def _run(tmp: Path, port: str, tree: Path | None, unit: str, board: str = "",
         bench: str = "*", target: str = "qemu-mps2-an386") -> dict[str, ParsedCase]:
    summary = run_campaign(RunOptions(out=tmp, ports=(port,), bench=bench, targets=(target,),
                                      sources={port: tree} if tree else {},
                                      unit=unit, board=memory_of(board) if board else None,
                                      quiet=True, jobs=1))
    assert summary.failed == 0 and summary.builds_failed == 0
    out: dict[str, ParsedCase] = {}
    with Store.open(tmp / "rtosmeter.sqlite") as st:
        for ex in st.executions(summary.run_id):
            for case in parse_stream(st.stream(ex.id)).cases:
                out[case.id] = case
    return out


def _tree(port: str) -> Path:
    var = f"RTOSMETER_{port.upper()}"
    tree = os.environ.get(var, "")
    if not tree or not Path(tree).is_dir():
        pytest.skip(f"{var} is not set to the {port} tree")
    return Path(tree)


def _counts(case: ParsedCase, name: str) -> list[int]:
    return [c.value for c in sorted(case.counts, key=lambda c: c.period) if c.name == name]


def _max_rate(insns: ParsedCase, cycles: ParsedCase) -> None:
    """irq.max_rate in cycles: each step's events counted in emulated time
    (all raised, as in instructions), its period the cycles per event, and
    the rate events per second of estimated time."""
    assert cycles.status == "ok", cycles.reason
    assert cycles.meta["rate_time"] == "estimated"
    hz, period = int(cycles.meta["max_rate_hz"]), int(cycles.meta["max_rate_period_ticks"])
    timer = int(cycles.meta["timer_hz"])
    # more than one cycle per instruction, exceptions included: the rate in
    # estimated time is below the timer's in emulated time, and within a few
    # steps of the instructions' result
    assert 0 < hz < timer
    assert timer == pytest.approx(int(insns.meta["max_rate_hz"]), rel=0.5)
    assert _counts(cycles, "raised")[0] == 100  # the first step: every event raised
    assert hz == pytest.approx(15_625_000 / period, rel=0.01)


def test_bare_metal_max_rate_in_cycles_and_as_board(tmp_path: Path) -> None:
    insns = _run(tmp_path / "i", "baremetal", None, "instructions", bench="irq.max_rate")
    cycles = _run(tmp_path / "c", "baremetal", None, "cycles", bench="irq.max_rate")
    again = _run(tmp_path / "c2", "baremetal", None, "cycles", bench="irq.max_rate")
    _max_rate(insns["irq.max_rate"], cycles["irq.max_rate"])
    # bit-identical from run to run
    assert cycles["irq.max_rate"].meta == again["irq.max_rate"].meta
    assert cycles["irq.max_rate"].counts == again["irq.max_rate"].counts
    # the report says which time each rate is in, never "Hz of emulated
    # time" for the estimated one
    with Store.open(tmp_path / "c" / "rtosmeter.sqlite") as st:
        md = markdown.render(load_run(st, st.resolve_run("latest")))
    row = next(ln for ln in md.splitlines() if ln.startswith("| highest rate with no lost"))
    assert "(Hz of estimated time)" in row
    assert f"{int(cycles['irq.max_rate'].meta['timer_hz']):,} Hz of emulated time" in row
    board = _run(tmp_path / "b", "baremetal", None, "cycles", "b-l475e-iot01a",
                 bench="irq.max_rate")["irq.max_rate"]
    assert board.status == "ok", board.reason
    # at 80 MHz: the same emulated timer, estimated at the board's clock
    hz, period = int(board.meta["max_rate_hz"]), int(board.meta["max_rate_period_ticks"])
    assert hz == pytest.approx(80_000_000 / period, rel=0.01)
    assert 0 < hz < 10_000_000


def test_bare_metal_max_rate_in_cycles_on_the_cortex_m0(tmp_path: Path) -> None:
    """The microbit's TIMER0 is its clock of emulated time (rm_target_vtime),
    and its periodic timer takes timestamp units as the MPS2's does."""
    target = "qemu-microbit"
    insns = _run(tmp_path / "i", "baremetal", None, "instructions", bench="irq.max_rate",
                 target=target)
    cycles = _run(tmp_path / "c", "baremetal", None, "cycles", bench="irq.max_rate",
                  target=target)
    _max_rate(insns["irq.max_rate"], cycles["irq.max_rate"])


@pytest.mark.rtos
def test_freertos_time_cases_run_in_cycles_and_as_board(tmp_path: Path) -> None:
    tree = _tree("freertos")
    bench = ",".join(TIME_CASES)
    insns = _run(tmp_path / "i", "freertos", tree, "instructions", bench=bench)
    cycles = _run(tmp_path / "c", "freertos", tree, "cycles", bench=bench)
    board = _run(tmp_path / "b", "freertos", tree, "cycles", "b-l475e-iot01a", bench=bench)
    for results in (cycles, board):
        for case in TIME_CASES:
            assert results[case].status == "ok", (case, results[case].reason)
    _max_rate(insns["irq.max_rate"], cycles["irq.max_rate"])

    # lat.jitter.periodic: a tick of emulated time holds more than its
    # instructions in cycles; the ideal is the measured mean period
    jit = cycles["lat.jitter.periodic"]
    ideal = int(jit.meta["ideal_period_ts"])
    assert 15_625 < ideal < 4 * 15_625
    period, dev = jit.series["period"].samples, jit.series["deviation"].samples
    assert float(period.mean()) == pytest.approx(ideal, rel=0.02)
    assert int(dev.max()) < ideal // 4

    # app.sampling: the ladder's rates are emulated time, est_hz estimated
    samp = cycles["app.sampling"]
    assert samp.meta["rate_time"] == "estimated"
    rates, est = _counts(samp, "rate_hz"), _counts(samp, "est_hz")
    assert rates[0] == 1000 and 0 < est[0] < 1000  # more cycles than instructions a second
    assert 0 < int(samp.meta["max_rate_hz"]) < int(samp.meta["timer_hz"])

    # app.schedulability: the breakdowns agree with the instructions' (the
    # deadlines are the kernel's): a ratio, in cycles
    sched_c, sched_i = cycles["app.schedulability"], insns["app.schedulability"]
    assert int(sched_c.meta["tick_ts"]) > 15_625
    for exp in ("ph.frequency", "ph.workload", "pn.workload"):
        bp_c, bp_i = (int(s.meta[f"{exp}.breakdown_bp"]) for s in (sched_c, sched_i))
        assert bp_c == pytest.approx(bp_i, abs=500), exp
    # as on the board: a tick of emulated time is still the deadline
    assert int(board["app.schedulability"].meta["tick_ts"]) > 15_625


@pytest.mark.rtos
def test_riot_periodic_cases_run_in_both_units_on_the_cortex_m0(tmp_path: Path) -> None:
    """RIOT's periodic interrupt goes through its own timer driver, which
    takes only 16 MHz / 2^n: under the plugin the port converts the period
    from the counter's nominal rate to the core clock, and a period beyond
    the 16-bit compare (idle.sampling's second) runs the timer slower."""
    tree, target = _tree("riot"), "qemu-microbit"
    bench = "irq.max_rate,idle.sampling"
    insns = _run(tmp_path / "i", "riot", tree, "instructions", bench=bench, target=target)
    cycles = _run(tmp_path / "c", "riot", tree, "cycles", bench=bench, target=target)
    for results in (insns, cycles):
        for case in ("irq.max_rate", "idle.sampling"):
            assert results[case].status == "ok", (case, results[case].reason)
    _max_rate(insns["irq.max_rate"], cycles["irq.max_rate"])
