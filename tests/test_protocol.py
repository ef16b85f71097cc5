"""The result-stream parser and writer against docs/protocol.md: crafted
streams for every error the parser must name, and the recorded real streams
of tests/data (written by the C core) for byte-for-byte agreement."""

from __future__ import annotations

import os
import random
import re
import zlib
from pathlib import Path

import pytest

from rtosmeter.catalog import load_caps
from rtosmeter.protocol import (
    CONTINUATION,
    FINAL,
    ParsedStream,
    StreamWriter,
    decode_samples,
    encode_samples,
    escape,
    format_record,
    lacks_reason,
    name_missing,
    parse_stream,
    unescape,
)

# Recorded real streams; RTOSMETER_TEST_STREAMS points at another folder of them.
DATA = Path(os.environ.get("RTOSMETER_TEST_STREAMS", Path(__file__).parent / "data"))
REAL = sorted(DATA.glob("*.rmstream"))
needs_real = pytest.mark.skipif(not REAL, reason=f"no recorded streams (*.rmstream) in {DATA}")


def ref_decode(text: str) -> list[int]:
    """The protocol's sample rule, written the slow obvious way."""
    out, acc = [], 0
    for ch in text:
        if ch in CONTINUATION:
            acc = acc * 32 + CONTINUATION.index(ch)
        else:
            out.append(acc * 32 + FINAL.index(ch))
            acc = 0
    return out


def hello(w: StreamWriter, **over: object) -> None:
    fields: dict[str, object] = dict(
        v=1, port="posix", target="host", group="lat", ts="clock_gettime", unit="ns",
        hz=1000000000, samples=8, batch=4, tm_period=100, tm_periods=3, profile="default")
    fields.update(over)
    w.record("HELLO", fields)


def good_stream() -> tuple[StreamWriter, dict[str, int]]:
    """A complete stream; returns the writer and the offsets of some records."""
    w = StreamWriter()
    at: dict[str, int] = {}
    w.raw(b"boot banner v1.2\n")
    hello(w)
    w.record("CFG", {"k": "compiler", "v": "gcc 12.2 -O2"})
    w.record("CASE", {"id": "calib.overhead"})
    w.record("SERIES", {"id": 0, "name": "overhead", "what": "two timestamp reads"})
    w.samples(0, 0, [50, 20, 21, 22])
    w.samples(0, 4, [20, 20])
    w.record("END", {"id": "calib.overhead", "status": "ok"})
    at["case2"] = len(w.getvalue())
    w.record("CASE", {"id": "lat.sem.pass"})
    w.record("META", {"k": "threads", "v": 2})
    w.record("SERIES", {"id": 0, "name": "take", "what": "A's take until B runs"})
    w.record("SERIES", {"id": 1, "name": "give", "what": "B's give until A runs"})
    w.samples(0, 0, [900, 400, 410, 420])
    w.samples(1, 0, [700, 300, 0xFFFFFFFF])
    w.record("CHECK", {"name": "order", "ok": 1, "got": 5, "want": 5})
    w.record("END", {"id": "lat.sem.pass", "status": "ok"})
    w.record("UNSUP", {"id": "lat.notify.s1", "reason": "POSIX has no task notification"})
    w.record("CASE", {"id": "tm.sync"})
    for p, v in enumerate([1000, 1001, 999]):
        w.record("COUNT", {"name": "total", "period": p, "value": v})
    w.record("END", {"id": "tm.sync", "status": "ok"})
    w.record("BYE", {"cases": 4, "status": 0})
    return w, at


# ---- samples and records -----------------------------------------------------


def test_sample_examples_from_the_spec() -> None:
    assert encode_samples([5, 37, 1000]) == "5B5-8"
    assert decode_samples("5B5-8") == [5, 37, 1000]
    assert encode_samples([0, 0xFFFFFFFF]) == "0D-----v"


def test_samples_round_trip_against_a_reference_decoder() -> None:
    rng = random.Random(7)
    values = [0, 1, 31, 32, 1023, 1024, 0xFFFFFFFF] + [
        rng.getrandbits(rng.choice([5, 10, 20, 32])) for _ in range(5000)]
    text = encode_samples(values)
    assert ref_decode(text) == values
    assert decode_samples(text) == values
    assert decode_samples(text.encode()) == values


