"""The case marker (rm_target_case_marker, docs/energy.md "The marker pin"):
each board target declares its pin in target.toml [power] marker_pin and
builds its marker.c; the very marker.c built for the host against a register
model opens the port's clock gate, drives the pin low, makes it a push-pull
output, and then writes one register per edge; built for the board, the
runner drives the pin at case boundaries only (never inside a measuring
body); QEMU firmware links no marker code."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from elftools.elf.elffile import ELFFile
from rtos_ports import MEASURING

from rtosmeter.build import BuildSpec, build
from rtosmeter.catalog import load_catalog
from rtosmeter.commands.energy import energy
from rtosmeter.definitions import Definitions
from rtosmeter.definitions.targets import load_target
from rtosmeter.errors import UserError
from rtosmeter.sources import check_tree

BOARDS = ("b-l475e-iot01a", "stm32f407", "frdm-k64f", "nrf52840dk", "nucleo-l053r8")
GROUPS = ("lat_isr", "lat_ipc")  # measuring groups: their bodies hold lat.* intervals
MODEL = Path(__file__).parent / "marker_host" / "model.c"


@dataclass(frozen=True)
class Pin:
    """What a board's marker.c must do to its registers, and where it says so."""

    resets: dict[int, int]  # reset values the model starts from (others: 0)
    final: tuple[tuple[int, int, int, str], ...]  # (register, mask, value, meaning) after set-up
    low_first: tuple[int, int]  # the write that drives the pin low...
    direction: int  # ...before this register makes it an output
    on: tuple[int, int]  # the one write of a rising edge
    off: tuple[int, int]  # the one write of a falling edge


PINS = {
    # RM0367: GPIOA_MODER resets to 0xEBFFFCFF (analog, but SWD)
    "nucleo-l053r8": Pin({0x50000000: 0xEBFFFCFF}, (
        (0x4002102C, 1 << 0, 1 << 0, "RCC_IOPENR IOPAEN"),
        (0x50000000, 3 << 20, 1 << 20, "GPIOA_MODER10 = 01, output"),
        (0x50000000, ~(3 << 20) & 0xFFFFFFFF, 0xEBFFFCFF & ~(3 << 20), "other pins untouched"),
        (0x50000004, 1 << 10, 0, "GPIOA_OTYPER10 = 0, push-pull")),
        (0x50000018, 1 << 26), 0x50000000, (0x50000018, 1 << 10), (0x50000018, 1 << 26)),
    # RM0351: GPIOD_MODER resets to 0xFFFFFFFF (analog)
    "b-l475e-iot01a": Pin({0x48000C00: 0xFFFFFFFF}, (
        (0x4002104C, 1 << 3, 1 << 3, "RCC_AHB2ENR GPIODEN"),
        (0x48000C00, 3 << 28, 1 << 28, "GPIOD_MODER14 = 01, output"),
        (0x48000C00, ~(3 << 28) & 0xFFFFFFFF, 0xFFFFFFFF & ~(3 << 28), "other pins untouched"),
        (0x48000C04, 1 << 14, 0, "GPIOD_OTYPER14 = 0, push-pull")),
        (0x48000C18, 1 << 30), 0x48000C00, (0x48000C18, 1 << 14), (0x48000C18, 1 << 30)),
    # RM0090: RCC_AHB1ENR resets to 0x00100000 (CCMDATARAMEN); GPIOD_MODER to 0
    "stm32f407": Pin({0x40023830: 0x00100000}, (
        (0x40023830, 1 << 3 | 1 << 20, 1 << 3 | 1 << 20, "RCC_AHB1ENR GPIODEN, CCM RAM kept"),
        (0x40020C00, 0xFFFFFFFF, 1 << 2, "GPIOD_MODER1 = 01, output; the others input"),
        (0x40020C04, 1 << 1, 0, "GPIOD_OTYPER1 = 0, push-pull")),
        (0x40020C18, 1 << 17), 0x40020C00, (0x40020C18, 1 << 1), (0x40020C18, 1 << 17)),
    # K64P144M120SF5RM: SIM_SCGC5 resets to 0x00040182
    "frdm-k64f": Pin({0x40048038: 0x00040182}, (
        (0x40048038, 0xFFFFFFFF, 0x00040182 | 1 << 10, "SIM_SCGC5 PORTB gate; the rest kept"),
        (0x4004A024, 7 << 8, 1 << 8, "PORTB_PCR9 MUX = 1, GPIO"),
        (0x4004A024, 1 << 5 | 3, 0, "PORTB_PCR9 ODE = 0 (push-pull), no pull"),
        (0x400FF054, 1 << 9, 1 << 9, "GPIOB_PDDR9 = 1, output")),
        (0x400FF048, 1 << 9), 0x400FF054, (0x400FF044, 1 << 9), (0x400FF048, 1 << 9)),
    # nRF52840 PS: PIN_CNF resets to 0x00000002 (input, buffer disconnected)
    "nrf52840dk": Pin({0x50000A0C: 0x00000002}, (
        (0x50000A0C, 0xFFFFFFFF, 3, "P1.PIN_CNF[3]: DIR = output, S0S1 (push-pull), no pull"),),
        (0x5000080C, 1 << 3), 0x50000A0C, (0x50000808, 1 << 3), (0x5000080C, 1 << 3)),
}


