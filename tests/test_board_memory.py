"""Memory sized from the target's RAM (docs/memory.md): the target's declared
limits reach the plan before any build, failed builds quote the toolchain's
diagnostics, and (with the RTOS trees) every port links for every board
(baremetal: test_footprint.py builds it for every board in CI)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from rtos_ports import ROOT

from rtosmeter.build import diagnostics
from rtosmeter.catalog import load_catalog
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import Definitions
from rtosmeter.footprint import footprint
from rtosmeter.plan import Selection, make_plan
from rtosmeter.store import Store

BOARDS = ("stm32f407", "frdm-k64f", "b-l475e-iot01a", "nrf52840dk", "nucleo-l053r8")
# port -> (environment variable naming its tree, a file the tree holds)
RTOS_TREES = {
    "freertos": ("RTOSMETER_FREERTOS", "tasks.c"),
    "threadx": ("RTOSMETER_THREADX", "common/inc/tx_api.h"),
    "ucos2": ("RTOSMETER_UCOS2", "Source/os_core.c"),
    "ucos3": ("RTOSMETER_UCOS3", "Source/os_core.c"),
    "rtx5": ("RTOSMETER_RTX5", "Source/rtx_kernel.c"),
    "rtthread": ("RTOSMETER_RTTHREAD", "src/thread.c"),
}


@pytest.mark.slow
def test_declared_unsupported_port_is_not_built() -> None:
    """freertos's port.toml [targets.nucleo-l053r8]: the port is stored
    unsupported with the reason and the file before any build; baremetal still builds there, with
    the run length capped by the target's [params]."""
    defs = Definitions.load(ROOT)
    plan = make_plan(defs, load_catalog(ROOT), defs.campaign(None),
                     Selection(ports=("freertos", "baremetal"), targets=("nucleo-l053r8",),
                               bench="tm.basic"))
    by_port = {c.port: c for c in plan.builds}
    assert by_port["freertos"].skip_status == "unsupported"
    assert "8 KiB of RAM" in by_port["freertos"].skip_reason
    assert "freertos/port.toml [targets.nucleo-l053r8]" in by_port["freertos"].skip_reason
    assert by_port["baremetal"].skip_status == ""
    assert by_port["baremetal"].params["batch"] == 128


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("arm-none-eabi-gcc") is None, reason="needs arm-none-eabi-gcc")
def test_diagnostics_of_real_toolchain_errors(tmp_path: Path) -> None:
    """A C error and a RAM overflow, as arm-none-eabi-gcc and ld print them:
    the error lines only, the linker's path cut, no command line."""
    (tmp_path / "bad.c").write_text("int f(void) { return missing; }\n")
    (tmp_path / "big.c").write_text("char big[4096]; int main(void) { return big[1]; }\n")
    (tmp_path / "tiny.ld").write_text(
        "MEMORY { FLASH (rx) : ORIGIN = 0, LENGTH = 64K\n"
        "         RAM (rwx) : ORIGIN = 0x20000000, LENGTH = 1K }\n"
        "SECTIONS { .text : { *(.text*) } > FLASH\n"
        "           .bss : { *(.bss*) *(COMMON) } > RAM }\n")
    gcc = ["arm-none-eabi-gcc", "-mcpu=cortex-m0", "-mthumb", "-nostdlib"]
    compile_ = subprocess.run([*gcc, "-c", "bad.c", "-o", "bad.o"], cwd=tmp_path,
                              capture_output=True, text=True, check=False)
    link = subprocess.run([*gcc, "-T", "tiny.ld", "big.c", "-o", "big.elf"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert compile_.returncode != 0 and link.returncode != 0
    text = diagnostics("[1/2] Building C object bad.o\nFAILED: big.elf\n"
                       + compile_.stderr + link.stderr)
    lines = text.splitlines()
    assert lines[0] == "FAILED: big.elf"
    assert any("bad.c:1" in ln and "error:" in ln and "missing" in ln for ln in lines)
    assert any(ln.startswith("ld: ") and "will not fit in region `RAM'" in ln for ln in lines)
    assert not any("Building C object" in ln or "/ld:" in ln for ln in lines)


def _tree_missing(port: str) -> str:
    env, probe = RTOS_TREES[port]
    tree = os.environ.get(env, "")
    return "" if tree and (Path(tree) / probe).is_file() else f"{env} names no {port} tree"


@pytest.mark.rtos
@pytest.mark.parametrize("port", list(RTOS_TREES))
def test_every_port_links_for_every_board(port: str, tmp_path: Path) -> None:
    """Every group the port supports links for each board (the runs then fail:
    no probe here), or the target declares it unsupported; .data + .bss fit
    the board's RAM."""
    if why := _tree_missing(port):
        pytest.skip(why)
    defs = Definitions.load(ROOT)
    summary = run_campaign(RunOptions(out=tmp_path, ports=(port,), targets=BOARDS, jobs=2,
                                      quiet=True))
    with Store.open(tmp_path / "rtosmeter.sqlite") as store:
        builds = store.builds(summary.run_id)
    assert {b.target for b in builds} == set(BOARDS)
    for b in builds:
        declared = defs.port(port).unsupported_reason(defs.targets[b.target])
        if b.status == "unsupported":
            assert declared and f"[targets.{b.target}]" in b.error, b.error
            continue
        assert b.status == "ok", f"{port}/{b.target}: {b.error}"
        elfs = list(Path(b.config["build_dir"]).glob("rm_*.elf"))
        assert len(elfs) == len(b.config["groups"].split(","))
        ram = int(re.search(r"RAM .*LENGTH = (\d+)K", (defs.targets[b.target].dir / "link.ld")
                            .read_text())[1]) << 10  # type: ignore[index]
        for elf in elfs:
            assert 0 < footprint(elf).ram <= ram, elf
