"""Align a capture to its cases by the stream's arrival times, when the
target has no marker pin wired (or `run --align stream`).

A case's window opens when its CASE record reached the harness and closes
when its END record did, on the host's monotonic clock; the capture's
sample 0 was taken at a known host time (`Capture.start_host_s`), so each
edge is a sample index. Each edge is known to within:

- the harness's look at the stream (energy/arrivals.py): the record
  arrived after the last look that had not seen it and by the first that had;
- the transport: a record `L` bytes long on a UART at `baud` arrives up to
  L * 10 / baud after the case's edge (0 for a console file or RAM);
- one sample period of the analyser.

The energy is stated with bounds: the window shrunk and grown by that
uncertainty at both edges. Such figures are marked "aligned by stream".
"""

from __future__ import annotations

from dataclasses import dataclass

from rtosmeter.energy.arrivals import Arrivals
from rtosmeter.energy.capture import Capture, Window, WindowEnergy
from rtosmeter.errors import UserError
from rtosmeter.protocol import PREFIX, escape

BITS_PER_BYTE = 10  # a UART frame: start, 8 data, stop


@dataclass(frozen=True)
class StreamWindow:
    """One case aligned by stream: its energy, and how well it is known."""

    energy: WindowEnergy
    edge_s: float  # each edge is within ± this of where it is taken
    low_uj: float  # the energy of the window shrunk by edge_s at both ends
    high_uj: float  # ... and grown by it


def record_ends(stream: bytes, case_id: str, after: int) -> tuple[int, int]:
    """The last byte of the case's CASE record and of its END record."""
    key = escape(case_id).encode()
    case = stream.find(PREFIX, after)
    case_end = stream.find(b"\n", case)
    pos = case_end
    while pos >= 0:
        start = stream.find(b"\n" + PREFIX, pos) + 1
        if start == 0:
            break
        line_end = stream.find(b"\n", start)
        line = stream[start:line_end if line_end >= 0 else len(stream)]
        if f" END id={key.decode()} ".encode() in line:
            return case_end, (line_end if line_end >= 0 else len(stream) - 1)
        pos = start
    raise UserError(f"case {case_id} has no END record in the stream", "the stream",
                    "Only cases that ran to their END are aligned")


def _edge(arrivals: Arrivals, offset: int, latency_s: float, what: str
          ) -> tuple[float, float]:
    """(host time of the case's edge, ± uncertainty) for the record ending at `offset`."""
    span = arrivals.span(offset)
    if span is None:
        raise UserError(f"the harness never saw {what} arrive", "the stream's arrival times",
                        "Run with --power, whose runner notes when the stream grows")
    first, last = span
    early, late = first - latency_s, last  # the edge happened before the record arrived
    return (early + late) / 2, (late - early) / 2


def align(capture: Capture, stream: bytes, cases: list[tuple[str, int]], arrivals: Arrivals,
          baud: int = 0) -> dict[str, StreamWindow]:
    """Each case's energy; `cases`: (id, byte offset of its CASE record) of
    the cases that ran, `baud`: the serial line's speed (0: no UART)."""
    if capture.start_host_s is None:
        raise UserError("the capture has no host time for its first sample", capture.where,
                        "Align it by its marker, or capture it with `rtosmeter run --power`")
    period = 1.0 / capture.rate_hz
    n = len(capture.current_a)
    out = {}
    for case_id, offset in cases:
        case_end, end_end = record_ends(stream, case_id, offset)
        line_len = [end - stream.rfind(b"\n", 0, end) for end in (case_end, end_end)]
        latency = [length * BITS_PER_BYTE / baud if baud else 0.0 for length in line_len]
        (t_open, e_open) = _edge(arrivals, case_end, latency[0], f"case {case_id}'s CASE")
        (t_close, e_close) = _edge(arrivals, end_end, latency[1], f"case {case_id}'s END")
        edge = max(e_open, e_close) + period
        at = [round((t - capture.start_host_s) * capture.rate_hz) for t in (t_open, t_close)]
        if at[0] < 0 or at[1] > n:
            raise UserError(f"case {case_id} ran outside the capture ({t_open:.3f} to "
                            f"{t_close:.3f} s on the host clock)", capture.where,
                            "Start the capture before the firmware and stop it after")
        w = Window(at[0], max(at[1], at[0]))
        d = round(edge * capture.rate_hz)
        inner = Window(min(w.start + d, w.stop), max(w.stop - d, min(w.start + d, w.stop)))
        outer = Window(max(w.start - d, 0), min(w.stop + d, n))
        out[case_id] = StreamWindow(capture.energy(w), edge,
                                    capture.energy(inner).energy_uj if inner.stop > inner.start
                                    else 0.0, capture.energy(outer).energy_uj)
    return out
