"""Boards boot to their maximum clock (targets/<board>/clock.c, docs/boards.md
"Clocks"): the very clock.c built for the host against a register model
writes the reference manuals' values and reports a ready flag that never
sets; built for the board, it is linked only at board_clock = "max", runs
from Reset_Handler before main (so outside every measured interval), and
the FPU boards build hard-float."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from board_clocks import BOARDS, Board
from elftools.elf.elffile import ELFFile

from rtosmeter.build import BuildSpec, build
from rtosmeter.catalog import load_catalog
from rtosmeter.definitions import Definitions

HARNESS = Path(__file__).parent / "clock_host" / "regs.c"
FPU_BOARDS = {"b-l475e-iot01a", "stm32f407", "frdm-k64f", "nrf52840dk"}


def _host_binary(root: Path, board: Board, out: Path) -> Path:
    exe = out / f"clock-{board.target}"
    subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-DRM_CLOCK_HOST",
                    f"-I{root / 'targets' / 'common' / 'cortex-m'}", str(HARNESS),
                    str(root / "targets" / board.target / "clock.c"), "-o", str(exe)],
                   check=True)
    return exe


def _run(exe: Path, model: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(exe)], input="\n".join(model) + "\n", capture_output=True,
                          text=True, check=False, timeout=60)


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS, ids=[b.target for b in BOARDS])
def test_clock_writes_the_reference_values(root: Path, tmp_path: Path, board: Board) -> None:
    """With the model's ready flags following their control bits, the set-up
    returns and leaves each register at the manual's value for the maximum
    clock; on the STM32s the wait states are set (and read back) before the
    switch to the PLL."""
    proc = _run(_host_binary(root, board, tmp_path), board.model)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    final = {int(a, 16): int(v, 16) for a, v in re.findall(r"^F (\S+) (\S+)$", proc.stdout, re.M)}
    for reg in board.regs:
        assert final.get(reg.addr) == reg.value, (
            f"{board.target} {reg.name}: 0x{final.get(reg.addr, 0):08x}, want 0x{reg.value:08x} "
            f"({reg.meaning}; {reg.source})")
    writes = [(int(a, 16), int(v, 16)) for a, v in re.findall(r"^W (\S+) (\S+) \d$", proc.stdout,
                                                              re.M)]
    names = {r.name: r for r in board.regs}
    if "FLASH_ACR" in names:
        acr, cfgr = names["FLASH_ACR"], names["RCC_CFGR"]
        ws = acr.value & 7
        set_ws = next(i for i, (a, v) in enumerate(writes) if a == acr.addr and v & 7 == ws)
        to_pll = next(i for i, (a, v) in enumerate(writes)
                      if a == cfgr.addr and v & 3 == cfgr.value & 3)
        assert set_ws < to_pll, "the flash wait states must be set before the faster clock"


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS, ids=[b.target for b in BOARDS])
def test_a_flag_that_never_sets_is_reported(root: Path, tmp_path: Path, board: Board) -> None:
    """Without the status bits (no oscillator, no PLL lock), the bounded wait
    gives up with the flag's name and status 4 instead of hanging."""
    inits = tuple(line for line in board.model if line.startswith("init"))
    proc = _run(_host_binary(root, board, tmp_path), inits)
    assert proc.returncode == 4, proc.stdout
    assert proc.stdout.splitlines()[-1] == f"FAIL {board.first_wait}"


def _build(defs: Definitions, root: Path, out: Path, target: str, profile: str) -> dict[str, str]:
    t = defs.targets[target].at_clock(defs.profiles[profile].board_clock)
    params = defs.profiles[profile].params_for(t.kind)
    # what the target's RAM holds (target.toml [params]), as the plan caps it
    params = params.merged({k: min(v, getattr(params, k)) for k, v in t.params.items()})
    spec = BuildSpec(defs.ports["baremetal"], t, defs.profiles[profile], params, ("tm_basic",),
                     None, out, defs.toolchains["gcc"])
    result = build(spec, root, load_catalog(root), jobs=1)
    assert result.status == "ok", result.error
    return {"elf": str(result.executables["tm_basic"]), **result.config}


def _functions(elf: str) -> dict[str, int]:
    with open(elf, "rb") as f:
        symtab = ELFFile(f).get_section_by_name(".symtab")
        return {s.name: s["st_size"] for s in symtab.iter_symbols()
                if s["st_info"]["type"] == "STT_FUNC"}


def _vfp_args(elf: str) -> int:
    """Tag_ABI_VFP_args of the ELF's build attributes (0: base AAPCS, in
    core registers; 1: VFP registers, i.e. hard-float)."""
    with open(elf, "rb") as f:
        section = ELFFile(f).get_section_by_name(".ARM.attributes")
        for sub in section.iter_subsections():
            for subsub in sub.iter_subsubsections():
                for attr in subsub.iter_attributes():
                    if attr.tag == "TAG_ABI_VFP_ARGS":
                        return int(attr.value)
    return 0


def _calls(disassembly: str) -> list[tuple[str, str]]:
    """(calling function, called function) of every bl in the disassembly."""
    out, current = [], ""
    for line in disassembly.splitlines():
        if m := re.match(r"^[0-9a-f]+ <([^>]+)>:$", line):
            current = m[1]
        elif m := re.search(r"\tbl\t[0-9a-f]+ <([^>+]+)>", line):
            out.append((current, m[1]))
    return out


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("arm-none-eabi-gcc") is None, reason="needs arm-none-eabi-gcc")
@pytest.mark.parametrize("board", BOARDS, ids=[b.target for b in BOARDS])
def test_clock_code_runs_before_main(root: Path, tmp_path: Path, board: Board) -> None:
    """board_clock = "max" links clock.c, called by Reset_Handler before main
    and by nothing else; "reset-clock" links none of it; each build compiles
    in its own clock (RM_CPU_HZ), the STM32s report their wait states, and
    the FPU boards pass floats in VFP registers."""
    defs = Definitions.load(root)
    target = defs.targets[board.target]
    for profile, hz, linked in (("default", board.hz, True),
                                ("reset-clock", target.reset_hz, False)):
        config = _build(defs, root, tmp_path, board.target, profile)
        assert config["cmake.RM_BOARD_CLOCK"] == ("max" if linked else "reset")
        header = (Path(config["build_dir"]) / "config" / "rm_build_config.h").read_text()
        assert f"#define RM_CPU_HZ {hz}u" in header
        functions = _functions(config["elf"])
        assert ("rm_clock_fail" in functions) == linked, profile
        assert ("rm_board_flash_ws" in functions) == (board.target not in {"frdm-k64f",
                                                                         "nrf52840dk"})
        assert ("rm_cm_clock_init" in functions) == linked, profile
        dis = subprocess.run(["arm-none-eabi-objdump", "-d", config["elf"]], capture_output=True,
                             text=True, check=True).stdout
        calls = _calls(dis)
        reset = [callee for caller, callee in calls if caller == "Reset_Handler"]
        assert "main" in reset
        if linked:
            assert reset.index("rm_cm_clock_init") < reset.index("main"), reset
            assert [c for c in calls if c[1] == "rm_cm_clock_init"] == [
                ("Reset_Handler", "rm_cm_clock_init")]
        assert _vfp_args(config["elf"]) == (1 if board.target in FPU_BOARDS else 0)
