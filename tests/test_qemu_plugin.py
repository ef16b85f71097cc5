"""The rmcycles QEMU plugin (plugins/qemu/) on real firmware in real QEMU:
known instruction sequences (tests/firmware/cycles.c) against counts worked
out by hand from plugins/qemu/cycle_model.md, on the M3 (an385) and the M4
(an386); the plugin's instruction count against QEMU's own icount; two runs
bit-identical; 1000 NOPs through the measurement pipeline."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from rtosmeter import qemu_binary, qemu_plugin
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.errors import UserError
from rtosmeter.measure import Unit
from rtosmeter.protocol import ParsedStream, parse_stream
from rtosmeter.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cortexm_firmware as fw

pytestmark = pytest.mark.skipif(not fw.have_toolchain(),
                                reason="needs arm-none-eabi-gcc, cmake, ninja, qemu-system-arm")

MACHINES = {"m3": "mps2-an385", "m4": "mps2-an386"}
SHIFT = 6

# Instructions and cycles of each sequence of tests/firmware/cycles.c, by hand
# from the rules of cycle_model.md (the frame's 3 instructions / 4 cycles
# are added below). Cycles per CPU where the M3 and M4 differ.
FRAME_INSNS, FRAME_CYCLES = 3, 4
EXPECTED: dict[str, tuple[int, int, int]] = {  # name: (instructions, M3 cycles, M4 cycles)
    "empty": (0, 0, 0),
    "nops": (100, 100, 100),  # 100 x NOP 1
    # MOVS 1 + 10 x SUBS 1 + 9 x BNE taken 2 (16-bit target) + BNE not taken 1
    "loop16": (21, 30, 30),
    # B 2 + MOVS 1 + NOP 1 + 10 x SUBS.W 1 + 9 x BNE taken 2 (SUBS.W word aligned) + 1
    "loop32_aligned": (23, 33, 33),
    # B 2 + MOVS 1 + 10 x SUBS.W 1 + 9 x BNE taken 3 (32-bit target at addr%4==2) + 1
    "loop32_odd": (22, 41, 41),
    # 10 x (LDR 2 + ADDS 1 + STR 2): nothing pipelines
    "ldr_str": (30, 50, 50),
    # dependent LDR;LDR 2+2, then the TRM's examples 3, 3, 3, 4, each + NOP 1
    "pipelined": (16, 22, 22),
    # PUSH 5 regs 6 + POP 6 + MOV 1 + STMIA 3 regs 4 + SUBS 1 + LDMIA 4 + BL 2
    # + PUSH {r4,lr} 3 + POP {r4,pc} 1+2+3 + B 2 + NOP 1
    "multiple": (11, 36, 36),
    # MOVS 1 + MULS 1 + MLA 2|1 + UMULL 5|1 + SMLAL 7|1 + UDIV 12 (div=12)
    "mul": (6, 28, 17),
    # SVC 1 + entry 12 + BX LR 2 + return 12 + NOP 1
    "svc": (3, 28, 28),
    # LDR literal 2 + MOVS 1 + B 2 + STR (STIR) 2 + entry 12 + BX LR 2 + return 12
    # + NOP 1 + DSB 1 + ISB 2 + NOP 1
    "stir": (9, 38, 38),
    # LDR literal 2 + MOVS 1 + MOVS 1 + B 2 + CPSID 1 + STR 2 + STR 2 + CPSIE 1
    # + entry 12 + BX LR 2 + tail-chain 6 + BX LR 2 + return 12 + NOP 1
    "tailchain": (11, 47, 47),
    # MOVS 1 + CMP 1 + ITT 1 + LDREQ and LDMEQ skipped 1 each + NOP 1
    "it_skipped": (6, 6, 6),
    # MOVS 1 + CMP 1 + ITT 1 + LDREQ 2 + LDMEQ 2 regs 3 + NOP 1
    "it_taken": (6, 9, 9),
}
# The M4F's FP sequences (no FPU on the M3): fp_isr pended through STIR.
FP_EXPECTED: dict[str, tuple[int, int]] = {  # name: (instructions, M4 cycles)
    # CBZ not taken 1 + VMOV 1 + B 2 + STR 2 + entry 12 + VMOV 1 + lazy FP save 17
    # + BX LR 2 + return 12 + FP unstacking 17 + NOP 1 + DSB 1 + ISB 2 + NOP 1
    "irq_fp": (10, 72),
    # CBZ taken 2 + B 2 + STR 2 + entry 12 + VMOV 1 (a basic frame: no save)
    # + BX LR 2 + return 12 + NOP 1 + DSB 1 + ISB 2 + NOP 1
    "irq_nofp": (9, 38),
}


def expected(cpu: str, col: int) -> dict[str, int]:
    """Each sequence's count on `cpu` (col: 0 instructions, 1 cycles)."""
    rows = {name: row[0] if col == 0 else row[1 if cpu == "m3" else 2]
            for name, row in EXPECTED.items()}
    if cpu == "m4":
        rows.update({name: row[col] for name, row in FP_EXPECTED.items()})
    return rows


