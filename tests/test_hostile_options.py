"""Numbers given as options (--clock, --load, --resume, a run id) and a
stored run damaged on disk: each a clear error naming the option or the
damaged execution, never an internal error. The real CLI on a real store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from _datahalf import store_run
from conftest import invoke

from rtosmeter.errors import UserError

DATA = Path(__file__).resolve().parent / "data"
LAT = DATA / "posix-host-lat_isr.rmstream"


@pytest.fixture
def out(tmp_path: Path) -> Path:
    store_run(tmp_path / "rtosmeter.sqlite", [(LAT.read_bytes(), {"runner": "host"})])
    return tmp_path


def _error(args: list[str]) -> str:
    result = invoke(*args)
    assert result.exit_code == 1, (result.output, result.exception)
    assert "Traceback" not in result.output and result.stderr.startswith("Error: ")
    return result.stderr


@pytest.mark.parametrize("rate,why", [("9" * 400 + "Hz", "is not a number of ASCII digits"),
                                      ("200000GHz", "is larger than"),
                                      ("2GHz", "faster than any Cortex-M"),
                                      ("0.0000001Hz", "below 1 Hz"),
                                      ("0Hz", "below 1 Hz"),
                                      ("80", "has no unit"),
                                      ("\u0661MHz", "is not a clock rate"),
                                      ("nan", "is not a clock rate"),
                                      ("1.2.3MHz", "not a number of ASCII digits")])
def test_a_clock_that_is_not_a_rate_names_the_option(out: Path, rate: str, why: str) -> None:
    text = _error(["report", "--out", str(out), "--clock", rate])
    assert why in text and "--clock" in text


def test_a_clock_rate_is_read(out: Path) -> None:
    assert invoke("report", "--out", str(out), "--clock", "80MHz").exit_code == 0


@pytest.mark.parametrize("spec", ["irq:+5:1", "irq:\u0665:1", "irq:5:\uff11", "irq:1_0:1",
                                  "irq:" + "9" * 5000 + ":1", "tasks: 3"])
def test_a_load_number_is_ascii_digits(out: Path, spec: str) -> None:
    text = _error(["run", "--out", str(out), "--load", spec, "--port", "posix"])
    assert "--load" in text and "must be a whole number" in text


@pytest.mark.parametrize("ref", ["9" * 5000, "\u0661", "latest~\u0661", "latest~" + "9" * 5000,
                                 "+1", "1_0"])
def test_a_run_id_is_ascii_digits(out: Path, ref: str) -> None:
    for args in (["run", "--resume", ref], ["report", ref]):
        text = _error([*args, "--out", str(out)])
        assert "unknown run" in text or "no run" in text, text


@pytest.mark.parametrize("column,value,what", [
    ("series.samples", b"\x01\x02\x03", "series"),
    ("executions.runner", "{not json", "execution 1"),
    ("cases.meta", "[1,", "case calib.overhead of execution 1"),
])
def test_a_damaged_stored_run_names_what_is_damaged(out: Path, column: str, value: object,
                                                    what: str) -> None:
    table, col = column.split(".")
    with sqlite3.connect(out / "rtosmeter.sqlite") as db:
        db.execute(f"UPDATE {table} SET {col} = ? WHERE rowid = (SELECT min(rowid) FROM {table})",
                   (value,))
    for fmt in ("table", "json"):
        text = _error(["report", "--out", str(out), "--format", fmt])
        assert what in text and "is damaged" in text and "rtosmeter.sqlite" in text, text


@pytest.mark.parametrize("label", ["V\u00b2", "V" + "9" * 5000, "v\u0661.2"])
def test_an_instance_label_of_odd_digits_sorts(label: str) -> None:
    """`str.isdigit()` is true of "²", which int() refuses."""
    from rtosmeter.instances import sort_key

    assert sorted([f"freertos@{label}", "freertos@V9.0.0"], key=sort_key)


@pytest.mark.parametrize("gdb", ["127.0.0.1:\u00b2", "127.0.0.1:" + "9" * 5000,
                                 "127.0.0.1:70000", "127.0.0.1:\u0663"])
def test_a_gdb_port_is_ascii_digits(gdb: str) -> None:
    from rtosmeter.runners.board_settings import BoardSettings

    settings = BoardSettings(board="b", probe="gdb", gdb=gdb)
    with pytest.raises(UserError, match="is not HOST:PORT"):
        settings.gdb_address()
