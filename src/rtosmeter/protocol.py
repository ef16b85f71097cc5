"""The result stream, version 1 (docs/protocol.md): parser and writer.

`parse_stream()` never raises on bad input. Anything corrupt, truncated or out
of order becomes a `StreamError` naming its byte offset; every complete, valid
record is kept, so a run that dies mid-case still yields the cases before it
(and the one in progress, marked `incomplete`).

Samples are decoded with numpy (one vectorised pass per `S` line), because a
stream can carry a million of them.
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from rtosmeter.catalog import load_caps
from rtosmeter.definitions import project_root
from rtosmeter.errors import UserError

VERSION = 1
MAX_LINE = 16384
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
    samples: list[int] = field(default_factory=list)
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
    `UNSUP missing=`; `reason` then names them ("port lacks SEM, QUEUE").
    0 for every other case, and for an UNSUP that gave its own reason.
    """

    id: str
    offset: int
    status: str = "incomplete"
    reason: str = ""
    missing: int = 0
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


@functools.lru_cache(maxsize=1)
def _cap_bits() -> dict[int, str]:
    """bit -> capability name, from RM_CAPS in port.h of the source tree; empty
    when the tree is not there (masks are then shown as numbers)."""
    try:
        caps = load_caps(project_root())
    except UserError:
        return {}
    return {cap.bit: cap.name for cap in caps.values()}


def cap_names(mask: int) -> list[str]:
    """The capability names of a mask, in bit order; the bits without a name
    (a newer firmware, or no source tree) as one "capabilities 0x..." entry."""
    bits = _cap_bits()
    names = [bits[b] for b in range(32) if mask >> b & 1 and b in bits]
    unnamed = sum(1 << b for b in range(mask.bit_length()) if mask >> b & 1 and b not in bits)
    if unnamed:
        names.append(f"capabilities 0x{unnamed:08x}")
    return names


def lacks_reason(missing: int, note: str = "") -> str:
    """The reason of a case the port cannot run: "port lacks SEM, QUEUE", plus
    ": <note>" when the port said why it withdrew them (rm_port_caps_note)."""
    text = "port lacks " + ", ".join(cap_names(missing))
    return f"{text}: {note}" if note else text


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


class _BadRecord(Exception):
    pass


def _split_record(line: bytes, offset: int) -> _Record:
    """Check framing and CRC, split into fields; raise _BadRecord with the reason."""
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
    tokens = body[:-1].decode("ascii").split(" ")
    if len(tokens) < 3 or not tokens[1].isdigit() or not all(tokens):
        raise _BadRecord("malformed record: expected `@RM <seq> <TYPE> ...`")
    rtype = tokens[2]
    if rtype != "S" and rtype not in RECORD_FIELDS:
        raise _BadRecord(f"malformed record: unknown type {rtype!r}")
    rec = _Record(offset, int(tokens[1]), rtype, {}, [])
    if rtype == "S":
        rec.positional = tokens[3:]
        if len(rec.positional) != 3 or not (tokens[3].isdigit() and tokens[4].isdigit()):
            raise _BadRecord("malformed S record: expected `S <series> <first> <samples>`")
        return rec
    for tok in tokens[3:]:
        key, eq, value = tok.partition("=")
        if not eq or not key:
            raise _BadRecord(f"malformed {rtype} record: field {tok!r} is not key=value")
        try:
            rec.fields[key] = unescape(value)
        except ValueError as exc:
            raise _BadRecord(f"malformed {rtype} record: {exc}") from None
    missing = [k for k in RECORD_FIELDS[rtype] if k not in rec.fields]
    if missing:
        raise _BadRecord(f"malformed {rtype} record: missing {', '.join(missing)}")
    return rec


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