def test_every_board_declares_the_pin_it_builds(root: Path) -> None:
    """marker_pin in target.toml exactly where target.cmake builds a marker.c
    and defines RM_TARGET_CASE_MARKER; no QEMU or host target has one."""
    defs = Definitions.load(root)
    for name, target in defs.targets.items():
        cmake = next(target.dir.glob("*.cmake"), None)
        text = cmake.read_text() if cmake else ""
        if "common/cortex-m/board.cmake" in text:  # the boards' shared target.cmake
            text += (root / "targets" / "common" / "cortex-m" / "board.cmake").read_text()
        builds = "RM_TARGET_CASE_MARKER=1" in text and "/marker.c" in text
        assert bool(target.marker_pin) == builds == (name in BOARDS), name
        if builds:
            assert (target.dir / "marker.c").is_file(), name


def test_the_power_table_is_checked(tmp_path: Path, root: Path) -> None:
    source = (root / "targets" / "stm32f407" / "target.toml").read_text()
    folder = tmp_path / "stm32f407"
    folder.mkdir()
    path = folder / "target.toml"
    path.write_text(source.replace("marker_pin =", "marker_pn ="))
    with pytest.raises(UserError, match="marker_pn"):
        load_target(path)
    path.write_text(source.replace('marker_pin = "PD1', 'marker_pin = 1 #'))
    with pytest.raises(UserError, match="marker_pin' must be a string"):
        load_target(path)


def test_energy_markers_lists_the_pins(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(root)
    result = CliRunner().invoke(energy, ["markers"])
    assert result.exit_code == 0, result.output
    assert "nucleo-l053r8: PA10 (Arduino D2, CN9 pin 3)" in result.output
    assert len([line for line in result.output.splitlines() if line]) == len(BOARDS)


def _run_model(root: Path, tmp_path: Path, board: str, pin: Pin) -> dict[str, list[str]]:
    exe = tmp_path / f"marker-{board}"
    subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-DRM_MARKER_HOST",
                    "-DRM_TARGET_CASE_MARKER=1", f"-I{root / 'targets' / 'common' / 'cortex-m'}",
                    f"-I{root / 'bench' / 'include'}", str(MODEL),
                    str(root / "targets" / board / "marker.c"), "-o", str(exe)], check=True)
    model = "".join(f"init 0x{a:08X} 0x{v:08X}\n" for a, v in pin.resets.items())
    out = subprocess.run([str(exe)], input=model, capture_output=True, text=True, check=True)
    phases: dict[str, list[str]] = {}
    current = ""
    for line in out.stdout.splitlines():
        if line.startswith("P "):
            current = line[2:]
        else:
            phases.setdefault("final" if line.startswith("F ") else current, []).append(line)
    return phases


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
@pytest.mark.parametrize("board", BOARDS)
def test_marker_code_against_a_register_model(root: Path, tmp_path: Path, board: str) -> None:
    """Set-up: the reference values, the pin driven low before it becomes an
    output; each edge: one write and no read."""
    pin = PINS[board]
    phases = _run_model(root, tmp_path, board, pin)
    final = {int(a, 16): int(v, 16) for _, a, v in (line.split() for line in phases["final"])}
    for addr, mask, value, meaning in pin.final:
        assert final.get(addr, 0) & mask == value, f"{board}: {meaning}: {final.get(addr, 0):#x}"
    writes = [(int(a, 16), int(v, 16)) for op, a, v in map(str.split, phases["init"])
              if op == "W"]
    low = writes.index(pin.low_first)
    assert low < max(i for i, (a, _) in enumerate(writes) if a == pin.direction), writes
    assert phases["on"] == [f"W 0x{pin.on[0]:08X} 0x{pin.on[1]:08X}"]
    assert phases["off"] == [f"W 0x{pin.off[0]:08X} 0x{pin.off[1]:08X}"]


