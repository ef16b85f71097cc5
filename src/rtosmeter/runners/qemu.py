"""Run a Cortex-M firmware under QEMU, deterministically by default.

The command is `qemu-system-arm -M <machine> -nographic -monitor none
-chardev file,id=rm,path=<console> -serial chardev:rm
-semihosting-config enable=on,target=native
-icount shift=N,align=off,sleep=off -kernel <elf>`: under `-icount` virtual
time advances by 2**N ns per executed instruction, so the same firmware
gives the same stream byte for byte on every run and every host. The
firmware's console is the UART, written by QEMU to a regular file: a file
write never blocks, so the host can never make the guest's UART report "TX
full" (a pipe that the harness drains late would, and the guest would then
spin a host-dependent number of instructions). The firmware ends through
semihosting SYS_EXIT_EXTENDED, whose status becomes QEMU's exit code (3 =
fault).

Three limits: real time (a hung QEMU is killed), guest time, read from
QEMU's instruction counter over QMP (`query-replay` reports `icount` even
outside record/replay), and the stream cap (a flooding firmware is stopped);
each way everything received before is kept.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import socket
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rtosmeter import board_memory as as_board
from rtosmeter import children, qemu_binary, qemu_plugin
from rtosmeter.attribution import funcmap
from rtosmeter.definitions import FirmwareCounter, Target
from rtosmeter.errors import UserError
from rtosmeter.measure import Unit
from rtosmeter.qemu_plugin import PluginSpec
from rtosmeter.runners.base import (
    Measure,
    RunnerOptions,
    RunOutcome,
    RunRequest,
    looking,
    stream_cap_message,
)

_BYE = re.compile(rb"^@RM \d+ BYE ", re.MULTILINE)
_FAULT = re.compile(rb"^@RM \d+ FAULT (.*?) \*[0-9a-f]{8}\r?$", re.MULTILINE)
_LOCKUP = re.compile(r"lockup", re.IGNORECASE)
GUEST_ERROR_KINDS = 5  # distinct messages kept per execution


@dataclass(frozen=True)
class QemuOptions(RunnerOptions):
    """What a QEMU run takes beyond its firmware (QemuRunner.options_for)."""

    icount: bool = True  # False: host-timed (noisy, labelled so)
    plugin: PluginSpec | None = None  # count with the rmcycles plugin (plugins/qemu)
    attribute: bool = False  # per-function attribution too (rtosmeter.attribution)
    qemu: str = ""  # the binary (--qemu, as the plan resolved it); "": the default

    def counter(self, target: Target) -> FirmwareCounter | None:
        if self.plugin is None or target.qemu is None:
            return None
        return qemu_plugin.firmware_counter(self.plugin, target.qemu.icount_shift)


def options(request: RunRequest) -> QemuOptions:
    """The request's QEMU options; the defaults when it has none."""
    opts = request.options
    return opts if isinstance(opts, QemuOptions) else QemuOptions()


def icount_shift(request: RunRequest) -> int | None:
    """The -icount shift of this run; None when it runs host-timed."""
    qemu = request.target.qemu
    return qemu.icount_shift if qemu is not None and options(request).icount else None


def qemu_command(request: RunRequest, console: Path, qemu: str = qemu_binary.DEFAULT,
                 qmp: Path | None = None, plugin: Sequence[str] = ()) -> list[str]:
    """The full QEMU command line for one run (recorded with the run)."""
    spec = request.target.qemu
    machine = spec.machine if spec else ""
    cmd = [qemu, "-M", machine, "-nographic", "-monitor", "none",
           "-chardev", f"file,id=rm,path={console}", "-serial", "chardev:rm",
           "-semihosting-config", "enable=on,target=native",
           "-d", qemu_binary.Qemu(qemu).guest_error_log]
    shift = icount_shift(request)
    if shift is not None:
        cmd += ["-icount", f"shift={shift},align=off,sleep=off"]
    if qmp is not None:
        cmd += ["-qmp", f"unix:{qmp},server=on,wait=off"]
    cmd += [*(spec.extra_args if spec else ()), *plugin, "-kernel", str(request.executable)]
    return cmd


