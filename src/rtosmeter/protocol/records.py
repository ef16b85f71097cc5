"""The records of a result stream (docs/protocol.md) and what the parser
makes of them: its limits, the fields each record type carries, the parsed
cases and stream."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

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
PRINTABLE = bytes(range(0x20, 0x7F))

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
