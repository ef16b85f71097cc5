"""The µC/OS-III port (ports/ucos3), built against real uC-OS3, uC-CPU and
uC-LIB trees and run for real on QEMU: every group on MPS2-AN386 (twice:
bit-identical streams), the vendor profile on the Cortex-M7, the Cortex-M0
(micro:bit), and the search for uC-CPU/uC-LIB.

Needs the tree in RTOSMETER_UCOS3 with uC-CPU and uC-LIB beside it (or in
RTOSMETER_UC_CPU / RTOSMETER_UC_LIB); CI has none: the tests skip, saying so.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from rtos_ports import case_passes, check_streams, need, run_port, tree_marks
from ucos_ports import run_an386, run_m0, signal_wait_kinds

from rtosmeter.catalog import Catalog, load_catalog
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import project_root
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
