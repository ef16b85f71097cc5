"""The board runner: its semihosting loop against a real CPU, and its errors.

No board is attached here, so the loop runs against QEMU's gdbstub: the
real STM32F407 board firmware (semihosting console and exit, as on the
board) is loaded into QEMU's netduinoplus2 (an STM32F405: same flash, RAM
and core), started empty with `-gdb ... -S` and no `-semihosting`, through
the gdb protocol (the `gdb` probe's load), reset with QEMU's monitor
command, and pyOCD's own agent serves its calls through the runner's GDB
adapter. QEMU has no DWT cycle counter,
so the figures are zeros: what is checked is the stream, the exit status,
faults and limits. Tests with a probe run only when RTOSMETER_PROBE_UID
names one.
"""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from cortexm_firmware import ROOT, TEST_CASES, build, have_toolchain
from test_build import spec_for

from rtosmeter import qemu_plugin
from rtosmeter.build import config_header
from rtosmeter.catalog import load_catalog
from rtosmeter.definitions import Definitions, Target
from rtosmeter.errors import UserError
from rtosmeter.measure import Unit
from rtosmeter.plan import PlannedBuild
from rtosmeter.protocol import parse_stream
from rtosmeter.record import RunJob, execution_status
from rtosmeter.runners import firmware_defines, runner_for
from rtosmeter.runners.base import RunOutcome, RunRequest
from rtosmeter.runners.board_settings import board_settings
from rtosmeter.runners.gdbload import segments
from rtosmeter.runners.rtt import rtt_address

pytestmark = pytest.mark.skipif(not have_toolchain(), reason="needs arm-none-eabi-gcc and QEMU")
BOARD = "stm32f407"
SMALL = {"RM_SAMPLES": 64, "RM_BATCH": 16}
QEMU_RESET = "system_reset"  # QEMU's monitor command for [board] gdb_reset


@pytest.fixture(scope="module")
def target() -> Target:
    return Definitions.load().targets[BOARD]


