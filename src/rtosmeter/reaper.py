"""`python -m rtosmeter.reaper PARENT_PID CMD...`: run a build tool so that nothing it
starts outlives it or the harness.

A parent-death signal reaches only the direct child: CMake's ninja and the
compilers ninja starts (each in its own process group) kept running when
rtosmeter was killed. The reaper is a child subreaper (Linux
`PR_SET_CHILD_SUBREAPER`): every process of the tool's tree that loses its
parent becomes its child. When the harness dies (parent-death SIGTERM, or
its parent id changes), when it is asked to stop (SIGTERM, SIGINT, SIGHUP),
and when the tool exits, it kills every process below it and reaps them.
It exits with the tool's status (128 + N for a signal).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
POLL_S = 0.05
_stop: list[int] = []


def descendants(root: int) -> list[int]:
    """Every live process below `root` (from /proc: ids and parents)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])  # after "(comm) state"
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for pid in children.get(todo.pop(), []):
            found.append(pid)
            todo.append(pid)
    return found


def kill_tree() -> None:
    """SIGKILL every process below this one until none is left, reaping each
    (orphans are this subreaper's children)."""
    for _ in range(100):
        pids = descendants(os.getpid())
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        _reap()
        time.sleep(0.01)


def _reap(keep: int = 0) -> None:
    """Reap every exited child but `keep` (the tool: Popen reaps it)."""
    while True:
        try:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return
        if info is None or info.si_pid == keep:
            return
        os.waitpid(info.si_pid, 0)


def _on_signal(signum: int, frame: FrameType | None) -> None:
    _stop.append(signum)


def main(argv: list[str]) -> int:
    if len(argv) < 2 or not argv[0].isdigit():
        print("usage: python -m rtosmeter.reaper PARENT_PID CMD [ARG...]", file=sys.stderr)
        return 2
    parent, argv = int(argv[0]), argv[1:]  # the harness: it may be gone already
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, _on_signal)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # the harness died before the signal was armed
        return 1
    try:
        tool = subprocess.Popen(argv)
    except OSError as exc:
        print(f"rtosmeter.reaper: cannot start {argv[0]}: {exc.strerror}", file=sys.stderr)
        return 127
    while True:
        rc = tool.poll()
        if _stop or os.getppid() != parent:
            kill_tree()
            return 128 + (_stop[0] if _stop else signal.SIGKILL)
        if rc is not None:
            kill_tree()  # what the tool left running
            return rc if rc >= 0 else 128 - rc
        _reap(tool.pid)  # orphans of the tool's tree that exited
        time.sleep(POLL_S)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
