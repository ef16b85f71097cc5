"""The lowpower profile on the RTOS ports that have it (docs/idle.md), on
qemu-mps2-an386 with each kernel's real tree: idle.system sleeps the whole
second in the kernel's own idle, woken by the tick a tickless kernel
programs (FreeRTOS, Zephyr, RIOT, ThreadX, RTX5: two wake-ups) or by every
tick (Contiki-NG, µC/OS-II and µC/OS-III, which sleep between ticks: 1000);
idle.sampling (the RTOS ports with threads) wakes once per sample, and on a
ticking kernel once per tick too. Runs each port's idle group twice: the
idle figures are identical.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from rtos_ports import run_port

from rtosmeter.idle.figures import IdleFigures
from rtosmeter.idle.stored import read_idle
from rtosmeter.store import Store

TARGET = "qemu-mps2-an386"
TREES = {"freertos": ("RTOSMETER_FREERTOS", "tasks.c"),
         "zephyr": ("RTOSMETER_ZEPHYR", "kernel/sched.c"),
         "riot": ("RTOSMETER_RIOT", "core/sched.c"),
         "contiki": ("RTOSMETER_CONTIKI", "os/sys/process.c"),
         "threadx": ("RTOSMETER_THREADX", "common/inc/tx_api.h"),
         "rtx5": ("RTOSMETER_RTX5", "Source/rtx_kernel.c"),
         "ucos2": ("RTOSMETER_UCOS2", "Source/ucos_ii.h"),
         "ucos3": ("RTOSMETER_UCOS3", "Source/os.h")}
SYSTEM_WAKEUPS = {"freertos": 2, "zephyr": 2, "riot": 2, "contiki": 1000, "threadx": 2,
                  "rtx5": 2, "ucos2": 1000, "ucos3": 1000}
# Kernels that wake on every tick, and what the tick's wake-up costs them
# (instructions awake per wake-up in an idle second: their idle hook's path).
TICKING = {"ucos2": 250, "ucos3": 250}
# The tickless kernels whose SysTick handling is the port's (tx_low_power_cm.c,
# rtx_tickless.c): each early wake-up loses the counts the SysTick is stopped
# for, so a 1000-tick window at 1000 Hz outlasts 1000 samples (docs/idle.md).
SYSTICK_TICKLESS = {"threadx": 1.002, "rtx5": 1.005}
# ThreadX's low-power utility walks the timer list on every entry and exit:
# its 1000 Hz window spends 6 % awake.
SAMPLING_FLOOR = {"threadx": 0.93, "ucos2": 0.96, "ucos3": 0.96}


# The trees a port's build takes from the environment besides its own.
ALSO = {"rtx5": ("RTOSMETER_CMSIS6",), "ucos3": ("RTOSMETER_UC_CPU", "RTOSMETER_UC_LIB")}


def _tree(port: str) -> str:
    env, probe = TREES[port]
    tree = os.environ.get(env, "")
    if not tree or not (Path(tree) / probe).is_file():
        pytest.skip(f"{env} is not set to a {port} tree")
    for other in ALSO.get(port, ()):
        if not os.environ.get(other):
            pytest.skip(f"{other} is not set (the {port} build needs it)")
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
    assert idle.residency > (0.98 if port in TICKING else 0.995), idle
    assert idle.wakeups == SYSTEM_WAKEUPS[port], idle
    # RTX5's tick that ends a sleep is counted by osKernelResume (its pending
    # interrupt cleared): the first exception after the WFI is that SVC.
    cause = "interrupt" if port == "rtx5" else "tick"
    assert dict(idle.wake_causes) == {cause: SYSTEM_WAKEUPS[port]}
    if port in TICKING:
        assert idle.instructions_awake < TICKING[port] * idle.wakeups, idle
    if port in (*SYSTICK_TICKLESS, *TICKING):
        # 1000 ticks slept from within a tick: the kernel's time kept exact
        # across every sleep (a tick lost or gained is 1 ms either way).
        assert 999_000_000 < idle.window_ns <= 1_000_000_000, idle
    if port == "contiki":  # no threads: idle.sampling is unsupported
        assert not any(w.startswith("idle.sampling") for w in first)
        return
    for hz in (100, 200, 1000):
        f = first[f"idle.sampling@{hz}hz"]
        causes = dict(f.wake_causes)
        if port in (*SYSTICK_TICKLESS, *TICKING):  # each sample's timer interrupt wakes it
            assert sum(causes.values()) == f.wakeups, f
            assert hz - 1 <= causes["timer"] <= hz * SYSTICK_TICKLESS.get(port, 1.0), f
        if port in TICKING:  # every tick too, but where a sample shares its wake-up
            assert 950 <= causes["tick"] <= 1000, f
        elif port in SYSTICK_TICKLESS:  # the sleep's end, a tick pending as the loop re-enters
            assert causes.get(cause, 0) <= hz // 20 + 1, f
        else:  # one wake-up per sample, and at most two of the kernel's own
            assert hz - 2 <= f.wakeups <= hz + 2, f
        assert SAMPLING_FLOOR.get(port, 0.97) < f.residency < 1.0, f
