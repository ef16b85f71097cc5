"""The µC/OS-III port (ports/ucos3), built against real uC-OS3, uC-CPU and
uC-LIB trees and run for real on QEMU: every group on MPS2-AN386 (twice:
bit-identical streams), the vendor profile on the Cortex-M7, the Cortex-M0
(micro:bit), and the search for uC-CPU/uC-LIB; and on the host through the
kernel's POSIX port, with real-time scheduling and without it.

Needs the tree in RTOSMETER_UCOS3 with uC-CPU and uC-LIB beside it (or in
RTOSMETER_UC_CPU / RTOSMETER_UC_LIB); CI has none: the tests skip, saying so.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rtos_ports import case_passes, check_streams, need, run_port, tree_marks
from test_c_core import fifo_denied_prefix
from ucos_ports import run_an386, run_m0, signal_wait_kinds

from rtosmeter.catalog import Catalog, load_catalog
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import Definitions, project_root
from rtosmeter.protocol import parse_stream
from rtosmeter.store import Store

TREE = os.environ.get("RTOSMETER_UCOS3", "")

pytestmark = tree_marks("RTOSMETER_UCOS3", "Source/os.h",
                        "https://github.com/weston-embedded/uC-OS3")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(project_root())


def test_an386_all_cases_and_deterministic(tmp_path: Path, catalog: Catalog) -> None:
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    streams = run_an386(tmp_path, "ucos3", TREE, catalog)
    cfg = streams["tm_sched"].config
    assert cfg["kernel"].startswith("uC/OS-III V3.")
    assert re.fullmatch(r"uC-CPU V1\.\d\d\.\d\d", cfg["uc_cpu"]), cfg["uc_cpu"]
    assert re.fullmatch(r"uC-LIB V1\.\d\d\.\d\d", cfg["uc_lib"]), cfg["uc_lib"]
    assert (cfg["ucos.arch"], cfg["kernel_profile"], cfg["arg_checking"]) == (
        "ARMv7-M", "default", "off")
    assert cfg["time_slicing"].startswith("off")
    case_passes(streams["tm_sched"], "tm.cooperative")  # round-robin yield
    # Task semaphores (NOTIFY) and task queues (THREAD_MSG) among the kinds.
    assert signal_wait_kinds(streams["signal_wait"]) == {
        "sem", "mutex", "event", "queue", "lifo", "notify", "thread_msg"}
    isr = next(c for c in streams["lat_isr"].cases if c.id == "lat.isr.to_task")
    assert isr.status == "unsupported" and "ISR_RESUME" in isr.reason, isr


def test_vendor_profile(tmp_path: Path, catalog: Catalog) -> None:
    """The template's settings (every check, statistics task with stack
    checks, timer task, hooks) and round robin with the kernel's default
    quantum, on the Cortex-M7: every group runs to the end, every case
    passes."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    raw = run_port(tmp_path, "ucos3", "qemu-mps2-an500", TREE, profile="vendor")
    streams = check_streams(raw, catalog, "ucos3")
    cfg = streams["tm_sched"].config
    assert (cfg["kernel_profile"], cfg["arg_checking"], cfg["isr_call_checking"],
            cfg["stat_task"], cfg["timer_task"]) == ("vendor", "on", "on", "on", "on")
    assert cfg["time_slicing"].startswith("on")


def test_cortex_m0(tmp_path: Path, catalog: Catalog) -> None:
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    run_m0(tmp_path, "ucos3", TREE, catalog)


def test_uc_cpu_and_uc_lib_are_found_or_named(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A uC-OS3 tree alone (the parts the port compiles, copied into an empty
    folder): the build stops and names uC-CPU and the variable to set; with
    RTOSMETER_UC_CPU and RTOSMETER_UC_LIB pointing at the real trees it
    builds and runs."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    real = Path(TREE).resolve()
    cpu = next((real.parent / n for n in ("uC-CPU", "uc-cpu")
                if (real.parent / n / "cpu_core.h").is_file()), None)
    lib = next((real.parent / n for n in ("uC-LIB", "uc-lib")
                if (real.parent / n / "lib_def.h").is_file()), None)
    if cpu is None or lib is None:
        pytest.skip("uC-CPU and uC-LIB are not beside the uC-OS3 tree")
    alone = tmp_path / "alone" / "uC-OS3"
    for part in ("Source", "Ports/ARM-Cortex-M"):
        shutil.copytree(real / part, alone / part)
    monkeypatch.delenv("RTOSMETER_UC_CPU", raising=False)
    monkeypatch.delenv("RTOSMETER_UC_LIB", raising=False)

    def run(out: Path) -> tuple[str, str, list[str]]:
        summary = run_campaign(RunOptions(
            out=out, ports=("ucos3",), targets=("qemu-mps2-an386",), profile="quick",
            bench="lat.sem.nocs", sources={"ucos3": alone}, jobs=2, quiet=True))
        with Store.open(out / "rtosmeter.sqlite") as store:
            build = store.builds(summary.run_id)[0]
            return build.status, build.error, [e.status for e in store.executions(summary.run_id)]

    status, error, runs = run(tmp_path / "missing")
    assert status != "ok" and "uC-CPU not found" in error and "RTOSMETER_UC_CPU" in error
    assert "ok" not in runs
    monkeypatch.setenv("RTOSMETER_UC_CPU", str(cpu))
    monkeypatch.setenv("RTOSMETER_UC_LIB", str(lib))
    status, error, runs = run(tmp_path / "found")
    assert (status, error, runs) == ("ok", "", ["ok"])


# ---- the host: the kernel's POSIX port -----------------------------------

NO_RT = "uC/OS-III's POSIX port needs SCHED_RR, refused ("
# A case no host process runs, whatever the kernel: its reason says why.
HOST_CANNOT = {"calib.flash": "Thumb code"}


@pytest.fixture(scope="module")
def host_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes]]:
    """`rtosmeter run --port ucos3 --target host --profile quick`, every group,
    where SCHED_RR is permitted (root, CAP_SYS_NICE, or RLIMIT_RTPRIO 99+)."""
    need("cmake", "ninja", "gcc")
    if shutil.which("chrt") is None:
        pytest.skip("chrt (util-linux) is needed to see whether SCHED_RR is permitted")
    if subprocess.run(["chrt", "-r", "99", "true"], capture_output=True).returncode != 0:
        pytest.skip("SCHED_RR is not permitted here: run as root, or with CAP_SYS_NICE or "
                    "RLIMIT_RTPRIO unlimited (the port then withdraws every capability)")
    out = tmp_path_factory.mktemp("ucos3-host")
    return out, run_port(out, "ucos3", "host", TREE)


