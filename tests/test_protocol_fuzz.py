"""The parser under fuzzing: hostile values that once crashed the harness, and
a bounded, seeded structure-aware fuzz run (scripts/fuzz_protocol.py runs
long campaigns). Every parse must return, keep only bounded state, and lose
no more than the records at fault."""

from __future__ import annotations

import importlib.util
import random
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
import streamfuzz

from rtosmeter.numbers import MAX_INT
from rtosmeter.protocol import StreamWriter, parse_stream

ROOT = Path(__file__).resolve().parents[1]
RUNS = 2000  # executions per CI run of the own fuzzer: a few seconds
ATHERIS_RUNS = 200  # atheris instruments every loaded module first: slower per run


def hello(w: StreamWriter, **over: object) -> None:
    fields: dict[str, object] = dict(
        v=1, port="posix", target="host", group="lat", ts="clock_gettime", unit="ns",
        hz=1000000000, samples=8, batch=4, tm_period=100, tm_periods=3, profile="default")
    fields.update(over)
    w.record("HELLO", fields)


def two_cases(count: str, check_got: str = "5") -> bytes:
    """Case a (a COUNT of value `count`, a CHECK with `got`), then a good case b."""
    w = StreamWriter()
    hello(w)
    w.record("CASE", {"id": "a"})
    w.record("COUNT", {"name": "total", "period": 0, "value": count})
    w.record("CHECK", {"name": "c", "ok": 1, "got": check_got, "want": 5})
    w.record("END", {"id": "a", "status": "ok"})
    w.record("CASE", {"id": "b"})
    w.record("COUNT", {"name": "total", "period": 0, "value": 7})
    w.record("END", {"id": "b", "status": "ok"})
    w.record("BYE", {"cases": 2, "status": 0})
    return w.getvalue()


@pytest.mark.parametrize("value", [
    "9" * 5000, str(MAX_INT + 1), "18446744073709551616", "-5", "+2", "1_0", "\u0663",
    "\uff11", "", "0x10", " 7",
])
def test_a_bad_number_loses_only_its_record(value: str) -> None:
    for data in (two_cases(value), two_cases("3", check_got=value)):
        p = parse_stream(data)
        assert len(p.errors) == 1, p.errors
        assert re.search("is not a number|is larger than", p.errors[0].message)
        assert p.case("a").status == "error"
        b = p.case("b")
        assert b.status == "ok" and [c.value for c in b.counts] == [7]
        assert p.complete


def test_the_largest_int64_is_a_number() -> None:
    p = parse_stream(two_cases(str(MAX_INT)))
    assert p.errors == [] and p.case("a").counts[0].value == MAX_INT


@pytest.mark.parametrize("hz", ["nan", "inf", "1e-300", "0", "-1", "25e6", "9" * 5000])
def test_a_clock_rate_must_be_a_positive_integer(hz: str) -> None:
    w = StreamWriter()
    hello(w, hz=hz)
    w.record("BYE", {"cases": 0, "status": 0})
    p = parse_stream(w.getvalue())
    assert p.header == {}
    assert p.errors[0].offset == 0 and "malformed HELLO record: hz" in p.errors[0].message


def test_a_5000_digit_sequence_number_is_one_bad_record() -> None:
    w = StreamWriter()
    hello(w)
    body = b"@RM " + b"9" * 5000 + b" CASE id=x "
    w.raw(body + b"*%08x\n" % zlib.crc32(body))
    w.record("BYE", {"cases": 0, "status": 0})
    p = parse_stream(w.getvalue())
    assert "sequence number" in p.errors[0].message and p.complete


def test_the_fuzzer_mutates_a_stream_of_huge_sequence_numbers() -> None:
    """Every record numbered with 5,000 digits: the fuzzer's own flood
    mutation once read it with int() and crashed before its count."""
    lines = [ln for ln in streamfuzz.seeds()[0].split(b"\n") if ln.startswith(b"@RM ")][:40]
    huge = b"".join(streamfuzz._crc_line(b"@RM " + b"9" * 5000 + b" "
                                         + ln[:-10].split(b" ", 2)[2] + b" ") for ln in lines)
    rng = random.Random(7)
    for _ in range(300):  # flood is one mutation in eight: drawn many times over
        streamfuzz.check(streamfuzz.mutate(rng, huge))


def test_samples_beyond_hello_are_an_error_of_the_case_not_data() -> None:
    w = StreamWriter()
    hello(w, samples=4)
    w.record("CASE", {"id": "a"})
    w.record("SERIES", {"id": 0, "name": "x", "what": "w"})
    w.samples(0, 0, [1, 2, 3, 4])
    w.samples(0, 4, [5] * 1000)
    w.record("END", {"id": "a", "status": "ok"})
    w.record("BYE", {"cases": 1, "status": 0})
    p = parse_stream(w.getvalue())
    a = p.case("a")
    assert a.status == "error" and "beyond the 4 announced by HELLO" in a.reason
    assert a.series["x"].samples.tolist() == [1, 2, 3, 4]


def test_a_flood_of_cases_and_bad_records_keeps_bounded_state() -> None:
    w = StreamWriter()
    hello(w)
    for i in range(5000):
        w.record("UNSUP", {"id": f"c{i}", "reason": "r"})
    w.raw(b"@RM 1 CASE id=x *00000000\n" * 3000)
    w.raw(b"console noise\n" * 3000)
    p = parse_stream(w.getvalue())
    assert len(p.cases) == 4096
    assert len(p.errors) == 1002 and p.errors[-1].message.endswith("more errors not kept")
    assert len(p.noise) == 1001 and p.noise[-1] == "[2000 more console lines not kept]"


@pytest.mark.slow
def test_seeded_structure_aware_fuzz() -> None:
    """RUNS mutated real streams; any exception is a parser crash."""
    rng = random.Random(20261122)
    seeds = streamfuzz.seeds()
    assert seeds, "tests/data holds no recorded streams"
    for _ in range(RUNS):
        streamfuzz.check(streamfuzz.mutate(rng, rng.choice(seeds)))


@pytest.mark.skipif(importlib.util.find_spec("atheris") is None,
                    reason="atheris not installed (pip install -e '.[dev]')")
@pytest.mark.slow
def test_atheris_bounded_run() -> None:
    """The coverage-guided engine, as scripts/fuzz_protocol.py runs it, for a
    bounded number of executions with a fixed seed."""
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "fuzz_protocol.py"), "--engine", "atheris",
         "--runs", str(ATHERIS_RUNS), "--seed", "1"],
        capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    assert f"executions: {ATHERIS_RUNS}" in proc.stdout
