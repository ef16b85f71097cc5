"""The steps that bring an older store file to today's schema, one version
at a time (`MIGRATIONS`); `Store.open` runs each in its own transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from rtosmeter.axes import canonical as canonical_axes
from rtosmeter.protocol import parse_stream
from rtosmeter.store import schema
from rtosmeter.store.rows import insert_chunks


def _v1_to_v2(conn: sqlite3.Connection) -> None:
    """v2 adds `series.sub` (SERIES `sub=0`: no overhead subtraction).

    A v1 file dropped the flag, but it kept every raw stream: the streams
    that mark a series `sub=0` are parsed again and their series rows set
    to 0, so an old run is analysed as the firmware asked.
    """
    conn.execute("ALTER TABLE series ADD COLUMN sub INTEGER NOT NULL DEFAULT 1")
    rows = conn.execute("SELECT id, stream FROM executions WHERE instr(stream, ?) > 0",
                        (b"sub=0",)).fetchall()
    for execution_id, blob in rows:
        for case in parse_stream(bytes(blob)).cases:
            for s in case.series.values():
                if not s.subtract:
                    conn.execute(
                        "UPDATE series SET sub = 0 WHERE name = ? AND case_row IN "
                        "(SELECT id FROM cases WHERE execution_id = ? AND case_id = ?)",
                        (s.name, execution_id, case.id))


def _v2_to_v3(conn: sqlite3.Connection) -> None:
    """v3 stores streams in 1 MiB rows of `stream_chunks`: a stream no longer
    has to fit SQLite's limit on one value, nor be held twice to be written.
    Each v2 stream moves there, one at a time."""
    conn.execute("CREATE TABLE stream_chunks (execution_id INTEGER NOT NULL REFERENCES "
                 "executions(id), seq INTEGER NOT NULL, data BLOB NOT NULL, "
                 "PRIMARY KEY (execution_id, seq))")
    ids = [r[0] for r in conn.execute("SELECT id FROM executions WHERE length(stream) > 0")]
    for execution_id in ids:
        (blob,) = conn.execute("SELECT stream FROM executions WHERE id = ?",
                               (execution_id,)).fetchone()
        insert_chunks(conn, execution_id, bytes(blob))
        conn.execute("UPDATE executions SET stream = x'' WHERE id = ?", (execution_id,))


def _v3_to_v4(conn: sqlite3.Connection) -> None:
    """v4 adds `builds.axes`, the coordinates beyond port/target/profile
    (rtosmeter.axes). Every build before it was made with GNU C."""
    conn.execute("ALTER TABLE builds ADD COLUMN axes TEXT NOT NULL DEFAULT '{}'")
    conn.execute("UPDATE builds SET axes = ?", (canonical_axes({}),))


def _v4_to_v5(conn: sqlite3.Connection) -> None:
    """v5 adds `attribution` (rtosmeter.attribution): older runs have none."""
    for statement in schema.ATTRIBUTION.split(";"):
        conn.execute(statement)


def _v5_to_v6(conn: sqlite3.Connection) -> None:
    """v6 adds the `idle` table (rtosmeter.idle): older runs have no idle figures."""
    conn.execute(schema.IDLE)


def _v6_to_v7(conn: sqlite3.Connection) -> None:
    """v7 adds the `energy` table (rtosmeter.energy): measured energy
    per case; older runs were measured by no power analyser."""
    conn.execute(schema.ENERGY)


def _v7_to_v8(conn: sqlite3.Connection) -> None:
    """v8 adds the `energy_stream` table (rtosmeter.energy): how well
    a case aligned by the stream's arrival times is known; older energy rows
    were all aligned by the marker."""
    conn.execute(schema.ENERGY_STREAM)


def _v8_to_v9(conn: sqlite3.Connection) -> None:
    """v9 adds `idle.time_limit` (rtosmeter.idle): why a window's time asleep
    was not measured; every older row was measured (QEMU 7.2). A file that
    reached v6 through this rtosmeter already has it (v5 -> v6 makes today's
    table)."""
    if "time_limit" not in {row[1] for row in conn.execute("PRAGMA table_info(idle)")}:
        conn.execute("ALTER TABLE idle ADD COLUMN time_limit TEXT NOT NULL DEFAULT ''")


# version v -> the step that turns a version-v file into version v + 1.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, 4: _v4_to_v5, 5: _v5_to_v6, 6: _v6_to_v7,
    7: _v7_to_v8, 8: _v8_to_v9}
