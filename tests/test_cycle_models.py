"""The rmcycles plugin's Cortex-M0, M0+ and M7 models (plugins/qemu/
model_m0.c, model_m7.c) on real firmware in real QEMU: known instruction
sequences (tests/firmware/cycles_v6m.c on the microbit's M0,
tests/firmware/cycles_m7.c on mps2-an500) against counts worked out by hand
from plugins/qemu/cycle_model.md, the model's parameters moving only their
rows, and two runs bit-identical on each core. The M3/M4 table has its own
tests (tests/test_qemu_plugin.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rtosmeter import qemu_binary, qemu_plugin
from rtosmeter.measure import Unit
from rtosmeter.protocol import parse_stream

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cortexm_firmware as fw

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not fw.have_toolchain(),
                                 reason="needs arm-none-eabi-gcc, cmake, ninja, qemu-system-arm")]

SHIFT = 6
MACHINE = {"m0": "microbit", "m0plus": "microbit", "m7": "mps2-an500"}
TARGET = {"microbit": "qemu-microbit", "mps2-an500": "qemu-mps2-an500"}
GROUP = {"microbit": "cycles_v6m", "mps2-an500": "cycles_m7"}

# ARMv6-M: the frame (HINT #15 1, LDR 2, NOP 1) is 3 instructions, 4 cycles.
V6M_FRAME = (3, 4)
V6M: dict[str, tuple[int, int, int]] = {  # name: (instructions, M0 cycles, M0+ cycles)
    "empty": (0, 0, 0),
    "nops": (100, 100, 100),
    # MOVS 1 + 10 x SUBS 1 + 9 x BNE taken (M0 3, M0+ 2) + BNE not taken 1
    "loop16": (21, 39, 30),
    # 10 x (LDR 2 + ADDS 1 + STR 2)
    "ldr_str": (30, 50, 50),
    # LDR 2 + LDR 2 (no pipelining on ARMv6-M) + NOP 1
    "loads": (3, 5, 5),
    # PUSH 5 regs 6 + POP 6 + MOV 1 + STMIA 3 regs 4 + SUBS 1 + LDMIA 4 + BL (M0 4, M0+ 3)
    # + PUSH {r4,lr} 3 + POP {r4,pc} (M0 4+2, M0+ 3+2) + B (3, 2) + NOP 1
    "multiple": (11, 39, 36),
    # MOVS 1 + MULS 1 (mul=1)
    "mul": (2, 2, 2),
    # SVC 1 + entry (16, 15) + BX LR (3, 2) + return (16, 15) + NOP 1
    "svc": (3, 37, 34),
    # MRS, MSR, DSB, DMB, ISB: 4 each on the M0, 3 on the M0+
    "system": (5, 20, 15),
}

# Cortex-M7: the frame is 3 instructions, 2 cycles (DBG alone; LDR and NOP
# issue together). One column: steady state; "call" pays one indirect-branch
# misprediction (bp = 6) on its first run only.
M7_FRAME = (3, 2)
M7: dict[str, tuple[int, int]] = {  # name: (instructions, cycles)
    "empty": (0, 0),
    "nops": (100, 50),  # two NOPs a cycle
    "dependent": (10, 10),  # ADDS r3 after ADDS r3: never together
    "independent": (20, 10),  # ADDS r3 and ADDS r5 together
    # LDR 1 + ADDS r3 (load-use) 2 + LDR 1 + ADDS r5 (paired) 0 + LDR 1 + LDR 1
    # (two memory accesses: not paired) + NOP (paired) 0
    "loads": (7, 6),
    # MOVS 1 + 10 x (SUBS 1 + BNE 1), BNE predicted taken (backward), the last
    # iteration mispredicted 6
    "loop": (21, 27),
    # MOVS 1 + MULS (depends on MOVS) 1 + MLA 1 + UMULL 1 + UDIV 12 (div=12)
    "mul": (5, 16),
    # PUSH 5 regs 1+3 + POP 1+3 + BL 1 (predicted) + PUSH 2 regs 2 + POP {r4,pc} 2
    # (+ 6 mispredicted the first time) + B 1 (predicted) + NOP 1
    "call": (7, 15),
    # SVC 1 + entry 12 + BX LR 1 + return 12 + NOP 1
    "svc": (3, 27),
    # DSB 1 + ISB 1 + bp 6 + NOP 1
    "barriers": (3, 9),
}


@pytest.fixture(scope="module")
def plugin() -> Path:
    subprocess.run(["make", "-s", "-C", str(qemu_plugin.PLUGIN_DIR)], check=True)
    so = qemu_plugin.plugin_path()
    assert so is not None
    return so


@pytest.fixture(scope="module")
def firmware(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """machine -> ELF built with RM_TS_PLUGIN."""
    spec = qemu_plugin.PluginSpec(Unit.INSTRUCTIONS)
    out: dict[str, Path] = {}
    for machine, target in TARGET.items():
        elfs = fw.build(tmp_path_factory.mktemp(machine), target, [GROUP[machine]],
                        extra=qemu_plugin.build_defines(spec, SHIFT))
        out[machine] = elfs[GROUP[machine]]
    return out


def run(so: Path, machine: str, elf: Path, spec: qemu_plugin.PluginSpec,
        summary: Path) -> tuple[bytes, dict[str, object]]:
    counter = qemu_plugin.counter_address(elf)
    assert counter is not None
    cmd = [qemu_binary.chosen(), "-M", machine, "-nographic", "-monitor", "none",
           "-serial", "stdio", "-semihosting-config", "enable=on,target=native",
           "-icount", f"shift={SHIFT},align=off,sleep=off",
           "-plugin", ",".join([str(so), *spec.args(counter, summary)]), "-kernel", str(elf)]
    proc = subprocess.run(cmd, capture_output=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    return proc.stdout, json.loads(summary.read_text())


def sequences(stream: bytes) -> dict[str, list[int]]:
    case = parse_stream(stream).case("selftest.sequences")
    assert case.status == "ok"
    return {name: list(s.samples) for name, s in case.series.items()}


@pytest.mark.parametrize("cpu", ["m0", "m0plus"])
def test_armv6m_sequences_in_cycles(plugin: Path, firmware: dict[str, Path], cpu: str,
                                    tmp_path: Path) -> None:
    spec = qemu_plugin.PluginSpec(Unit.CYCLES, cpu)
    stream, summary = run(plugin, "microbit", firmware["microbit"], spec, tmp_path / "s.json")
    col = 1 if cpu == "m0" else 2
    want = {name: [V6M_FRAME[1] + row[col]] * 8 for name, row in V6M.items()}
    assert sequences(stream) == want
    assert summary["model"] == qemu_plugin.MODEL and summary["cpu"] == cpu
    assert summary["exception_entries"] == summary["exception_returns"]


def test_armv6m_sequences_in_instructions(plugin: Path, firmware: dict[str, Path],
                                          tmp_path: Path) -> None:
    spec = qemu_plugin.PluginSpec(Unit.INSTRUCTIONS)
    stream, _ = run(plugin, "microbit", firmware["microbit"], spec, tmp_path / "s.json")
    assert sequences(stream) == {n: [V6M_FRAME[0] + row[0]] * 8 for n, row in V6M.items()}


def test_m0plus_wait_states_and_slow_multiplier_move_only_their_rows(
        plugin: Path, firmware: dict[str, Path], tmp_path: Path) -> None:
    """ws=2: +2 per refill (taken branch, PC loaded from memory, the
    exception return's BX LR); mul=32: MULS 32."""
    spec = qemu_plugin.PluginSpec(Unit.CYCLES, "m0plus", ws=2, mul=32)
    got = sequences(run(plugin, "microbit", firmware["microbit"], spec, tmp_path / "s.json")[0])
    want = {name: V6M_FRAME[1] + row[2] for name, row in V6M.items()}
    for name, refills in {"loop16": 9, "multiple": 3, "svc": 1}.items():
        want[name] += 2 * refills
    want["mul"] += 31
    assert got == {name: [v] * 8 for name, v in want.items()}


def test_m7_sequences(plugin: Path, firmware: dict[str, Path], tmp_path: Path) -> None:
    spec = qemu_plugin.PluginSpec(Unit.CYCLES, "m7")
    stream, summary = run(plugin, "mps2-an500", firmware["mps2-an500"], spec, tmp_path / "s.json")
    want = {name: [M7_FRAME[1] + row[1]] * 8 for name, row in M7.items()}
    want["call"][0] += 6  # the return's first prediction has no history
    assert sequences(stream) == want
    assert summary["cpu"] == "m7" and summary["bp"] == 6
    spec = qemu_plugin.PluginSpec(Unit.INSTRUCTIONS)
    stream, _ = run(plugin, "mps2-an500", firmware["mps2-an500"], spec, tmp_path / "i.json")
    assert sequences(stream) == {n: [M7_FRAME[0] + row[0]] * 8 for n, row in M7.items()}


def test_m7_misprediction_penalty_moves_only_mispredicted_branches(
        plugin: Path, firmware: dict[str, Path], tmp_path: Path) -> None:
    spec = qemu_plugin.PluginSpec(Unit.CYCLES, "m7", bp=9)
    got = sequences(run(plugin, "mps2-an500", firmware["mps2-an500"], spec,
                        tmp_path / "s.json")[0])
    want = {name: [M7_FRAME[1] + row[1]] * 8 for name, row in M7.items()}
    want["call"][0] += 9
    want["loop"] = [v + 3 for v in want["loop"]]
    want["barriers"] = [v + 3 for v in want["barriers"]]  # ISB: a flush
    assert got == want


@pytest.mark.parametrize("cpu", ["m0", "m0plus", "m7"])
def test_two_runs_in_cycles_are_identical(plugin: Path, firmware: dict[str, Path], cpu: str,
                                          tmp_path: Path) -> None:
    machine = MACHINE[cpu]
    spec = qemu_plugin.PluginSpec(Unit.CYCLES, cpu)
    runs = [run(plugin, machine, firmware[machine], spec, tmp_path / f"{i}.json")
            for i in range(2)]
    assert runs[0][0] == runs[1][0]
    assert runs[0][1] == runs[1][1]
    assert int(str(runs[0][1]["cycles"])) > 0
