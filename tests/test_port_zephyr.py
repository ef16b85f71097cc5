"""The Zephyr port (ports/zephyr), built against a real Zephyr tree with
Zephyr's own CMake (one application per target and profile, one firmware per
group) and run for real: on QEMU MPS2-AN385 (Zephyr's mps2_an385; twice, to
check that the streams are bit-identical under -icount), on MPS2-AN386
through the port's own Cortex-M4F board and SoC, in the "vendor" profile
(the board as Zephyr ships it), and on the host as Zephyr's native_sim_64 (a
functional check: its timings are void).

Needs the tree in RTOSMETER_ZEPHYR and the CMSIS module next to it (a west
workspace, `rtosmeter sources fetch zephyr`, or RTOSMETER_ZEPHYR_MODULES);
CI has none: the tests skip, saying so.
"""

from __future__ import annotations

import math
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

from rtosmeter.analysis import load_run
from rtosmeter.catalog import Catalog, load_catalog
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import project_root
from rtosmeter.reports import markdown
from rtosmeter.store import Store

TREE = os.environ.get("RTOSMETER_ZEPHYR", "")

pytestmark = tree_marks("RTOSMETER_ZEPHYR", "kernel/sched.c",
                        "https://github.com/zephyrproject-rtos/zephyr --branch v3.5.0, "
                        "or run `rtosmeter sources fetch zephyr`")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(project_root())


def test_an385_all_cases_and_deterministic(tmp_path: Path, catalog: Catalog) -> None:
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm", "dtc")
    first = run_port(tmp_path, "zephyr", "qemu-mps2-an385", TREE)
    streams = check_streams(first, catalog, "zephyr")
    cfg = streams["tm_sched"].config
    assert cfg["kernel"].startswith("Zephyr ")
    assert (cfg["zephyr_board"], cfg["time_slicing"], cfg["assertions"], cfg["mpu"],
            cfg["tick_hz"], cfg["tickless"]) == ("mps2_an385", "off", "off", "off", "1000", "off")
    case_passes(streams["tm_sched"], "tm.cooperative")
    case_passes(streams["lat_ipc"], "lat.mutex.inheritance")
    case_passes(streams["tm_interrupt"], "tm.interrupt")
    # Every IPC kind Zephyr has ran its four scenarios.
    sw = {c.id: c for c in streams["signal_wait"].cases}
    for kind in ("sem", "mutex", "event", "mailbox", "queue", "fifo", "lifo", "stream",
                 "condvar", "poll_signal", "stack"):
        names = set(sw[f"sw.{kind}"].series)
        assert {"s1", "s2", "s3"} <= names, (kind, names)
    # Under -icount the same firmware gives the same stream, byte for byte,
    # counted in exact instructions: Zephyr's link places the plugin's counter
    # word (zephyr_linker_sources, targets/mps2/rm_plugin_counter.ld).
    assert build_folder(tmp_path, "zephyr", "qemu-mps2-an385").name == "quick@instructions"
    assert_reruns_identical(tmp_path, "zephyr", "qemu-mps2-an385", first)
    # Between each measured call and the closing read (the plugin's dbg #0
    # marker): nothing (the FIFO/LIFO/STACK waits' copy-out is in their _rc).
    assert assert_port_measures_alone(
        build_folder(tmp_path, "zephyr", "qemu-mps2-an385")) >= 50


