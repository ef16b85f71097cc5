"""The FreeRTOS port (ports/freertos), built against a real FreeRTOS-Kernel
tree with the kernel's own CMake and run for real: on QEMU MPS2-AN386 (twice,
to check that the streams are bit-identical under -icount), on the host
through FreeRTOS's POSIX port, and in the "vendor" kernel profile on the
Cortex-M7.

Needs the tree in RTOSMETER_FREERTOS (CI has none: the tests skip, saying so).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _datahalf import parse_named
from rtos_ports import (
    assert_port_measures_alone,
    assert_reruns_identical,
    assert_tm_loops_call_layer,
    build_folder,
    case_passes,
    check_streams,
    need,
    run_port,
    tree_marks,
)

from rtosmeter import reports
from rtosmeter.catalog import Catalog, load_catalog
from rtosmeter.commands.report import load_view
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import project_root

TREE = os.environ.get("RTOSMETER_FREERTOS", "")
QEMU_TARGET = "qemu-mps2-an386"

pytestmark = tree_marks("RTOSMETER_FREERTOS", "tasks.c",
                        "https://github.com/FreeRTOS/FreeRTOS-Kernel")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(project_root())


def test_qemu_all_cases_and_deterministic(tmp_path: Path, catalog: Catalog) -> None:
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    first = run_port(tmp_path, "freertos", QEMU_TARGET, TREE)
    streams = check_streams(first, catalog, "freertos")
    cfg = streams["tm_sched"].config
    assert cfg["kernel"].startswith("FreeRTOS V")
    assert (cfg["freertos_port"], cfg["time_slicing"], cfg["assertions"]) == (
        "GCC_ARM_CM4F", "off", "off")
    case_passes(streams["tm_sched"], "tm.cooperative")
    case_passes(streams["lat_ipc"], "lat.mutex.inheritance")
    assert_reruns_identical(tmp_path, "freertos", QEMU_TARGET, first)
    # Between each measured call and the closing read: nothing.
    assert assert_port_measures_alone(build_folder(tmp_path, "freertos", QEMU_TARGET)) >= 47
    # tm.* by Thread-Metric's rules: every loop calls out into its porting layer.
    assert assert_tm_loops_call_layer(build_folder(tmp_path, "freertos", QEMU_TARGET)) == 9


def test_qemu_jitter_has_no_write_inside_its_periods(tmp_path: Path) -> None:
    """lat.jitter.periodic writes its series only between its measurements
    (issue 27 §3): under the default profile (1,000 samples, records of 256)
    no period and no deviation stands out, at a record boundary or anywhere.
    Before, the 256-sample record written at samples 256, 512 and 768 lay
    inside the next period: ~100,000 instructions (six ticks) there, and the
    deviations after it caught up one tick at a time."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    raw = run_port(tmp_path, "freertos", QEMU_TARGET, TREE, profile="default",
                   bench="lat.jitter.periodic")
    parsed = parse_named(raw["lat_jitter"])
    assert parsed.complete and not parsed.errors, parsed.errors
    case = parsed.case("lat.jitter.periodic")
    assert case.status == "ok", case.reason
    batch, tick = int(parsed.header["batch"]), int(case.meta["ideal_period_ts"])
    period, dev = case.series["period"].samples, case.series["deviation"].samples
    assert len(period) == len(dev) == 1000 > 3 * batch
    # The bound: a 32nd of the tick (~490 instructions at 1 kHz) above it for a
    # period and off the ideal for a deviation. The kernel's own spread under
    # the B/C load is ~150 instructions; a write takes six ticks.
    slack = tick // 32
    boundary = {i: (period[i], dev[i]) for i in range(batch, len(period), batch)}
    assert all(p <= tick + slack and d <= slack for p, d in boundary.values()), boundary
    assert max(period[1:]) <= tick + slack and max(dev) <= slack, (max(period[1:]), max(dev))


