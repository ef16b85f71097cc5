"""The interrupt-responsiveness group (bench/cases/irq.c, docs/benchmarks.md
section 3), built and run for real: bare metal on QEMU MPS2-AN386 always,
FreeRTOS, ThreadX, uC/OS-II and uC/OS-III on the same machine when their
trees are given (RTOSMETER_FREERTOS, RTOSMETER_THREADX, RTOSMETER_UCOS2,
RTOSMETER_UCOS3; the tests skip otherwise), POSIX on the host. Each QEMU
port runs twice: under -icount the streams must be byte-identical. The
assertions are properties of the figures the firmware computed: a latency
series per task count, no event lost at the reported interrupt rate and
some lost above it, the loaded irq.blocking latency not below its idle
baseline.
"""

from __future__ import annotations

import os
import shutil
import statistics
from pathlib import Path

import pytest
from _datahalf import CAP_BITS, parse_named

from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.protocol import ParsedCase, ParsedStream, lacks_reason
from rtosmeter.store import Store

TARGET = "qemu-mps2-an386"
PROFILE = "quick"
LOAD_NS = (1, 4, 8)
TREES = {"freertos": ("RTOSMETER_FREERTOS", "tasks.c"),
         "threadx": ("RTOSMETER_THREADX", "common/inc/tx_api.h"),
         "ucos2": ("RTOSMETER_UCOS2", "Source/ucos_ii.h"),
         "ucos3": ("RTOSMETER_UCOS3", "Source/os.h")}


