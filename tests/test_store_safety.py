"""The store under concurrency and failure: two processes creating one file,
a foreign SQLite file, a full disk, a damaged file, run locks. Real SQLite
files and real processes throughout."""

from __future__ import annotations

import multiprocessing
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from rtosmeter.errors import UserError
from rtosmeter.protocol import StreamWriter, parse_stream
from rtosmeter.store import Store, StoreError


def stream(n: int = 3) -> bytes:
    w = StreamWriter()
    w.record("HELLO", dict(v=1, port="posix", target="host", group="lat", ts="c", unit="ns",
                           hz=10**9, samples=n, batch=n, tm_period=0, tm_periods=0,
                           profile="default"))
    w.record("CASE", {"id": "lat.a"})
    w.record("SERIES", {"id": 0, "name": "x", "what": "w"})
    w.samples(0, 0, list(range(n)))
    w.record("END", {"id": "lat.a", "status": "ok"})
    w.record("BYE", {"cases": 1, "status": 0})
    return w.getvalue()


def _open_and_add(path: str, barrier: Any, results: Any) -> None:
    barrier.wait()
    try:
        with Store.open(path) as st:
            run = st.create_run({}, {}, "t")
            st.finish_run(run)
    except Exception as exc:
        results.put(f"{type(exc).__name__}: {exc}")
        return
    results.put("")


@pytest.mark.slow
def test_processes_racing_to_create_one_store_all_succeed(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    rounds, procs = 6, 8
    for i in range(rounds):
        path = str(tmp_path / f"s{i}.sqlite")
        barrier, results = ctx.Barrier(procs), ctx.Queue()
        children = [ctx.Process(target=_open_and_add, args=(path, barrier, results))
                    for _ in range(procs)]
        for c in children:
            c.start()
        errors = [results.get() for _ in children]
        for c in children:
            c.join()
        assert errors == [""] * procs
        with Store.open(path) as st:
            assert len(st.runs()) == procs


def test_a_foreign_sqlite_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (t TEXT)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(UserError, match="not an rtosmeter store"):
        Store.open(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite"]  # no -wal, no -shm
    assert before[18:20] == b"\x01\x01"  # still a rollback-journal file, not WAL (2, 2)


def test_a_full_disk_keeps_every_stored_execution(tmp_path: Path) -> None:
    """SQLITE_FULL, as a full disk gives it, from a page limit on the file."""
    path = tmp_path / "r.sqlite"
    data = stream()
    with Store.open(path) as st:
        run = st.create_run({}, {}, "t")
        b = st.add_build(run, "posix", "host", "default", {})
        first = st.add_execution(run, b, "lat", status="ok", stream=data,
                                 parsed=parse_stream(data))
        pages = st.conn.execute("PRAGMA page_count").fetchone()[0]
        st.conn.execute(f"PRAGMA max_page_count={pages + 2}")
        with pytest.raises(StoreError) as info:
            st.add_execution(run, b, "big", status="ok", stream=b"x" * (1 << 20))
        message = f"Error: {info.value.message}"
        assert "database or disk is full" in message and str(path) in message
        assert "Free disk space" in message and "--resume" in message
    with Store.open(path) as st:
        assert [e.id for e in st.executions(run)] == [first]
        assert st.stream(first) == data and len(st.cases(run)) == 1


def test_damaged_pages_give_a_message_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    data = stream(2000)
    with Store.open(path) as st:
        run = st.create_run({}, {}, "t")
        b = st.add_build(run, "posix", "host", "default", {})
        for g in range(20):
            st.add_execution(run, b, f"g{g}", status="ok", stream=data,
                             parsed=parse_stream(data))
        st.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw = bytearray(path.read_bytes())
    page = 4096
    for p in range(2, len(raw) // page):  # every page but the header and schema
        raw[p * page:p * page + 64] = b"\xa5" * 64
    path.write_bytes(bytes(raw))
    with pytest.raises(StoreError) as info, Store.open(path) as st:
        for ex in st.executions(run):
            st.stream(ex.id)
        st.cases(run)
    assert "malformed" in info.value.message and ".recover" in info.value.message


@pytest.mark.slow
def test_a_run_lock_is_held_by_its_process_only(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    with Store.open(path) as st:
        run = st.create_run({}, {}, "t")
    script = textwrap.dedent(f"""
        import sys, time
        from rtosmeter.store import Store
        st = Store.open({str(path)!r})
        lock = st.lock_run({run})
        print("locked", flush=True)
        sys.stdin.read()
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "locked\n"
        with Store.open(path) as st:
            assert st.run(run).status == "running"
            with pytest.raises(UserError, match=f"run {run} is still running "
                                                f"\\(process {child.pid}\\)"):
                st.lock_run(run)
    finally:
        child.kill()
        child.wait()
    with Store.open(path) as st:
        assert st.run(run).status == "interrupted"
        st.lock_run(run).release()
