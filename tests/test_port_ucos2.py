"""The µC/OS-II port (ports/ucos2), built against a real uC-OS2 tree and run
for real on QEMU: every group on MPS2-AN386 (twice: bit-identical streams),
the vendor profile on the Cortex-M7, and the Cortex-M0 (micro:bit).

Needs the tree in RTOSMETER_UCOS2 (CI has none: the tests skip, saying so).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from rtos_ports import check_streams, need, run_port, tree_marks
from ucos_ports import run_an386, run_m0, signal_wait_kinds

from rtosmeter.catalog import Catalog, load_catalog
from rtosmeter.definitions import project_root

TREE = os.environ.get("RTOSMETER_UCOS2", "")
# µC/OS-II gives every task its own priority: no yield, reported so.
NO_YIELD = {"lat.yield": "no yield in uC/OS-II", "tm.cooperative": "no yield in uC/OS-II"}

pytestmark = tree_marks("RTOSMETER_UCOS2", "Source/ucos_ii.h",
                        "https://github.com/weston-embedded/uC-OS2")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(project_root())


def test_an386_all_cases_and_deterministic(tmp_path: Path, catalog: Catalog) -> None:
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    streams = run_an386(tmp_path, "ucos2", TREE, catalog, NO_YIELD)
    cfg = streams["tm_sched"].config
    assert cfg["kernel"].startswith("uC/OS-II V2.")
    assert (cfg["ucos.arch"], cfg["kernel_profile"], cfg["arg_checking"], cfg["stat_task"]) == (
        "ARMv7-M", "default", "off", "off")
    for case_id in NO_YIELD:
        group = "tm_sched" if case_id.startswith("tm.") else "lat_thread"
        case = next(c for c in streams[group].cases if c.id == case_id)
        assert case.status == "unsupported" and "no yield" in case.reason, case
    # Mailboxes, queues, LIFO queues, event flags, semaphores, mutexes.
    assert signal_wait_kinds(streams["signal_wait"]) == {
        "sem", "mutex", "event", "mailbox", "queue", "lifo"}
    # µC/OS-II resumes a task from a handler (µC/OS-III cannot).
    isr = next(c for c in streams["lat_isr"].cases if c.id == "lat.isr.to_task")
    assert isr.status == "ok" and isr.series


def test_vendor_profile(tmp_path: Path, catalog: Catalog) -> None:
    """The template's settings (argument checks, statistics task with stack
    checks, timer task, hooks, debug variables) on the Cortex-M7: every
    group runs to the end and every case passes."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    raw = run_port(tmp_path, "ucos2", "qemu-mps2-an500", TREE, profile="vendor")
    streams = check_streams(raw, catalog, "ucos2", NO_YIELD)
    cfg = streams["tm_sched"].config
    assert (cfg["kernel_profile"], cfg["arg_checking"], cfg["stat_task"], cfg["timer_task"],
            cfg["stack_checking"]) == ("vendor", "on", "on", "on", "on (statistics task)")


def test_cortex_m0(tmp_path: Path, catalog: Catalog) -> None:
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    streams = run_m0(tmp_path, "ucos2", TREE, catalog, NO_YIELD)
    assert streams["tm_sched"].config["priority_band"] == "4"
