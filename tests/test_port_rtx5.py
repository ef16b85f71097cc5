"""The CMSIS-RTX5 port (ports/rtx5), built against real CMSIS-RTX and CMSIS 6
trees and run for real under QEMU: every case on MPS2-AN386 (twice, to check
that the streams are bit-identical under -icount), the "vendor" profile
(round-robin and stack check on, as RTX_Config.h's template ships them) on
the Cortex-M7, and the Cortex-M0 (micro:bit, 16 KiB of RAM).

Needs the CMSIS-RTX tree in RTOSMETER_RTX5 and CMSIS 6 in RTOSMETER_CMSIS6 or
next to it as CMSIS_6 / cmsis6 (CI has neither: the tests skip, saying so).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
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
from rtosmeter.protocol import parse_stream

TREE = os.environ.get("RTOSMETER_RTX5", "")
QEMU_TARGET = "qemu-mps2-an386"


def _cmsis6_found() -> bool:
    """The lookup of ports/rtx5/port.cmake: $RTOSMETER_CMSIS6, else a CMSIS 6
    folder next to the CMSIS-RTX tree or inside it."""
    probe = Path("CMSIS/RTOS2/Include/cmsis_os2.h")
    env = os.environ.get("RTOSMETER_CMSIS6", "")
    if env:
        return (Path(env) / probe).is_file()
    if not TREE:
        return False
    tree = Path(TREE)
    names = ("CMSIS_6", "cmsis6", "CMSIS6", "cmsis_6")
    return any((base / n / probe).is_file() for base in (tree.parent, tree) for n in names)


pytestmark = [
    *tree_marks("RTOSMETER_RTX5", "Source/rtx_kernel.c",
                "https://github.com/ARM-software/CMSIS-RTX"),
    pytest.mark.skipif(not _cmsis6_found(),
                       reason="RTOSMETER_CMSIS6 is not set to a CMSIS 6 tree and none lies "
                              "next to RTOSMETER_RTX5 (git clone "
                              "https://github.com/ARM-software/CMSIS_6)"),
]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(project_root())


def test_qemu_all_cases_and_deterministic(tmp_path: Path, catalog: Catalog) -> None:
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    first = run_port(tmp_path, "rtx5", QEMU_TARGET, TREE)
    streams = check_streams(first, catalog, "rtx5")
    cfg = streams["tm_sched"].config
    assert cfg["kernel"].startswith("RTX V5.")
    assert (cfg["time_slicing"], cfg["stack_check"], cfg["kernel_profile"]) == (
        "off", "off", "default")
    case_passes(streams["tm_sched"], "tm.cooperative")
    case_passes(streams["tm_sched"], "tm.preemptive")
    case_passes(streams["lat_ipc"], "lat.mutex.inheritance")
    # Every IPC kind RTX5 has runs the four signal/wait scenarios.
    sw = {c.id: c for c in streams["signal_wait"].cases}
    for kind in ("sem", "mutex", "event", "queue", "thread_flags"):
        assert sw[f"sw.{kind}"].status == "ok", sw[f"sw.{kind}"]
    assert sw["sw.mailbox"].status == "unsupported"
    assert_reruns_identical(tmp_path, "rtx5", QEMU_TARGET, first)
    # Between each measured call and the closing read: nothing.
    assert assert_port_measures_alone(build_folder(tmp_path, "rtx5", QEMU_TARGET)) >= 35


def test_vendor_profile(tmp_path: Path, catalog: Catalog) -> None:
    """`--profile vendor` builds RTX_Config.h's template values (round-robin
    with a 5-tick slice, stack overflow check at each switch) on the
    Cortex-M7: every group runs to the end without osRtxErrorNotify firing
    (it would end the stream with a FAULT) and every case passes but, at
    times, tm.cooperative, whose within-1 property round-robin can break (a
    slice can end a thread's turn before it counts; FreeRTOS's vendor profile
    shows the same)."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    streams = check_streams(run_port(tmp_path, "rtx5", "qemu-mps2-an500", TREE,
                                     profile="vendor"), catalog, "rtx5",
                            {"tm.cooperative": "round-robin can end a turn before it counts"})
    cfg = streams["tm_sched"].config
    assert (cfg["kernel_profile"], cfg["time_slicing"], cfg["stack_check"]) == (
        "vendor", "on (round-robin, 5 ticks)", "on (at each switch)")


def test_cortex_m0(tmp_path: Path, catalog: Catalog) -> None:
    """The ARMv6-M port (irq_armv6m.S) on the micro:bit. 16 KiB of RAM leave
    RTX 6.25 KiB of dynamic memory (tm_basic's 4 KiB array must fit beside
    it): about ten threads of 384-byte stacks, so lat.thread.lifecycle
    measures 0 and 5 other threads and stops at 10 with a creation failure
    (reported, never a hang or a fault)."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    raw = run_port(tmp_path, "rtx5", "qemu-microbit", TREE)
    streams = check_streams(raw, catalog, "rtx5", {
        "lat.thread.lifecycle": "RAM: 10 other threads do not fit in 16 KiB"})
    life = next(c for c in parse_stream(raw["lat_lifecycle"]).cases
                if c.id == "lat.thread.lifecycle")
    assert life.status == "failed" and "rm_thread_create" in life.reason
    assert {"create", "create@5"} <= {s.name for s in life.series.values()}
    case_passes(streams["tm_sched"], "tm.preemptive")
    case_passes(streams["tm_interrupt"], "tm.interrupt")
