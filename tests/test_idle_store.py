"""Idle figures round-trip through a real SQLite store, and a v4 store gains
the idle table on opening."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from rtosmeter.idle.figures import WHOLE, IdleFigures
from rtosmeter.idle.stored import read_idle, write_idle
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


def test_v8_idle_rows_gain_an_empty_time_limit(tmp_path: Path) -> None:
    """A v8 store's idle rows (all measured on QEMU 7.2) read as measured
    once the v9 step adds `time_limit`."""
    path = tmp_path / "v8.sqlite"
    with Store.open(path) as st:
        run, ex = _execution(st)
        write_idle(st, ex, IdleFigures(10_000, 9_000, 1_000, 3, {"tick": 3}, 15))
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE idle DROP COLUMN time_limit")  # the v8 shape
    conn.execute("PRAGMA user_version=8")
    conn.commit()
    conn.close()
    with Store.open(path) as st:
        assert st.version == SCHEMA_VERSION == 9
        (figures,) = read_idle(st, run)[ex]
    assert figures.timed and figures.residency == 0.9 and figures.wakeups_per_s == 3e5


def test_untimed_figures_say_why_and_have_no_time(tmp_path: Path) -> None:
    """On a QEMU whose plugin cannot read virtual time the figures keep the
    counts and the reason, and no figure of time."""
    why = "not exact on QEMU 10.0: its plugin API has no virtual clock"
    with Store.open(tmp_path / "s.sqlite") as st:
        run, ex = _execution(st)
        write_idle(st, ex, IdleFigures(64_000, 0, 64_000, 7, {"tick": 7}, 1_000,
                                       time_limit=why))
        (figures,) = read_idle(st, run)[ex]
    assert figures.time_limit == why and not figures.timed
    assert figures.residency is None and figures.wakeups_per_s is None
    assert figures.wakeups == 7 and figures.instructions_per_wakeup == 1_000 / 7