@pytest.mark.parametrize(("text", "why"), [
    ("5a?", "not a sample digit"),
    ("5B", "no final digit"),
    ("BBBBBBB5", "8 digits"),
    ("A5", "leading zero"),
    ("EAAAAA0", "32 bits"),  # 4 * 32**6 == 2**32
])
def test_bad_samples_are_refused(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why.split()[-1]):
        decode_samples(text)


def test_encode_refuses_values_outside_uint32() -> None:
    with pytest.raises(ValueError):
        encode_samples([1 << 32])
    with pytest.raises(ValueError):
        encode_samples([-1])


def test_format_record_layout_and_crc() -> None:
    line = format_record(3, "META", {"k": "name", "v": "a b%c*d=e\u00e9"})
    body = b"@RM 3 META k=name v=a%20b%25c%2Ad%3De%C3%A9 "
    assert line == body + b"*%08x\n" % zlib.crc32(body)
    assert unescape(escape("a b%c*d=e\u00e9\t")) == "a b%c*d=e\u00e9\t"


# ---- a good stream -------------------------------------------------------------


def test_parse_good_stream() -> None:
    w, _ = good_stream()
    p = parse_stream(w.getvalue())
    assert p.errors == []
    assert p.complete and p.bye_status == 0
    assert p.header["port"] == "posix" and p.header["hz"] == "1000000000"
    assert p.config == {"compiler": "gcc 12.2 -O2"}
    assert [c.id for c in p.cases] == ["calib.overhead", "lat.sem.pass", "lat.notify.s1",
                                       "tm.sync"]
    assert [c.status for c in p.cases] == ["ok", "ok", "unsupported", "ok"]
    calib = p.case("calib.overhead")
    assert calib.series["overhead"].samples.tolist() == [50, 20, 21, 22, 20, 20]
    sem = p.case("lat.sem.pass")
    assert sem.meta == {"threads": "2"}
    assert sem.series["give"].what == "B's give until A runs"
    assert sem.series["give"].samples.tolist() == [700, 300, 0xFFFFFFFF]
    assert sem.checks[0].ok and sem.checks[0].got == 5
    assert p.case("lat.notify.s1").reason == "POSIX has no task notification"
    assert [(c.period, c.value) for c in p.case("tm.sync").counts] == [
        (0, 1000), (1, 1001), (2, 999)]
    assert p.noise == ["boot banner v1.2"]
    assert p.records == w.seq


def test_crlf_and_text_glued_before_a_record() -> None:
    w, _ = good_stream()
    data = w.getvalue().replace(b"\n", b"\r\n")
    data = data.replace(b"@RM 2 ", b"[kernel] hi@RM 2 ", 1)
    p = parse_stream(data)
    assert p.errors == [] and p.complete
    assert "[kernel] hi" in p.noise


# ---- every error names its byte offset --------------------------------------


def offset_of(data: bytes | bytearray, needle: bytes) -> int:
    i = data.find(needle)
    assert i >= 0
    return i


def test_bad_checksum_is_reported_and_the_rest_kept() -> None:
    w, _ = good_stream()
    data = bytearray(w.getvalue())
    pos = offset_of(data, b"@RM 12 ")  # the only S record of give
    data[pos + 12] ^= 0x01
    p = parse_stream(bytes(data))
    assert [(e.offset, e.message) for e in p.errors] == [(pos, "bad checksum (claims record 12)")]
    sem = p.case("lat.sem.pass")
    assert sem.status == "error" and f"byte {pos}" in sem.reason
    assert sem.series["take"].samples.tolist() == [900, 400, 410, 420]
    assert sem.series["give"].samples.tolist() == []
    assert p.case("tm.sync").status == "ok" and p.complete


def test_lost_batch_shows_as_a_sample_index_skip() -> None:
    w, _ = good_stream()
    data = bytearray(w.getvalue())
    pos = offset_of(data, b"@RM 4 ")  # the first of two S records of overhead
    data[pos + 12] ^= 0x01
    nxt = offset_of(data, b"@RM 5 ")
    p = parse_stream(bytes(data))
    assert [(e.offset, e.message) for e in p.errors] == [
        (pos, "bad checksum (claims record 4)"),
        (nxt, "sample index of series overhead skips from 0 to 4")]
    assert p.case("calib.overhead").series["overhead"].samples.tolist() == [20, 20]
    assert p.case("calib.overhead").status == "error"


