"""Numbers a firmware sends outside the parser's own fields (CFG clocks, META
figures) and streams that lie about their cases: recorded real streams,
edited and re-checksummed, parsed, stored in a real SQLite file and reported
in every format."""

from __future__ import annotations

from pathlib import Path

import pytest
from _datahalf import store_run
from streamfuzz import _join, _records

from rtosmeter.analysis import load_run
from rtosmeter.protocol import escape, parse_stream
from rtosmeter.reports import csv, html, json, markdown, table
from rtosmeter.store import Store

DATA = Path(__file__).resolve().parent / "data"
IRQ = DATA / "baremetal-qemu-mps2-an386-quick-irq.rmstream"
LAT = DATA / "posix-host-lat_isr.rmstream"
QEMU = {"runner": "qemu", "icount_shift": 6}
HOST = {"runner": "host"}
# Each once crashed a run or a report, or was taken as a number.
BAD = ["²", "\u0661", "9" * 5000, "9" * 400, "0", "-5", "+2", "1e9", "nan", "inf", " 7"]


def _edit(path: Path, rtype: bytes, key: bytes, value: str) -> bytes:
    """The recorded stream with `rtype k=<key>`'s value replaced (escaped as
    the firmware's writer would), every checksum valid again."""
    records = _records(path.read_bytes())
    hits = 0
    for tokens in records:
        if len(tokens) > 3 and tokens[2] == rtype and tokens[3] == b"k=" + key:
            tokens[4] = b"v=" + escape(value).encode()
            hits += 1
    assert hits == 1
    return _join(records)


def _cfg_clock(path: Path, value: str) -> bytes:
    """The stream with a `CFG ts_hz` of `value` after HELLO."""
    records = _records(path.read_bytes())
    records.insert(1, [b"@RM", b"1", b"CFG", b"k=ts_hz", b"v=" + escape(value).encode()])
    for seq, tokens in enumerate(r for r in records if r[0] == b"@RM"):
        tokens[1] = str(seq).encode()
    return _join(records)


@pytest.mark.parametrize("value", BAD)
def test_a_clock_that_is_not_a_number_is_an_error_of_its_execution(value: str) -> None:
    p = parse_stream(_cfg_clock(LAT, value))
    (err,) = p.errors
    assert "CFG ts_hz" in err.message and "(a clock rate in Hz)" in err.message, err
    assert "ts_hz" not in p.config and p.complete  # the rest of the stream is kept
    assert all(c.status == "ok" for c in p.cases)


def test_a_clock_the_firmware_reported_converts_its_counts() -> None:
    p = parse_stream(_cfg_clock(LAT, "1000000000"))
    assert p.errors == [] and p.config["ts_hz"] == "1000000000"


@pytest.mark.parametrize("ts_hz", ["9" * 400, "²", "\u0661"])
def test_a_stored_clock_that_is_not_a_number_leaves_the_rate_unknown(
        tmp_path: Path, ts_hz: str) -> None:
    """A run stored before the parser checked CFG ts_hz: 400 digits was float
    infinity, and every latency 0.0."""
    run = store_run(tmp_path / "r.sqlite", [(LAT.read_bytes(), {**HOST, "ts_hz": ts_hz})])
    with Store.open(tmp_path / "r.sqlite") as st:
        view = load_run(st, run)
    dists = [d for c in view.cases for d in c.distributions]
    assert dists and all("rate unknown" in d.unit.label for d in dists)
    assert all(d.p50 > 0 for d in dists)


@pytest.mark.parametrize("value", BAD)
def test_a_rate_figure_that_is_not_a_number_reports_in_every_format(
        tmp_path: Path, value: str) -> None:
    data = _edit(IRQ, b"META", b"max_rate_hz", value)
    run = store_run(tmp_path / "r.sqlite", [(data, QEMU)])
    with Store.open(tmp_path / "r.sqlite") as st:
        view = load_run(st, run)
    rate = next(c for c in view.cases if c.case_id == "irq.max_rate")
    assert rate.meta["max_rate_hz"] == value
    for fmt in (table, markdown, html, csv, json):
        assert fmt.render(view)
    assert "Interrupt responsiveness" in markdown.render(view)


def _lying(bye_cases: int | None = None, repeat: bool = False) -> bytes:
    records = _records(LAT.read_bytes())
    bye = next(r for r in records if len(r) > 2 and r[2] == b"BYE")
    if repeat:  # the first case again, before BYE
        first = next(i for i, r in enumerate(records) if len(r) > 2 and r[2] == b"CASE")
        end = next(i for i, r in enumerate(records) if i > first and len(r) > 2
                   and r[2] == b"END")
        at = records.index(bye)
        records[at:at] = [list(r) for r in records[first:end + 1]]
    if bye_cases is not None:
        bye[3] = b"cases=%d" % bye_cases
    for seq, tokens in enumerate(r for r in records if r[0] == b"@RM"):
        tokens[1] = str(seq).encode()
    return _join(records)


def test_a_case_repeated_in_one_stream_is_an_error_and_kept_once() -> None:
    honest = parse_stream(LAT.read_bytes())
    n = len(honest.cases)
    p = parse_stream(_lying(bye_cases=n + 1, repeat=True))
    first = honest.cases[0].id
    assert [c.id for c in p.cases].count(first) == 1 and len(p.cases) == n
    assert any(f"case {first} repeated" in e.message for e in p.errors), p.errors


def test_a_stream_of_no_case_is_an_error() -> None:
    w_records = _records(LAT.read_bytes())
    hello = w_records[0]
    data = _join([hello, [b"@RM", b"1", b"BYE", b"cases=0", b"status=0"]])
    p = parse_stream(data)
    assert p.complete and p.cases == []
    assert [e.message for e in p.errors] == ["BYE reports 0 cases: the firmware ran no case"]
