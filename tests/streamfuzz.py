"""Test helper (not a test module): a structure-aware fuzzer for the stream parser.

Random bytes almost never pass a record's CRC, so they only exercise the
framing. This fuzzer starts from recorded real streams (tests/data), takes
their records apart, mutates fields and records the way a broken or hostile
firmware could (huge, negative, signed, underscored and non-ASCII numbers,
NaN and infinite clock rates, samples beyond HELLO, repeated, dropped and
reordered records, floods of cases, raw byte damage) and writes every record
again with a valid CRC. `check()` is the property every parse must hold.
Used by tests/test_protocol_fuzz.py (a bounded, seeded run in CI) and by
scripts/fuzz_protocol.py (long campaigns, optionally under atheris).
"""

from __future__ import annotations

import random
import zlib
from pathlib import Path

from rtosmeter.numbers import MAX_INT, whole_or_none
from rtosmeter.protocol import MAX_CASES, MAX_ERRORS, MAX_NOISE, parse_stream

DATA = Path(__file__).resolve().parent / "data"

# Field values a firmware should never send, each of which once got through.
NASTY = [
    "9" * 5000, "9" * 20, str(MAX_INT + 1), str(MAX_INT), "-5", "+2", "1_0", " 7", "0x10",
    "%D9%A3", "%EF%BC%91", "nan", "inf", "-inf", "1e-300", "1e309", "0", "00", "",
    "%00", "%0A%1B]8;;x%07", "%FF%FE", "4294967296", "18446744073709551616",
]
MUTATIONS = ("field", "drop", "repeat", "swap", "flood", "bytes", "truncate", "splice")


def seeds() -> list[bytes]:
    return [p.read_bytes() for p in sorted(DATA.glob("*.rmstream"))]


def _crc_line(body: bytes) -> bytes:
    return body + b"*%08x\n" % zlib.crc32(body)


def _records(stream: bytes) -> list[list[bytes]]:
    """Each line as its tokens without the checksum (text lines as one token)."""
    out = []
    for line in stream.split(b"\n"):
        if line.startswith(b"@RM ") and len(line) > 10 and line[-10:-8] == b" *":
            out.append(line[:-10].split(b" "))
        elif line:
            out.append([line])
    return out


def _join(records: list[list[bytes]]) -> bytes:
    parts = []
    for tokens in records:
        if tokens[0] == b"@RM":
            parts.append(_crc_line(b" ".join(tokens) + b" "))
        else:
            parts.append(b" ".join(tokens) + b"\n")
    return b"".join(parts)


def _mutate_field(rng: random.Random, records: list[list[bytes]]) -> None:
    tokens = rng.choice(records)
    if len(tokens) < 2:
        return
    i = rng.randrange(1, len(tokens))
    key, eq, _ = tokens[i].partition(b"=")
    value = rng.choice(NASTY).encode()
    tokens[i] = key + b"=" + value if eq else value


def mutate(rng: random.Random, stream: bytes) -> bytes:
    """One to four structure-aware mutations of `stream`, CRCs made valid again."""
    records = _records(stream)
    if not records:
        return stream + bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
    if rng.random() < 0.9:  # mostly a window after HELLO: short inputs, many executions
        start = rng.randrange(len(records))
        records = records[:1] + records[start:start + rng.randint(1, 60)]
    raw_damage: list[tuple[int, int]] = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(MUTATIONS)
        i = rng.randrange(len(records))
        if kind == "field":
            _mutate_field(rng, records)
        elif kind == "drop" and len(records) > 1:
            del records[i]
        elif kind == "repeat":
            records[i:i] = [list(records[i])] * rng.randint(1, 50)
        elif kind == "swap":
            j = rng.randrange(len(records))
            records[i], records[j] = records[j], records[i]
        elif kind == "flood":  # many copies of a record, renumbered to stay in sequence
            base = records[i]
            if base[0] == b"@RM" and len(base) > 2:
                seq = whole_or_none(base[1].decode("ascii", "replace")) or 0  # may be hostile
                copies = [[b"@RM", str(seq + k).encode(), *base[2:]]
                          for k in range(rng.choice((10, 100, 1000)))]
                records[i:i + 1] = copies
        elif kind == "bytes":
            raw_damage.append((rng.randrange(1 << 30), rng.randrange(256)))
        elif kind == "truncate":
            del records[i:]
            if not records:
                records = [[b"@RM"]]
        elif kind == "splice":
            other = _records(rng.choice(seeds()))
            j = rng.randrange(len(other))
            records[i:i] = other[j:j + rng.randint(1, 20)]
    data = bytearray(_join(records))
    for pos, byte in raw_damage:  # after the CRCs: damage a CRC cannot hide
        if data:
            data[pos % len(data)] = byte
    return bytes(data)


def check(data: bytes) -> None:
    """Parse `data`; raise AssertionError when a property of the parser breaks
    (an exception of any other kind is a parser crash, which the caller sees)."""
    p = parse_stream(data)
    assert all(0 <= e.offset <= len(data) for e in p.errors)
    assert len(p.errors) <= MAX_ERRORS + 2 and len(p.noise) <= MAX_NOISE + 1
    assert len(p.cases) <= MAX_CASES
    if p.header:
        assert int(p.header["hz"]) > 0
    announced = int(p.header.get("samples", "0") or 0)
    for case in p.cases:
        for s in case.series.values():
            assert s.samples.size <= announced
        for c in case.counts:
            assert 0 <= c.value <= MAX_INT and 0 <= c.period <= MAX_INT
        for k in case.checks:
            assert 0 <= k.got <= MAX_INT and 0 <= k.want <= MAX_INT
        assert 0 <= case.missing < 1 << 32
    if p.bye_status is not None:
        assert 0 <= p.bye_status <= MAX_INT
