"""The SQLite store on real files: schema and versions, round trips of parsed
streams (good and damaged), resume bookkeeping, and durability when the
writing process is killed."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from rtosmeter.errors import UserError
from rtosmeter.protocol import StreamWriter, parse_stream
from rtosmeter.store import SCHEMA_VERSION, Store, migrations, schema

GCC = '{"toolchain": "gcc"}'  # the axes of a build made with the default toolchain


def stream(case_samples: list[int], cut: int | None = None) -> bytes:
    w = StreamWriter()
    w.record("HELLO", dict(v=1, port="posix", target="host", group="lat", ts="clock",
                           unit="ns", hz=1000000000, samples=4, batch=4, tm_period=1,
                           tm_periods=2, profile="default"))
    w.record("CFG", {"k": "opt", "v": "-O2"})
    w.record("CASE", {"id": "lat.a"})
    w.record("META", {"k": "threads", "v": 2})
    w.record("SERIES", {"id": 0, "name": "x", "what": "the x interval"})
    w.samples(0, 0, case_samples)
    w.record("CHECK", {"name": "c", "ok": 0, "got": 1, "want": 2})
    w.record("END", {"id": "lat.a", "status": "failed"})
    w.record("CASE", {"id": "tm.b"})
    w.record("COUNT", {"name": "total", "period": 1, "value": 11})
    w.record("COUNT", {"name": "total", "period": 0, "value": 10})
    w.record("END", {"id": "tm.b", "status": "ok"})
    w.record("BYE", {"cases": 2, "status": 1})
    data = w.getvalue()
    return data if cut is None else data[:cut]


def test_new_file_schema(tmp_path: Path) -> None:
    with Store.open(tmp_path / "sub" / "r.sqlite") as st:
        assert st.version == SCHEMA_VERSION
        assert st.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in st.conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"runs", "builds", "executions", "cases", "series", "counts",
                "checks"} <= tables


def test_newer_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(UserError, match=r"newer than this rtosmeter.*r\.sqlite"):
        Store.open(path)


def test_foreign_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (a)")
    conn.close()
    with pytest.raises(UserError, match=r"not an rtosmeter store in .*other\.db"):
        Store.open(path)
    (tmp_path / "junk.sqlite").write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(UserError, match=r"junk\.sqlite"):
        Store.open(tmp_path / "junk.sqlite")


def test_migration_hook_upgrades_old_files(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "r.sqlite"
    with Store.open(path) as st:
        st.create_run({}, {}, "0.1")

    def add_note(conn: sqlite3.Connection) -> None:
        conn.execute("ALTER TABLE runs ADD COLUMN note TEXT NOT NULL DEFAULT 'migrated'")

    monkeypatch.setattr(schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setitem(migrations.MIGRATIONS, SCHEMA_VERSION, add_note)
    with Store.open(path) as st:
        assert st.version == SCHEMA_VERSION + 1
        assert st.conn.execute("SELECT note FROM runs").fetchone()[0] == "migrated"
        assert len(st.runs()) == 1


V1_SCRIPT = Path(__file__).parent / "data" / "store-v1.sql"


def test_v1_file_is_upgraded_in_place(tmp_path: Path) -> None:
    """A store written by the v1 code (before `series.sub`), saved as SQL:
    opening it adds the column, recovers the flag from the stored raw stream
    (irq.latency_jitter's `delta` is `sub=0`), moves the stream into 1 MiB
    chunks (v3), records the builds as made with gcc (v4), adds the empty
    attribution table (v5), the idle table (v6), the energy table (v7),
    the energy_stream table (v8) and idle's time_limit (v9), and keeps every
    row."""
    path = tmp_path / "v1.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(V1_SCRIPT.read_text(encoding="utf-8"))
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    columns = [r[1] for r in conn.execute("PRAGMA table_info(series)")]
    assert "sub" not in columns
    before = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
              for t in ("runs", "builds", "executions", "cases", "series", "counts", "checks")}
    (v1_stream,) = conn.execute("SELECT stream FROM executions").fetchone()
    conn.close()

    with Store.open(path) as st:
        assert st.version == SCHEMA_VERSION == 9
        assert "time_limit" in {r[1] for r in st.conn.execute("PRAGMA table_info(idle)")}
        # v5: the attribution table, empty (rtosmeter.attribution)
        assert st.conn.execute("SELECT count(*) FROM attribution").fetchone()[0] == 0
        # v8: the energy_stream table, empty (rtosmeter.energy.stored)
        assert st.conn.execute("SELECT count(*) FROM energy_stream").fetchone()[0] == 0
        assert [b.axes for b in st.builds(st.runs()[0].id)] == [{"toolchain": "gcc"}]
        for table, n in before.items():
            assert st.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == n
        (run,) = st.runs()
        (ex,) = st.executions(run.id)
        assert st.stream(ex.id) == bytes(v1_stream) != b""
        assert st.conn.execute("SELECT length(stream) FROM executions").fetchone()[0] == 0
        parsed = parse_stream(st.stream(ex.id))
        want = {s.name: s.subtract for c in parsed.cases for s in c.series.values()}
        assert want["delta"] is False and want["latency"] is True
        got = {s.name: s.subtract for s in st.iter_series(run.id)}
        assert got == want
        # a new execution in the upgraded file stores the flag itself
        b = st.add_build(run.id, "posix", "host", "default", {})
        st.add_execution(run.id, b, "irq", status="ok", stream=st.stream(ex.id), parsed=parsed)
        rows = st.conn.execute("SELECT name, sub FROM series WHERE case_row IN (SELECT id "
                               "FROM cases WHERE execution_id = ?)", (ex.id + 1,)).fetchall()
        assert dict(rows) == {n: int(v) for n, v in want.items()}
    with Store.open(path) as st:  # opening again is a no-op
        assert st.version == SCHEMA_VERSION
        assert len(list(st.iter_series(run.id))) == 2 * before["series"]


def test_round_trip(tmp_path: Path) -> None:
    samples = [5, 0, 0xFFFFFFFF, 1234567]
    data = stream(samples)
    with Store.open(tmp_path / "r.sqlite") as st:
        run = st.create_run({"name": "default"}, {"os": "Linux"}, "0.1.0")
        b = st.add_build(run, "posix", "host", "default", {"cc": "gcc"})
        e = st.add_execution(run, b, "lat", status="failed", exit_code=1, wall_s=0.5,
                             runner={"runner": "host"}, stream=data,
                             footprint={"flash": 10, "ram": 2}, parsed=parse_stream(data))
        st.finish_run(run)
    with Store.open(tmp_path / "r.sqlite") as st:
        r = st.run(run)
        assert r.status == "done" and r.finished and r.campaign == {"name": "default"}
        assert st.stream(e) == data
        (ex,) = st.executions(run)
        assert ex.hello["port"] == "posix" and ex.errors == [] and ex.fault is None
        assert ex.runner == {"runner": "host"} and ex.footprint["flash"] == 10
        cases = st.cases(run)
        assert [(c.case_id, c.status) for c in cases] == [("lat.a", "failed"), ("tm.b", "ok")]
        assert cases[0].meta == {"threads": "2"} and cases[0].cfg == {"opt": "-O2"}
        (s,) = list(st.iter_series(run))
        assert s.name == "x" and s.what == "the x interval" and s.subtract
        assert s.samples.dtype == np.uint32 and s.samples.tolist() == samples
        blob = st.conn.execute("SELECT samples FROM series").fetchone()[0]
        assert blob[:4] == (5).to_bytes(4, "little") and len(blob) == 16
        assert st.counts(run) == [(cases[1].id, "total", 0, 10), (cases[1].id, "total", 1, 11)]
        assert st.checks(run) == [(cases[0].id, "c", False, 1, 2)]
        assert st.done_groups(run) == {("posix", "host", "default", GCC, "lat")}
        clang = st.add_build(run, "posix", "host", "default", {}, axes={"toolchain": "clang"})
        assert clang != b and st.add_build(run, "posix", "host", "default", {}) == b
        assert [x.axes["toolchain"] for x in st.builds(run)] == ["gcc", "clang"]


def test_damaged_stream_keeps_valid_records(tmp_path: Path) -> None:
    data = stream([1, 2, 3])
    cut = data.find(b"@RM 9 ") + 5  # dies inside tm.b
    parsed = parse_stream(data[:cut])
    with Store.open(tmp_path / "r.sqlite") as st:
        run = st.create_run({}, {}, "0.1")
        b = st.add_build(run, "posix", "host", "default", {})
        st.add_execution(run, b, "lat", status="error", error="killed", stream=data[:cut],
                         parsed=parsed)
        (ex,) = st.executions(run)
        assert ex.errors[-1][0] == cut and "without BYE" in ex.errors[-1][1]
        cases = st.cases(run)
        assert [(c.case_id, c.status) for c in cases] == [("lat.a", "failed"),
                                                         ("tm.b", "incomplete")]
        assert [s.samples.tolist() for s in st.iter_series(run)] == [[1, 2, 3]]


def test_resolve_run(tmp_path: Path) -> None:
    with Store.open(tmp_path / "r.sqlite") as st:
        with pytest.raises(UserError, match="holds 0 runs"):
            st.resolve_run("latest")
        ids = [st.create_run({}, {}, "0.1") for _ in range(3)]
        assert st.resolve_run("latest") == ids[-1]
        assert st.resolve_run("latest~2") == ids[0]
        assert st.resolve_run(str(ids[1])) == ids[1]
        latest = st.latest_run()
        assert latest is not None and latest.id == ids[-1]
        with pytest.raises(UserError, match="no run 99"):
            st.resolve_run("99")
        with pytest.raises(UserError, match="unknown run 'last'"):
            st.resolve_run("last")


@pytest.mark.slow
def test_killed_writer_loses_only_the_unfinished_execution(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    data = stream([1, 2, 3])
    script = textwrap.dedent(f"""
        import os, signal
        from rtosmeter.protocol import parse_stream
        from rtosmeter.store import Store
        data = {data!r}
        st = Store.open({str(path)!r})
        run = st.create_run({{}}, {{}}, "0.1")
        b = st.add_build(run, "posix", "host", "default", {{}})
        st.add_execution(run, b, "lat", status="ok", stream=data, parsed=parse_stream(data))
        st.conn.execute("BEGIN")
        st.conn.execute("INSERT INTO executions (run_id, build_id, grp, status) "
                        "VALUES (?, ?, 'half', 'ok')", (run, b))
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert proc.returncode == -9, proc.stderr
    with Store.open(path) as st:
        (run,) = st.runs()
        assert run.status == "interrupted"  # marked running, but its process is gone
        assert st.done_groups(run.id) == {("posix", "host", "default", GCC, "lat")}
        assert len(st.cases(run.id)) == 2


REAL = sorted((Path(__file__).parent / "data").glob("*.rmstream"))


@pytest.mark.skipif(not REAL, reason="no recorded streams (*.rmstream) in tests/data")
def test_damaged_real_stream_stored(tmp_path: Path) -> None:
    """A real stream with a flipped byte and cut mid-case: the error names the
    byte, and every valid record before it reaches the store."""
    data = max((p.read_bytes() for p in REAL), key=len)
    full = parse_stream(data)
    flip = data.find(b"@RM 30 ") + 9
    cut = data.find(b"@RM 120 ") + 30
    damaged = bytearray(data[:cut])
    damaged[flip] ^= 0x02
    parsed = parse_stream(bytes(damaged))
    with Store.open(tmp_path / "r.sqlite") as st:
        run = st.create_run({}, {}, "0.1")
        b = st.add_build(run, "posix", "host", "default", {})
        st.add_execution(run, b, "g", status="error", stream=bytes(damaged), parsed=parsed)
    with Store.open(tmp_path / "r.sqlite") as st:
        (ex,) = st.executions(run)
        assert ex.errors[0] == (flip - 9, "bad checksum (claims record 30)")
        assert ex.errors[-1][0] == cut and "without BYE" in ex.errors[-1][1]
        stored = {c.case_id: c for c in st.cases(run)}
        series: dict[int, dict[str, list[int]]] = {}
        for srow in st.iter_series(run):
            series.setdefault(srow.case_row, {})[srow.name] = srow.samples.tolist()
        assert len(stored) == len(parsed.cases) >= 2
        for case in parsed.cases:
            row = stored[case.id]
            assert row.status == case.status
            got = series.get(row.id, {})
            for name, s in case.series.items():
                assert got[name] == s.samples.tolist()
                whole = full.case(case.id).series[name].samples
                kept = whole[:s.samples.size].tolist() == s.samples.tolist()
                assert kept or row.status == "error"
        assert list(stored.values())[-1].status == "incomplete"


def test_a_stream_is_stored_in_1_mib_rows(tmp_path: Path) -> None:
    data = bytes(range(256)) * (5 << 12) + b"tail"  # 5 MiB and 4 bytes
    with Store.open(tmp_path / "r.sqlite") as st:
        run = st.create_run({}, {}, "t")
        b = st.add_build(run, "posix", "host", "default", {})
        ex = st.add_execution(run, b, "g", status="failed", stream=data)
        sizes = [r[0] for r in st.conn.execute(
            "SELECT length(data) FROM stream_chunks WHERE execution_id = ? ORDER BY seq", (ex,))]
        assert sizes == [1 << 20] * 5 + [4]
        assert st.stream(ex) == data

