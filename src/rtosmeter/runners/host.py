"""Run a host executable: capture its stream, enforce a wall-time limit.

The executable runs in its own process group so that a hang is ended with
every thread and child it started; whatever it printed before is kept. The
POSIX port pins itself to one CPU and uses SCHED_FIFO where allowed, so the
scheduler runs host jobs one at a time.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path

from rtosmeter.runners.base import RunOutcome, RunRequest


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


_ACTIVE: set[subprocess.Popen[bytes]] = set()
_LOCK = threading.Lock()


def kill_all() -> None:
    """End every executable still running (the user interrupted the campaign)."""
    with _LOCK:
        procs = list(_ACTIVE)
    for proc in procs:
        _kill_group(proc)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


class HostRunner:
    name = "host"

    def run(self, request: RunRequest) -> RunOutcome:
        exe = Path(request.executable)
        cmd = [str(exe), *request.extra_args]
        info = {"runner": self.name, "command": " ".join(cmd)}
        started = time.monotonic()
        try:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
        except OSError as exc:
            return RunOutcome(b"", "error", None,
                              f"cannot start {exe}: {exc.strerror}. Rebuild it with rtosmeter run",
                              0.0, info)
        with _LOCK:
            _ACTIVE.add(proc)
        timed_out = False
        try:
            out, err = proc.communicate(timeout=request.wall_limit_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(proc)
            out, err = proc.communicate()  # keeps what was already received
        finally:
            with _LOCK:
                _ACTIVE.discard(proc)
        wall = time.monotonic() - started
        rc = proc.returncode
        if err:
            info["stderr"] = err.decode("utf-8", "replace")[-2000:]
        if timed_out:
            return RunOutcome(out, "timeout", rc,
                              f"{exe.name} did not finish within {request.wall_limit_s:g} s "
                              "and was killed; the stream received so far is kept. Raise "
                              "[limits] wall_s in target.toml if the run is just slow",
                              wall, info)
        if rc < 0:
            return RunOutcome(out, "crash", rc,
                              f"{exe.name} was killed by {_signal_name(-rc)}", wall, info)
        if rc == 3:
            return RunOutcome(out, "fault", rc, f"{exe.name} reported a fault (exit 3)",
                              wall, info)
        if rc != 0:
            return RunOutcome(out, "exit", rc, f"{exe.name} exited with status {rc}", wall,
                              info)
        return RunOutcome(out, "ok", 0, "", wall, info)