def test_host_posix_port(tmp_path: Path, catalog: Catalog) -> None:
    need("cmake", "ninja", "gcc")
    # FreeRTOS hands the turn of a thread that the reporter preempted before
    # it counted to the next equal-priority thread (the ready list's index has
    # moved on); on the host that window is wide, so the within-1 check of
    # tm.cooperative fails at random there. Under QEMU it is exact per build.
    host_exceptions = {"tm.cooperative": "preempted turn skipped; random on the host"}
    streams = check_streams(run_port(tmp_path, "freertos", "host", TREE), catalog,
                            "freertos", host_exceptions)
    assert streams["tm_sched"].config["freertos_port"] == "GCC_POSIX"


def test_vendor_profile(tmp_path: Path, catalog: Catalog) -> None:
    """`--profile vendor` builds FreeRTOS's shipped checks (configASSERT, stack
    check 2, handler check, time slicing); every group runs to the end on the
    Cortex-M7 without an assertion or stack check firing (they would end the
    stream with a FAULT), and every case passes but tm.cooperative, whose
    within-1 property time slicing breaks (a finding, reported as failed)."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    raw = run_port(tmp_path, "freertos", "qemu-mps2-an500", TREE, profile="vendor")
    streams = check_streams(raw, catalog, "freertos", {
        "tm.cooperative": "a time slice can end a thread's turn before it counts"})
    cfg = streams["tm_sched"].config
    assert (cfg["kernel_profile"], cfg["time_slicing"], cfg["assertions"],
            cfg["stack_overflow_check"], cfg["freertos_port"]) == (
        "vendor", "on", "on (configASSERT)", "2", "GCC_ARM_CM4F")


V9_TREE = os.environ.get("RTOSMETER_FREERTOS_V9", "")


@pytest.mark.skipif(not (Path(V9_TREE) / "tasks.c").is_file(), reason=(
    "RTOSMETER_FREERTOS_V9 is not set to a FreeRTOS V9.0.0 kernel tree (git archive V9.0.0 "
    "FreeRTOS/Source of FreeRTOS-Kernel)"))
def test_versions_side_by_side(tmp_path: Path) -> None:
    """`--source freertos@V9.0.0=... --source freertos=...`: two systems, each
    built from its own tree (V9 without CMake), stored and reported apart, in
    version order; V9 withdraws what it lacks and names its version."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    summary = run_campaign(RunOptions(
        out=tmp_path, ports=("freertos",), targets=(QEMU_TARGET,), profile="quick",
        bench="sw.*", sources={"freertos@V9.0.0": Path(V9_TREE), "freertos": Path(TREE)},
        jobs=2, quiet=True))
    view = load_view(tmp_path, str(summary.run_id))
    builds = {b.port: b for b in view.builds}
    assert set(builds) == {"freertos", "freertos@V9.0.0"}
    assert builds["freertos@V9.0.0"].config["rtos_version"] == "V9.0.0"
    assert builds["freertos@V9.0.0"].config["kernel"] == "FreeRTOS V9.0.0"
    cases = {(c.port, c.case_id): c for c in view.cases}
    for kind in ("stream", "msgbuf", "thread_flags"):
        old = cases[("freertos@V9.0.0", f"sw.{kind}")]
        assert old.status == "unsupported" and "FreeRTOS V9.0.0 has" in old.reason, old
        assert cases[("freertos", f"sw.{kind}")].status == "ok"
    for kind in ("sem", "queue", "event", "notify"):
        assert cases[("freertos@V9.0.0", f"sw.{kind}")].status == "ok"
    assert (tmp_path / "build" / "freertos@V9.0.0" / QEMU_TARGET).is_dir()
    table = reports.render(view, "markdown")
    header = next(line for line in table.splitlines() if line.startswith("| case |"))
    assert header.index("freertos@V9.0.0") > header.index("| freertos ")


def test_cortex_m0(tmp_path: Path, catalog: Catalog) -> None:
    """GCC_ARM_CM0 on the micro:bit (16 KiB of RAM: small stacks and heap)."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    raw = run_port(tmp_path, "freertos", "qemu-microbit", TREE, bench="lat.mutex.*,sw.*")
    streams = check_streams(raw, catalog, "freertos", groups=["lat_ipc", "signal_wait"])
    cfg = streams["lat_ipc"].config
    assert (cfg["freertos_port"], cfg["task_selection"]) == ("GCC_ARM_CM0", "generic")
    case_passes(streams["lat_ipc"], "lat.mutex.inheritance")