def test_an386_own_board_vendor_profile(tmp_path: Path, catalog: Catalog) -> None:
    """The port's own Cortex-M4F board and SoC, as Zephyr would ship such a
    board (100 Hz tickless, time slicing, MPU, size optimisation in Kconfig):
    every group runs to the end and every case passes but those whose
    properties time slicing breaks."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm", "dtc")
    raw = run_port(tmp_path, "zephyr", "qemu-mps2-an386", TREE, profile="vendor")
    streams = check_streams(raw, catalog, "zephyr", {
        "tm.cooperative": "a time slice can end a thread's turn before it counts"})
    cfg = streams["tm_sched"].config
    assert (cfg["zephyr_board"], cfg["kernel_profile"], cfg["time_slicing"], cfg["mpu"],
            cfg["fpu"]) == ("rm_mps2_an386", "vendor", "on", "on", "on")
    for group, parsed in streams.items():
        assert parsed.complete and not parsed.errors and parsed.fault is None, (group, parsed)


def test_cortex_m0_clock_off_the_timestamp_timer(tmp_path: Path, catalog: Catalog) -> None:
    """qemu-microbit (qemu_cortex_m0 with hal_nordic): the kernel's clock runs
    on SysTick at 16 MHz, leaving nRF51 TIMER0 to the timestamp; a 1 ms sleep
    period then measures 16,000 timer ticks, and the IPC cases pass in 16 KiB."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm", "dtc")
    raw = run_port(tmp_path, "zephyr", "qemu-microbit", TREE,
                   bench="lat.mutex.*,sw.*,lat.jitter.*")
    streams = check_streams(raw, catalog, "zephyr",
                            groups=["lat_ipc", "signal_wait", "lat_jitter"])
    cfg = streams["lat_ipc"].config
    assert (cfg["zephyr_board"], cfg["sys_clock"], cfg["tick_hz"]) == (
        "qemu_cortex_m0", "Cortex-M SysTick", "1000")
    case_passes(streams["lat_ipc"], "lat.mutex.inheritance")
    jitter = next(c for c in streams["lat_jitter"].cases if c.id == "lat.jitter.periodic")
    periods = sorted(jitter.series["period"].samples[1:])
    assert abs(int(periods[len(periods) // 2]) - 16_000) < 160, periods[len(periods) // 2]


def test_native_sim_functional_checks_with_void_timings(tmp_path: Path) -> None:
    """`--target host` builds each group for Zephyr's native_sim_64 (a
    Linux executable per group) and runs it: the cases run and pass their
    checks (the IPC hand-overs, priority inheritance, the benchmark interrupt
    raised on native_sim's interrupt controller), every timing is stored but
    void (no figure in the report), and a case that would hang under
    simulated time (Thread-Metric) ends as unsupported with the reason."""
    need("cmake", "ninja", "gcc", "make", "dtc")
    summary = run_campaign(RunOptions(
        out=tmp_path, ports=("zephyr",), targets=("host",), profile="quick",
        bench="lat.sem.*,lat.mutex.inheritance,lat.isr.*,lat.thread.lifecycle,tm.sync",
        sources={"zephyr": Path(TREE)}, jobs=2, quiet=True))
    with Store.open(tmp_path / "rtosmeter.sqlite") as store:
        execs = {e.group: e for e in store.executions(summary.run_id)}
        assert set(execs) == {"lat_ipc", "lat_isr", "lat_lifecycle", "tm_ipc"}
        assert all(e.status == "ok" and e.exit_code == 0 for e in execs.values()), execs
        assert (tmp_path / "build" / "zephyr" / "host" / "quick" / "rm_lat_ipc").is_file()
        view = load_run(store, summary.run_id)
    cases = {c.case_id: c for c in view.cases}
    for cid in ("lat.sem.nocs", "lat.sem.pass", "lat.mutex.inheritance", "lat.isr.entry",
                "lat.isr.to_task", "lat.isr.return", "lat.thread.lifecycle"):
        case = cases[cid]
        assert case.status == "ok" and all(ch.ok for ch in case.checks), (cid, case.checks)
        assert case.timing_void.startswith("native_sim's simulated time stands still"), cid
        assert case.distributions and all(d.n > 0 and math.isnan(d.p50)
                                          for d in case.distributions), cid
    assert cases["lat.mutex.inheritance"].checks  # medium did not run, low inherited
    sync = cases["tm.sync"]
    assert sync.status == "unsupported" and "native_sim" in sync.reason, sync.reason
    report = markdown.render(view)
    assert "not meaningful" in report and "lat.isr.to_task" in report
