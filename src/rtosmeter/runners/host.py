"""Run a host executable: capture its stream, enforce a wall-time limit and
a silence limit (a run that writes nothing that long hangs).

The executable runs in its own process group so that a hang is ended with
every thread and child it started; whatever it printed before is kept. Its
stdout goes to a file, watched against the stream cap like QEMU's console.
The POSIX port pins itself to one CPU and uses SCHED_FIFO where allowed, so
host runs are `exclusive`: the executor (execute.py) runs them one at a time.
"""

from __future__ import annotations

import signal
import tempfile
import time
from pathlib import Path
from typing import ClassVar

from rtosmeter import children
from rtosmeter.runners.base import RunOutcome, RunRequest, looking, stream_cap_message


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class HostRunner:
    name: ClassVar[str] = "host"
    exclusive: ClassVar[bool] = True  # real time on a pinned CPU: one at a time

    def __init__(self, poll_s: float = 0.02) -> None:
        self.poll_s = poll_s
        self.request: RunRequest | None = None

    def available(self) -> str:
        return ""

    def prepare(self, request: RunRequest) -> None:
        self.request = request

    def run(self) -> RunOutcome:
        if self.request is None:
            raise RuntimeError("HostRunner.run() before prepare()")
        with tempfile.TemporaryDirectory(prefix="rtosmeter-host-") as tmp:
            return self._run(self.request, Path(tmp))

    def _run(self, request: RunRequest, tmp: Path) -> RunOutcome:
        exe = Path(request.executable)
        cmd = [str(exe)]
        info = {"runner": self.name, "command": " ".join(cmd)}
        console, log = tmp / "stdout", tmp / "stderr"
        started = time.monotonic()
        try:
            proc = children.spawn(cmd, console, log)
        except OSError as exc:
            return RunOutcome(b"", "error", None,
                              f"cannot start {exe}: {exc.strerror}. Rebuild it with rtosmeter run",
                              0.0, info)
        try:
            limit = children.watch(proc, console, request.target.wall_limit_s,
                                   request.stream_cap,
                                   *looking(request.arrivals, console, self.poll_s),
                                   silent_limit_s=request.target.silent_limit_s)
        finally:
            children.release(proc)
        wall = time.monotonic() - started
        out = children.read_head(console, request.stream_cap)
        err = children.read_tail(log)
        if err:
            info["stderr"] = err
        return self._outcome(request, exe, limit, proc.returncode, out, wall, info)

    @staticmethod
    def _outcome(request: RunRequest, exe: Path, limit: str, rc: int, out: bytes, wall: float,
                 info: dict[str, str]) -> RunOutcome:
        if limit == "stream":
            return RunOutcome(out, "overflow", None, stream_cap_message(exe, request.stream_cap),
                              wall, info)
        if limit:
            t = request.target
            what, key, why = ((f"wrote nothing for {t.silent_limit_s:g} s (a hang)", "silent_s",
                               "a case is just quiet that long") if limit == "silent" else
                              (f"did not finish within {t.wall_limit_s:g} s", "wall_s",
                               "the run is just slow"))
            return RunOutcome(out, "timeout", None,
                              f"{exe.name} {what} and was killed; the stream received so far "
                              f"is kept. Raise [limits] {key} in {t.file} if {why}", wall, info)
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


RUNNER = HostRunner