def _build(root: Path, out: Path, port: str, target: str) -> dict[str, Path]:
    defs = Definitions.load(root)
    profile = defs.profiles["default"]
    t = defs.targets[target].at_clock(profile.board_clock)
    params = profile.params_for(t.kind)
    params = params.merged({k: min(v, getattr(params, k)) for k, v in t.params.items()})
    p = defs.ports[port]
    source = None
    if p.source is not None:
        source = check_tree(p, Path(os.environ["RTOSMETER_FREERTOS"]), "RTOSMETER_FREERTOS")
    spec = BuildSpec(p, t, profile, params, GROUPS, source, out, defs.toolchains["gcc"])
    result = build(spec, root, load_catalog(root), jobs=1)
    assert result.status == "ok", result.error
    return {g: Path(e) for g, e in result.executables.items()}


def _functions(dis: str) -> dict[str, list[str]]:
    """function -> its instructions (objdump -d --no-show-raw-insn)."""
    out: dict[str, list[str]] = {}
    for block in dis.split("\n\n"):
        name = re.search(r"^[0-9a-f]+ <([^>]+)>:$", block, re.M)
        if name:
            out[name[1]] = [m[1].strip() for m in re.finditer(r"^\s+[0-9a-f]+:\t(.*)$",
                                                               block, re.M)]
    return out


def _callers(functions: dict[str, list[str]], callee: str) -> set[str]:
    return {f for f, insns in functions.items()
            if any(re.match(rf"b(l|\.w)?\s+[0-9a-f]+ <{re.escape(callee)}>", i) for i in insns)}


def _symbols(elf: Path) -> set[str]:
    with open(elf, "rb") as f:
        return {s.name for s in ELFFile(f).get_section_by_name(".symtab").iter_symbols()}


def _check_board(elf: Path) -> None:
    dis = subprocess.run(["arm-none-eabi-objdump", "-d", "--no-show-raw-insn", str(elf)],
                         capture_output=True, text=True, check=True).stdout
    functions = _functions(dis)
    marker = functions["rm_target_case_marker"]
    # One store per edge: BSRR takes either word (STM32s); an if/else writes
    # the set or the clear register (Kinetis PSOR/PCOR, nRF OUTSET/OUTCLR).
    stores = [i for i in marker if re.match(r"str[bh]?(\.w)?\s", i)]
    assert 1 <= len(stores) <= 2, marker
    assert not any(re.match(r"(bl|blx)\s", i) for i in marker), marker
    # The runner's case loop, and nothing that measures, drives the pin.
    callers = _callers(functions, "rm_target_case_marker")
    assert callers and callers <= {"run_one", "rm_runner_main"}, callers
    assert not [f for f in functions if MEASURING.match(f) and f in callers]
    assert _callers(functions, "rm_board_marker_init") == {"rm_target_init"}
    # Both edges in the runner: one rising, at least one falling call site
    # (a case's body is called on two paths: the port's own or the shared one).
    calls = sum(1 for f in callers for i in functions[f]
                if re.search(r"<rm_target_case_marker>", i) and re.match(r"b", i))
    assert calls >= 2, callers


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("arm-none-eabi-gcc") is None, reason="needs arm-none-eabi-gcc")
@pytest.mark.parametrize("board", BOARDS)
def test_bare_metal_board_marks_cases_outside_intervals(root: Path, tmp_path: Path,
                                                        board: str) -> None:
    for elf in _build(root, tmp_path, "baremetal", board).values():
        _check_board(elf)


@pytest.mark.slow
@pytest.mark.rtos
@pytest.mark.skipif(not os.environ.get("RTOSMETER_FREERTOS"),
                    reason="RTOSMETER_FREERTOS is not set to an RTOS tree")
@pytest.mark.parametrize("board", [b for b in BOARDS if b != "nucleo-l053r8"])  # 8 KiB RAM
def test_freertos_board_marks_cases_outside_intervals(root: Path, tmp_path: Path,
                                                      board: str) -> None:
    for elf in _build(root, tmp_path, "freertos", board).values():
        _check_board(elf)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("arm-none-eabi-gcc") is None, reason="needs arm-none-eabi-gcc")
def test_qemu_firmware_links_no_marker(root: Path, tmp_path: Path) -> None:
    for elf in _build(root, tmp_path, "baremetal", "qemu-mps2-an385").values():
        assert not {"rm_target_case_marker", "rm_board_marker_init"} & _symbols(elf)