def test_sequence_gap_and_repeat() -> None:
    w, _ = good_stream()
    lines = w.getvalue().splitlines(keepends=True)
    # lines[0] is the banner; record n is lines[n + 1]
    gap = b"".join(lines[:5] + lines[6:])  # record 4 (an S) lost without trace
    p = parse_stream(gap)
    off = offset_of(gap, b"@RM 5 ")
    assert any(e.offset == off and e.message == "record 4 expected, got 5" for e in p.errors)
    rep = b"".join([*lines[:6], lines[5], *lines[6:]])  # record 4 twice
    p = parse_stream(rep)
    second = len(b"".join(lines[:6]))
    assert [(e.offset, e.message) for e in p.errors] == [
        (second, "record 5 expected, got 4 (repeat)")]
    assert p.case("calib.overhead").series["overhead"].samples.tolist() == [50, 20, 21, 22, 20, 20]


def test_reordered_lines() -> None:
    w, _ = good_stream()
    lines = w.getvalue().splitlines(keepends=True)
    lines[5], lines[6] = lines[6], lines[5]  # records 4 and 5 swapped
    data = b"".join(lines)
    p = parse_stream(data)
    msgs = [e.message for e in p.errors]
    assert "record 4 expected, got 5" in msgs
    assert "record 6 expected, got 4 (repeat)" in msgs
    assert all(e.offset >= 0 for e in p.errors)


def test_structure_errors() -> None:
    w = StreamWriter()
    hello(w)
    w.record("CASE", {"id": "a"})
    w.record("SERIES", {"id": 0, "name": "x", "what": "x"})
    s_unknown = w.samples(7, 0, [1])
    w.samples(0, 0, [1, 2])
    s_repeat = w.samples(0, 1, [3])
    case_b = w.record("CASE", {"id": "b"})
    end_other = w.record("END", {"id": "c", "status": "ok"})
    w.record("END", {"id": "b", "status": "ok"})
    meta_out = w.record("META", {"k": "a", "v": "b"})
    cfg_late = w.record("CFG", {"k": "a", "v": "b"})
    w.record("BYE", {"cases": 2, "status": 0})
    after = w.record("END", {"id": "b", "status": "ok"})
    data = w.getvalue()
    p = parse_stream(data)
    got = {e.offset: e.message for e in p.errors}
    assert "S record for unknown series 7" in got[data.find(s_unknown)]
    assert "sample index 1 of series x repeats" in got[data.find(s_repeat)]
    assert "CASE b inside case a" in got[data.find(case_b)]
    assert "END for case c inside case b" in got[data.find(end_other)]
    assert "META record outside a case" in got[data.find(meta_out)]
    assert "CFG record after the first CASE" in got[data.find(cfg_late)]
    assert "END record after BYE" in got[data.rfind(after)]
    assert p.case("a").status == "incomplete"
    assert p.case("a").series["x"].samples.tolist() == [1, 2]
    assert p.complete


def test_truncated_stream_keeps_the_case_in_progress() -> None:
    w, _at = good_stream()
    data = w.getvalue()
    cut = offset_of(data, b"@RM 13 ") + 10  # inside the second S of give
    p = parse_stream(data[:cut])
    assert not p.complete
    assert p.errors[-1].offset == cut and "without BYE" in p.errors[-1].message
    sem = p.case("lat.sem.pass")
    assert sem.status == "incomplete"
    assert sem.series["take"].samples.tolist() == [900, 400, 410, 420]
    assert p.case("calib.overhead").status == "ok"


def test_truncation_at_every_offset_never_raises_and_keeps_the_prefix() -> None:
    w, _ = good_stream()
    data = w.getvalue()
    ends = [m.end() for m in re.finditer(rb"\n", data)]
    for cut in range(len(data) + 1):
        p = parse_stream(data[:cut])
        complete_lines = sum(1 for e in ends if e <= cut) - 1  # minus the banner
        assert p.records >= complete_lines, cut
        if cut < len(data) - 1:
            assert not p.complete and p.errors