def _need(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is required: run scripts/install.sh")


def _tree(port: str) -> Path:
    env, probe = TREES[port]
    tree = os.environ.get(env, "")
    if not tree or not (Path(tree) / probe).is_file():
        pytest.skip(f"{env} is not set to a {port} tree (needed to build the {port} port)")
    return Path(tree)


def _run_irq(out: Path, port: str, target: str, sources: dict[str, Path]) -> bytes:
    """`rtosmeter run --port P --target T --bench 'irq.*' --profile quick`."""
    summary = run_campaign(RunOptions(out=out, ports=(port,), targets=(target,),
                                      bench="irq.*", profile=PROFILE, sources=sources,
                                      jobs=2, quiet=True))
    with Store.open(out / "rtosmeter.sqlite") as store:
        (ex,) = store.executions(summary.run_id)
        assert ex.status == "ok", (ex.status, ex.error)
        return store.stream(ex.id)


def _qemu_twice(tmp_path: Path, port: str, sources: dict[str, Path]) -> ParsedStream:
    _need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    first = _run_irq(tmp_path / "a", port, TARGET, sources)
    second = _run_irq(tmp_path / "b", port, TARGET, sources)
    assert first == second, f"{port}: the two QEMU runs of the irq group differ"
    parsed = parse_named(first)
    assert parsed.complete and not parsed.errors and parsed.fault is None, parsed.errors
    assert parsed.bye_status == 0
    return parsed


def _warm(case: ParsedCase, series: str) -> list[int]:
    """The samples of a series without the cold first one."""
    return case.series[series].samples[1:]


# ---- the properties -------------------------------------------------------------


def _check_latency(parsed: ParsedStream, with_tasks: bool) -> None:
    samples = int(parsed.header["samples"])
    lat, jit = parsed.case("irq.latency"), parsed.case("irq.latency_jitter")
    assert lat.status == jit.status == "ok", (lat.reason, jit.reason)
    loads = [f"@{n}" for n in LOAD_NS] if with_tasks else []
    assert list(lat.series) == ["latency", *(f"latency{s}" for s in loads)]
    assert list(jit.series) == ["delta", *(f"delta{s}" for s in loads)]
    for suffix in ["", *loads]:
        # Every task count has its full series; the deltas are differences
        # (sub=0) and the META maximum is the largest of them.
        assert len(lat.series[f"latency{suffix}"].samples) == samples
        delta = jit.series[f"delta{suffix}"]
        assert len(delta.samples) == samples and not delta.subtract
        assert lat.series[f"latency{suffix}"].subtract
        assert int(jit.meta[f"max_delta_ticks{suffix}"]) == max(delta.samples)
        assert min(_warm(lat, f"latency{suffix}")) > 0
    if not with_tasks:
        # The firmware writes the mask of what the task forms lack; the host names it.
        for case in (lat, jit):
            assert case.meta["load"] == "skipped"
            missing = int(case.meta["load_missing"], 16)
            assert lacks_reason(missing, bits=CAP_BITS) == "port lacks THREAD, SEM, PREEMPTIVE"
    else:
        assert "load" not in lat.meta and "load_missing" not in jit.meta


def _check_max_rate(parsed: ParsedStream, tasks: int) -> tuple[int, int]:
    """Lost events (raised - handled beyond the stop-time slack) are 0 at
    every step up to the reported rate and > 0 at the next one. Returns the
    rate (Hz) and its period (ticks)."""
    case = parsed.case("irq.max_rate")
    assert case.status == "ok", case.reason
    meta = case.meta
    assert int(meta["tasks"]) == tasks
    slack = int(meta["loss_slack"])
    by: dict[str, dict[int, int]] = {}
    for c in case.counts:
        by.setdefault(c.name, {})[c.period] = c.value
    steps = int(meta["steps"])
    assert sorted(by["period_ticks"]) == list(range(steps))
    best = int(meta["max_rate_period_ticks"])
    best_step = next(s for s, p in by["period_ticks"].items() if p == best)
    for step in range(best_step + 1):
        assert by["raised"][step] - by["handled"][step] <= slack, step  # none lost
    assert meta["loss_found"] == "1", "no rate lost events: the ramp ended too early"
    assert best_step == steps - 2
    lost = by["raised"][steps - 1] - by["handled"][steps - 1]
    assert lost > slack and int(meta["lost_at_next_step"]) == lost > 0
    assert by["period_ticks"][steps - 1] < best
    hz = int(parsed.header["hz"])
    assert int(meta["max_rate_hz"]) == hz // best
    if tasks:
        # The handler ran for every event; the recording task is what fell behind.
        assert by["handler_runs"][best_step] >= by["raised"][best_step] - 1
    return hz // best, best


def _check_blocking(parsed: ParsedStream, trigger: str,
                    compare: bool = True) -> dict[str, float]:
    """The loaded latency is never below the idle baseline where it matters:
    its tail (p99, max) and its mean; kernel critical sections show as a
    longer tail under load. Returns medians, p99 and max in ticks."""
    samples = int(parsed.header["samples"])
    case = parsed.case("irq.blocking")
    assert case.status == "ok", case.reason
    assert list(case.series) == ["latency", "baseline"]
    assert case.meta["trigger"] == trigger
    for i in range(4):  # every load task ran
        assert int(case.meta[f"rounds@{i}"]) > 0
    loaded, base = _warm(case, "latency"), _warm(case, "baseline")
    assert len(loaded) == len(base) == samples - 1
    out = {
        "loaded_p50": statistics.median(loaded), "base_p50": statistics.median(base),
        "loaded_max": max(loaded), "base_max": max(base),
        "loaded_p99": sorted(loaded)[int(0.99 * len(loaded))],
        "base_p99": sorted(base)[int(0.99 * len(base))],
    }
    if trigger == "periodic":
        assert case.meta["late_events"] == "0"
        assert int(case.meta["period_ticks"]) > max(loaded)  # every slot is right
    if trigger == "periodic" and compare:
        assert out["loaded_max"] > out["base_max"]
        assert out["loaded_p99"] >= out["base_p99"]
        assert statistics.fmean(loaded) >= statistics.fmean(base)
        assert min(loaded) >= min(base)
    return out


# ---- the ports ------------------------------------------------------------------


@pytest.mark.slow
def test_baremetal_qemu(tmp_path: Path) -> None:
    parsed = _qemu_twice(tmp_path, "baremetal", {})
    _check_latency(parsed, with_tasks=False)
    _check_max_rate(parsed, tasks=0)
    blocking = parsed.case("irq.blocking")
    assert blocking.status == "unsupported" and blocking.reason.startswith("port lacks THREAD")
    assert blocking.missing != 0
    assert blocking.reason == lacks_reason(blocking.missing, bits=CAP_BITS)
    assert [c.id for c in parsed.cases] == ["calib.overhead", "irq.latency",
                                            "irq.latency_jitter", "irq.blocking",
                                            "irq.max_rate"]


@pytest.mark.slow
@pytest.mark.rtos
@pytest.mark.parametrize("port", sorted(TREES))
def test_rtos_qemu(tmp_path: Path, port: str) -> None:
    tree = _tree(port)
    parsed = _qemu_twice(tmp_path, port, {port: tree})
    _check_latency(parsed, with_tasks=True)
    rtos_hz, _ = _check_max_rate(parsed, tasks=1)
    if port == "ucos2":
        # One task per priority, no yield: the hammers cannot take turns.
        blocking = parsed.case("irq.blocking")
        assert blocking.status == "unsupported" and "no yield" in blocking.reason
    else:
        # uC/OS-III's tick handler (OSIntEnter, OSTimeTick, OSIntExit, at the
        # periodic timer's priority) is longer than any of its critical
        # sections: the tail of either series is collisions with the tick and
        # its minimum differs by one timer tick with the interrupted code, so
        # loaded and idle figures are checked for shape, not compared.
        _check_blocking(parsed, "periodic", compare=port != "ucos3")
    # The task form is never faster than the no-task floor: the same handler
    # plus a kernel call and a task switch per event.
    floor = _qemu_twice(tmp_path / "floor", "baremetal", {})
    floor_hz, _ = _check_max_rate(floor, tasks=0)
    assert rtos_hz < floor_hz


@pytest.mark.slow
def test_posix_host(tmp_path: Path) -> None:
    """The host has no periodic timer: irq.max_rate is unsupported, saying
    so; irq.blocking falls back to the software trigger from a task."""
    _need("cmake", "ninja", "gcc")
    parsed = parse_named(_run_irq(tmp_path, "posix", "host", {}))
    assert parsed.complete and not parsed.errors
    rate = parsed.case("irq.max_rate")
    assert rate.status == "unsupported"
    if parsed.config.get("sched", "").startswith("SCHED_OTHER"):
        # No real priorities here: the port withdrew THREAD and IRQ, and said why.
        assert parsed.case("irq.latency").reason.startswith("port lacks IRQ")
        return
    assert rate.reason == "the target has no periodic timer interrupt (rm_target_periodic_start)"
    _check_latency(parsed, with_tasks=True)
    _check_blocking(parsed, "software")
