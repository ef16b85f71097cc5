"""The lowpower profile on the RTOS ports that have it (docs/idle.md), on
qemu-mps2-an386 with each kernel's real tree: idle.system sleeps the whole
second in the kernel's own idle, woken by the tick a tickless kernel
programs (FreeRTOS, Zephyr, RIOT: two wake-ups) or by every tick (Contiki-NG,
whose clock has no tickless mode: 1000); idle.sampling (the RTOS ports with
threads) wakes once per sample. Runs each port's idle group twice: the
idle figures are identical.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from rtos_ports import run_port

from rtosmeter.idle import IdleFigures, read_idle
from rtosmeter.store import Store

TARGET = "qemu-mps2-an386"
TREES = {"freertos": ("RTOSMETER_FREERTOS", "tasks.c"),
         "zephyr": ("RTOSMETER_ZEPHYR", "kernel/sched.c"),
         "riot": ("RTOSMETER_RIOT", "core/sched.c"),
         "contiki": ("RTOSMETER_CONTIKI", "os/sys/process.c")}
SYSTEM_WAKEUPS = {"freertos": 2, "zephyr": 2, "riot": 2, "contiki": 1000}


def _tree(port: str) -> str:
    env, probe = TREES[port]
    tree = os.environ.get(env, "")
    if not tree or not (Path(tree) / probe).is_file():
        pytest.skip(f"{env} is not set to a {port} tree")
    return tree


def _figures(out: Path, port: str, tree: str) -> dict[str, IdleFigures]:
    run_port(out, port, TARGET, tree, profile="lowpower", bench="idle.*")
    with Store.open(out / "rtosmeter.sqlite") as st:
        run = st.runs()[-1].id
        (windows,) = read_idle(st, run).values()
    return {f.window: f for f in windows}


@pytest.mark.slow
@pytest.mark.rtos
@pytest.mark.parametrize("port", sorted(TREES))
def test_the_kernel_sleeps_through_an_idle_second(tmp_path: Path, port: str) -> None:
    tree = _tree(port)
    first = _figures(tmp_path / "a", port, tree)
    assert _figures(tmp_path / "b", port, tree) == first
    idle = first["idle.system@1s"]
    assert idle.residency > 0.995, idle
    assert idle.wakeups == SYSTEM_WAKEUPS[port], idle
    assert dict(idle.wake_causes) == {"tick": SYSTEM_WAKEUPS[port]}
    if port == "contiki":  # no threads: idle.sampling is unsupported
        assert not any(w.startswith("idle.sampling") for w in first)
        return
    for hz in (100, 200, 1000):
        f = first[f"idle.sampling@{hz}hz"]
        # one wake-up per sample, and at most two of the kernel's own
        assert hz - 2 <= f.wakeups <= hz + 2, f
        assert 0.97 < f.residency < 1.0, f
