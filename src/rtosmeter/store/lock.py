"""The locks beside a store: a running run's (`<store>.run<N>.lock`) and the
campaign folder's (`<store>.out.lock`), flock on a file that names the
holder's process."""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path


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