@pytest.fixture(scope="module")
def firmware(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The board firmware: a real benchmark group and the self-test groups."""
    out = tmp_path_factory.mktemp("board-fw")
    # one build: a benchmark group beside the self-test groups
    cases = _cases(out, *(TEST_CASES / f"{g}.c" for g in ("early_exit", "fault", "hang")))
    return build(out, BOARD, ["lat_isr", "early_exit", "fault", "hang"], cases=cases,
                 extra={k: str(v) for k, v in SMALL.items()})


def _cases(out: Path, *more: Path) -> Path:
    """A case folder of lat_isr (and `more`) for cortexm_firmware.build."""
    cases = out / "cases"
    cases.mkdir()
    for src in [*(ROOT / "bench" / "cases").glob("*.h"), ROOT / "bench" / "cases" / "lat_isr.c",
                *more]:
        (cases / src.name).symlink_to(src)
    return cases


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def gdbstub() -> Iterator[object]:
    """Start QEMU halted behind its gdbstub for a firmware; stopped by PID after the test."""
    started: list[subprocess.Popen[bytes]] = []

    def start(machine: str = "netduinoplus2", *extra: str) -> str:
        """An empty machine: the runner loads the firmware through the gdbstub itself."""
        port = _free_port()
        started.append(subprocess.Popen(
            ["qemu-system-arm", "-M", machine, "-nographic", "-monitor", "none",
             "-serial", "null", *extra, "-gdb", f"tcp:127.0.0.1:{port}", "-S"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        return f"127.0.0.1:{port}"

    yield start
    for proc in started:
        proc.kill()
        proc.wait()


def run_board(target: Target, elf: Path, wall_s: float = 120.0, **board: str) -> RunOutcome:
    """Run through the board runner; QEMU's reset command is `system_reset`."""
    t = replace(target, board={**target.board, "gdb_reset": QEMU_RESET, **board},
                wall_limit_s=wall_s)
    runner = runner_for(t)
    runner.prepare(RunRequest(elf, t))
    return runner.run()


@pytest.mark.slow
def test_full_stream_through_pyocd_semihosting(target: Target, firmware: dict[str, Path],
                                               gdbstub) -> None:  # type: ignore[no-untyped-def]
    out = run_board(target, firmware["lat_isr"], probe="gdb", gdb=gdbstub())
    assert out.status == "ok", out.message
    assert out.exit_code == 0
    parsed = parse_stream(out.stream)
    assert parsed.complete and not parsed.errors
    assert parsed.header["target"] == BOARD
    assert {c.id for c in parsed.cases} >= {"lat.isr.entry"}
    series = [s for c in parsed.cases for s in c.series.values()]
    assert series and all(len(s.samples) == SMALL["RM_SAMPLES"] for s in series)
    assert int(out.info["semihosting_calls"]) > len(parsed.cases)  # open, writes, exit
    # QEMU started empty: the runner loaded the ELF into flash over the gdb protocol
    assert int(out.info["loaded_bytes"]) == sum(len(s.data) for s in segments(firmware["lat_isr"]))


@pytest.mark.slow
def test_exit_status_passes_through(target: Target, firmware: dict[str, Path],
                                    gdbstub) -> None:  # type: ignore[no-untyped-def]
    out = run_board(target, firmware["early_exit"], probe="gdb",
                    gdb=gdbstub())
    assert (out.status, out.exit_code) == ("exit", 5)
    assert b"before_exit" in out.stream and "before BYE" in out.message


@pytest.mark.slow
def test_fault_is_reported_with_its_record(target: Target, firmware: dict[str, Path],
                                           gdbstub) -> None:  # type: ignore[no-untyped-def]
    out = run_board(target, firmware["fault"], probe="gdb", gdb=gdbstub())
    assert (out.status, out.exit_code) == ("fault", 3)
    assert b" FAULT " in out.stream and "addr2line" in out.message


@pytest.mark.slow
def test_hang_stops_at_the_wall_limit_keeping_the_stream(
        target: Target, firmware: dict[str, Path], gdbstub) -> None:  # type: ignore[no-untyped-def]
    out = run_board(target, firmware["hang"], wall_s=3, probe="gdb",
                    gdb=gdbstub())
    assert out.status == "timeout" and "3 s" in out.message
    assert b" HELLO " in out.stream


@pytest.mark.slow
def test_a_clock_that_never_starts_is_reported_not_hung(
        target: Target, tmp_path: Path, gdbstub) -> None:  # type: ignore[no-untyped-def]
    """The board's own clock set-up (board_clock = "max") on a machine whose
    RCC never sets a ready flag (QEMU models no STM32F405 RCC: it reads 0):
    the bounded wait names the flag through semihosting and exits 4, before
    main, instead of hanging."""
    elf = build(tmp_path, BOARD, ["lat_isr"], cases=_cases(tmp_path),
                extra={k: str(v) for k, v in SMALL.items()}, board_clock="max")["lat_isr"]
    out = run_board(target, elf, wall_s=60, probe="gdb", gdb=gdbstub())
    assert (out.status, out.exit_code) == ("exit", 4), out.message
    assert out.stream.startswith(b"rtosmeter: board clock set-up failed: RCC_CR HSERDY "
                                 b"(8 MHz HSE crystal) never became ready"), out.stream[:200]
    assert b"HELLO" not in out.stream
    # the stored execution's error quotes the line
    job = RunJob(PlannedBuild("baremetal", BOARD, "default", "", ["lat_isr"], {}), "lat_isr", 1,
                 elf, target)
    status, error = execution_status(out, parse_stream(out.stream), job)
    assert status == "failed" and "RCC_CR HSERDY (8 MHz HSE crystal) never became ready" in error


no_probe = pytest.mark.skipif(bool(os.environ.get("RTOSMETER_PROBE_UID")),
                              reason="a probe is configured (RTOSMETER_PROBE_UID)")


@pytest.mark.slow
@no_probe
def test_no_probe_pyocd_names_board_and_probe(target: Target,
                                              firmware: dict[str, Path]) -> None:
    out = run_board(target, firmware["lat_isr"], probe="pyocd")
    assert out.status == "error"
    assert "board stm32f407" in out.message and "pyOCD finds no debug probe" in out.message
    assert "stm32f407vg" in out.message


@pytest.mark.slow
@no_probe
def test_no_probe_openocd_names_board_and_config(target: Target,
                                                 firmware: dict[str, Path]) -> None:
    out = run_board(target, firmware["lat_isr"], probe="openocd")
    assert out.status == "error", out.message
    assert "board stm32f407: OpenOCD finds no debug probe" in out.message
    assert "board/stm32f4discovery.cfg" in out.message


# ---- RTT: the stream out of RAM, read by pyOCD's RTT code through the adapter ----

MPS2 = "qemu-mps2-an385"
PLUGIN = qemu_plugin.PluginSpec(Unit.INSTRUCTIONS)  # exact counts: a phase-free stream


@pytest.fixture(scope="module")
def mps2_firmware(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """lat_isr for MPS2 with the UART stream (the default) and built for RTT."""
    out = {}
    for name, extra in (("uart", {}), ("rtt", {"RM_STREAM_RTT": "1"})):
        tmp = tmp_path_factory.mktemp(f"mps2-{name}")
        out[name] = build(tmp, MPS2, ["lat_isr"], cases=_cases(tmp),
                          extra={**qemu_plugin.build_defines(PLUGIN, 6), **extra})["lat_isr"]
    return out


def _plugin_args(elf: Path) -> list[str]:
    so = qemu_plugin.plugin_path()
    if so is None:
        pytest.fail("the QEMU plugin is not built: run scripts/install.sh")
    return ["-icount", "shift=6,align=off,sleep=off",
            "-plugin", ",".join([str(so), *PLUGIN.args(qemu_plugin.counter_address(elf))])]


@pytest.mark.slow
def test_rtt_stream_equals_the_uart_stream(mps2_firmware: dict[str, Path],
                                           gdbstub) -> None:  # type: ignore[no-untyped-def]
    """The RTT build, loaded into an empty MPS2 through the gdbstub, streams
    through its up-buffer (semihosting only for the exit): byte for byte
    the stream the UART build writes under a plain QEMU run."""
    uart, rtt = mps2_firmware["uart"], mps2_firmware["rtt"]
    assert rtt_address(uart) is None and rtt_address(rtt) is not None
    plain = subprocess.run(
        ["qemu-system-arm", "-M", "mps2-an385", "-nographic", "-monitor", "none",
         "-serial", "stdio", "-semihosting-config", "enable=on,target=native",
         *_plugin_args(uart), "-kernel", str(uart)], capture_output=True, timeout=120)
    assert plain.returncode == 0 and parse_stream(plain.stdout).complete
    target = Definitions.load().targets[MPS2]
    out = run_board(replace(target, kind="board"), rtt, probe="gdb",
                    gdb=gdbstub("mps2-an385", *_plugin_args(rtt)))
    assert out.status == "ok", out.message
    assert out.stream == plain.stdout
    assert out.info["semihosting_calls"] == "1"  # the exit: every record came through RTT
    assert int(out.info["rtt_bytes"]) == len(plain.stdout) and int(out.info["rtt_polls"]) > 1


def test_rtt_is_the_board_files_build_option(target: Target, tmp_path: Path) -> None:
    defs = Definitions.load()
    spec = spec_for(defs, tmp_path, ("lat_isr",), port="baremetal", target=BOARD)
    catalog = load_catalog(ROOT)

    def header(stream: str | None) -> str:
        """The header as the executor has it built: the board runner's defines."""
        board = {**target.board, "stream": stream} if stream else target.board
        t = replace(target, board=board)
        return config_header(replace(spec, target=t,
                                     runner_defines=tuple(firmware_defines(t).items())),
                             catalog)

    assert "RM_STREAM_RTT" not in header(None)  # semihosting by default
    assert "#define RM_STREAM_RTT 1" in header("rtt")
    with pytest.raises(UserError, match="unknown stream 'swo'") as exc:
        header("swo")
    assert "stm32f407/target.toml (key 'board.stream')" in exc.value.where


@pytest.mark.slow
def test_openocd_refuses_an_rtt_build_by_name(target: Target,
                                              mps2_firmware: dict[str, Path]) -> None:
    out = run_board(target, mps2_firmware["rtt"], probe="openocd")
    assert out.status == "error"
    assert "rm_lat_isr.elf writes its stream to RTT" in out.message and "stm32f407" in out.message


@pytest.mark.slow
def test_no_gdb_server_is_a_clear_error(target: Target, firmware: dict[str, Path]) -> None:
    out = run_board(target, firmware["lat_isr"], probe="gdb", gdb=f"127.0.0.1:{_free_port()}")
    assert out.status == "error" and "no GDB server at 127.0.0.1:" in out.message


def test_every_board_target_names_its_probe_settings() -> None:
    boards = [t for t in Definitions.load().targets.values() if t.kind == "board"]
    assert len(boards) == 5
    for t in boards:
        s = board_settings(t)
        assert s.probe == "pyocd" and s.pyocd_target and s.openocd
        for cfg in s.openocd:  # each OpenOCD config exists in Debian's package
            assert Path("/usr/share/openocd/scripts", cfg).is_file(), (t.name, cfg)


def test_bad_board_table_names_file_and_key(target: Target) -> None:
    with pytest.raises(UserError, match=r"unknown probe tool 'jtagfoo'.*key 'board.probe'"):
        board_settings(replace(target, board={**target.board, "probe": "jtagfoo"}))
    with pytest.raises(UserError, match=r"unknown key 'board\.serial_speed'"):
        board_settings(replace(target, board={**target.board, "serial_speed": 1}))


@pytest.mark.skipif(not os.environ.get("RTOSMETER_PROBE_UID"),
                    reason="no probe configured: set RTOSMETER_PROBE_UID and RTOSMETER_BOARD")
def test_real_board(firmware: dict[str, Path]) -> None:
    t = Definitions.load().targets[os.environ.get("RTOSMETER_BOARD", BOARD)]
    out = run_board(t, firmware["lat_isr"])
    assert out.status == "ok", out.message
