"""The QEMU runner on real firmware: bare-metal builds of bench/cases/irq.c
and of the test firmware in tests/firmware, built with arm-none-eabi-gcc and
run in qemu-system-arm under -icount."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from elftools.elf.elffile import ELFFile

from rtosmeter import analysis, qemu_binary, sample_units
from rtosmeter.catalog import load_catalog
from rtosmeter.definitions import Definitions
from rtosmeter.protocol import name_missing, parse_stream
from rtosmeter.runners import run_once
from rtosmeter.runners.base import RunOutcome, RunRequest
from rtosmeter.runners.qemu import QemuOptions, qemu_command

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cortexm_firmware as fw
from procs import qemu_runs, still_alive

pytestmark = pytest.mark.skipif(not fw.have_toolchain(),
                                reason="needs arm-none-eabi-gcc, cmake, ninja, qemu-system-arm")

SELFTEST = ["nops", "fault", "hang", "early_exit", "lockup"]


@pytest.fixture(scope="module")
def selftest(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return fw.build(tmp_path_factory.mktemp("selftest"), "qemu-mps2-an385", SELFTEST)


@pytest.fixture(scope="module")
def irq_an385(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fw.build(tmp_path_factory.mktemp("irq"), "qemu-mps2-an385", ["irq"],
                    cases=fw.ROOT / "bench" / "cases")["irq"]


DEFS = Definitions.load(fw.ROOT)


def request(elf: Path, machine: str = "mps2-an385", icount: bool = True,
            **kw: float) -> RunRequest:
    target = replace(DEFS.target(f"qemu-{machine}"), wall_limit_s=kw.get("wall", 30.0),
                     guest_limit_s=kw.get("guest", 10.0))
    return RunRequest(elf, target, options=QemuOptions(icount))


def run(elf: Path, machine: str = "mps2-an385", **kw: float) -> RunOutcome:
    return run_once(request(elf, machine, **kw))


@pytest.mark.slow
def test_same_firmware_twice_gives_identical_streams(irq_an385: Path) -> None:
    a, b = run(irq_an385), run(irq_an385)
    assert a.status == "ok", a.message
    assert a.stream == b.stream
    parsed = parse_stream(a.stream)
    assert parsed.errors == []
    assert parsed.complete and parsed.bye_status == 0
    ids = {c.id: c for c in parsed.cases}
    # Bare metal (caps: IRQ only) runs every case but irq.blocking, which
    # needs tasks: the runner reports it unsupported with the mask it lacks.
    assert {c.id: c.status for c in parsed.cases} == {
        "calib.overhead": "ok", "irq.latency": "ok", "irq.latency_jitter": "ok",
        "irq.blocking": "unsupported", "irq.max_rate": "ok"}
    catalog = load_catalog(fw.ROOT)
    blocking = ids["irq.blocking"]
    needs = catalog.caps_mask(next(c for c in catalog.cases if c.id == "irq.blocking").needs)
    assert blocking.missing == needs & ~catalog.caps_mask(["IRQ"]) != 0
    name_missing(parsed, {c.bit: n for n, c in catalog.caps.items()})
    assert blocking.reason.startswith("port lacks THREAD, ")
    assert "IRQ" not in blocking.reason and ":" not in blocking.reason  # no run-time note
    assert len(ids["irq.latency"].series["latency"].samples) == fw.PARAMS["RM_SAMPLES"]
    rate = ids["irq.max_rate"].meta
    assert int(rate["max_rate_hz"]) * int(rate["max_rate_period_ticks"]) <= 25_000_000


@pytest.mark.slow
def test_info_records_the_qemu_run(irq_an385: Path) -> None:
    out = run(irq_an385)
    assert out.info["runner"] == "qemu"
    assert out.info["qemu"] == qemu_binary.default().version != ""  # RTOSMETER_QEMU's, or PATH's
    assert out.info["machine"] == "mps2-an385"
    assert out.info["icount_shift"] == "6"
    assert "-icount shift=6,align=off,sleep=off" in out.info["command"]
    # The console is a file QEMU writes, never a pipe the harness could let fill.
    assert "-chardev file,id=rm,path=CONSOLE -serial chardev:rm" in out.info["command"]
    assert out.info["command"].endswith(f"-kernel {irq_an385}")


@pytest.mark.slow
def test_exact_instruction_count_of_1000_nops(selftest: dict[str, Path]) -> None:
    """shift 6: one instruction = 64 ns = 1.6 ticks of the 25 MHz timer. The
    loop's timer phase cycles, so samples take two neighbouring values (NOPs
    + the inline timestamp read, and the two reads alone); the medians differ
    by exactly 1600 ticks, and the pipeline (overhead subtraction, tick ->
    instruction unit) gives 1000."""
    out = run(selftest["nops"])
    assert out.status == "ok", out.message
    parsed = parse_stream(out.stream)
    overhead = np.array(parsed.case("calib.overhead").series["overhead"].samples[1:])
    nops = np.array(parsed.case("selftest.nops").series["nops"].samples)
    assert np.ptp(nops) <= 1 and np.ptp(overhead) <= 1
    assert np.median(nops) - np.median(overhead) == 1600
    unit = sample_units.unit_for(parsed.header, out.info)
    assert unit.label == "instructions (QEMU icount)" and unit.deterministic
    dist = analysis.distribution(nops[1:], "nops", "", unit, float(np.median(overhead)))
    assert dist.p50 == 1000.0


def _symbol_range(elf: Path, name: str) -> tuple[int, int]:
    with elf.open("rb") as f:
        symtab = ELFFile(f).get_section_by_name(".symtab")
        sym = symtab.get_symbol_by_name(name)[0]  # type: ignore[union-attr]
        start = int(sym["st_value"]) & ~1
        return start, start + int(sym["st_size"])


@pytest.mark.slow
def test_bad_pointer_gives_a_fault_with_pc(selftest: dict[str, Path]) -> None:
    out = run(selftest["fault"])
    assert out.status == "fault" and out.exit_code == 3
    parsed = parse_stream(out.stream)
    assert parsed.fault is not None
    pc = int(parsed.fault["pc"], 16)
    start, end = _symbol_range(selftest["fault"], "selftest_bad_read")
    assert start <= pc < end
    assert int(parsed.fault["cfsr"], 16) & 0x8200 == 0x8200  # BFARVALID | PRECISERR
    assert parsed.fault["bfar"] == "f0000000"
    assert parsed.bye_status == 3
    assert f"pc={parsed.fault['pc']}" in out.message


@pytest.mark.slow
def test_hang_is_killed_at_the_wall_limit_and_kept(selftest: dict[str, Path]) -> None:
    out = run(selftest["hang"], wall=1.5, guest=1e6)
    assert out.status == "timeout"
    assert 1.5 <= out.wall_s < 10
    parsed = parse_stream(out.stream)
    assert parsed.case("selftest.hang").meta == {"before_hang": "1"}
    assert not parsed.complete
    assert str(selftest["hang"]) in out.message
    assert "qemu-system-arm -M mps2-an385" in out.message and "Hint:" in out.message
    assert "raise [limits] wall_s in " in out.message and "target.toml" in out.message


@pytest.mark.slow
def test_hang_is_killed_at_the_guest_limit(selftest: dict[str, Path]) -> None:
    out = run(selftest["hang"], wall=60, guest=0.5)
    assert out.status == "timeout"
    assert "guest time" in out.message
    assert int(out.info["icount"]) >= int(0.5e9) >> 6
    assert parse_stream(out.stream).case("selftest.hang").status == "incomplete"


@pytest.mark.slow
def test_early_exit_with_status(selftest: dict[str, Path]) -> None:
    out = run(selftest["early_exit"])
    assert out.status == "exit" and out.exit_code == 5
    assert "before BYE" in out.message
    assert parse_stream(out.stream).case("selftest.early_exit").meta["before_exit"] == "1"


@pytest.mark.slow
def test_lockup_is_a_fault(selftest: dict[str, Path]) -> None:
    out = run(selftest["lockup"])
    assert out.status == "fault"
    assert "lockup" in out.message.lower()
    assert int(out.info["guest_errors"]) >= 1  # 10.0 logs them with -d invalid_mem


@pytest.mark.slow
def test_missing_firmware_is_an_error(tmp_path: Path) -> None:
    out = run(tmp_path / "nothing.elf")
    assert out.status == "error"
    assert out.message.startswith("Error: firmware")


@pytest.mark.slow
def test_host_timed_run_is_labelled(irq_an385: Path) -> None:
    req = request(irq_an385, icount=False)
    assert "-icount" not in qemu_command(req, Path("console"))
    out = run_once(req)
    # Without -icount the timer follows the host clock, so irq.max_rate may
    # lose events at any rate: only the run's completeness is checked.
    assert parse_stream(out.stream).complete, out.message
    assert out.info["icount_shift"] == "off" and out.info["timing"] == "host-timed, noisy"


@pytest.mark.parametrize("target", ["qemu-mps2-an386", "qemu-mps2-an500", "qemu-microbit"])
@pytest.mark.slow
def test_irq_group_runs_on_every_qemu_target(target: str,
                                             tmp_path_factory: pytest.TempPathFactory) -> None:
    elf = fw.build(tmp_path_factory.mktemp(target), target, ["irq"],
                   cases=fw.ROOT / "bench" / "cases")["irq"]
    machine = target.removeprefix("qemu-")
    out = run(elf, machine)
    assert out.status == "ok", out.message
    parsed = parse_stream(out.stream)
    assert parsed.errors == [] and parsed.bye_status == 0
    assert parsed.header["target"] == target
    assert parsed.case("irq.latency").status == "ok"


@pytest.mark.slow
def test_jitter_delta_is_marked_no_subtraction(irq_an385: Path) -> None:
    parsed = parse_stream(run(irq_an385).stream)
    assert parsed.case("irq.latency_jitter").series["delta"].subtract is False
    assert parsed.case("irq.latency").series["latency"].subtract is True


@pytest.mark.slow
def test_baremetal_tm_basic_runs_the_loop_on_the_runner(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """No threads: the runner runs the loop and the periodic timer interrupt
    (TIMER0) ends each RM_TM_PERIOD_MS period; the counts are deterministic."""
    elf = fw.build(tmp_path_factory.mktemp("tmb"), "qemu-mps2-an386", ["tm_basic"],
                   cases=fw.ROOT / "bench" / "cases")["tm_basic"]
    out = run(elf, "mps2-an386")
    assert out.status == "ok", out.message
    parsed = parse_stream(out.stream)
    assert parsed.errors == [] and parsed.bye_status == 0
    assert (parsed.header["tick_hz"], parsed.header["tm_period"]) == ("0", "0")
    assert parsed.header["tm_period_ms"] == str(fw.PARAMS["RM_TM_PERIOD_MS"])
    case = parsed.case("tm.basic")
    assert case.status == "ok" and case.meta["reporter"].startswith("periodic timer")
    counts = [c.value for c in case.counts if c.name == "total"]
    assert len(counts) == fw.PARAMS["RM_TM_PERIODS"]
    # 100 ms of virtual time at one instruction per 64 ns is 1.5625 M
    # instructions; one pass of Thread-Metric's basic loop over 1,024 words
    # is about 8,000, so a couple of hundred per period, equal within one
    # iteration from period to period.
    assert 100 < min(counts) < 400 and max(counts) - min(counts) <= 2
    assert parse_stream(run(elf, "mps2-an386").stream).case("tm.basic").counts == case.counts


# ---- nothing left running, nothing taken from the host --------------------------


@pytest.mark.slow
def test_kill_9_of_the_harness_leaves_no_qemu(selftest: dict[str, Path]) -> None:
    """The parent-death signal: QEMU dies with the process that started it."""
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_runner_qemu import request
        from rtosmeter.runners import run_once
        run_once(request({str(selftest["hang"])!r}, wall=600, guest=1e6))
    """)
    harness = subprocess.Popen([sys.executable, "-c", script])
    qemus: list[int] = []
    while harness.poll() is None and not qemus:
        qemus = qemu_runs(harness.pid)
    assert qemus, "the harness ended before QEMU started"
    harness.send_signal(signal.SIGKILL)
    harness.wait()
    assert still_alive(qemus) == []


def _busy_host(n: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


@pytest.mark.slow
def test_streams_do_not_depend_on_host_load(irq_an385: Path) -> None:
    """The console is a file, so a host too busy to read it cannot slow the
    guest's UART: the stream under 4 busy processes is the idle one, byte
    for byte."""
    idle = run(irq_an385, wall=600)
    busy = _busy_host(4)
    try:
        loaded = run(irq_an385, wall=600)
    finally:
        for p in busy:
            p.kill()
            p.wait()
    assert idle.status == loaded.status == "ok", (idle.message, loaded.message)
    assert idle.stream == loaded.stream
