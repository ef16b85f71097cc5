"""Child processes (QEMU, host executables, CMake): started so they die with
the harness, watched against the wall limit and the stream cap, ended with
their whole process group when the campaign is interrupted.

Every child gets a parent-death signal (Linux `prctl(PR_SET_PDEATHSIG,
SIGKILL)`, set between fork and exec): if rtosmeter dies, even by SIGKILL,
the kernel kills the child, so no QEMU is left running. A build tool runs
under rtosmeter.reaper, which ends the tool's whole tree (the signal reaches
only a direct child; ninja and compilers run in process groups of their own). The console goes to
a regular file, never a pipe: a write to a file never blocks, so the guest
never sees a full UART because the harness read slowly (which would make
the instructions it executes depend on the host), and a child whose reader
died gets no EPIPE to retry for ever.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True)
_ACTIVE: set[subprocess.Popen[bytes]] = set()
_TREES: set[int] = set()  # pids of the children run under rtosmeter.reaper
REAPER_GRACE_S = 5.0  # a stopped reaper's time to end its tool's tree
_LOCK = threading.Lock()


def _die_with(parent: int, tree: bool = False) -> Callable[[], None]:
    """The child's preexec_fn: ask for SIGKILL when the parent dies, and die at
    once when it already has (it may have died before prctl took effect). A
    reaper gets SIGTERM instead: it must live to end the tool's tree (before
    its handler is set, SIGTERM ends it, and it has started nothing yet)."""

    def arm() -> None:
        _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM if tree else signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return arm


def spawn(cmd: list[str], stdout: Path, stderr: Path, tree: bool = False
          ) -> subprocess.Popen[bytes]:
    """Start `cmd` in its own process group, its output to files (the same
    file for both when the paths are equal); OSError when it cannot start.
    `tree`: a tool that starts processes of its own in other process groups
    (CMake, ninja, compilers), run under rtosmeter.reaper, which ends them
    all when the tool exits, when it is stopped and when rtosmeter dies."""
    if tree:
        cmd = [sys.executable, "-m", "rtosmeter.reaper", str(os.getpid()), *cmd]
    with stdout.open("wb") as out, \
            (out if stderr == stdout else stderr.open("wb")) as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                start_new_session=True, preexec_fn=_die_with(os.getpid(), tree))
    with _LOCK:
        _ACTIVE.add(proc)
        if tree:
            _TREES.add(proc.pid)
    return proc


def kill(proc: subprocess.Popen[bytes]) -> None:
    """End the child and everything it started, then reap it (a reaper is
    asked first: it ends the processes outside its group)."""
    if proc.pid in _TREES:
        proc.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(REAPER_GRACE_S)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.wait()


def release(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        kill(proc)
    with _LOCK:
        _ACTIVE.discard(proc)
        _TREES.discard(proc.pid)


def kill_all() -> None:
    """End every child still running (the campaign was interrupted)."""
    with _LOCK:
        procs = list(_ACTIVE)
    for proc in procs:
        release(proc)


def watch(proc: subprocess.Popen[bytes], console: Path, wall_limit_s: float, cap: int,
          poll_s: float, check: Callable[[], str] = lambda: "",
          silent_limit_s: float = math.inf) -> str:
    """Wait for the child; end it at a limit. Returns "" (it exited), "wall",
    "silent" (it wrote nothing for `silent_limit_s`), "stream" (it wrote more
    than `cap` bytes) or what `check()` returned."""
    started = last_output = time.monotonic()
    size = 0
    while proc.poll() is None:
        now = time.monotonic()
        if now - started > wall_limit_s:
            return "wall"
        grown = console.stat().st_size
        if grown > cap:
            return "stream"
        if grown != size:
            size, last_output = grown, now
        elif now - last_output > silent_limit_s:
            return "silent"
        limit = check()
        if limit:
            return limit
        time.sleep(poll_s)
    return "stream" if console.stat().st_size > cap else ""


def run_tool(cmd: list[str]) -> tuple[int, str]:
    """Run a build tool to its end: (exit status, stdout and stderr interleaved).
    An interrupted campaign ends it with every compiler it started."""
    with tempfile.TemporaryDirectory(prefix="rtosmeter-tool-") as tmp:
        log = Path(tmp) / "output"
        proc = spawn(cmd, log, log, tree=True)
        try:
            rc = proc.wait()
        finally:
            release(proc)
        return rc, log.read_text(encoding="utf-8", errors="replace")


def read_head(path: Path, cap: int) -> bytes:
    """The first `cap` bytes of a file: what came before a flood is kept."""
    with path.open("rb") as f:
        return f.read(cap)


def read_tail(path: Path, size: int = 2000) -> str:
    with path.open("rb") as f:
        f.seek(max(0, path.stat().st_size - size))
        return f.read().decode("utf-8", "replace")
