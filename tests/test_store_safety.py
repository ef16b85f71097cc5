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


def _writer(path: str, rounds: int, barrier: Any, results: Any) -> None:
    """add_build in a loop (it reads, then writes), then delete_run (the same)."""
    failures = []
    with Store.open(path) as st:
        run = st.create_run({}, {}, "t")
        barrier.wait()
        for i in range(rounds):
            try:
                st.add_build(run, "posix", "host", f"p{i}", {})
            except StoreError as exc:
                failures.append(str(exc))
        try:
            st.conn.execute("DELETE FROM builds WHERE run_id = ?", (run,))
            st.delete_run(run)
        except StoreError as exc:
            failures.append(str(exc))
    results.put(failures)


def test_two_writers_take_the_write_lock_up_front(tmp_path: Path) -> None:
    """A deferred transaction that reads and then writes failed at once with
    "database is locked" (294 and 179 of 300 calls), busy_timeout or not."""
    path = str(tmp_path / "r.sqlite")
    Store.open(path).close()
    ctx = multiprocessing.get_context("fork")
    barrier, results = ctx.Barrier(2), ctx.Queue()
    children = [ctx.Process(target=_writer, args=(path, 300, barrier, results))
                for _ in range(2)]
    for c in children:
        c.start()
    failures = [f for _ in children for f in results.get(timeout=120)]
    for c in children:
        c.join()
    print(f"{len(failures)} of 602 writes failed")
    assert failures == []
    with Store.open(path) as st:
        assert st.runs() == []


def test_a_second_run_into_one_out_is_refused_clearly(tmp_path: Path) -> None:
    """Two runs into one --out built in the same folders and failed
    spuriously (7 of 40 pairs): the second is refused before anything."""
    from conftest import invoke

    path = tmp_path / "rtosmeter.sqlite"
    Store.open(path).close()
    script = textwrap.dedent(f"""
        import sys
        from rtosmeter.store import Store
        st = Store.open({str(path)!r})
        lock = st.lock_out()  # what a run holds while it builds and runs
        print("locked", flush=True)
        sys.stdin.read()
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "locked\n"
        result = invoke("run", "--out", str(tmp_path), "--port", "posix", "--bench", "lat.*")
        assert result.exit_code == 1, result.output
        assert (f"another rtosmeter run (process {child.pid}) is building and running in "
                f"this campaign folder in {tmp_path}") in result.stderr
        with Store.open(path) as st:
            assert st.runs() == []  # refused before it stored a run
    finally:
        child.communicate("")
    with Store.open(path) as st:  # the holder gone, the folder is free again
        st.lock_out().release(unlink=False)


def _read_only_mount(folder: Path, *commands: list[str]) -> subprocess.CompletedProcess[str]:
    """`commands` with `folder` bind-mounted read-only over itself, in a
    private mount namespace (as an unprivileged user namespace allows)."""
    script = f"mount --bind -o ro {folder} {folder} && touch {folder}/w 2>/dev/null && exit 9; "
    script += " && ".join(" ".join(f"'{a}'" for a in c) for c in commands)
    return subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True,
                          text=True, timeout=120)


def test_a_store_on_a_read_only_folder_is_read(tmp_path: Path) -> None:
    """SQLite cannot create WAL's side files on a read-only mount: every
    reader failed with "unable to open database file"."""
    if subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode:
        pytest.skip("needs unshare -rm (user and mount namespaces)")
    from _datahalf import store_run
    data = Path(__file__).parent / "data" / "posix-host-lat_isr.rmstream"
    store_run(tmp_path / "rtosmeter.sqlite", [(data.read_bytes(), {"runner": "host"})])
    exe = str(Path(sys.executable).with_name("rtosmeter"))
    proc = _read_only_mount(tmp_path, [exe, "history", "--out", str(tmp_path)],
                            [exe, "report", "--out", str(tmp_path), "--format", "markdown"],
                            [exe, "compare", "1", "1", "--out", str(tmp_path)])
    assert proc.returncode == 0, proc.stderr
    assert "posix / host / default" in proc.stdout and "# rtosmeter run 1 (done)" in proc.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rtosmeter.sqlite"]
    # writes left in the -wal file: a clear error, not a silently older store
    with Store.open(tmp_path / "rtosmeter.sqlite") as st:
        st.conn.execute("PRAGMA wal_autocheckpoint=0")
        st.create_run({}, {}, "t")
        wal = (tmp_path / "rtosmeter.sqlite-wal").read_bytes()
    (tmp_path / "rtosmeter.sqlite-wal").write_bytes(wal)
    (tmp_path / "rtosmeter.sqlite-shm").unlink(missing_ok=True)
    proc = _read_only_mount(tmp_path, [exe, "history", "--out", str(tmp_path)])
    assert proc.returncode == 1 and "still in its -wal file" in proc.stderr, proc.stderr
    assert "Copy " in proc.stderr and "to a writable place" in proc.stderr
