"""rtosmeter's tm.* counts against upstream Thread-Metric (docs/benchmarks.md
section 1), on the same emulated machine: a permanent cross-check that the
tm.* loops hold what Thread-Metric's do (the calls into a porting layer of
real functions and the kernel calls inside them) and nothing else of
rtosmeter's own.

For each port, the reference (tests/thread_metric: Thread-Metric's tests from
the ThreadX tree with ThreadX's shipped porting layer, or the one-call-per-
service FreeRTOS layer kept here, built as shipped: the porting layer is its
own translation unit, no LTO, so every service is a real call, as
Thread-Metric's readme section 2.2 requires) and `rtosmeter run --bench 'tm.*'`
(whose loops call bench/core/tm_porting_layer.c, its own translation unit
too) run on qemu-mps2-an386 with the same kernel configuration, flags,
start-up, interrupt path and QEMU command line, with each toolchain,
both with 1 s periods. The count of the second period of each must agree
within 3 %. Both tables are printed (pytest -s shows them).

Needs RTOSMETER_THREADX (Thread-Metric comes from it, for both ports) and,
for FreeRTOS, RTOSMETER_FREERTOS; without them the tests skip, saying so.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from rtos_ports import need

from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.protocol import parse_stream
from rtosmeter.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parent / "thread_metric"))
import reference  # tests/thread_metric/reference.py

TOLERANCE = 0.03
PERIOD_MS = 1000   # 1 s: upstream's layers count whole seconds
PERIOD = 2         # the period compared (the first includes start-up)
INSTR_PER_S = 1e9 / 2**6  # QEMU -icount shift=6: one instruction per 64 ns

THREADX = os.environ.get("RTOSMETER_THREADX", "")
FREERTOS = os.environ.get("RTOSMETER_FREERTOS", "")


def _has(tree: str, probe: str) -> bool:
    return bool(tree) and (Path(tree) / probe).is_file()


_NO_TM = not _has(THREADX, "utility/benchmarks/thread_metric/tm_api.h")
_NO_TM_WHY = ("RTOSMETER_THREADX is not set to a ThreadX tree with "
              "utility/benchmarks/thread_metric (Thread-Metric comes from it; e.g. git clone "
              "https://github.com/eclipse-threadx/threadx)")
_PORTS = [
    pytest.param("threadx", THREADX, marks=pytest.mark.skipif(_NO_TM, reason=_NO_TM_WHY),
                 id="threadx"),
    pytest.param("freertos", FREERTOS, marks=[
        pytest.mark.skipif(_NO_TM, reason=_NO_TM_WHY),
        pytest.mark.skipif(not _has(FREERTOS, "tasks.c"), reason=(
            "RTOSMETER_FREERTOS is not set to a FreeRTOS-Kernel tree (e.g. git clone "
            "https://github.com/FreeRTOS/FreeRTOS-Kernel)"))], id="freertos"),
]


def _rtosmeter_counts(port: str, tree: str, out: Path, notes: list[str],
                      toolchain: str) -> dict[str, list[int]]:
    """`rtosmeter run --bench 'tm.*'` with 1 s periods: case -> total per period.

    A case whose own checks failed still counted; its failed checks go to
    `notes` (printed, not failed on: this test compares counts)."""
    campaign = out / "tm_reference.toml"
    out.mkdir(parents=True, exist_ok=True)
    campaign.write_text(
        'name = "tm_reference"\n'
        'description = "tm.* with 1 s periods, for the Thread-Metric cross-check"\n'
        'profiles = ["default"]\nbench = "tm.*"\n'
        f"[params.qemu]\ntm_period_ms = {PERIOD_MS}\ntm_periods = {PERIOD}\n"
        f'[[run]]\nports = ["{port}"]\ntargets = ["{reference.TARGET}"]\n'
        f'toolchains = ["{toolchain}"]\n')
    summary = run_campaign(RunOptions(out=out, campaign=str(campaign),
                                      sources={port: Path(tree)}, jobs=1, quiet=True))
    counts: dict[str, list[int]] = {}
    with Store.open(out / "rtosmeter.sqlite") as store:
        for execution in store.executions(summary.run_id):
            parsed = parse_stream(store.stream(execution.id))
            assert parsed.complete and parsed.fault is None, (execution.group, parsed.errors)
            for case in parsed.cases:
                if case.id.startswith("tm."):
                    assert case.status in ("ok", "failed"), (case.id, case.status, case.reason)
                    notes += [f"rtosmeter {case.id}: check {ch.name} failed (got {ch.got}, "
                              f"want {ch.want})" for ch in case.checks if not ch.ok]
                    counts[case.id] = [c.value for c in sorted(
                        (c for c in case.counts if c.name == "total"), key=lambda c: c.period)]
    return counts


def _table(port: str, ref: dict[str, list[int]], rm: dict[str, list[int]]) -> list[str]:
    """Both counts of period PERIOD per second, instructions per iteration, difference."""
    lines = [f"{port}: counts per second (period {PERIOD} of 1 s), instructions per iteration",
             f"{'test':<22}{'Thread-Metric':>14}{'instr/it':>10}{'rtosmeter':>12}"
             f"{'instr/it':>10}{'diff':>9}"]
    for name in reference.TESTS:
        case = f"tm.{name}"
        r = ref[case][PERIOD - 1] if len(ref.get(case, [])) >= PERIOD else 0
        m = rm[case][PERIOD - 1] if len(rm.get(case, [])) >= PERIOD else 0
        diff = f"{(m - r) / r:+.1%}" if r else "n/a"
        lines.append(f"{case:<22}{r:>14,}{INSTR_PER_S / r if r else 0:>10.2f}"
                     f"{m:>12,}{INSTR_PER_S / m if m else 0:>10.2f}{diff:>9}")
    return lines


@pytest.mark.rtos
@pytest.mark.parametrize("toolchain", ["gcc", "clang"])
@pytest.mark.parametrize(("port", "tree"), _PORTS)
def test_rtosmeter_matches_thread_metric(port: str, tree: str, toolchain: str,
                                         tmp_path: Path) -> None:
    """Per toolchain: the reference and rtosmeter built with the same compiler."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm",
         *(("clang", "ld.lld") if toolchain == "clang" else ()))
    elfs = reference.build(port, Path(tree), Path(THREADX), tmp_path / "reference", lto="off",
                           period_ticks=PERIOD_MS, periods=PERIOD, jobs=1,
                           toolchain=toolchain)
    refs = reference.run_all(elfs)
    for name, run in refs.items():
        assert not run.errors, (name, run.errors, run.output[-1000:])
        assert len(run.totals) >= PERIOD, (name, run.output[-1000:])
    ref = {f"tm.{name}": list(run.totals) for name, run in refs.items()}
    notes: list[str] = []
    rm = _rtosmeter_counts(port, tree, tmp_path / "rtosmeter", notes, toolchain)
    print("\n" + "\n".join(_table(f"{port} ({toolchain})", ref, rm) + notes))

    off = []
    for case, totals in ref.items():
        assert case in rm and len(rm[case]) >= PERIOD, f"rtosmeter reported no {case}"
        r, m = totals[PERIOD - 1], rm[case][PERIOD - 1]
        if abs(m - r) > TOLERANCE * r:
            off.append(f"{case}: rtosmeter {m:,} vs Thread-Metric {r:,} ({(m - r) / r:+.1%})")
    assert not off, (f"{port} ({toolchain}): tm.* counts differ from upstream Thread-Metric "
                     "by more than "
                     f"{TOLERANCE:.0%}:\n" + "\n".join(off))