class _Qmp:
    """A minimal QMP client: enough to read the instruction counter."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock: socket.socket | None = None
        self.buf = b""

    def _line(self) -> dict[str, object]:
        assert self.sock is not None
        while b"\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise OSError("QMP closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        obj = json.loads(line)
        return obj if isinstance(obj, dict) else {}

    def _call(self, command: str) -> dict[str, object]:
        assert self.sock is not None
        self.sock.sendall(json.dumps({"execute": command}).encode() + b"\n")
        while True:
            reply = self._line()
            if "return" in reply or "error" in reply:
                return reply

    def icount(self) -> int | None:
        """Instructions executed so far, or None when QMP is not (yet) there."""
        try:
            if self.sock is None:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.settimeout(1.0)
                sock.connect(str(self.path))
                self.sock = sock
                self._line()  # greeting
                self._call("qmp_capabilities")
            ret = self._call("query-replay").get("return")
        except (OSError, ValueError):
            self.close()
            return None
        if isinstance(ret, dict) and isinstance(ret.get("icount"), int):
            return int(ret["icount"])
        return None

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None


class QemuRunner:
    name: ClassVar[str] = "qemu"
    exclusive: ClassVar[bool] = False  # -icount: results do not depend on load

    def __init__(self, qemu: str = "", poll_s: float = 0.05) -> None:
        self.qemu = qemu or qemu_binary.chosen()  # a request's options may name another
        self.poll_s = poll_s
        self.request: RunRequest | None = None

    def available(self) -> str:
        if shutil.which(self.qemu) is None:
            return (f"missing {self.qemu}: apt-get install qemu-system-arm, or name one with "
                    f"--qemu or {qemu_binary.ENV}")
        return ""

    @staticmethod
    def available_with(measure: Measure) -> str:
        """available() for the QEMU the plan runs (--qemu)."""
        return QemuRunner(measure.qemu).available()

    @staticmethod
    def resolve_unit(requested: str | None, target: Target, measure: Measure, where: str) -> Unit:
        if measure.board:
            as_board.check_target(measure.board, target, requested)
        return qemu_plugin.resolve_unit(requested, target.cpu,
                                        target.qemu.machine if target.qemu else "",
                                        measure.icount, where, measure.ws, measure.div,
                                        measure.qemu)

    @staticmethod
    def options_for(measure: Measure, target: Target) -> QemuOptions:
        plugin = None
        if measure.board and measure.unit is Unit.CYCLES:
            plugin = measure.board.spec(measure.div)
        elif measure.unit is not Unit.TICKS:
            plugin = qemu_plugin.spec_for(measure.unit, target.cpu,
                                          target.qemu.machine if target.qemu else "",
                                          f"target {target.name}", measure.ws, measure.div)
        return QemuOptions(measure.icount, plugin, plugin is not None and measure.attribute,
                           measure.qemu)

    def prepare(self, request: RunRequest) -> None:
        self.request = request

    def run(self) -> RunOutcome:
        request = self.request
        if request is None:
            raise RuntimeError("QemuRunner.run() before prepare()")
        spec = options(request).plugin
        elf = Path(request.executable)
        shift = icount_shift(request)
        self.qemu = options(request).qemu or self.qemu
        info = {"runner": self.name, "qemu": qemu_binary.Qemu(self.qemu).version,
                "qemu_binary": self.qemu,
                "machine": request.target.qemu.machine if request.target.qemu else "",
                "elf": str(elf), "icount_shift": "off" if shift is None else str(shift)}
        if shift is None:
            info["timing"] = "host-timed, noisy"
        if shutil.which(self.qemu) is None:
            return RunOutcome(b"", "error", None,
                              f"Error: {self.qemu} not found on PATH for {elf.name}. Install "
                              "QEMU (Debian: apt install qemu-system-arm)", 0.0, info)
        if not elf.is_file():
            return RunOutcome(b"", "error", None,
                              f"Error: firmware {elf} does not exist. Build it with "
                              "rtosmeter run", 0.0, info)
        plugin: list[str] = []
        summary = qemu_plugin.summary_path(elf)
        if spec is not None:  # the counter: exact instructions or estimated cycles
            try:
                plugin, record = qemu_plugin.qemu_arguments(spec, elf, summary, shift,
                                                            self.qemu)
            except UserError as exc:
                return RunOutcome(b"", "error", None, f"Error: {exc.message}", 0.0, info)
            info.update(record)
            summary.unlink(missing_ok=True)
            if options(request).attribute:
                try:
                    args, out = funcmap.plugin_arguments(elf)
                except UserError as exc:
                    return RunOutcome(b"", "error", None, f"Error: {exc.message}", 0.0, info)
                plugin[-1] += "," + ",".join(args)
                info["attribution"] = str(out)
        with tempfile.TemporaryDirectory(prefix="rtosmeter-qemu-") as tmp:
            outcome = self._run(request, elf, Path(tmp), info, plugin)
        if spec is not None:
            outcome.info.update(qemu_plugin.read_summary(summary))
        return outcome

    def _run(self, request: RunRequest, elf: Path, tmp: Path,
             info: dict[str, str], plugin: Sequence[str] = ()) -> RunOutcome:
        shift = icount_shift(request)
        console, log, qmp_path = tmp / "console", tmp / "qemu.log", tmp / "qmp.sock"
        cmd = qemu_command(request, console, self.qemu, qmp_path if shift is not None else None,
                           plugin)
        # The recorded command leaves out the private QMP socket and names the
        # console file by its role (the temporary folder is gone afterwards).
        info["command"] = shlex.join(qemu_command(request, Path("CONSOLE"), self.qemu,
                                                  plugin=plugin))
        started = time.monotonic()
        console.touch()
        try:
            proc = children.spawn(cmd, log, log)
        except OSError as exc:
            return RunOutcome(b"", "error", None,
                              f"Error: cannot start QEMU for {elf.name}: {exc.strerror}",
                              0.0, info)
        qmp = _Qmp(qmp_path)
        icount: list[int] = []
        guest_limit = (int(request.target.guest_limit_s * 1e9) >> shift
                       if shift is not None else None)

        look = looking(request.arrivals, console, self.poll_s)[1]  # at QEMU's poll: QMP is slow

        def guest_time_over() -> str:
            look()
            # -d guest_errors writes a line per bad access: a firmware looping
            # on one would fill the disk, so QEMU's log has the stream's cap.
            if log.stat().st_size > request.stream_cap:
                return "log"
            if guest_limit is None:
                return ""
            now = qmp.icount()
            if now is not None:
                icount[:] = [now]
            return "guest" if icount and icount[0] > guest_limit else ""

        try:
            limit = children.watch(proc, console, request.target.wall_limit_s,
                                   request.stream_cap, self.poll_s, guest_time_over)
        finally:
            qmp.close()
            children.release(proc)
        wall = time.monotonic() - started
        if icount:
            info["icount"] = str(icount[0])
        with log.open(encoding="utf-8", errors="replace") as lines:  # a line at a time
            kinds = qemu_binary.guest_errors(lines)
        if kinds:  # counted per execution; the reports list them as warnings
            info["guest_errors"] = str(sum(kinds.values()))
            info["guest_error_kinds"] = json.dumps(dict(kinds.most_common(GUEST_ERROR_KINDS)))
        return self._outcome(request, elf, proc.returncode,
                             children.read_head(console, request.stream_cap),
                             children.read_tail(log), limit, wall, info)

    def _outcome(self, request: RunRequest, elf: Path, rc: int, out: bytes, err: str,
                 limit: str, wall: float, info: dict[str, str]) -> RunOutcome:
        if err:
            info["stderr"] = err
        refused = qemu_binary.plugin_error(err) if "plugin" in info and rc != 0 else ""
        if refused:  # QEMU's own line, not the stream's "no BYE" that follows from it
            return RunOutcome(out, "error", rc, qemu_binary.plugin_failure(
                info.get("qemu", ""), self.qemu, refused), wall, info)
        fault = _FAULT.search(out)
        bye = _BYE.search(out) is not None
        if limit == "stream":
            return RunOutcome(out, "overflow", None,
                              stream_cap_message(elf, request.stream_cap), wall, info)
        if limit == "log":
            return RunOutcome(out, "overflow", None,
                              f"Error: QEMU's log of guest errors for {elf} grew beyond "
                              f"{request.stream_cap >> 20} MiB and the run was stopped; the "
                              "stream so far is kept. The firmware repeats an invalid access: "
                              f"see the end of the log in the execution's runner info", wall,
                              info)
        if limit:
            return RunOutcome(out, "timeout", None, self._timeout_message(request, elf, limit,
                                                                          info), wall, info)
        if _LOCKUP.search(err):
            first = next((ln for ln in err.splitlines() if _LOCKUP.search(ln)), "lockup")
            return RunOutcome(out, "fault", rc, f"{elf.name}: QEMU reports a CPU lockup "
                              f"({first.strip()}): a fault inside a fault handler", wall, info)
        if fault is not None or rc == 3:
            where = fault.group(1).decode("ascii", "replace") if fault else "no FAULT record"
            return RunOutcome(out, "fault", rc, f"{elf.name} faulted ({where}); look up the "
                              f"pc with arm-none-eabi-addr2line -e {elf}", wall, info)
        if rc < 0:
            return RunOutcome(out, "crash", rc, f"QEMU running {elf.name} was killed by "
                              f"signal {-rc}", wall, info)
        if rc != 0:
            return RunOutcome(out, "exit", rc, f"{elf.name} exited with status {rc}"
                              + ("" if bye else " before BYE"), wall, info)
        if not bye:
            return RunOutcome(out, "exit", rc, f"{elf.name} exited (status 0) before its BYE "
                              "record: the stream is truncated", wall, info)
        message = (f"{info['guest_errors']} guest error(s) reported by QEMU (see stderr)"
                   if "guest_errors" in info else "")
        return RunOutcome(out, "ok", rc, message, wall, info)

    @staticmethod
    def _timeout_message(request: RunRequest, elf: Path, limit: str,
                         info: dict[str, str]) -> str:
        toml = request.target.file
        if limit == "wall":
            what = f"{request.target.wall_limit_s:g} s of real time"
            hint = ("a firmware that hangs with interrupts off, or a host too busy: raise "
                    f"[limits] wall_s in {toml} if it is just slow")
        else:
            what = (f"{request.target.guest_limit_s:g} s of guest time "
                    f"({info.get('icount', '?')} instructions at icount shift "
                    f"{icount_shift(request)})")
            hint = ("a case that never ends (a lost wake-up, an idle loop waiting for an "
                    f"interrupt that never comes): raise [limits] guest_s in {toml} if it "
                    "is long")
        return (f"Error: {elf} did not finish within {what} and was killed; the stream received "
                f"so far is kept. QEMU {info.get('qemu', '?')}: {info['command']}. Hint: {hint}")


RUNNER = QemuRunner