def _int(rec: _Record, key: str) -> int:
    value = rec.fields[key]
    base = 16 if rec.type == "FAULT" else 10
    try:
        return int(value, base)
    except ValueError:
        raise _BadRecord(f"malformed {rec.type} record: {key}={value!r} is not a number") from None


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

    def error(self, offset: int, message: str, case: ParsedCase | None = None) -> None:
        self.out.errors.append(StreamError(offset, message))
        if case is not None and case.status not in ("error",):
            case.status = "error"
            case.reason = f"stream error at byte {offset}: {message}"

    def feed_line(self, offset: int, line: bytes, last: bool = False) -> None:
        start = line.find(PREFIX)
        if start < 0:
            if line.strip():
                self.out.noise.append(line.decode("utf-8", "replace"))
            return
        if start > 0:  # console text without a line end before the record
            self.out.noise.append(line[:start].decode("utf-8", "replace"))
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

    def dispatch(self, rec: _Record) -> None:
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
        self.seen_hello = True
        self.out.header = dict(rec.fields)
        if rec.fields["v"] != str(VERSION):
            self.error(rec.offset, f"protocol version {rec.fields['v']} (this parser reads "
                                   f"version {VERSION}); update rtosmeter")

    def on_cfg(self, rec: _Record) -> None:
        if self.seen_case:
            raise _BadRecord("CFG record after the first CASE")
        self.out.config[rec.fields["k"]] = rec.fields["v"]

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
        self.seen_case = True
        self.current = ParsedCase(rec.fields["id"], rec.offset)
        self.out.cases.append(self.current)
        self.series_by_id = {}
        self.next_index = {}

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
        self.series_by_id[sid] = s
        self.next_index[name] = 0

    def on_s(self, rec: _Record) -> None:
        case = self.need_case(rec)
        sid, first, text = int(rec.positional[0]), int(rec.positional[1]), rec.positional[2]
        series = self.series_by_id.get(sid)
        if series is None:
            raise _BadRecord(f"S record for unknown series {sid} in case {case.id}")
        try:
            samples = decode_samples(text)
        except ValueError as exc:
            raise _BadRecord(f"malformed S record: {exc}") from None
        expected = self.next_index[series.name]
        if first < expected:
            raise _BadRecord(f"sample index {first} of series {series.name} repeats "
                             f"(next is {expected}); record dropped")
        if first > expected:  # keep the samples: they are valid, only some are lost
            self.error(rec.offset, f"sample index of series {series.name} skips from "
                                   f"{expected} to {first}", case)
        series.samples.extend(samples)
        self.next_index[series.name] = first + len(samples)

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
        if "missing" in rec.fields:  # the runner: a capability mask, named here
            text = rec.fields["missing"]
            try:
                missing = int(text, 16)
            except ValueError:
                raise _BadRecord(f"malformed UNSUP record: missing={text!r} is not a hex "
                                 "capability mask") from None
            reason = lacks_reason(missing, rec.fields.get("note", ""))
        elif "reason" in rec.fields:  # rm_unsupported(), or a stream of before the mask
            reason = rec.fields["reason"]
        else:
            raise _BadRecord("malformed UNSUP record: missing both missing= and reason=")
        if self.current is not None:
            old = self.current
            self.current = None
            if old.id == case_id:  # rm_unsupported() from inside the case: it ends the case
                old.status, old.reason, old.missing = "unsupported", reason, missing
                return
            self.error(rec.offset, f"UNSUP for case {case_id} inside case {old.id} "
                                   f"(no END); {old.id} kept as incomplete")
            old.status, old.reason = "incomplete", f"no END (UNSUP at byte {rec.offset})"
        self.seen_case = True
        self.out.cases.append(ParsedCase(case_id, rec.offset, "unsupported", reason,
                                         missing=missing))

    def on_fault(self, rec: _Record) -> None:
        self.out.fault = dict(rec.fields)
        where = f" during case {self.current.id}" if self.current else ""
        regs = " ".join(f"{k}={v}" for k, v in rec.fields.items())
        self.out.errors.append(StreamError(rec.offset, f"CPU fault{where}: {regs}"))
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

    def finish(self, size: int) -> ParsedStream:
        if not self.out.complete:
            where = f"; case {self.current.id} kept as incomplete" if self.current else ""
            self.out.errors.append(StreamError(
                size, f"stream ends without BYE (truncated){where}"))
            if self.current is not None:
                self.current.status = "incomplete"
                self.current.reason = f"stream ends at byte {size} without END"
        return self.out


def parse_stream(data: bytes) -> ParsedStream:
    """Parse a whole stream. Never raises; problems are in `.errors`."""
    parser = _Parser()
    for offset, line, last in _iter_lines(data):
        parser.feed_line(offset, line, last)
    return parser.finish(len(data))
