"""Run a firmware on a real board through a debug probe (target kind "board").

The probe tool comes from the target's [board] table (board_settings.py):
pyOCD by default (probe_pyocd.py), OpenOCD (probe_openocd.py), or a GDB
server that already holds the board (gdbremote.py). The firmware's console
and exit are semihosting calls, served by pyOCD's agent (semihosting.py) or
by OpenOCD itself. Runs honour the target's wall-time limit and the stream
cap, and keep every byte received whatever happens, as QEMU runs do.
Boards measure real time: their runs go one at a time (`exclusive`).
"""

from __future__ import annotations

import importlib.util
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rtosmeter import children
from rtosmeter.definitions import Target
from rtosmeter.energy.arrivals import Arrivals
from rtosmeter.errors import UserError
from rtosmeter.runners.base import RunOutcome, RunRequest, looking, stream_cap_message
from rtosmeter.runners.board_settings import BoardSettings, board_settings, stream_of
from rtosmeter.runners.gdbload import load
from rtosmeter.runners.gdbremote import GdbContext, GdbError, GdbRemote, semihost_sites
from rtosmeter.runners.probe_openocd import (
    NO_PROBE,
    no_probe_message,
    openocd_command,
    openocd_missing,
)
from rtosmeter.runners.qemu import _BYE, _FAULT
from rtosmeter.runners.rtt import RttStream, rtt_address

if TYPE_CHECKING:  # semihosting.py needs pyOCD, an optional extra: loaded when a board runs
    from rtosmeter.runners.semihosting import Served


def pyocd_missing() -> str:
    if importlib.util.find_spec("pyocd") is None:
        return "missing pyOCD: pip install 'rtosmeter[boards]' (or scripts/install.sh)"
    return ""


def run_gdb(settings: BoardSettings, elf: Path, cap: int, wall_s: float,
            info: dict[str, str], arrivals: Arrivals | None = None) -> Served:
    """Load the firmware through a GDB server, reset the core, serve the run."""
    from rtosmeter.runners.semihosting import serve

    host, port = settings.gdb_address()
    remote = GdbRemote(host, port)
    try:
        started = time.monotonic()
        info["loaded_bytes"] = str(load(remote, elf))
        if settings.gdb_reset:
            remote.monitor(settings.gdb_reset)
        info["load_s"] = f"{time.monotonic() - started:.3f}"
        context = GdbContext(remote, semihost_sites(elf))
        address = rtt_address(elf)
        rtt = RttStream(context, address) if address is not None else None
        served = serve(context, context, cap, wall_s, rtt=rtt, arrivals=arrivals)
        if rtt is not None:
            info.update(rtt_polls=str(rtt.polls), rtt_bytes=str(rtt.bytes))
        return served
    finally:
        remote.close()


class BoardRunner:
    name: ClassVar[str] = "board"
    exclusive: ClassVar[bool] = True  # real time on real hardware: one at a time

    def __init__(self, poll_s: float = 0.02) -> None:
        self.poll_s = poll_s
        self.request: RunRequest | None = None

    def available(self) -> str:
        """A probe tool is installed (whether a board is attached, the run says)."""
        missing = [m for m in (pyocd_missing(), openocd_missing()) if m]
        return "; ".join(missing) if len(missing) == 2 else ""

    @staticmethod
    def firmware_defines(target: Target) -> dict[str, str]:
        """The RTT stream is compiled in (targets/common/cortex-m/rtt.c)."""
        return {"RM_STREAM_RTT": "1"} if stream_of(target) == "rtt" else {}

    def prepare(self, request: RunRequest) -> None:
        self.request = request

    def run(self) -> RunOutcome:
        request = self.request
        if request is None:
            raise RuntimeError("BoardRunner.run() before prepare()")
        elf = Path(request.executable)
        info = {"runner": self.name, "board": request.target.name, "elf": str(elf)}
        started = time.monotonic()
        try:
            settings = board_settings(request.target)
            info["probe"] = settings.probe
            if not elf.is_file():
                raise UserError(f"firmware {elf} does not exist", f"board {settings.board}",
                                "Build it with rtosmeter run")
            if settings.probe == "openocd":
                return self._openocd(request, settings, elf, info)
            missing = pyocd_missing()
            if missing:
                raise UserError(missing, f"board {settings.board}", "Install it")
            if settings.probe == "gdb":
                info["gdb"] = settings.gdb
                served = run_gdb(settings, elf, request.stream_cap, request.target.wall_limit_s,
                                 info, request.arrivals)
            else:
                from rtosmeter.runners.probe_pyocd import pyocd_version, run_pyocd

                info.update(pyocd=pyocd_version(), pyocd_target=settings.pyocd_target)
                served = run_pyocd(settings, elf, request.stream_cap,
                                   request.target.wall_limit_s, request.arrivals)
        except UserError as exc:
            return RunOutcome(b"", "error", None, f"Error: {exc.message}", 0.0, info)
        except (GdbError, OSError) as exc:
            return RunOutcome(b"", "error", None, f"Error: board {request.target.name}: "
                              f"{exc}", time.monotonic() - started, info)
        info["semihosting_calls"] = str(served.calls)
        return outcome(request, elf, served.stream, served.ended, served.exit_status,
                       time.monotonic() - started, info, served.pc)

    def _openocd(self, request: RunRequest, settings: BoardSettings, elf: Path,
                 info: dict[str, str]) -> RunOutcome:
        if rtt_address(elf) is not None:
            raise UserError(f"{elf.name} writes its stream to RTT, which the OpenOCD runner "
                            "does not read", f"board {settings.board}",
                            "Run it through pyOCD or a GDB server (probe = \"pyocd\" or "
                            "\"gdb\"), or build it with [board] stream = \"semihosting\"")
        missing = openocd_missing()
        if missing:
            raise UserError(missing, f"board {settings.board}", "Install it")
        with tempfile.TemporaryDirectory(prefix="rtosmeter-openocd-") as tmp:
            stream, log = Path(tmp) / "stream", Path(tmp) / "openocd.log"
            cmd = openocd_command(settings, elf, log)
            info["command"] = " ".join(cmd).replace(str(log), "LOG")
            started = time.monotonic()
            proc = children.spawn(cmd, stream, Path(tmp) / "stderr")
            try:
                limit = children.watch(proc, stream, request.target.wall_limit_s,
                                       request.stream_cap,
                                       *looking(request.arrivals, stream, self.poll_s))
            finally:
                children.release(proc)
            wall = time.monotonic() - started
            out = children.read_head(stream, request.stream_cap)
            text = log.read_text(errors="replace") if log.is_file() else ""
        info["openocd_log"] = text[-2000:]
        if not out and proc.returncode != 0 and NO_PROBE.search(text):
            return RunOutcome(b"", "error", None, f"Error: {no_probe_message(settings, text)}",
                              wall, info)
        ended = {"wall": "timeout", "stream": "overflow"}.get(limit, "exit")
        return outcome(request, elf, out, ended, None if limit else proc.returncode, wall, info)


