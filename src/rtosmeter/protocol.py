"""The result stream, version 1 (docs/protocol.md): parser and writer.

`parse_stream()` never raises, whatever the bytes. Anything corrupt, truncated,
out of order or out of range becomes a `StreamError` naming its byte offset
and costs only the record it is in; every complete, valid record is kept, so
a run that dies mid-case still yields the cases before it (and the one in
progress, marked `incomplete`). Numbers are ASCII digits of bounded width
that fit SQLite's int64; a series never holds more samples than HELLO
announced; what a stream can make the parser keep is bounded (cases, errors,
console lines, and per type CFG, META, SERIES, COUNT, CHECK records and
samples: MAX_KEPT, MAX_SAMPLES), so a flooding firmware costs a few hundred
MB at most, whatever it sends (tests/test_memory_bound.py measures it).

The parser stands alone: it imports nothing of the catalog or the source
tree. A capability mask stays an integer (`ParsedCase.missing`); whoever has
the names (the recorder, record.py, from the catalog) turns it into words with
`name_missing()`.

Samples are decoded with numpy (one vectorised pass per `S` line), because a
stream can carry a million of them, and stay arrays up to the store.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from rtosmeter.numbers import whole

VERSION = 1
MAX_LINE = 16384
MAX_CLOCK_HZ = 10**12  # CFG ts_hz / cpu_hz: a clock the firmware reads back
MAX_FLASH_WS = 15  # CFG flash_ws: the widest LATENCY field of a Cortex-M flash controller (4 bits)
MAX_HEX_DIGITS = 8  # a capability mask: 32 bits
# What one stream may make the parser keep (a flood ends as one error each).
MAX_CASES = 4096
MAX_ERRORS = 1000
MAX_NOISE = 1000
# ... and of each kind of record a case keeps, per stream (real streams keep
# at most ~100 series, ~100 counts, ~20 META): a flood of one of them held
# 1.8 GB, these at most a few MB each. MAX_SAMPLES: 64 MB of samples.
MAX_KEPT = {"CFG": 4096, "META": 16384, "SERIES": 4096, "COUNT": 65536, "CHECK": 65536}
MAX_SAMPLES = 16 << 20
PREFIX = b"@RM "
_PRINTABLE = bytes(range(0x20, 0x7F))

FINAL = "0123456789abcdefghijklmnopqrstuv"
CONTINUATION = "ABCDEFGHIJKLMNOPQRSTUVWXYZ!#$&+-"

# byte -> digit value (0..31), or -1 for a byte outside both alphabets;
# byte -> 1 when it ends a sample (final alphabet).
_DIGIT = np.full(256, -1, dtype=np.int16)
_IS_FINAL = np.zeros(256, dtype=np.bool_)
for _i, _c in enumerate(FINAL):
    _DIGIT[ord(_c)] = _i
    _IS_FINAL[ord(_c)] = True
for _i, _c in enumerate(CONTINUATION):
    _DIGIT[ord(_c)] = _i

# Fields each record type must carry (S is positional and checked apart).
# Optional fields: HELLO tm_period_ms, tick_hz (streams since the throughput
# period became a time); SERIES sub (0: no overhead subtraction, default 1);
# UNSUP carries `missing` (a capability mask, with an optional `note`) or
# `reason` (checked in _Parser.on_unsup).
RECORD_FIELDS: dict[str, tuple[str, ...]] = {
    "HELLO": ("v", "port", "target", "group", "ts", "unit", "hz", "samples", "batch",
              "tm_period", "tm_periods", "profile"),
    "CFG": ("k", "v"),
    "CASE": ("id",),
    "META": ("k", "v"),
    "SERIES": ("id", "name", "what"),
    "COUNT": ("name", "period", "value"),
    "CHECK": ("name", "ok", "got", "want"),
    "FAIL": ("reason",),
    "END": ("id", "status"),
    "UNSUP": ("id",),
    "FAULT": ("pc", "lr", "psr", "cfsr", "hfsr", "mmfar", "bfar"),
    "BYE": ("cases", "status"),
}


@dataclass(frozen=True)
class StreamError:
    """One problem in a stream, at the byte offset of the record at fault."""

    offset: int
    message: str

    def __str__(self) -> str:
        return f"byte {self.offset}: {self.message}"


@dataclass
class Series:
    """One interval series of a case: what it measures and its raw ticks.

    `subtract` is False for a series the firmware marked `sub=0`: differences
    of two intervals, from which the timestamp overhead must not be
    subtracted (it cancels in a difference).
    """

    id: int
    name: str
    what: str
    samples: npt.NDArray[np.uint32] = field(
        default_factory=lambda: np.zeros(0, dtype=np.uint32))
    subtract: bool = True


@dataclass(frozen=True)
class Count:
    name: str
    period: int
    value: int


@dataclass(frozen=True)
class CheckRecord:
    name: str
    ok: bool
    got: int
    want: int


@dataclass
class ParsedCase:
    """A case as the stream reported it.

    status: ok | failed | unsupported | incomplete (no END before the stream
    ended or the next CASE) | error (a record inside it was corrupt or out of
    order; `reason` names the first such problem).

    `missing`: the capabilities the port lacks (bit i = RM_CAPS bit i), from
    `UNSUP missing=`, with the port's `note` on why; `reason` then gives the
    mask as a number until `name_missing()` names it ("port lacks SEM,
    QUEUE"). 0 for every other case, and for an UNSUP that gave its own reason.
    """

    id: str
    offset: int
    status: str = "incomplete"
    reason: str = ""
    missing: int = 0
    note: str = ""
    meta: dict[str, str] = field(default_factory=dict)
    series: dict[str, Series] = field(default_factory=dict)
    counts: list[Count] = field(default_factory=list)
    checks: list[CheckRecord] = field(default_factory=list)


@dataclass
class ParsedStream:
    header: dict[str, str] = field(default_factory=dict)  # HELLO fields
    config: dict[str, str] = field(default_factory=dict)  # CFG k -> v
    cases: list[ParsedCase] = field(default_factory=list)
    fault: dict[str, str] | None = None
    complete: bool = False  # BYE seen
    bye_status: int | None = None
    noise: list[str] = field(default_factory=list)  # console lines that are not records
    errors: list[StreamError] = field(default_factory=list)
    records: int = 0  # valid records accepted

    def case(self, case_id: str) -> ParsedCase:
        """The case with this id (KeyError when the stream has none)."""
        for c in self.cases:
            if c.id == case_id:
                return c
        raise KeyError(case_id)


# ---- samples ---------------------------------------------------------------


def encode_samples(samples: Iterable[int]) -> str:
    """Base-32 digits, most significant first, last digit from `FINAL`."""
    out: list[str] = []
    for value in samples:
        if not 0 <= value <= 0xFFFFFFFF:
            raise ValueError(f"sample {value} is not an unsigned 32-bit value")
        digits = [FINAL[value & 31]]
        value >>= 5
        while value:
            digits.append(CONTINUATION[value & 31])
            value >>= 5
        out.append("".join(reversed(digits)))
    return "".join(out)


def decode_samples_array(text: bytes | str) -> npt.NDArray[np.uint32]:
    """Decode a run of samples; ValueError says what is wrong and where."""
    raw = text.encode("latin-1", "replace") if isinstance(text, str) else text
    if not raw:
        return np.zeros(0, dtype=np.uint32)
    b = np.frombuffer(raw, dtype=np.uint8)
    digit = _DIGIT[b]
    bad = np.flatnonzero(digit < 0)
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"character {raw[i:i + 1]!r} at position {i} is not a sample digit")
    final = _IS_FINAL[b]
    if not final[-1]:
        raise ValueError("the last sample has no final digit")
    ends = np.flatnonzero(final)
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    lengths = ends - starts + 1
    if lengths.max() > 7:
        i = int(np.flatnonzero(lengths > 7)[0])
        raise ValueError(f"sample {i} has {int(lengths[i])} digits (at most 7)")
    multi = lengths > 1
    if np.any(digit[starts[multi]] == 0):
        i = int(np.flatnonzero(multi & (digit[starts] == 0))[0])
        raise ValueError(f"sample {i} has a leading zero digit")
    # Each digit's weight is 32 ** (its distance from the sample's last digit).
    owner = np.repeat(np.arange(ends.size), lengths)
    shift = (ends[owner] - np.arange(b.size)) * 5
    values = np.add.reduceat(digit.astype(np.uint64) << shift.astype(np.uint64), starts)
    if np.any(values > 0xFFFFFFFF):
        i = int(np.flatnonzero(values > 0xFFFFFFFF)[0])
        raise ValueError(f"sample {i} does not fit in 32 bits")
    return values.astype(np.uint32)


def decode_samples(text: bytes | str) -> list[int]:
    """`encode_samples` reversed, as Python ints."""
    result: list[int] = decode_samples_array(text).tolist()
    return result


# ---- capability masks ------------------------------------------------------


def cap_names(mask: int, bits: Mapping[int, str]) -> list[str]:
    """The capability names of a mask, in bit order (`bits`: bit -> name, from
    RM_CAPS in port.h); the bits without a name (a newer firmware) as one
    "capabilities 0x..." entry."""
    names = [bits[b] for b in range(32) if mask >> b & 1 and b in bits]
    unnamed = sum(1 << b for b in range(mask.bit_length()) if mask >> b & 1 and b not in bits)
    if unnamed:
        names.append(f"capabilities 0x{unnamed:08x}")
    return names


def lacks_reason(missing: int, note: str = "", bits: Mapping[int, str] | None = None) -> str:
    """The reason of a case the port cannot run: "port lacks SEM, QUEUE", plus
    ": <note>" when the port said why it withdrew them (rm_port_caps_note)."""
    text = "port lacks " + ", ".join(cap_names(missing, bits or {}))
    return f"{text}: {note}" if note else text


def name_missing(parsed: ParsedStream, bits: Mapping[int, str]) -> None:
    """Give the unsupported cases of `parsed` their capability names."""
    for case in parsed.cases:
        if case.missing:
            case.reason = lacks_reason(case.missing, case.note, bits)


# ---- records ---------------------------------------------------------------


def escape(value: str) -> str:
    """A field value: space, %, *, = and bytes outside 0x21..0x7e as %XX."""
    out: list[str] = []
    for byte in value.encode("utf-8"):
        if 0x21 <= byte <= 0x7E and byte not in b" %*=":
            out.append(chr(byte))
        else:
            out.append(f"%{byte:02X}")
    return "".join(out)


def unescape(value: str) -> str:
    """`escape` reversed; ValueError on a bad %XX."""
    if "%" not in value:
        return value
    raw = bytearray()
    i = 0
    while i < len(value):
        ch = value[i]
        if ch == "%":
            hexpart = value[i + 1:i + 3]
            if len(hexpart) != 2 or not all(c in "0123456789ABCDEFabcdef" for c in hexpart):
                raise ValueError(f"bad escape {value[i:i + 3]!r}")
            raw.append(int(hexpart, 16))
            i += 3
        else:
            raw.append(ord(ch))
            i += 1
    return raw.decode("utf-8", "replace")


def format_record(
    seq: int, rtype: str, fields: Mapping[str, object] | Sequence[str] = ()
) -> bytes:
    """One record line, `\\n` included, as the firmware writes it.

    `fields` is a mapping (key=value, values escaped) or, for `S` records, the
    positional fields written as they are.
    """
    parts = [f"@RM {seq} {rtype}"]
    if isinstance(fields, Mapping):
        parts += [f"{k}={escape(str(v))}" for k, v in fields.items()]
    else:
        parts += [str(f) for f in fields]
    body = (" ".join(parts) + " ").encode("ascii")
    return body + b"*%08x\n" % zlib.crc32(body)


class StreamWriter:
    """Builds a stream record by record, numbering them (tests craft streams with it)."""

    def __init__(self) -> None:
        self.seq = 0
        self.parts: list[bytes] = []

    def record(self, rtype: str, fields: Mapping[str, object] | Sequence[str] = ()) -> bytes:
        line = format_record(self.seq, rtype, fields)
        self.seq += 1
        self.parts.append(line)
        return line

    def samples(self, series_id: int, first: int, samples: Iterable[int]) -> bytes:
        return self.record("S", [str(series_id), str(first), encode_samples(samples)])

    def raw(self, data: bytes) -> None:
        """Console text that is not a record."""
        self.parts.append(data)

    def getvalue(self) -> bytes:
        return b"".join(self.parts)


@dataclass
class _Record:
    offset: int
    seq: int
    type: str
    fields: dict[str, str]
    positional: list[str]
    series: int = 0  # S records: the series id and the index of the first sample
    first: int = 0


class _BadRecord(Exception):
    pass


def _split_record(line: bytes, offset: int) -> _Record:
    """Check framing and CRC, split into fields; raise _BadRecord with the reason."""
    tokens = _checked_body(line)[:-1].decode("ascii").split(" ")
    if len(tokens) < 3 or not all(tokens):
        raise _BadRecord("malformed record: expected `@RM <seq> <TYPE> ...`")
    rtype = tokens[2]
    if rtype != "S" and rtype not in RECORD_FIELDS:
        raise _BadRecord(f"malformed record: unknown type {rtype!r}")
    rec = _Record(offset, _uint(tokens[1], "malformed record: sequence number"), rtype, {}, [])
    if rtype == "S":
        rec.positional = tokens[3:]
        if len(rec.positional) != 3:
            raise _BadRecord("malformed S record: expected `S <series> <first> <samples>`")
        rec.series = _uint(tokens[3], "malformed S record: series")
        rec.first = _uint(tokens[4], "malformed S record: first index")
        return rec
    rec.fields = _key_values(rtype, tokens[3:])
    return rec


def _checked_body(line: bytes) -> bytes:
    """The record without its checksum, once its length, checksum and bytes
    are as the protocol says (docs/protocol.md); else _BadRecord."""
    if len(line) > MAX_LINE:
        raise _BadRecord(f"malformed record: line of {len(line)} bytes (at most {MAX_LINE})")
    if len(line) < 14 or line[-10:-8] != b" *":
        raise _BadRecord("malformed record: no checksum (` *<crc>` at the end)")
    crc_text = line[-8:]
    if crc_text.translate(None, b"0123456789abcdef"):
        raise _BadRecord(f"malformed record: checksum {crc_text!r} is not 8 lower-case hex digits")
    body = line[:-9]
    if zlib.crc32(body) != int(crc_text, 16):
        seq_hint = line[4:].split(b" ", 1)[0]
        hint = f" (claims record {seq_hint.decode('ascii')})" if seq_hint.isdigit() else ""
        raise _BadRecord(f"bad checksum{hint}")
    if body.translate(None, _PRINTABLE):  # something left once printable bytes are gone
        raise _BadRecord("malformed record: byte outside printable ASCII")
    return body


def _key_values(rtype: str, tokens: list[str]) -> dict[str, str]:
    """A record's key=value fields, unescaped, every required key present."""
    fields: dict[str, str] = {}
    for tok in tokens:
        key, eq, value = tok.partition("=")
        if not eq or not key:
            raise _BadRecord(f"malformed {rtype} record: field {tok!r} is not key=value")
        try:
            fields[key] = unescape(value)
        except ValueError as exc:
            raise _BadRecord(f"malformed {rtype} record: {exc}") from None
    missing = [k for k in RECORD_FIELDS[rtype] if k not in fields]
    if missing:
        raise _BadRecord(f"malformed {rtype} record: missing {', '.join(missing)}")
    return fields


def _iter_lines(data: bytes) -> Iterable[tuple[int, bytes, bool]]:
    """(offset, line without its line end, no line end) for every line."""
    pos = 0
    size = len(data)
    while pos < size:
        nl = data.find(b"\n", pos)
        end = size if nl < 0 else nl
        line = data[pos:end]
        if line.endswith(b"\r"):
            line = line[:-1]
        yield pos, line, nl < 0
        pos = end + 1


def _uint(text: str, what: str) -> int:
    """A non-negative decimal of ASCII digits that fits int64 (numbers.whole),
    or _BadRecord."""
    try:
        return whole(text)
    except ValueError as exc:
        raise _BadRecord(f"{what}: {exc}") from None


def _int(rec: _Record, key: str) -> int:
    return _uint(rec.fields[key], f"malformed {rec.type} record: {key}")


def _hex(rec: _Record, key: str, what: str) -> int:
    text = rec.fields[key]
    if not text or len(text) > MAX_HEX_DIGITS or text.strip("0123456789abcdefABCDEF"):
        raise _BadRecord(f"malformed {rec.type} record: {key}={text[:40]!r} is not {what}")
    return int(text, 16)


# HELLO fields that are numbers (hz also > 0: every time is divided by it).
_HELLO_NUMBERS = ("hz", "samples", "batch", "tm_period", "tm_periods")
_HELLO_OPTIONAL_NUMBERS = ("tm_period_ms", "tick_hz")
_CFG_CLOCKS = ("ts_hz", "cpu_hz")  # rtosmeter.clocks


class _Parser:
    """The stream's state machine; see docs/protocol.md for the grammar."""

    def __init__(self) -> None:
        self.out = ParsedStream()
        self.expected_seq = 0
        self.dropped_since_good = 0  # corrupt records since the last valid one
        self.seen_hello = False
        self.seen_case = False
        self.current: ParsedCase | None = None
        self.next_index: dict[str, int] = {}  # series name -> next sample index
        self.series_by_id: dict[int, Series] = {}
        self.max_samples = 0  # per series, from HELLO
        # Samples arrive in chunks (one per S record), appended to one buffer
        # per series (no object per chunk: a flood of 1-sample records is
        # 4 bytes a sample), turned into the array once in finish().
        self.chunks: list[tuple[Series, bytearray]] = []
        self.chunks_by_id: dict[int, bytearray] = {}
        self.kept = dict.fromkeys(MAX_KEPT, 0)  # records kept, per type
        self.samples_kept = 0
        self.errors_seen = 0
        self.noise_seen = 0
        self.case_ids: dict[str, int] = {}  # case id -> its offset

    def error(self, offset: int, message: str, case: ParsedCase | None = None) -> None:
        self.errors_seen += 1
        if len(self.out.errors) < MAX_ERRORS:
            self.out.errors.append(StreamError(offset, message))
        if case is not None and case.status not in ("error",):
            case.status = "error"
            case.reason = f"stream error at byte {offset}: {message}"

    def feed_line(self, offset: int, line: bytes, last: bool = False) -> None:
        start = line.find(PREFIX)
        if start < 0:
            if line.strip():
                self.noise(line)
            return
        if start > 0:  # console text without a line end before the record
            self.noise(line[:start])
            offset += start
            line = line[start:]
        try:
            rec = _split_record(line, offset)
        except _BadRecord as exc:
            self.dropped_since_good += 1
            message = str(exc)
            if last:  # no line end: the stream stopped inside this record
                message = f"record cut off by the end of the stream ({message})"
            self.error(offset, message, self.current)
            return
        if not self.check_seq(rec):
            return
        if self.out.complete:
            self.error(offset, f"{rec.type} record after BYE")
            return
        try:
            self.dispatch(rec)
        except _BadRecord as exc:
            self.error(offset, str(exc), self.current)
            return
        self.out.records += 1

    def noise(self, line: bytes) -> None:
        self.noise_seen += 1
        if len(self.out.noise) < MAX_NOISE:
            self.out.noise.append(line[:MAX_LINE].decode("utf-8", "replace"))

    def check_seq(self, rec: _Record) -> bool:
        """Report a gap or repeat; a repeated or earlier record is dropped."""
        expected, lost = self.expected_seq, self.dropped_since_good
        self.dropped_since_good = 0
        if rec.seq < expected:
            self.error(rec.offset, f"record {expected} expected, got {rec.seq} (repeat)",
                       self.current)
            self.dropped_since_good = lost
            return False
        if rec.seq > expected and rec.seq - expected > lost:
            self.error(rec.offset, f"record {expected} expected, got {rec.seq}", self.current)
        self.expected_seq = rec.seq + 1
        return True

    def keep(self, rec: _Record) -> None:
        """Count a record of a bounded type; _BadRecord beyond its bound."""
        if self.kept[rec.type] >= MAX_KEPT[rec.type]:
            raise _BadRecord(f"more than {MAX_KEPT[rec.type]} {rec.type} records in one "
                             "stream; dropped")
        self.kept[rec.type] += 1

    def dispatch(self, rec: _Record) -> None:
        if rec.type in MAX_KEPT:
            self.keep(rec)
        if rec.type == "HELLO":
            self.on_hello(rec)
            return
        if not self.seen_hello and rec.type != "FAULT":
            self.seen_hello = True  # report once, then parse what follows
            self.error(rec.offset, f"{rec.type} record before HELLO")
        handler = getattr(self, "on_" + rec.type.lower())
        handler(rec)

    def on_hello(self, rec: _Record) -> None:
        if self.seen_hello or rec.seq != 0:
            raise _BadRecord("HELLO record out of place (only as record 0)")
        for key in _HELLO_NUMBERS + _HELLO_OPTIONAL_NUMBERS:
            if key in rec.fields:
                _int(rec, key)
        if _int(rec, "hz") == 0:
            raise _BadRecord("malformed HELLO record: hz=0 (a clock rate is at least 1)")
        self.seen_hello = True
        self.out.header = dict(rec.fields)
        self.max_samples = _int(rec, "samples")
        if rec.fields["v"] != str(VERSION):
            self.error(rec.offset, f"protocol version {rec.fields['v']} (this parser reads "
                                   f"version {VERSION}); update rtosmeter")

    def on_cfg(self, rec: _Record) -> None:
        if self.seen_case:
            raise _BadRecord("CFG record after the first CASE")
        key, value = rec.fields["k"], rec.fields["v"]
        if key in _CFG_CLOCKS:  # every time is divided by it: a clock, or no value
            try:
                whole(value, 1, MAX_CLOCK_HZ)
            except ValueError as exc:
                raise _BadRecord(f"CFG {key}: {exc} (a clock rate in Hz)") from None
        if key == "flash_ws":  # the store keeps it with the clocks (rtosmeter.clocks)
            try:
                whole(value, 0, MAX_FLASH_WS)
            except ValueError as exc:
                raise _BadRecord(f"CFG flash_ws: {exc} (flash wait states)") from None
        self.out.config[key] = value

    def need_case(self, rec: _Record) -> ParsedCase:
        if self.current is None:
            raise _BadRecord(f"{rec.type} record outside a case")
        return self.current

    def on_case(self, rec: _Record) -> None:
        if self.current is not None:
            old = self.current
            self.error(rec.offset, f"CASE {rec.fields['id']} inside case {old.id} "
                                   f"(no END); {old.id} kept as incomplete")
            old.status, old.reason = "incomplete", f"no END (next CASE at byte {rec.offset})"
            self.current = None
        self.seen_case = True
        self.current = self.add_case(ParsedCase(rec.fields["id"], rec.offset))
        self.series_by_id = {}
        self.chunks_by_id = {}
        self.next_index = {}

    def add_case(self, case: ParsedCase) -> ParsedCase:
        if len(self.out.cases) >= MAX_CASES:
            raise _BadRecord(f"more than {MAX_CASES} cases in one stream")
        if case.id in self.case_ids:  # one id, one result: a repeat would compare to itself
            raise _BadRecord(f"case {case.id} repeated (first at byte "
                             f"{self.case_ids[case.id]}); dropped")
        self.case_ids[case.id] = case.offset
        self.out.cases.append(case)
        return case

    def on_meta(self, rec: _Record) -> None:
        self.need_case(rec).meta[rec.fields["k"]] = rec.fields["v"]

    def on_series(self, rec: _Record) -> None:
        case = self.need_case(rec)
        sid, name = _int(rec, "id"), rec.fields["name"]
        if sid in self.series_by_id or name in case.series:
            raise _BadRecord(f"SERIES {sid} ({name}) defined twice in case {case.id}")
        sub = rec.fields.get("sub", "1")
        if sub not in ("0", "1"):
            raise _BadRecord(f"malformed SERIES record: sub={sub!r} (0 or 1)")
        s = Series(sid, name, rec.fields["what"], subtract=sub == "1")
        case.series[name] = s
        self.chunks_by_id[sid] = bytearray()
        self.chunks.append((s, self.chunks_by_id[sid]))
        self.series_by_id[sid] = s
        self.next_index[name] = 0

    def on_s(self, rec: _Record) -> None:
        case = self.need_case(rec)
        sid, first = rec.series, rec.first
        series = self.series_by_id.get(sid)
        if series is None:
            raise _BadRecord(f"S record for unknown series {sid} in case {case.id}")
        try:
            samples = decode_samples_array(rec.positional[2])
        except ValueError as exc:
            raise _BadRecord(f"malformed S record: {exc}") from None
        expected = self.next_index[series.name]
        if first < expected:
            raise _BadRecord(f"sample index {first} of series {series.name} repeats "
                             f"(next is {expected}); record dropped")
        if first + samples.size > self.max_samples:
            raise _BadRecord(f"samples {first}..{first + samples.size - 1} of series "
                             f"{series.name} lie beyond the {self.max_samples} announced by "
                             "HELLO; record dropped")
        if self.samples_kept + samples.size > MAX_SAMPLES:
            raise _BadRecord(f"more than {MAX_SAMPLES} samples in one stream; record dropped")
        if first > expected:  # keep the samples: they are valid, only some are lost
            self.error(rec.offset, f"sample index of series {series.name} skips from "
                                   f"{expected} to {first}", case)
        self.samples_kept += samples.size
        self.chunks_by_id[sid] += samples.astype("<u4", copy=False).tobytes()
        self.next_index[series.name] = first + samples.size

    def on_count(self, rec: _Record) -> None:
        self.need_case(rec).counts.append(
            Count(rec.fields["name"], _int(rec, "period"), _int(rec, "value")))

    def on_check(self, rec: _Record) -> None:
        ok = rec.fields["ok"]
        if ok not in ("0", "1"):
            raise _BadRecord(f"malformed CHECK record: ok={ok!r} (0 or 1)")
        self.need_case(rec).checks.append(
            CheckRecord(rec.fields["name"], ok == "1", _int(rec, "got"), _int(rec, "want")))

    def on_fail(self, rec: _Record) -> None:
        case = self.need_case(rec)
        if case.status != "error":
            case.status, case.reason = "failed", rec.fields["reason"]

    def on_end(self, rec: _Record) -> None:
        case = self.need_case(rec)
        if rec.fields["id"] != case.id:
            raise _BadRecord(f"END for case {rec.fields['id']} inside case {case.id}")
        status = rec.fields["status"]
        if status not in ("ok", "failed"):
            raise _BadRecord(f"malformed END record: status={status!r} (ok or failed)")
        if case.status == "incomplete":
            case.status = status
        elif case.status != "error":
            case.status = "failed" if "failed" in (status, case.status) else case.status
        self.current = None

    def on_unsup(self, rec: _Record) -> None:
        case_id, missing = rec.fields["id"], 0
        note = ""
        if "missing" in rec.fields:  # the runner: a capability mask, named by name_missing()
            missing = _hex(rec, "missing", "a hex capability mask")
            note = rec.fields.get("note", "")
            reason = lacks_reason(missing, note)
        elif "reason" in rec.fields:  # rm_unsupported(), or a stream of before the mask
            reason = rec.fields["reason"]
        else:
            raise _BadRecord("malformed UNSUP record: missing both missing= and reason=")
        if self.current is not None:
            old = self.current
            self.current = None
            if old.id == case_id:  # rm_unsupported() from inside the case: it ends the case
                old.status, old.reason, old.missing, old.note = (
                    "unsupported", reason, missing, note)
                return
            self.error(rec.offset, f"UNSUP for case {case_id} inside case {old.id} "
                                   f"(no END); {old.id} kept as incomplete")
            old.status, old.reason = "incomplete", f"no END (UNSUP at byte {rec.offset})"
        self.seen_case = True
        self.add_case(ParsedCase(case_id, rec.offset, "unsupported", reason, missing=missing,
                                 note=note))

    def on_fault(self, rec: _Record) -> None:
        self.out.fault = dict(rec.fields)
        where = f" during case {self.current.id}" if self.current else ""
        regs = " ".join(f"{k}={v}" for k, v in rec.fields.items())
        self.error(rec.offset, f"CPU fault{where}: {regs}")
        if self.current is not None:
            self.current.status = "failed"
            self.current.reason = f"CPU fault (pc={rec.fields['pc']})"
            self.current = None

    def on_bye(self, rec: _Record) -> None:
        if self.current is not None:
            c = self.current
            self.error(rec.offset, f"BYE inside case {c.id} (no END); kept as incomplete")
            c.status, c.reason = "incomplete", "no END before BYE"
            self.current = None
        self.out.complete = True
        self.out.bye_status = _int(rec, "status")
        cases = _int(rec, "cases")
        if cases != len(self.out.cases):
            self.error(rec.offset, f"BYE reports {cases} cases, the stream holds "
                                   f"{len(self.out.cases)}")
        elif cases == 0:  # every group has cases: a firmware that ran none measured nothing
            self.error(rec.offset, "BYE reports 0 cases: the firmware ran no case")

    def finish(self, size: int) -> ParsedStream:
        for series, chunks in self.chunks:
            if chunks:
                series.samples = np.frombuffer(chunks, dtype="<u4").astype(np.uint32)
        if not self.out.complete:
            where = f"; case {self.current.id} kept as incomplete" if self.current else ""
            self.out.errors.append(StreamError(size, f"stream ends without BYE (truncated){where}"))
            if self.current is not None:
                self.current.status = "incomplete"
                self.current.reason = f"stream ends at byte {size} without END"
        if self.errors_seen > MAX_ERRORS:
            self.out.errors.append(StreamError(
                size, f"{self.errors_seen - MAX_ERRORS} more errors not kept"))
        if self.noise_seen > len(self.out.noise):
            self.out.noise.append(f"[{self.noise_seen - len(self.out.noise)} more console "
                                  "lines not kept]")
        return self.out


def parse_stream(data: bytes) -> ParsedStream:
    """Parse a whole stream. Never raises; problems are in `.errors`."""
    parser = _Parser()
    for offset, line, last in _iter_lines(data):
        parser.feed_line(offset, line, last)
    return parser.finish(len(data))