@pytest.fixture(scope="module")
def plugin() -> Path:
    subprocess.run(["make", "-s", "-C", str(qemu_plugin.PLUGIN_DIR)], check=True)
    so = qemu_plugin.plugin_path()
    assert so is not None
    return so


def plugin_defines(spec: qemu_plugin.PluginSpec) -> dict[str, str]:
    return qemu_plugin.build_defines(spec, SHIFT)


@pytest.fixture(scope="module")
def firmware(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    """cpu -> group -> ELF, built with RM_TS_PLUGIN (the unit text does not
    change the code)."""
    spec = qemu_plugin.PluginSpec(Unit.INSTRUCTIONS)
    out: dict[str, dict[str, Path]] = {}
    for cpu, machine in MACHINES.items():
        out[cpu] = fw.build(tmp_path_factory.mktemp(f"plugin-{cpu}"), f"qemu-{machine}",
                            ["cycles", "nops", "hang"], extra=plugin_defines(spec))
    return out


def qemu_cmd(so: Path, machine: str, elf: Path, args: list[str],
             shift: int = SHIFT) -> list[str]:
    return [qemu_binary.chosen(), "-M", machine, "-nographic", "-monitor", "none",
            "-serial", "stdio", "-semihosting-config", "enable=on,target=native",
            "-icount", f"shift={shift},align=off,sleep=off",
            "-plugin", ",".join([str(so), *args]), "-kernel", str(elf)]


def run_plugin(so: Path, cpu: str, elf: Path, spec: qemu_plugin.PluginSpec,
               summary: Path) -> tuple[bytes, dict[str, object]]:
    counter = qemu_plugin.counter_address(elf)
    assert counter is not None
    proc = subprocess.run(qemu_cmd(so, MACHINES[cpu], elf, spec.args(counter, summary)),
                          capture_output=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    return proc.stdout, json.loads(summary.read_text())


def sequences(stream: bytes) -> dict[str, set[int]]:
    parsed: ParsedStream = parse_stream(stream)
    case = parsed.case("selftest.sequences")
    assert case.status == "ok"
    return {name: set(s.samples) for name, s in case.series.items()}


@pytest.mark.parametrize("cpu", ["m3", "m4"])
@pytest.mark.slow
def test_known_sequences_in_cycles(plugin: Path, firmware: dict[str, dict[str, Path]],
                                   cpu: str, tmp_path: Path) -> None:
    spec = qemu_plugin.PluginSpec(Unit.CYCLES, cpu)
    stream, summary = run_plugin(plugin, cpu, firmware[cpu]["cycles"], spec,
                                 tmp_path / "s.json")
    got = sequences(stream)
    assert got == {name: {FRAME_CYCLES + n} for name, n in expected(cpu, 1).items()}
    assert summary["model"] == qemu_plugin.MODEL and summary["cpu"] == cpu
    # every SVC and STIR entry returned; no exception left open
    assert summary["exception_entries"] == summary["exception_returns"]
    # each sample of it_skipped skips two; irq_fp's frames are extended and saved
    assert summary["it_skipped"] >= 2 * 8
    if cpu == "m4":
        assert summary["fp_frames"] >= 8 and summary["lazy_fp_saves"] == 8


@pytest.mark.slow
@pytest.mark.parametrize("cpu", ["m3", "m4"])
def test_known_sequences_in_instructions(plugin: Path, firmware: dict[str, dict[str, Path]],
                                         cpu: str, tmp_path: Path) -> None:
    spec = qemu_plugin.PluginSpec(Unit.INSTRUCTIONS)
    stream, _ = run_plugin(plugin, cpu, firmware[cpu]["cycles"], spec, tmp_path / "s.json")
    assert sequences(stream) == {n: {FRAME_INSNS + v} for n, v in expected(cpu, 0).items()}


@pytest.mark.slow
def test_wait_states_and_divide_cost_move_only_their_rows(
        plugin: Path, firmware: dict[str, dict[str, Path]], tmp_path: Path) -> None:
    """ws=2: +2 per pipeline refill (taken branch, load into PC) and per
    literal load; div=2: UDIV 2 instead of 12."""
    spec = qemu_plugin.PluginSpec(Unit.CYCLES, "m4", ws=2, div=2)
    got = sequences(run_plugin(plugin, "m4", firmware["m4"]["cycles"], spec,
                               tmp_path / "s.json")[0])
    base = {name: FRAME_CYCLES + n for name, n in expected("m4", 1).items()}
    refills = {"loop16": 9, "loop32_aligned": 10, "loop32_odd": 10, "multiple": 3,
               "svc": 1, "stir": 3, "tailchain": 4,  # an exception return's BX LR refills
               "irq_fp": 2, "irq_nofp": 3}
    for name, n in refills.items():
        base[name] += 2 * n
    base["mul"] -= 10
    assert got == {name: {v} for name, v in base.items()}


@pytest.mark.slow
def test_two_runs_are_identical(plugin: Path, firmware: dict[str, dict[str, Path]],
                                tmp_path: Path) -> None:
    spec = qemu_plugin.PluginSpec(Unit.CYCLES, "m4")
    runs = [run_plugin(plugin, "m4", firmware["m4"]["cycles"], spec, tmp_path / f"{i}.json")
            for i in range(2)]
    assert runs[0][0] == runs[1][0]
    assert runs[0][1] == runs[1][1]


@pytest.mark.slow
def test_1000_nops_through_the_pipeline(plugin: Path,
                                        firmware: dict[str, dict[str, Path]],
                                        tmp_path: Path) -> None:
    """tests/firmware/nops.c with the inline rm_ts(): no fractions, every
    sample equal, samples minus the timestamp's own cost = 1000 in both units."""
    for spec in (qemu_plugin.PluginSpec(Unit.INSTRUCTIONS),
                 qemu_plugin.PluginSpec(Unit.CYCLES, "m3")):
        stream, _ = run_plugin(plugin, "m3", firmware["m3"]["nops"], spec, tmp_path / "s.json")
        parsed = parse_stream(stream)
        nops = np.array(parsed.case("selftest.nops").series["nops"].samples)
        overhead = np.array(parsed.case("calib.overhead").series["overhead"].samples)
        assert np.ptp(nops) == 0 and np.ptp(overhead) == 0
        assert int(nops[0] - overhead[0]) == 1000, spec


class _Qmp:
    def __init__(self, path: Path) -> None:
        deadline = time.monotonic() + 20
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(str(path))
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.file = self.sock.makefile("rwb")
        self.file.readline()  # greeting
        self.call("qmp_capabilities")

    def call(self, command: str) -> object:
        self.file.write(json.dumps({"execute": command}).encode() + b"\n")
        self.file.flush()
        while True:
            reply = json.loads(self.file.readline())
            if "return" in reply or "error" in reply:
                return reply.get("return")


@pytest.mark.parametrize("mode", ["instructions", "cycles"])
@pytest.mark.slow
def test_instruction_count_equals_qemu_icount(plugin: Path,
                                              firmware: dict[str, dict[str, Path]],
                                              mode: str, tmp_path: Path) -> None:
    """The firmware (hang.c: start-up, calibration, a record, then a spin)
    runs a while; QMP stops the VM and reads QEMU's icount (query-replay);
    quitting then makes the plugin write its own count: they must be equal."""
    elf = firmware["m3"]["hang"]
    spec = qemu_plugin.PluginSpec(Unit(mode), "m3" if mode == "cycles" else "")
    qmp_path, summary = tmp_path / "qmp.sock", tmp_path / "s.json"
    cmd = qemu_cmd(plugin, MACHINES["m3"], elf,
                   spec.args(qemu_plugin.counter_address(elf), summary))
    cmd[1:1] = ["-qmp", f"unix:{qmp_path},server=on,wait=off"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        qmp = _Qmp(qmp_path)
        time.sleep(1.0)
        qmp.call("stop")
        replay = qmp.call("query-replay")
        assert isinstance(replay, dict)
        icount = int(replay["icount"])
        qmp.call("quit")
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    counted = json.loads(summary.read_text())["instructions"]
    assert icount > 100_000
    assert counted == icount


@pytest.mark.slow
def test_bad_arguments_are_refused_by_name(plugin: Path,
                                           firmware: dict[str, dict[str, Path]]) -> None:
    for arg, msg in (("mode=fast", "unknown mode 'fast'"), ("cpu=m33", "no cycle model"),
                     ("wait=1", "unknown argument 'wait=1'"), ("counter=0x3", "bad counter"),
                     ("mul=2", "bad multiply cycles"), ("bp=0", "bad branch misprediction")):
        proc = subprocess.run(qemu_cmd(plugin, MACHINES["m3"], firmware["m3"]["nops"], [arg]),
                              capture_output=True, text=True, timeout=60, check=False)
        assert proc.returncode != 0
        assert f"Error: rmcycles plugin: {msg}" in proc.stderr


def test_units_and_arguments() -> None:
    spec = qemu_plugin.spec_for("cycles", "cortex-m4", "mps2-an386", "target t", ws=1)
    assert spec == qemu_plugin.PluginSpec(Unit.CYCLES, "m4", 1, 12)
    assert spec.unit == f"cycles (estimated: {qemu_plugin.MODEL}, m4, ws=1)"
    assert spec.args(0x3FFFF0) == ["mode=cycles", "cpu=m4", "ws=1", "div=12",
                                   "counter=0x3ffff0"]
    ins = qemu_plugin.spec_for("instructions", "cortex-m7", "mps2-an500", "target t")
    assert ins is not None and ins.unit == "instructions (QEMU, exact)"
    assert qemu_plugin.spec_for("ticks", "cortex-m4", "mps2-an386", "t") is None
    m7 = qemu_plugin.spec_for("cycles", "cortex-m7", "mps2-an500", "target t")
    assert m7 is not None and m7.args() == ["mode=cycles", "cpu=m7", "ws=0", "div=12", "bp=6"]
    m0 = qemu_plugin.spec_for("cycles", "cortex-m0", "microbit", "target t")
    assert m0 is not None and m0.args() == ["mode=cycles", "cpu=m0", "ws=0", "div=12", "mul=1"]
    with pytest.raises(UserError, match="no cycle table for CPU 'cortex-m33'"):
        qemu_plugin.spec_for("cycles", "cortex-m33", "mps2-an386", "target t")
    with pytest.raises(UserError, match="Valid units: instructions, cycles, ticks"):
        qemu_plugin.spec_for("µs", "cortex-m4", "mps2-an386", "target t")
    with pytest.raises(UserError, match="machine 'lm3s6965evb'"):
        qemu_plugin.spec_for("instructions", "cortex-m3", "lm3s6965evb", "target t")


@pytest.mark.rtos
@pytest.mark.parametrize(("port", "env"), [("freertos", "RTOSMETER_FREERTOS"),
                                            ("threadx", "RTOSMETER_THREADX")])
def test_an_rtos_run_in_cycles_repeats_exactly(port: str, env: str, tmp_path: Path) -> None:
    """A kernel's context switches, SVCs, PendSV tail-chains and SysTick
    interrupts through the cycle model: two runs, the same bytes."""
    tree = os.environ.get(env, "")
    if not tree or not Path(tree).is_dir():
        pytest.skip(f"{env} is not set to the {port} tree")
    streams = []
    for out in (tmp_path / "a", tmp_path / "b"):
        summary = run_campaign(RunOptions(out=out, ports=(port,), targets=("qemu-mps2-an386",),
                                          bench="lat.sem.*,lat.isr.*", sources={port: Path(tree)},
                                          unit="cycles", quiet=True))
        assert summary.failed == 0 and summary.builds_failed == 0
        with Store.open(out / "rtosmeter.sqlite") as st:
            exs = sorted(st.executions(summary.run_id), key=lambda e: e.group)
            assert exs and all(e.runner["mode"] == "cycles" for e in exs)
            # every exception the kernel took returned (a tail-chain passes
            # its frame on): the firmware exits from thread mode
            for e in exs:
                entries = int(e.runner["plugin_exception_entries"])
                assert entries > 0
                assert entries == int(e.runner["plugin_exception_returns"])
            streams.append([st.stream(e.id) for e in exs])
    assert streams[0] == streams[1]


def test_clock_and_units_for_reports() -> None:
    assert qemu_plugin.parse_clock("80MHz") == 80_000_000
    assert qemu_plugin.parse_clock("64 mhz") == 64_000_000
    assert qemu_plugin.parse_clock("120000000Hz") == 120_000_000
    assert qemu_plugin.parse_clock("1GHz") == 1_000_000_000
    with pytest.raises(UserError, match="'fast' is not a clock rate in --clock"):
        qemu_plugin.parse_clock("fast")
    with pytest.raises(UserError, match="'80' has no unit"):
        qemu_plugin.parse_clock("80")
    with pytest.raises(UserError, match="faster than any Cortex-M runs"):
        qemu_plugin.parse_clock("1.5GHz")
    spec = qemu_plugin.PluginSpec(Unit.CYCLES, "m4")
    cyc = spec.unit
    assert cyc == qemu_plugin.unit_label(Unit.CYCLES, "m4", 0)
    # the unit comes from what the run recorded, not from the label's text
    assert qemu_plugin.unit_of({"plugin": "rmcycles", "mode": "cycles"}) is Unit.CYCLES
    assert qemu_plugin.unit_of({"plugin": "rmcycles", "mode": "instructions"}) \
        is Unit.INSTRUCTIONS
    assert qemu_plugin.unit_of({"runner": "qemu", "unit": cyc}) is None
    with pytest.raises(ValueError):
        qemu_plugin.unit_label(Unit.TICKS)
    label, per = qemu_plugin.estimated_time(Unit.CYCLES, cyc, 80_000_000)
    assert label.startswith("µs (estimated at 80 MHz from cycles") and per == 1 / 80
    assert "1 cycle per instruction" in qemu_plugin.estimated_time(
        Unit.INSTRUCTIONS, "instructions (QEMU, exact)", 64_000_000)[0]
