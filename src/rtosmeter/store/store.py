"""The SQLite store: runs, builds, executions, cases and their raw samples,
and the features' tables (attribution, idle, energy) that it owns.

The schema is rtosmeter.store.schema (docs/architecture.md, "Store"). The
file is versioned by `PRAGMA user_version`: older files are migrated in place
by the steps of rtosmeter.store.migrations, newer ones are refused. A feature
writes in `Store.transaction()` and decodes a row with `Store.decoded()`. Raw samples are stored as
little-endian uint32 BLOBs, statistics never: any run can be re-analysed.
Every write is committed at once (one transaction per execution), so a run
killed half-way loses nothing that had finished; a write that fails (disk
full, read-only folder, damaged file) rolls back only itself and becomes a
`StoreError` saying what to do. A new file is created in one `BEGIN
IMMEDIATE` transaction that checks again that no other process created it
meanwhile; a file that is not an rtosmeter store is refused before anything
is written to it.

A running run holds a lock file next to the store (`<store>.run<N>.lock`,
flock): `--resume` refuses a run whose lock is held, and a run marked
`running` whose lock is free (its process is gone) reads as `interrupted`.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from rtosmeter.axes import canonical as canonical_axes
from rtosmeter.axes import complete as complete_axes
from rtosmeter.errors import UserError
from rtosmeter.numbers import shown, whole_or_none
from rtosmeter.protocol import ParsedStream
from rtosmeter.store import migrations, schema
from rtosmeter.store.connection import Connection, StoreError
from rtosmeter.store.lock import RunLock, lock_out, lock_run, run_lock_path
from rtosmeter.store.rows import (
    AttributionRow,
    BuildRow,
    CaseRow,
    ExecutionRow,
    RunRow,
    SeriesRow,
    as_json,
    blob_to_samples,
    execution_row,
    insert_chunks,
    now,
    samples_to_blob,
)
from rtosmeter.store.rows import (
    case_row as decode_case,
)

T = TypeVar("T")

class Store:
    """One SQLite file. Use `Store.open(path)`; close it (or use `with`)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path

    # ---- opening, versions -----------------------------------------------

    @classmethod
    def open(cls, path: str | Path, read_only_ok: bool = False) -> Store:
        """The store at `path`, created or upgraded as needed. `read_only_ok`:
        a reader's (history, report, compare), which opens a store on a
        read-only file system read-only (SQLite cannot make WAL's side files
        there)."""
        path = Path(path)
        if read_only_ok and path.is_file() and not os.access(path.parent, os.W_OK):
            return cls._open_read_only(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(path, isolation_level=None, factory=Connection)
        except (sqlite3.Error, OSError) as exc:
            raise UserError(f"cannot open the result store ({exc})", str(path),
                            "Pass another campaign folder with --out, or move this file "
                            "away") from None
        assert isinstance(conn, Connection)
        conn.store_path = path
        store = cls(conn, path)
        try:
            conn.execute("PRAGMA busy_timeout=10000")  # another rtosmeter may be writing
            store._check_kind()  # reads only: a foreign file is left as it was
            store._upgrade()
            store._use_wal()
            conn.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            conn.close()
            raise
        return store

    @classmethod
    def _open_read_only(cls, path: Path) -> Store:
        """A store in a folder nobody can write: as it is (immutable, so that
        SQLite asks for no -shm file), unless it holds writes its -wal file
        has not yet moved into it, or needs an upgrade: both need a copy."""
        wal = path.with_name(path.name + "-wal")
        fix = (f"Copy {path.parent} to a writable place and pass the copy with --out "
               "(this folder is read-only)")
        if wal.is_file() and wal.stat().st_size > 0:
            raise StoreError("the result store's last writes are still in its -wal file, "
                             "which a read-only folder cannot apply", str(path), fix)
        try:
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1",
                                   uri=True, isolation_level=None, factory=Connection)
        except sqlite3.Error as exc:
            raise UserError(f"cannot open the result store ({exc})", str(path), fix) from None
        assert isinstance(conn, Connection)
        conn.store_path = path
        store = cls(conn, path)
        try:
            store._check_kind()
            if store.version < schema.SCHEMA_VERSION:
                raise StoreError(f"the result store has schema version {store.version}, "
                                 f"which this rtosmeter upgrades to {schema.SCHEMA_VERSION} before "
                                 "reading it", str(path), fix)
        except BaseException:
            conn.close()
            raise
        return store

    def _use_wal(self) -> None:
        """Switch the (checked) store to WAL once: readers never wait for the
        writer. The switch is persistent; SQLite does not wait for a busy
        file on it (no busy handler), so a race with another opener retries."""
        for _ in range(200):
            try:
                mode = self.conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            except StoreError as exc:
                if "locked" not in exc.what:
                    raise
                time.sleep(0.05)
                continue
            if mode == "wal":
                return
        raise StoreError("cannot switch the result store to WAL: it stays locked",
                         str(self.path), "Another rtosmeter holds the store: wait for it, "
                         "or pass another --out")

    def _check_kind(self) -> None:
        # One statement: the version and the tables from one snapshot, even
        # while another process creates the schema.
        version, tables = self.conn.execute(
            "SELECT (SELECT user_version FROM pragma_user_version), "
            "(SELECT count(*) FROM sqlite_master)").fetchone()
        if version > schema.SCHEMA_VERSION:
            raise UserError(
                f"result store has schema version {version}, newer than this rtosmeter "
                f"reads ({schema.SCHEMA_VERSION})", str(self.path),
                "Upgrade rtosmeter, or pass another campaign folder with --out")
        if version == 0 and tables:
            raise UserError("file is an SQLite database but not an rtosmeter store",
                            str(self.path), "Pass another campaign folder with --out")

    def _upgrade(self) -> None:
        """Create or migrate the schema, one step per IMMEDIATE transaction;
        each step checks the version again under the write lock, so two
        processes opening one new file create it once."""
        while self.version < schema.SCHEMA_VERSION:
            with self.transaction():
                version = self.version
                if version == 0:
                    self._check_kind()
                    for statement in schema.SCHEMA.split(";"):
                        if statement.strip():
                            self.conn.execute(statement)
                    self.conn.execute(f"PRAGMA user_version={schema.SCHEMA_VERSION}")
                elif version < schema.SCHEMA_VERSION:
                    migrations.MIGRATIONS[version](self.conn)
                    self.conn.execute(f"PRAGMA user_version={version + 1}")

    @property
    def version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    class _Tx:
        """A write transaction. IMMEDIATE: it takes the write lock up front,
        waiting busy_timeout for it; a deferred one that reads first and then
        writes fails at once with "database is locked" in WAL mode when
        another writer committed in between (SQLite cannot upgrade its
        stale snapshot)."""

        def __init__(self, conn: sqlite3.Connection) -> None:
            self.conn = conn

        def __enter__(self) -> None:
            if not self.conn.in_transaction:
                self.conn.execute("BEGIN IMMEDIATE")

        def __exit__(self, exc_type: object, *rest: object) -> None:
            if not self.conn.in_transaction:
                return
            if exc_type:
                self.conn.execute("ROLLBACK")
                return
            try:
                self.conn.execute("COMMIT")
            except StoreError:  # e.g. disk full at commit: drop this write only
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise

    def transaction(self) -> Store._Tx:
        return Store._Tx(self.conn)

    # ---- writes ----------------------------------------------------------

    def create_run(self, campaign: Mapping[str, Any], host: Mapping[str, Any],
                   tool_version: str) -> int:
        with self.transaction():
            cur = self.conn.execute(
                "INSERT INTO runs (started, status, campaign, host, tool_version) "
                "VALUES (?, 'running', ?, ?, ?)",
                (now(), as_json(campaign), as_json(host), tool_version))
        return int(cur.lastrowid or 0)

    def lock_path(self, run_id: int) -> Path:
        return run_lock_path(self.path, run_id)

    def lock_run(self, run_id: int) -> RunLock:
        """Hold the run's lock while it runs; UserError when another process does."""
        return lock_run(self.path, run_id)

    def lock_out(self) -> RunLock:
        """The campaign folder's lock, held while a run builds and runs in it."""
        return lock_out(self.path)

    def _status(self, run_id: int, stored: str) -> str:
        """A run marked running whose process is gone was interrupted."""
        if stored == "running" and not RunLock.held(self.lock_path(run_id)):
            return "interrupted"
        return stored

    def delete_run(self, run_id: int) -> None:
        """Remove a run that stored no execution (an empty run is never kept)."""
        with self.transaction():
            if self.conn.execute("SELECT count(*) FROM executions WHERE run_id = ?",
                                 (run_id,)).fetchone()[0]:
                raise ValueError(f"run {run_id} holds executions")
            self.conn.execute("DELETE FROM builds WHERE run_id = ?", (run_id,))
            self.conn.execute("DELETE FROM runs WHERE id = ?", (run_id,))

    def finish_run(self, run_id: int, status: str = "done") -> None:
        with self.transaction():
            self.conn.execute("UPDATE runs SET finished = ?, status = ? WHERE id = ?",
                              (now(), status, run_id))

    def reopen_run(self, run_id: int) -> None:
        """Mark an interrupted run as running again (resume)."""
        with self.transaction():
            self.conn.execute("UPDATE runs SET finished = '', status = 'running' WHERE id = ?",
                              (run_id,))

    def add_build(self, run_id: int, port: str, target: str, profile: str,
                  config: Mapping[str, Any], status: str = "ok", error: str = "",
                  axes: Mapping[str, str] | None = None) -> int:
        """The run's build of (port, target, profile, axes: the defaults when
        None); a resumed run that builds it again updates its one row."""
        key = canonical_axes(axes or {})
        with self.transaction():
            row = self.conn.execute(
                "SELECT id FROM builds WHERE run_id = ? AND port = ? AND target = ? AND "
                "profile = ? AND axes = ?", (run_id, port, target, profile, key)).fetchone()
            if row is not None:
                self.conn.execute("UPDATE builds SET config = ?, status = ?, error = ? "
                                  "WHERE id = ?", (as_json(config), status, error, row[0]))
                return int(row[0])
            cur = self.conn.execute(
                "INSERT INTO builds (run_id, port, target, profile, config, status, error, axes) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (run_id, port, target, profile, as_json(config), status, error, key))
        return int(cur.lastrowid or 0)

    def add_execution(
        self, run_id: int, build_id: int, group: str, *, status: str, error: str = "",
        exit_code: int | None = None, wall_s: float | None = None,
        runner: Mapping[str, Any] | None = None, stream: bytes = b"",
        footprint: Mapping[str, Any] | None = None, elf: str = "",
        parsed: ParsedStream | None = None,
    ) -> int:
        """One run of one firmware; with `parsed`, its cases too, in one commit."""
        with self.transaction():
            cur = self.conn.execute(
                "INSERT INTO executions (run_id, build_id, grp, status, error, exit_code, "
                "wall_s, runner, footprint, elf) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (run_id, build_id, group, status, error, exit_code, wall_s,
                 as_json(dict(runner or {})), as_json(dict(footprint or {})), elf))
            execution_id = int(cur.lastrowid or 0)
            insert_chunks(self.conn, execution_id, stream)
            if parsed is not None:
                self._insert_cases(execution_id, parsed)
        return execution_id

    def _insert_cases(self, execution_id: int, parsed: ParsedStream) -> None:
        self.conn.execute(
            "UPDATE executions SET hello = ?, errors = ?, fault = ?, noise = ? WHERE id = ?",
            (as_json(parsed.header), as_json([[e.offset, e.message] for e in parsed.errors]),
             as_json(parsed.fault), as_json(parsed.noise), execution_id))
        cfg = as_json(parsed.config)
        for case in parsed.cases:
            cur = self.conn.execute(
                "INSERT INTO cases (execution_id, case_id, status, reason, meta, cfg) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (execution_id, case.id, case.status, case.reason, as_json(case.meta), cfg))
            row = int(cur.lastrowid or 0)
            self.conn.executemany(
                "INSERT INTO series (case_row, name, what, samples, sub) VALUES (?, ?, ?, ?, ?)",
                [(row, s.name, s.what, samples_to_blob(s.samples), int(s.subtract))
                 for s in case.series.values()])
            self.conn.executemany(
                "INSERT INTO counts (case_row, name, period, value) VALUES (?, ?, ?, ?)",
                [(row, c.name, c.period, c.value) for c in case.counts])
            self.conn.executemany(
                "INSERT INTO checks (case_row, name, ok, got, want) VALUES (?, ?, ?, ?, ?)",
                [(row, c.name, int(c.ok), c.got, c.want) for c in case.checks])

    def add_attribution(self, execution_id: int, rows: list[AttributionRow]) -> None:
        """One execution's per-function breakdowns (rtosmeter.attribution)."""
        with self.transaction():
            self.conn.executemany(
                "INSERT INTO attribution (execution_id, series_id, function, instructions, "
                "cycles, calls) VALUES (?, ?, ?, ?, ?, ?)",
                [(execution_id, *row) for row in rows])

    # ---- reads -----------------------------------------------------------

    def runs(self) -> list[RunRow]:
        rows = self.conn.execute(
            "SELECT id, started, finished, status, campaign, host, tool_version "
            "FROM runs ORDER BY id").fetchall()
        return [RunRow(r[0], r[1], r[2], self._status(r[0], r[3]), json.loads(r[4]),
                       json.loads(r[5]), r[6]) for r in rows]

    def run(self, run_id: int) -> RunRow:
        for r in self.conn.execute(
                "SELECT id, started, finished, status, campaign, host, tool_version "
                "FROM runs WHERE id = ?", (run_id,)):
            return RunRow(r[0], r[1], r[2], self._status(r[0], r[3]), json.loads(r[4]),
                          json.loads(r[5]), r[6])
        raise UserError(f"no run {run_id}", str(self.path),
                        "List the stored runs with `rtosmeter history`")

    def latest_run(self) -> RunRow | None:
        row = self.conn.execute("SELECT max(id) FROM runs").fetchone()
        return self.run(int(row[0])) if row and row[0] is not None else None

    def resolve_run(self, ref: str | int) -> int:
        """A run id from "latest", "latest~N" (N runs before it) or a number."""
        text = str(ref).strip()
        if text.startswith("latest"):
            back = 0
            if text != "latest":
                rest = text[len("latest"):]
                number = whole_or_none(rest[1:]) if rest.startswith("~") else None
                if number is None:
                    raise UserError(f"unknown run {shown(text)}", str(self.path),
                                    "Give a run number, `latest` or `latest~N`")
                back = number
            ids = [r[0] for r in self.conn.execute("SELECT id FROM runs ORDER BY id DESC")]
            if back >= len(ids):
                raise UserError(f"no run {text!r} (the store holds {len(ids)} runs)",
                                str(self.path), "Start one with `rtosmeter run`")
            return int(ids[back])
        run_id = whole_or_none(text, 1)  # ASCII digits only: an Arabic-Indic 1 is no run 1
        if run_id is None:
            raise UserError(f"unknown run {shown(text)}", str(self.path),
                            "Give a run number, `latest` or `latest~N`")
        return self.run(run_id).id

    def builds(self, run_id: int) -> list[BuildRow]:
        rows = self.conn.execute(
            "SELECT id, run_id, port, target, profile, config, status, error, axes FROM builds "
            "WHERE run_id = ? ORDER BY id", (run_id,)).fetchall()
        return [BuildRow(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7],
                         complete_axes(json.loads(r[8]))) for r in rows]

    def executions(self, run_id: int) -> list[ExecutionRow]:
        rows = self.conn.execute(
            "SELECT id, run_id, build_id, grp, status, error, exit_code, wall_s, runner, "
            "footprint, elf, hello, errors, fault, noise FROM executions WHERE run_id = ? "
            "ORDER BY id", (run_id,)).fetchall()
        return [self.decoded(f"execution {r[0]}", partial(execution_row, r)) for r in rows]

    def decoded(self, what: str, decode: Callable[[], T]) -> T:
        """`decode()` of a stored row, its failure an error naming the row
        (a damaged file, or one written by something else than rtosmeter)."""
        try:
            return decode()
        except (ValueError, TypeError) as exc:
            raise StoreError(f"{what} is damaged ({str(exc)[:120]})", str(self.path),
                             "Restore the file from a copy, or run the campaign again "
                             "into a new --out") from None

    def stream(self, execution_id: int) -> bytes:
        rows = self.conn.execute("SELECT data FROM stream_chunks WHERE execution_id = ? "
                                 "ORDER BY seq", (execution_id,)).fetchall()
        return b"".join(bytes(r[0]) for r in rows)

    def cases(self, run_id: int) -> list[CaseRow]:
        rows = self.conn.execute(
            "SELECT c.id, c.execution_id, c.case_id, c.status, c.reason, c.meta, c.cfg "
            "FROM cases c JOIN executions e ON e.id = c.execution_id WHERE e.run_id = ? "
            "ORDER BY c.id", (run_id,)).fetchall()
        return [self.decoded(f"case {r[2]} of execution {r[1]}", partial(decode_case, r))
                for r in rows]

    def iter_series(self, run_id: int) -> Iterator[SeriesRow]:
        """Every series of the run, one at a time (samples are not all held at once)."""
        cur = self.conn.execute(
            "SELECT s.case_row, s.name, s.what, s.samples, s.sub, c.case_id, c.execution_id "
            "FROM series s "
            "JOIN cases c ON c.id = s.case_row JOIN executions e ON e.id = c.execution_id "
            "WHERE e.run_id = ? ORDER BY s.id", (run_id,))
        for case_row, name, what, blob, sub, case_id, ex in cur:
            samples = self.decoded(f"series {name} of case {case_id} of execution {ex}",
                                    partial(blob_to_samples, blob))
            yield SeriesRow(case_row, name, what, samples, bool(sub))

    def counts(self, run_id: int) -> list[tuple[int, str, int, int]]:
        """(case_row, name, period, value), ordered by case, name and period."""
        rows = self.conn.execute(
            "SELECT k.case_row, k.name, k.period, k.value FROM counts k "
            "JOIN cases c ON c.id = k.case_row JOIN executions e ON e.id = c.execution_id "
            "WHERE e.run_id = ? ORDER BY k.case_row, k.name, k.period", (run_id,)).fetchall()
        return [(int(a), str(b), int(p), int(v)) for a, b, p, v in rows]

    def checks(self, run_id: int) -> list[tuple[int, str, bool, int, int]]:
        """(case_row, name, ok, got, want) in stream order."""
        rows = self.conn.execute(
            "SELECT k.case_row, k.name, k.ok, k.got, k.want FROM checks k "
            "JOIN cases c ON c.id = k.case_row JOIN executions e ON e.id = c.execution_id "
            "WHERE e.run_id = ? ORDER BY k.rowid", (run_id,)).fetchall()
        return [(int(a), str(b), bool(o), int(g), int(w)) for a, b, o, g, w in rows]

    def done_groups(self, run_id: int) -> set[tuple[str, str, str, str, str]]:
        """(port, target, profile, canonical axes, group) already run in this
        run: resume skips them."""
        rows = self.conn.execute(
            "SELECT b.port, b.target, b.profile, b.axes, e.grp FROM executions e "
            "JOIN builds b ON b.id = e.build_id WHERE e.run_id = ?", (run_id,)).fetchall()
        return {(str(p), str(t), str(f), canonical_axes(json.loads(a)), str(g))
                for p, t, f, a, g in rows}

    def attribution(self, run_id: int) -> list[tuple[int, str, str, list[int], str, int,
                                                     int | None, int]]:
        """(execution id, case id, series, samples, function, instructions,
        cycles, calls) of every attributed series of the run, by series and
        function."""
        rows = self.conn.execute(
            "SELECT c.execution_id, c.case_id, s.id, s.name, s.samples, a.function, "
            "a.instructions, a.cycles, a.calls FROM attribution a JOIN series s ON "
            "s.id = a.series_id JOIN cases c ON c.id = s.case_row JOIN executions e ON "
            "e.id = c.execution_id WHERE e.run_id = ? ORDER BY s.id, a.function",
            (run_id,)).fetchall()
        samples: dict[int, list[int]] = {}  # each series decoded once, not once a function
        for x, case, sid, name, blob, *_ in rows:
            if sid not in samples:
                samples[sid] = self.decoded(f"series {name} of case {case} of execution {x}",
                                            partial(blob_to_samples, blob)).tolist()
        return [(int(x), str(case), str(name), samples[sid], str(fn), int(i),
                 None if cy is None else int(cy), int(calls))
                for x, case, sid, name, _, fn, i, cy, calls in rows]

    def case_series(
        self, run_id: int, case_id: str
    ) -> list[tuple[int, str, npt.NDArray[np.uint32]]]:
        """(execution_id, series name, samples) of one case id in every execution."""
        rows = self.conn.execute(
            "SELECT c.execution_id, s.name, s.samples FROM series s "
            "JOIN cases c ON c.id = s.case_row JOIN executions e ON e.id = c.execution_id "
            "WHERE e.run_id = ? AND c.case_id = ? ORDER BY s.id", (run_id, case_id)).fetchall()
        return [(int(x), str(n), self.decoded(f"series {n} of case {case_id} of execution {x}",
                                               partial(blob_to_samples, b)))
                for x, n, b in rows]
