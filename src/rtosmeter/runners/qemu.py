"""Run a Cortex-M firmware under QEMU, deterministically by default.

The command is `qemu-system-arm -M <machine> -nographic -monitor none
-serial stdio -semihosting-config enable=on,target=native
-icount shift=N,align=off,sleep=off -kernel <elf>`: under `-icount` virtual
time advances by 2**N ns per executed instruction, so the same firmware
gives the same stream byte for byte on every run and every host. The
firmware's console is the UART on stdout; it ends through semihosting
SYS_EXIT_EXTENDED, whose status becomes QEMU's exit code (3 = fault).

Two limits: real time (a hung QEMU is killed) and guest time, read from
QEMU's instruction counter over QMP (`query-replay` reports `icount` even
outside record/replay); either way everything received so far is kept.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from rtosmeter.runners.base import RunOutcome, RunRequest

QEMU = "qemu-system-arm"
_BYE = re.compile(rb"^@RM \d+ BYE ", re.MULTILINE)
_FAULT = re.compile(rb"^@RM \d+ FAULT (.*?) \*[0-9a-f]{8}\r?$", re.MULTILINE)
_LOCKUP = re.compile(r"lockup", re.IGNORECASE)
_GUEST_ERROR = re.compile(r"^(Invalid (read|write)|.*guest_error|.*: unimplemented).*$",
                          re.IGNORECASE | re.MULTILINE)


@cache
def qemu_version(qemu: str = QEMU) -> str:
    """`qemu-system-arm --version`, first line ("" when QEMU is missing)."""
    try:
        out = subprocess.run([qemu, "--version"], capture_output=True, text=True,
                             timeout=10, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    first = out.splitlines()[0] if out else ""
    match = re.search(r"version\s+(\S+)", first)
    return match.group(1) if match else first.strip()


def qemu_command(request: RunRequest, qemu: str = QEMU, qmp: Path | None = None) -> list[str]:
    """The full QEMU command line for one run (recorded with the run)."""
    cmd = [qemu, "-M", request.machine, "-nographic", "-monitor", "none",
           "-serial", "stdio", "-semihosting-config", "enable=on,target=native",
           "-d", "guest_errors"]
    if request.icount_shift is not None:
        cmd += ["-icount", f"shift={request.icount_shift},align=off,sleep=off"]
    if qmp is not None:
        cmd += ["-qmp", f"unix:{qmp},server=on,wait=off"]
    cmd += [*request.extra_args, "-kernel", str(request.executable)]
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


@dataclass
class _Capture:
    """stdout and stderr read on threads, so neither pipe can fill and block."""

    proc: subprocess.Popen[bytes]
    out: bytearray = field(default_factory=bytearray)
    err: bytearray = field(default_factory=bytearray)
    threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> None:
        for pipe, buf in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            t = threading.Thread(target=self._pump, args=(pipe, buf), daemon=True)
            t.start()
            self.threads.append(t)

    @staticmethod
    def _pump(pipe: object, buf: bytearray) -> None:
        read = getattr(pipe, "read1", None)
        if read is None:
            return
        while chunk := read(65536):
            buf.extend(chunk)

    def join(self) -> None:
        for t in self.threads:
            t.join(timeout=5)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.wait()


class QemuRunner:
    name = "qemu"

    def __init__(self, qemu: str = QEMU, poll_s: float = 0.05) -> None:
        self.qemu = qemu
        self.poll_s = poll_s

    def run(self, request: RunRequest) -> RunOutcome:
        elf = Path(request.executable)
        info = {"runner": self.name, "qemu": qemu_version(self.qemu),
                "machine": request.machine, "elf": str(elf),
                "icount_shift": "off" if request.icount_shift is None
                else str(request.icount_shift)}
        if request.icount_shift is None:
            info["timing"] = "host-timed, noisy"
        if shutil.which(self.qemu) is None:
            return RunOutcome(b"", "error", None,
                              f"Error: {self.qemu} not found on PATH for {elf.name}. Install "
                              "QEMU (Debian: apt install qemu-system-arm)", 0.0, info)
        if not elf.is_file():
            return RunOutcome(b"", "error", None,
                              f"Error: firmware {elf} does not exist. Build it with "
                              "rtosmeter run", 0.0, info)
        with tempfile.TemporaryDirectory(prefix="rtosmeter-qmp-") as tmp:
            return self._run(request, elf, Path(tmp) / "qmp.sock", info)

    def _run(self, request: RunRequest, elf: Path, qmp_path: Path,
             info: dict[str, str]) -> RunOutcome:
        deterministic = request.icount_shift is not None
        cmd = qemu_command(request, self.qemu, qmp_path if deterministic else None)
        # The recorded command leaves out the private QMP socket.
        info["command"] = shlex.join(qemu_command(request, self.qemu))
        started = time.monotonic()
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            return RunOutcome(b"", "error", None,
                              f"Error: cannot start QEMU for {elf.name}: {exc.strerror}",
                              0.0, info)
        capture = _Capture(proc)
        capture.start()
        qmp = _Qmp(qmp_path)
        limit = ""
        icount: int | None = None
        guest_limit = (int(request.guest_limit_s * 1e9) >> request.icount_shift
                       if request.icount_shift is not None else None)
        try:
            while proc.poll() is None:
                if time.monotonic() - started > request.wall_limit_s:
                    limit = "wall"
                    break
                if guest_limit is not None:
                    now = qmp.icount()
                    icount = now if now is not None else icount
                    if icount is not None and icount > guest_limit:
                        limit = "guest"
                        break
                time.sleep(self.poll_s)
        finally:
            qmp.close()
            if proc.poll() is None:
                _kill(proc)
            capture.join()
        wall = time.monotonic() - started
        if icount is not None:
            info["icount"] = str(icount)
        return self._outcome(request, elf, proc.returncode, bytes(capture.out),
                             capture.err.decode("utf-8", "replace"), limit, wall, info)

    def _outcome(self, request: RunRequest, elf: Path, rc: int, out: bytes, err: str,
                 limit: str, wall: float, info: dict[str, str]) -> RunOutcome:
        if err:
            info["stderr"] = err[-2000:]
        guest_errors = _GUEST_ERROR.findall(err)
        if guest_errors:
            info["guest_errors"] = str(len(guest_errors))
        fault = _FAULT.search(out)
        bye = _BYE.search(out) is not None
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
        message = (f"{len(guest_errors)} guest error(s) reported by QEMU (see stderr)"
                   if guest_errors else "")
        return RunOutcome(out, "ok", rc, message, wall, info)

    @staticmethod
    def _timeout_message(request: RunRequest, elf: Path, limit: str,
                         info: dict[str, str]) -> str:
        if limit == "wall":
            what = f"{request.wall_limit_s:g} s of real time"
            hint = ("a firmware that hangs with interrupts off, or a host too busy: raise the "
                    "wall limit (RunRequest.wall_limit_s) if it is just slow")
        else:
            what = (f"{request.guest_limit_s:g} s of guest time ({info.get('icount', '?')} "
                    f"instructions at icount shift {request.icount_shift})")
            hint = ("a case that never ends (a lost wake-up, an idle loop waiting for an "
                    "interrupt that never comes): raise RunRequest.guest_limit_s if it is long")
        return (f"Error: {elf} did not finish within {what} and was killed; the stream received "
                f"so far is kept. QEMU {info.get('qemu', '?')}: {info['command']}. Hint: {hint}")