def test_fault_ends_the_case() -> None:
    w = StreamWriter()
    hello(w)
    w.record("CASE", {"id": "a"})
    fault = w.record("FAULT", {"pc": "0800012a", "lr": "fffffff9", "psr": "21000000",
                               "cfsr": "00008200", "hfsr": "40000000", "mmfar": "0",
                               "bfar": "20010000"})
    w.record("BYE", {"cases": 1, "status": 3})
    data = w.getvalue()
    p = parse_stream(data)
    assert p.fault is not None and p.fault["pc"] == "0800012a"
    assert p.errors[0].offset == data.find(fault) and "CPU fault during case a" in (
        p.errors[0].message)
    assert p.case("a").status == "failed" and "pc=0800012a" in p.case("a").reason
    assert p.bye_status == 3


def test_bye_count_and_version_mismatch() -> None:
    w = StreamWriter()
    hello(w, v=2)
    w.record("BYE", {"cases": 3, "status": 0})
    p = parse_stream(w.getvalue())
    msgs = " | ".join(e.message for e in p.errors)
    assert "protocol version 2" in msgs and "BYE reports 3 cases" in msgs


def test_garbage_never_raises() -> None:
    rng = random.Random(1)
    w, _ = good_stream()
    base = w.getvalue()
    for _ in range(300):
        data = bytearray(base)
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        p = parse_stream(bytes(data))
        assert p.errors  # something was damaged
        assert all(0 <= e.offset <= len(data) for e in p.errors)
    for _ in range(100):
        junk = bytes(rng.randrange(256) for _ in range(rng.randint(0, 3000)))
        parse_stream(junk)
        parse_stream(b"@RM " + junk)
    p = parse_stream(b"\xff\xfe@RM 0 HELLO \xc3\x28 *00000000\n")
    assert p.errors[0].offset == 2


def test_malformed_records() -> None:
    good = format_record(0, "HELLO", {"v": 1})
    cases = {
        b"@RM 0 HELLO v=1\n": "no checksum",
        b"@RM 0 HELLO v=1 *0000000G\n": "not 8 lower-case hex",
        good: "missing port",
        format_record(0, "NOPE", {"a": 1}): "unknown type",
        format_record(0, "CASE", ["id"]): "is not key=value",
        format_record(0, "S", ["0", "x", "5"]): "malformed S",
        format_record(0, "CASE", {"id": "a%zz"}).replace(b"%25zz", b"%zz"): "",
        b"@RM " + b"x" * 20000 + b" *00000000\n": "at most 16384",
    }
    for data, why in cases.items():
        p = parse_stream(data)
        assert p.errors and p.errors[0].offset == 0, data[:40]
        assert why in p.errors[0].message


# ---- real streams from the C core -------------------------------------------


@needs_real
@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_real_stream_parses_cleanly(path: Path) -> None:
    data = path.read_bytes()
    p = parse_stream(data)
    assert p.errors == [], p.errors[:5]
    assert p.complete and p.header["v"] == "1"
    lines = [ln for ln in data.split(b"\n") if b"@RM " in ln]
    assert p.records == len(lines)
    assert p.cases and p.cases[0].id == "calib.overhead"


@needs_real
@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_real_stream_rewritten_byte_for_byte(path: Path) -> None:
    """Every record the C core wrote is what format_record writes for its fields."""
    data = path.read_bytes()
    for line in data.split(b"\n"):
        i = line.find(b"@RM ")
        if i < 0:
            continue
        rec = line[i:]
        tokens = rec[:-10].decode("ascii").split(" ")
        seq, rtype, rest = int(tokens[1]), tokens[2], tokens[3:]
        if rtype == "S":
            again = format_record(seq, rtype, rest)
            assert encode_samples(decode_samples(rest[2])) == rest[2]
        else:
            fields = {k: unescape(v) for k, _, v in (t.partition("=") for t in rest)}
            again = format_record(seq, rtype, fields)
        assert again == rec + b"\n"


# ---- corruption of real streams ----------------------------------------------


