"""The locks beside a store: a running run's (`<store>.run<N>.lock`) and the
campaign folder's (`<store>.out.lock`), flock on a file that names the
holder's process."""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

from rtosmeter.errors import UserError


class Busy(UserError):
    """Another process holds the lock: nothing may run here now (never a
    combination to skip like a missing tree)."""


class RunLock:
    """The lock a running run holds (flock on a file next to the store)."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self.fd = fd

    @classmethod
    def take(cls, path: Path) -> RunLock | None:
        """The lock, or None when another process holds it."""
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EAGAIN, errno.EACCES):
                return None
            raise
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        return cls(path, fd)

    @staticmethod
    def held(path: Path) -> bool:
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            os.close(fd)
        return False

    def release(self, unlink: bool = True) -> None:
        if unlink:
            self.path.unlink(missing_ok=True)
        os.close(self.fd)


def run_lock_path(store: Path, run_id: int) -> Path:
    return store.with_name(f"{store.name}.run{run_id}.lock")


def lock_run(store: Path, run_id: int) -> RunLock:
    """Hold the run's lock while it runs; UserError when another process does."""
    path = run_lock_path(store, run_id)
    try:
        lock = RunLock.take(path)
    except OSError as exc:
        raise UserError(f"cannot create the run lock ({exc.strerror})", str(path),
                        "Pass a writable campaign folder with --out") from None
    if lock is None:
        pid = path.read_text(errors="replace").strip() or "?"
        raise Busy(f"run {run_id} is still running (process {pid})", str(store),
                        "Wait for it to finish, or stop it (kill " + pid + ") and then "
                        f"resume it with `rtosmeter run --resume {run_id} --out "
                        f"{store.parent}`")
    return lock


def lock_out(store: Path) -> RunLock:
    """The campaign folder's lock, held while a run builds and runs in it:
    two runs into one --out would build in the same build folders (and one
    delete what the other compiles). UserError when another holds it."""
    path = store.with_name(f"{store.name}.out.lock")
    try:
        lock = RunLock.take(path)
    except OSError as exc:
        raise UserError(f"cannot create the campaign folder's lock ({exc.strerror})",
                        str(path), "Pass a writable campaign folder with --out") from None
    if lock is None:
        pid = path.read_text(errors="replace").strip() or "?"
        raise Busy(f"another rtosmeter run (process {pid}) is building and running "
                        "in this campaign folder", str(store.parent),
                        "Wait for it to finish, or pass another --out (reports, history "
                        "and compare may read the folder meanwhile)")
    return lock
