"""The RT-Thread port (ports/rtthread), built against a real RT-Thread tree
(RT-Thread Nano 4.1.1's rt-thread/ folder, or the full repository) and run
for real under QEMU: the thread, latency and signal/wait groups on
MPS2-AN386 (twice, to check that the streams are bit-identical under
-icount), the "vendor" profile (the Nano template's rtconfig.h: components
initialisation, user main, 256-byte main stack) on the Cortex-M7, and the
Cortex-M0 (micro:bit).

RT-Thread 4.1.1's rt_thread_yield does not rotate more than two threads of
one priority (rt_schedule clears the yielding thread's YIELD flag before
rt_schedule_insert_thread looks at it, so the thread goes back to the head
of its ready list: RT-Thread issues #8050 and #6820, pull request #8142).
tm.cooperative reports it as a failed check, which these tests require (an
RT-Thread that rotates fairly would make them fail: then drop the
exception). The irq group's busy-task series (irq.latency@4: four yielding
tasks, the first of which never runs again) hang on it until the runner's
guest-time limit, so the tests leave the irq group out.

`lowpower`: the idle thread's hook (rt_thread_idle_sethook) executes WFI;
RT-Thread has no tickless kernel, so its 1 kHz tick wakes it.

Needs the tree in RTOSMETER_RTTHREAD (CI has none: the tests skip, saying so).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from lowpower_idle import lowpower_idle
from rtos_ports import (
    assert_port_measures_alone,
    assert_reruns_identical,
    build_folder,
    case_passes,
    check_streams,
    need,
    run_port,
    tree_marks,
)

from rtosmeter.catalog import Catalog, load_catalog
from rtosmeter.definitions import project_root
from rtosmeter.protocol import ParsedStream

TREE = os.environ.get("RTOSMETER_RTTHREAD", "")
QEMU_TARGET = "qemu-mps2-an386"
NOT_IRQ = "[aclst]*,idle.*"  # every case but irq.* (see the module's docstring)
YIELD_BUG = {"tm.cooperative": "RT-Thread 4.1.1 rt_thread_yield rotates two threads only"}

pytestmark = tree_marks("RTOSMETER_RTTHREAD", "src/thread.c",
                        "https://github.com/RT-Thread/rtthread-nano and point it at rt-thread/")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(project_root())


def _groups(catalog: Catalog) -> list[str]:
    return [g for g in catalog.groups if g != "irq"]


def _yield_bug_shows(parsed: ParsedStream) -> None:
    coop = next(c for c in parsed.cases if c.id == "tm.cooperative")
    assert coop.status == "failed", coop
    spread = next(ch for ch in coop.checks if ch.name == "counters_within_1_of_mean")
    assert not spread.ok and spread.got > 100, spread
    # Only two of the five threads ever counted.
    firsts = [c.value for c in coop.counts if c.period == 1 and c.name != "total"]
    assert sorted(v > 0 for v in firsts) == [False, False, False, True, True], firsts


def test_qemu_cases_and_deterministic(tmp_path: Path, catalog: Catalog) -> None:
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    first = run_port(tmp_path, "rtthread", QEMU_TARGET, TREE, bench=NOT_IRQ)
    streams = check_streams(first, catalog, "rtthread", YIELD_BUG, _groups(catalog))
    cfg = streams["tm_sched"].config
    assert cfg["kernel"].startswith("RT-Thread 4.")
    assert (cfg["time_slicing"], cfg["assertions"], cfg["components_init"]) == (
        "off (endless slice)", "off", "off")
    _yield_bug_shows(streams["tm_sched"])
    case_passes(streams["tm_sched"], "tm.preemptive")
    case_passes(streams["tm_interrupt"], "tm.interrupt_preempt")
    case_passes(streams["lat_ipc"], "lat.mutex.inheritance")
    sw = {c.id: c for c in streams["signal_wait"].cases}
    for kind in ("sem", "mutex", "event", "mailbox", "queue"):
        assert sw[f"sw.{kind}"].status == "ok", sw[f"sw.{kind}"]
    assert_reruns_identical(tmp_path, "rtthread", QEMU_TARGET, first)
    # Between each measured call and the closing read: nothing.
    assert assert_port_measures_alone(build_folder(tmp_path, "rtthread", QEMU_TARGET)) >= 35


def test_vendor_profile(tmp_path: Path, catalog: Catalog) -> None:
    """`--profile vendor`: RT-Thread's own start-up with components
    initialisation (the .rti_fn table kept by rtthread_sections.ld) and the
    template's 256-byte main thread, 20-tick time slices."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    raw = run_port(tmp_path, "rtthread", "qemu-mps2-an500", TREE, profile="vendor",
                   bench=NOT_IRQ)
    streams = check_streams(raw, catalog, "rtthread", YIELD_BUG, _groups(catalog))
    cfg = streams["tm_sched"].config
    assert (cfg["kernel_profile"], cfg["components_init"], cfg["time_slicing"]) == (
        "vendor", "on", "on (20 ticks per thread)")


def test_cortex_m0(tmp_path: Path, catalog: Catalog) -> None:
    """libcpu/arm/cortex-m0 on the micro:bit, with Nano 4.1.1's PendSV exit
    value corrected in the build copy (CFG rtthread_patch): without it QEMU
    faults at the first context switch. 16 KiB of RAM stop
    lat.thread.lifecycle at 10 other threads (a creation failure)."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    raw = run_port(tmp_path, "rtthread", "qemu-microbit", TREE, bench=NOT_IRQ)
    streams = check_streams(raw, catalog, "rtthread", {
        **YIELD_BUG, "lat.thread.lifecycle": "RAM: 10 other threads do not fit in 16 KiB"},
        _groups(catalog))
    cfg = streams["tm_sched"].config
    assert cfg["rtthread_cpu"] == "cortex-m0" and "0xFFFFFFFD" in cfg["rtthread_patch"]
    _yield_bug_shows(streams["tm_sched"])
    case_passes(streams["tm_interrupt"], "tm.interrupt_preempt")


def test_lowpower_idle_hook_sleeps(tmp_path: Path) -> None:
    """`--profile lowpower`: the idle hook's WFI sleeps between ticks; every
    tick (1 kHz, no tickless kernel) and every sample wakes it. Twice: the
    idle figures are identical."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    first = lowpower_idle(tmp_path, "rtthread", QEMU_TARGET, TREE)
    assert lowpower_idle(tmp_path, "rtthread", QEMU_TARGET, TREE) == first
    idle = first["idle.system@1s"]
    assert 0.99 < idle.residency < 1.0, idle
    assert dict(idle.wake_causes) == {"tick": 1000} and idle.wakeups == 1000, idle
    for hz in (100, 200, 1000):
        f = first[f"idle.sampling@{hz}hz"]
        causes = dict(f.wake_causes)
        # each tick and each sample wakes it, but those that fall together
        assert set(causes) == {"tick", "timer"} and hz - 2 <= causes["timer"] <= hz, f
        assert 900 <= causes["tick"] <= 1000, f
        assert f.wakeups == sum(causes.values()), f
        assert 0.97 < f.residency < 1.0, f
