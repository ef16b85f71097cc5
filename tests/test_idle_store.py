"""Idle figures round-trip through a real SQLite store, and a v4 store gains
the idle table on opening."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from rtosmeter.idle import WHOLE, IdleFigures, read_idle, write_idle
from rtosmeter.store import SCHEMA_VERSION, Store


def _execution(st: Store) -> tuple[int, int]:
    run = st.create_run({}, {}, "test")
    build = st.add_build(run, "baremetal", "qemu-mps2-an386", "lowpower", {})
    ex = st.add_execution(run, build, "idle", status="ok")
    return run, ex


def test_figures_round_trip(tmp_path: Path) -> None:
    with Store.open(tmp_path / "s.sqlite") as st:
        run, ex = _execution(st)
        whole = IdleFigures(1_000_000_000, 990_000_000, 10_000_000, 100,
                            {"tick": 99, "interrupt": 1}, 5_000)
        case = IdleFigures(10_000_000, 9_000_000, 1_000_000, 1, {"timer": 1}, 40,
                           window="idle.sleep", interrupts={"tick": 10, "timer": 1})
        write_idle(st, ex, case)
        write_idle(st, ex, whole)
        got = read_idle(st, run)
    assert got == {ex: [whole, case]}
    assert got[ex][0].window == WHOLE
    assert dict(got[ex][1].interrupts) == {"tick": 10, "timer": 1}
    assert got[ex][0].residency == pytest.approx(0.99)
    assert got[ex][0].wakeups_per_s == pytest.approx(100.0)
    assert got[ex][0].instructions_per_wakeup == pytest.approx(50.0)


def test_bad_figures_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown wake-up causes"):
        IdleFigures(1, 1, 0, 1, {"moon": 1})
    with pytest.raises(ValueError, match="negative"):
        IdleFigures(1, -1, 2, 0)


def test_a_v5_store_gains_the_idle_table(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Store.open(path) as st:
        _execution(st)
        st.conn.execute("DROP TABLE idle")
        st.conn.execute("DROP TABLE energy")  # schema 7's, after idle's
        st.conn.execute("DROP TABLE energy_stream")  # schema 8's
        st.conn.execute("PRAGMA user_version=5")
    with Store.open(path) as st:
        assert st.version == SCHEMA_VERSION
        run = st.runs()[0].id
        assert read_idle(st, run) == {}
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name='idle'").fetchone() == (1,)