def record_lines(data: bytes) -> list[tuple[int, int]]:
    """(start, end without the line end) of every record line, found independently."""
    out, pos = [], 0
    for line in data.split(b"\n"):
        i = line.find(b"@RM ")
        if i >= 0:
            out.append((pos + i, pos + len(line)))
        pos += len(line) + 1
    return out


def biggest_real() -> bytes:
    """The largest recorded stream under 160 kB (the corruption tests parse it ~100 times)."""
    sizes = {p: p.stat().st_size for p in REAL}
    small = [p for p in REAL if sizes[p] < 160_000] or REAL
    return max(small, key=lambda p: sizes[p]).read_bytes()


def case_summary(p: ParsedStream) -> dict[str, tuple[str, dict[str, list[int]]]]:
    return {c.id: (c.status, {k: s.samples.tolist() for k, s in c.series.items()}) for c in p.cases}


@needs_real
@pytest.mark.slow
def test_real_stream_truncated_anywhere() -> None:
    data = biggest_real()
    full = case_summary(parse_stream(data))
    recs = record_lines(data)
    cuts = sorted({s for s, _ in recs[::5]} | {(s + e) // 2 for s, e in recs[1::5]}
                  | {e for _, e in recs[2::7]} | {recs[-1][0] + 5})
    cuts = [c for c in cuts if c < recs[-1][1]]  # a whole BYE is the case below
    last = parse_stream(data[:-1])  # only the final line end lost: BYE is whole
    assert last.complete and last.errors == []
    for cut in cuts:
        p = parse_stream(data[:cut])
        assert not p.complete
        assert p.errors[-1].offset == cut and "without BYE" in p.errors[-1].message
        inside = [s for s, e in recs if s < cut < e]
        if inside:  # cut inside a record: that record is named, from its start
            assert p.errors[0].offset == inside[0], (cut, p.errors)
            assert "cut off by the end of the stream" in p.errors[0].message
        assert len(p.errors) == 1 + len(inside), (cut, p.errors)
        assert p.records == sum(1 for _, e in recs if e <= cut)
        got = case_summary(p)
        for c in p.cases[:-1]:  # every case before the cut is as in the whole stream
            assert got[c.id] == full[c.id], (cut, c.id)
        if p.cases and p.cases[-1].status == "incomplete":
            last_case = p.cases[-1]
            for name, s in last_case.series.items():  # the samples received so far are kept
                assert s.samples.tolist() == full[last_case.id][1][name][:len(s.samples)]


@needs_real
@pytest.mark.slow
def test_real_stream_bit_flips() -> None:
    data = biggest_real()
    recs = record_lines(data)
    rng = random.Random(5)
    for start, end in rng.sample(recs, 30):
        pos = rng.randrange(start + 4, end)
        flipped = bytearray(data)
        flipped[pos] ^= 1 << rng.randrange(8)
        if flipped[pos] in b"\n\r":
            continue
        p = parse_stream(bytes(flipped))
        assert p.errors[0].offset == start, (pos, p.errors[:3])
        assert "checksum" in p.errors[0].message or "malformed" in p.errors[0].message
        rtype = data[start:end].split(b" ")[2]
        if rtype in (b"CASE", b"SERIES"):  # what followed it has no case/series to go to
            assert p.records < len(recs) - 1
            assert any("outside a case" in e.message or "unknown series" in e.message
                       for e in p.errors[1:])
        else:
            assert p.records == len(recs) - 1, (rtype, p.errors)
        assert p.complete == (start != recs[-1][0])


@needs_real
def test_real_stream_reordered_and_garbage() -> None:
    data = biggest_real()
    recs = record_lines(data)
    lines = data.split(b"\n")
    # Swap two adjacent CFG records: their order means nothing, so only the
    # sequence numbers are wrong (a pair chosen by position could be a SERIES
    # and its first S, whose swap breaks the case structure as well).
    k = next(i for i in range(len(lines) - 1)
             if b" CFG " in lines[i][:24] and b" CFG " in lines[i + 1][:24])
    n = int(lines[k].split(b" ")[1])
    lines[k], lines[k + 1] = lines[k + 1], lines[k]
    swapped = b"\n".join(lines)
    p = parse_stream(swapped)
    first = swapped.find(b"@RM %d " % (n + 1))
    errors = [(e.offset, e.message) for e in p.errors]
    assert (first, f"record {n} expected, got {n + 1}") in errors
    assert [m for _, m in errors] == [f"record {n} expected, got {n + 1}",
                                      f"record {n + 2} expected, got {n} (repeat)"]
    assert p.records == len(recs) - 1  # the late record is dropped as a repeat
    # console garbage (binary, non-UTF-8) between records is noise, not an error
    mid = recs[len(recs) // 2][0]
    junk = bytes(range(256)).replace(b"\n", b"").replace(b"@", b"") + b"\n"
    p = parse_stream(data[:mid] + junk + data[mid:])
    assert p.errors == [] and p.records == len(recs) and len(p.noise) >= 1
    # garbage glued into a record breaks only that record
    s, e = recs[len(recs) // 2]
    p = parse_stream(data[:e] + b"\xff\x00junk" + data[e:])
    assert p.errors[0].offset == s and p.records == len(recs) - 1


@needs_real
def test_real_stream_dies_mid_case() -> None:
    data = biggest_real()
    full = parse_stream(data)
    case = next(c for c in full.cases if sum(len(s.samples) for s in c.series.values()) > 2048)
    start = data.find(b" CASE id=" + case.id.encode() + b" ")
    s_recs = [m.start() for m in re.finditer(rb"@RM \d+ S ", data[start:])]
    cut = start + s_recs[2] + 40  # inside the third batch of the case
    p = parse_stream(data[:cut])
    got = p.case(case.id)
    assert got.status == "incomplete" and f"byte {cut}" in got.reason
    received = sum(len(s.samples) for s in got.series.values())
    assert 0 < received < sum(len(s.samples) for s in case.series.values())
    for c in p.cases[:-1]:
        assert c.status == full.case(c.id).status


def test_series_sub_flag_and_unsup_ending_an_open_case() -> None:
    w = StreamWriter()
    hello(w, tm_period=10, tm_period_ms=100, tick_hz=100)
    w.record("CASE", {"id": "irq.latency_jitter"})
    w.record("SERIES", {"id": 0, "name": "delta", "what": "differences", "sub": 0})
    w.samples(0, 0, [3, 0, 1])
    w.record("SERIES", {"id": 1, "name": "lat", "what": "intervals"})
    w.samples(1, 0, [30])
    w.record("END", {"id": "irq.latency_jitter", "status": "ok"})
    w.record("CASE", {"id": "irq.max_rate"})
    w.record("META", {"k": "events_per_step", "v": 100})
    w.record("UNSUP", {"id": "irq.max_rate", "reason": "no periodic timer"})
    w.record("BYE", {"cases": 2, "status": 0})
    p = parse_stream(w.getvalue())
    assert p.errors == [] and p.complete
    assert p.header["tm_period_ms"] == "100" and p.header["tick_hz"] == "100"
    series = p.case("irq.latency_jitter").series
    assert series["delta"].subtract is False and series["lat"].subtract is True
    rate = p.case("irq.max_rate")
    assert (rate.status, rate.reason) == ("unsupported", "no periodic timer")
    assert rate.meta == {"events_per_step": "100"}  # what it wrote before is kept


def test_series_sub_other_than_0_or_1_is_malformed() -> None:
    w = StreamWriter()
    hello(w)
    w.record("CASE", {"id": "x"})
    w.record("SERIES", {"id": 0, "name": "d", "what": "w", "sub": 2})
    w.record("END", {"id": "x", "status": "ok"})
    w.record("BYE", {"cases": 1, "status": 0})
    p = parse_stream(w.getvalue())
    assert [e.message for e in p.errors] == ["malformed SERIES record: sub='2' (0 or 1)"]
    assert p.case("x").status == "error"


# ---- UNSUP: the capability mask, named on the host ------------------------------


ROOT = Path(__file__).resolve().parents[1]


def cap_bits() -> dict[int, str]:
    return {c.bit: name for name, c in load_caps(ROOT).items()}


def test_unsup_missing_mask_is_named_on_the_host() -> None:
    bit = {name: b for b, name in cap_bits().items()}
    assert 31 not in bit.values()  # a bit without a name, as from a newer firmware
    sem_queue = 1 << bit["SEM"] | 1 << bit["QUEUE"]
    thread_pre = 1 << bit["THREAD"] | 1 << bit["PREEMPTIVE"]
    w = StreamWriter()
    hello(w)
    w.record("UNSUP", {"id": "lat.sem.pass", "missing": f"{sem_queue:08x}"})
    w.record("UNSUP", {"id": "lat.yield", "missing": f"{thread_pre:08x}",
                       "note": "SCHED_FIFO refused (EPERM)"})
    w.record("UNSUP", {"id": "x.future", "missing": f"{1 << bit['SEM'] | 1 << 31:08x}"})
    w.record("UNSUP", {"id": "lat.notify.s1", "reason": "port lacks NOTIFY"})  # before the mask
    w.record("BYE", {"cases": 4, "status": 0})
    p = parse_stream(w.getvalue())
    assert p.errors == [] and p.complete
    # The parser alone knows no names: the mask stays a number until named.
    assert p.case("lat.sem.pass").reason == f"port lacks capabilities 0x{sem_queue:08x}"
    name_missing(p, cap_bits())
    assert {c.id: (c.status, c.reason, c.missing) for c in p.cases} == {
        "lat.sem.pass": ("unsupported", "port lacks SEM, QUEUE", sem_queue),
        "lat.yield": ("unsupported", "port lacks THREAD, PREEMPTIVE: SCHED_FIFO refused (EPERM)",
                      thread_pre),
        "x.future": ("unsupported", "port lacks SEM, capabilities 0x80000000",
                     1 << bit["SEM"] | 1 << 31),
        "lat.notify.s1": ("unsupported", "port lacks NOTIFY", 0),
    }


@pytest.mark.parametrize(("fields", "why"), [
    ({"id": "a"}, "malformed UNSUP record: missing both missing= and reason="),
    ({"id": "a", "missing": "0x1g"}, "malformed UNSUP record: missing='0x1g' is not a hex "
                                     "capability mask"),
])
def test_unsup_needs_a_mask_or_a_reason(fields: dict[str, str], why: str) -> None:
    w = StreamWriter()
    hello(w)
    bad = w.record("UNSUP", fields)
    bye = w.record("BYE", {"cases": 0, "status": 0})
    data = w.getvalue()
    p = parse_stream(data)
    assert [(e.offset, e.message) for e in p.errors] == [
        (data.find(bad), why), (data.find(bye), "BYE reports 0 cases: the firmware ran no case")]
    assert p.cases == [] and p.complete


def with_named_reasons(data: bytes) -> tuple[bytes, int]:
    """The stream as a firmware of before the mask wrote it: every
    `UNSUP missing= [note=]` becomes `UNSUP reason=port lacks ...`."""
    out, n = [], 0
    for line in data.split(b"\n"):
        parts = line.split(b" ")
        if len(parts) > 3 and parts[2] == b"UNSUP" and b" missing=" in line:
            kv = dict(f.decode().split("=", 1) for f in parts[3:-1])
            reason = lacks_reason(int(kv["missing"], 16), unescape(kv.get("note", "")),
                                  cap_bits())
            line = format_record(int(parts[1]), "UNSUP", {"id": unescape(kv["id"]),
                                                          "reason": reason})[:-1]
            n += 1
        out.append(line)
    return b"\n".join(out), n


@needs_real
def test_real_streams_read_the_same_with_named_reasons() -> None:
    """Streams recorded before the mask existed carry the names themselves;
    rewritten so, every recorded stream still gives the same cases."""
    rewritten = 0
    for path in REAL:
        data = path.read_bytes()
        legacy, n = with_named_reasons(data)
        rewritten += n
        new, old = parse_stream(data), parse_stream(legacy)
        name_missing(new, cap_bits())
        assert old.errors == new.errors == [], path
        assert [(c.id, c.status, c.reason) for c in old.cases] == [
            (c.id, c.status, c.reason) for c in new.cases], path
        assert all(c.missing == 0 for c in old.cases)
        for c in new.cases:
            if c.missing:
                assert c.reason.startswith("port lacks ") and "capabilities 0x" not in c.reason
    assert rewritten > 0, "no recorded stream has an UNSUP with a capability mask"
