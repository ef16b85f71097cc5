"""Writing a stream as the firmware does: escaped field values, one record
line with its CRC, and `StreamWriter` (tests craft streams with it)."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping, Sequence

from rtosmeter.protocol.samples import encode_samples


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
