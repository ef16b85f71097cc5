"""Test helper (not a test module): find the QEMUs a process started, and
wait for processes to be gone, from `ps` and /proc."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path


def descendants(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of every process below `pid`."""
    out = subprocess.run(["ps", "-ww", "-e", "-o", "pid=,ppid=,args="], capture_output=True,
                         text=True, check=True).stdout
    children: dict[int, list[tuple[int, str]]] = {}
    for line in out.splitlines():
        p, pp, args = [*line.split(None, 2), ""][:3]
        children.setdefault(int(pp), []).append((int(p), args))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            todo.append(child[0])
            found.append(child)
    return found


def qemu_runs(pid: int) -> list[int]:
    """QEMUs running a firmware (not `--version`) among the descendants of `pid`."""
    return [p for p, args in descendants(pid)
            if any(w.endswith("qemu-system-arm") for w in args.split(" ")[:4])  # a wrapper's too
            and " -kernel " in args]


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def still_alive(pids: list[int], bound_s: float = 10.0) -> list[int]:
    """The pids still alive once all are gone or `bound_s` has passed (a bound
    for the kernel to deliver a signal, not a timing that is asserted)."""
    end = time.monotonic() + bound_s
    while time.monotonic() < end and any(alive(p) for p in pids):
        time.sleep(0.01)
    return [p for p in pids if alive(p)]
