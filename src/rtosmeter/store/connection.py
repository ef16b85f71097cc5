"""The store's SQLite connection: every SQLite error becomes a `StoreError`
that names the file and says what to do."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from rtosmeter.errors import UserError


class StoreError(UserError):
    """SQLite refused a read or write: the message says why and what to do."""


def store_error(exc: sqlite3.Error, path: Path) -> StoreError:
    text = str(exc)
    if "full" in text:
        fix = ("Free disk space, then finish the run with `rtosmeter run --resume latest "
               f"--out {path.parent}`; every execution stored so far is kept")
    elif "readonly" in text or "read-only" in text:
        fix = "Pass a writable campaign folder with --out"
    elif "malformed" in text or "not a database" in text or "corrupt" in text:
        fix = (f"The file is damaged: recover what it holds with `sqlite3 {path} .recover`, "
               "or pass another campaign folder with --out")
    elif "locked" in text or "busy" in text:
        fix = "Another rtosmeter holds the store: wait for it, or pass another --out"
    else:
        fix = "Check the file and the disk, or pass another campaign folder with --out"
    return StoreError(f"result store failed: {text}", str(path), fix)


class Connection(sqlite3.Connection):
    """Turns SQLite's errors into a StoreError naming the file and the fix."""

    store_path = Path()

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        try:
            return super().execute(sql, parameters)
        except sqlite3.Error as exc:
            raise store_error(exc, self.store_path) from None

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        try:
            return super().executemany(sql, parameters)
        except sqlite3.Error as exc:
            raise store_error(exc, self.store_path) from None
