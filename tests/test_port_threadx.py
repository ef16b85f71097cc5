"""The ThreadX port (ports/threadx), built against a real Eclipse ThreadX tree
with ThreadX's own CMake and run for real: on QEMU MPS2-AN386 (twice, to check
that the streams are bit-identical under -icount), on the host through
ThreadX's Linux port, and in the "vendor" kernel profile on the Cortex-M3
(MPS2-AN385) through the build contract directly.

Needs the tree in RTOSMETER_THREADX (CI has none: the tests skip, saying so).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from rtos_ports import (
    assert_port_measures_alone,
    assert_tm_loops_call_layer,
    build_folder,
    case_passes,
    check_streams,
    need,
    run_port,
    tree_marks,
)

from rtosmeter.catalog import Catalog, load_catalog
from rtosmeter.definitions import project_root

TREE = os.environ.get("RTOSMETER_THREADX", "")

pytestmark = tree_marks("RTOSMETER_THREADX", "common/inc/tx_api.h",
                        "https://github.com/eclipse-threadx/threadx")


def _tree_version() -> str:
    """MAJOR.MINOR.PATCH from the tree's tx_api.h, read independently of the port."""
    text = (Path(TREE) / "common" / "inc" / "tx_api.h").read_text(errors="replace")
    parts = [re.search(rf"THREADX_{p}_VERSION\s+(\d+)", text) for p in ("MAJOR", "MINOR", "PATCH")]
    assert all(parts)
    return ".".join(m.group(1) for m in parts if m)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(project_root())


def test_qemu_all_cases_and_deterministic(tmp_path: Path, catalog: Catalog) -> None:
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    first = run_port(tmp_path / "a", "threadx", "qemu-mps2-an386", TREE)
    streams = check_streams(first, catalog, "threadx")
    sched = streams["tm_sched"]
    cfg = sched.config
    assert cfg["threadx.version"] == _tree_version()
    assert (cfg["threadx.arch"], cfg["threadx.profile"], cfg["threadx.error_checking"],
            cfg["tick_hz"]) == ("cortex_m4", "benchmark", "off", "1000")
    case_passes(sched, "tm.cooperative")
    case_passes(sched, "tm.preemptive")
    case_passes(streams["lat_ipc"], "lat.mutex.inheritance")
    # Between each measured call (the heap's too) and the closing read: nothing.
    assert assert_port_measures_alone(
        build_folder(tmp_path / "a", "threadx", "qemu-mps2-an386")) >= 34
    # tm.* by Thread-Metric's rules: every loop calls out into its porting layer.
    assert assert_tm_loops_call_layer(build_folder(tmp_path / "a", "threadx",
                                                   "qemu-mps2-an386")) == 9
    # Under -icount the same firmware gives the same stream, byte for byte.
    second = run_port(tmp_path / "b", "threadx", "qemu-mps2-an386", TREE)
    assert set(first) == set(second)
    for group, data in first.items():
        assert data == second[group], f"{group}: the two QEMU runs differ"


def test_host_linux_port(tmp_path: Path, catalog: Catalog) -> None:
    need("cmake", "ninja", "gcc")
    streams = check_streams(run_port(tmp_path, "threadx", "host", TREE), catalog, "threadx")
    assert streams["tm_sched"].config["threadx.arch"] == "linux"
    # The simulated interrupt (tx_isr_linux.c) really preempts: the handler
    # resumes a more urgent thread, and every count agrees.
    case_passes(streams["tm_interrupt"], "tm.interrupt_preempt")


def test_vendor_profile(tmp_path: Path, catalog: Catalog) -> None:
    """`--profile vendor` builds ThreadX as shipped (error checking, 100 Hz
    tick, timer thread) on the Cortex-M3; the scheduling and IPC groups run to
    the end and pass."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    groups = ["tm_sched", "lat_ipc", "lat_thread"]
    raw = run_port(tmp_path, "threadx", "qemu-mps2-an385", TREE, profile="vendor",
                   bench="tm.cooperative,tm.preemptive,lat.sem.*,lat.queue.*,lat.mutex.*,"
                         "lat.suspend_resume,lat.yield")
    streams = check_streams(raw, catalog, "threadx", groups=groups)
    cfg = streams["tm_sched"].config
    assert (cfg["threadx.arch"], cfg["threadx.profile"], cfg["threadx.error_checking"],
            cfg["threadx.timer"], cfg["tick_hz"]) == (
        "cortex_m3", "vendor", "on", "timer thread", "100")


def test_cortex_m0(tmp_path: Path, catalog: Catalog) -> None:
    """ThreadX's cortex_m0 port on the micro:bit (16 KiB of RAM: six threads,
    the runner on its own larger stack)."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    raw = run_port(tmp_path, "threadx", "qemu-microbit", TREE, bench="lat.mutex.*,sw.*,tm.*")
    streams = check_streams(raw, catalog, "threadx",
                            groups=["lat_ipc", "signal_wait", "tm_basic", "tm_interrupt",
                                    "tm_ipc", "tm_sched"])
    cfg = streams["lat_ipc"].config
    assert (cfg["threadx.arch"], cfg["threadx.runner_stack_bytes"]) == ("cortex_m0", "1024")
    case_passes(streams["lat_ipc"], "lat.mutex.inheritance")
    case_passes(streams["tm_sched"], "tm.preemptive")
