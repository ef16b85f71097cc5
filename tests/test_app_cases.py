"""The application benchmarks (bench/cases/app_sampling.c,
app_schedulability.c; docs/benchmarks.md §5), built and run for real:
bare metal on QEMU MPS2-AN386 and POSIX on the host always (what they cannot
run is unsupported, with the reason), FreeRTOS and ThreadX on QEMU when their
trees are given (RTOSMETER_FREERTOS, RTOSMETER_THREADX; skipped otherwise).
The assertions are properties of what the firmware measured: no sample lost
up to the reported rate and some lost above it, idle time that shrinks as
the rate rises, Hartstone steps of rising utilisation with no miss before
the breakdown and a breakdown utilisation below 100 %."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rtosmeter import reports
from rtosmeter.commands.report import load_view
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.model import CaseResult

TARGET = "qemu-mps2-an386"
TREES = {"freertos": ("RTOSMETER_FREERTOS", "tasks.c"),
         "threadx": ("RTOSMETER_THREADX", "common/inc/tx_api.h")}


def _need(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is required: run scripts/install.sh")


def _run(out: Path, port: str, target: str, bench: str,
         sources: dict[str, Path] | None = None) -> dict[str, CaseResult]:
    summary = run_campaign(RunOptions(out=out, ports=(port,), targets=(target,), bench=bench,
                                      profile="quick", sources=sources or {}, jobs=2,
                                      quiet=True))
    assert summary.failed == 0 and summary.builds_failed == 0
    view = load_view(out, str(summary.run_id))
    return {c.case_id: c for c in view.cases}


@pytest.mark.slow
def test_baremetal_has_no_tasks(tmp_path: Path) -> None:
    _need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    cases = _run(tmp_path, "baremetal", TARGET, "app.*")
    for cid in ("app.sampling", "app.schedulability"):
        assert cases[cid].status == "unsupported"
        assert cases[cid].reason.startswith("port lacks THREAD")


@pytest.mark.slow
def test_posix_has_no_periodic_timer(tmp_path: Path) -> None:
    _need("cmake", "ninja", "gcc")
    case = _run(tmp_path, "posix", "host", "app.sampling")["app.sampling"]
    assert case.status == "unsupported"
    assert "periodic timer" in case.reason or case.reason.startswith("port lacks")


def _check_sampling(c: CaseResult) -> int:
    assert c.status == "ok", c.reason
    best = int(c.meta["max_rate_hz"])
    assert c.meta["loss_found"] == "1"
    rates, lost = c.counts["rate_hz"], c.counts["lost"]
    assert all(n == 0 for r, n in zip(rates, lost, strict=True) if r <= best)
    assert all(n > 0 for r, n in zip(rates, lost, strict=True) if r > best)
    idle = {r: i / w for r, i, w in zip(rates, c.counts["idle_ticks"], c.counts["window_ticks"],
                                        strict=True)}
    assert 0.9 < idle[1000] <= 1.0 and idle[10000] < idle[1000]
    handler = next(d for d in c.distributions if d.series == "handler.1000hz")
    assert 0 < handler.p50 <= handler.max
    return best


def _check_hartstone(c: CaseResult) -> None:
    assert c.status == "ok", c.reason
    for exp in ("ph.frequency", "ph.workload", "ph.tasks", "pn.workload", "ah.workload",
                "sh.workload"):
        util, missed = c.counts[f"{exp}.util_bp"], c.counts[f"{exp}.missed"]
        breakdown = int(c.meta[f"{exp}.breakdown_bp"])
        assert c.meta[f"{exp}.broke"] == "1"
        assert 2000 <= breakdown < 10000, (exp, breakdown)
        # every step at or below the breakdown met its deadlines
        assert all(m == 0 for u, m in zip(util, missed, strict=True) if u <= breakdown)
        assert any(m > 0 for m in missed)


@pytest.mark.rtos
@pytest.mark.parametrize("port", sorted(TREES))
def test_rtos_qemu(tmp_path: Path, port: str) -> None:
    env, probe = TREES[port]
    tree = os.environ.get(env, "")
    if not tree or not (Path(tree) / probe).is_file():
        pytest.skip(f"{env} is not set to a {port} tree (needed to build the {port} port)")
    _need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    cases = _run(tmp_path, port, TARGET, "app.*", {port: Path(tree)})
    best = _check_sampling(cases["app.sampling"])
    _check_hartstone(cases["app.schedulability"])
    text = reports.render(load_view(tmp_path, "latest"), "md", "load")
    assert f"| {port}/{TARGET}/quick | {best} |" in text