def outcome(request: RunRequest, elf: Path, out: bytes, ended: str, status: int | None,
            wall: float, info: dict[str, str], pc: int = 0) -> RunOutcome:
    """The run's status from how it ended, its exit status and its stream."""
    board = request.target.name
    if ended == "overflow":
        return RunOutcome(out, "overflow", None, stream_cap_message(elf, request.stream_cap),
                          wall, info)
    if ended == "timeout":
        return RunOutcome(out, "timeout", None,
                          f"Error: {elf.name} on board {board} did not finish within "
                          f"{request.target.wall_limit_s:g} s and was stopped; the stream "
                          "received so far is kept. Raise [limits] wall_s in "
                          f"{request.target.file} if the run is just slow", wall, info)
    if ended == "halt":
        return RunOutcome(out, "fault", None,
                          f"{elf.name} on board {board}: the core halted at pc 0x{pc:08x}, not "
                          f"for semihosting (a lockup or a stray bkpt); look it up with "
                          f"arm-none-eabi-addr2line -e {elf} 0x{pc:x}", wall, info)
    fault = _FAULT.search(out)
    if fault is not None or status == 3:
        where = fault.group(1).decode("ascii", "replace") if fault else "no FAULT record"
        return RunOutcome(out, "fault", status, f"{elf.name} faulted on board {board} "
                          f"({where}); look up the pc with arm-none-eabi-addr2line -e {elf}",
                          wall, info)
    bye = _BYE.search(out) is not None
    if status != 0:
        return RunOutcome(out, "exit", status, f"{elf.name} on board {board} exited with "
                          f"status {status}" + ("" if bye else " before BYE"), wall, info)
    if not bye:
        return RunOutcome(out, "exit", status, f"{elf.name} on board {board} exited (status 0) "
                          "before its BYE record: the stream is truncated", wall, info)
    return RunOutcome(out, "ok", 0, "", wall, info)


UDEV_RULES = (Path("/lib/udev/rules.d/60-openocd.rules"),
              Path("/etc/udev/rules.d/50-cmsis-dap.rules"))


def board_host(targets: list[Target]) -> dict[str, tuple[bool, str]]:
    """What a board host has and lacks, for `doctor`: name -> (ok, version or how to get it)."""
    out = {"pyOCD": (not pyocd_missing(), pyocd_missing() or "found"),
           "OpenOCD": (not openocd_missing(), openocd_missing() or "found"),
           "probe udev rules": (any(p.is_file() for p in UDEV_RULES),
                                "found" if any(p.is_file() for p in UDEV_RULES) else
                                "without them a user cannot open a probe: apt-get install "
                                "openocd, which ships them")}
    if pyocd_missing():
        return out
    from pyocd.core.helpers import ConnectHelper
    from pyocd.target import TARGET
    from pyocd.target.pack.pack_target import ManagedPacks

    known = set(TARGET) | {t.part_number.lower() for t in ManagedPacks.get_installed_targets()}
    for target in targets:
        chip = str(target.board.get("pyocd_target", ""))
        if chip:
            out[f"pyOCD target {chip} ({target.name})"] = (
                chip in known, "built in or installed" if chip in known
                else f"pyocd pack install {chip} (or [board] pack in {target.file})")
    probes = ConnectHelper.get_all_connected_probes(blocking=False, print_wait_message=False)
    out["debug probes attached"] = (bool(probes), ", ".join(
        f"{p.description} {p.unique_id}" for p in probes) or "none: connect a board")
    return out


RUNNER = BoardRunner