def test_host_runs_every_group(host_run: tuple[Path, dict[str, bytes]],
                               catalog: Catalog) -> None:
    """Every group runs to the end on the POSIX port and every case of
    sections 1-2 passes; the figures are host wall time (noisy, like every
    host port's); task deletion (lat.thread.lifecycle) and priority
    inheritance hold."""
    out, raw = host_run
    streams = check_streams(raw, catalog, "ucos3")
    cfg = streams["lat_ipc"].config
    assert (cfg["ucos.arch"], cfg["kernel_started"], cfg["debug_fields"]) == (
        "POSIX", "yes", "on (OS_CFG_DBG_EN: the POSIX port needs it)")
    assert cfg["sched"].startswith("SCHED_RR: tasks at 50")
    assert re.fullmatch(r"unlimited|\d+ \(SCHED_RR is permitted: .*\)", cfg["rlimit_rtprio"])
    case_passes(streams["lat_ipc"], "lat.mutex.inheritance")
    case_passes(streams["tm_sched"], "tm.preemptive")
    case_passes(streams["tm_ipc"], "tm.message")
    assert signal_wait_kinds(streams["signal_wait"]) == {
        "sem", "mutex", "event", "queue", "lifo", "notify", "thread_msg"}
    life = next(c for c in streams["lat_lifecycle"].cases if c.id == "lat.thread.lifecycle")
    assert life.status == "ok" and len(life.series) > 100, life.reason
    with Store.open(out / "rtosmeter.sqlite") as store:
        execs = store.executions(store.runs()[-1].id)
    assert {e.group for e in execs} == set(catalog.groups)
    assert all(e.status == "ok" and e.runner["unit"] == "ns (host clock)" for e in execs)


def test_host_without_sched_rr_withdraws_every_capability(
        host_run: tuple[Path, dict[str, bytes]], catalog: Catalog) -> None:
    """Without real-time scheduling the kernel's POSIX port would exit(-1) in
    OSInit (RLIMIT_RTPRIO) or abort creating a thread: the port checks first,
    does not start the kernel, and reports every case but the calibration
    unsupported with the reason; each executable ends at once (BYE status 0),
    and a run through the harness stores that, nothing lost."""
    prefix = fifo_denied_prefix()
    out, _ = host_run
    build = out / "build" / "ucos3" / "host" / "quick"
    declared = set(Definitions.load(project_root()).port("ucos3").caps)
    needs = {c.id: set(c.needs) for c in catalog.cases}
    for group in catalog.groups:
        proc = subprocess.run([*prefix, str(build / f"rm_{group}")], capture_output=True,
                              timeout=60)
        s = parse_stream(proc.stdout)
        assert s.complete and not s.errors and s.bye_status == 0 == proc.returncode, group
        assert "warning: the kernel was not started: " + NO_RT in proc.stderr.decode()
        assert s.config["kernel_started"] == "no" and s.config["sched"].startswith(NO_RT)
        assert {c.id for c in s.cases} == {"calib.overhead"} | {
            c.id for c in catalog.cases if c.group == group}
        for c in s.cases:
            if c.id == "calib.overhead":
                assert c.status == "ok"
            elif c.id in HOST_CANNOT:  # the host itself cannot, whatever the kernel
                assert c.status == "unsupported" and HOST_CANNOT[c.id] in c.reason, c
            else:  # the reason comes with what port.toml declares (not HEAP alone)
                assert c.status == "unsupported", (group, c)
                said = bool(needs[c.id] & declared) or not needs[c.id]  # tm.basic: its own
                assert (NO_RT in c.reason) == said, (group, c)
    rtosmeter = Path(sys.executable).with_name("rtosmeter")
    run = subprocess.run(
        [*prefix, str(rtosmeter), "run", "--port", "ucos3", "--target", "host", "--profile",
         "quick", "--bench", "lat.sem.*", "--source", f"ucos3={TREE}", "--out", str(out)],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    with Store.open(out / "rtosmeter.sqlite") as store:
        run_id = store.runs()[-1].id
        assert [e.status for e in store.executions(run_id)] == ["ok"]
        cases = {c.case_id: c for c in store.cases(run_id)}
    assert cases["lat.sem.pass"].status == "unsupported"
    assert cases["lat.sem.pass"].reason.startswith("port lacks THREAD, SEM, PREEMPTIVE: " + NO_RT)
