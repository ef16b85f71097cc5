"""Captures in Joulescope's .jls v2 format, through its own library (pyjls).

A Joulescope records current and voltage as float signals named `current`
(A) and `voltage` (V), and its general-purpose inputs as one-bit signals
`gpi[0]` … `gpi[3]`. Every trace rtosmeter keeps is a .jls file beside the
store, whichever analyser made it (the PPK2's and the Otii's samples are
written in the same format), so one reader reads them all back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from rtosmeter.energy.capture import Capture
from rtosmeter.errors import UserError

CURRENT, VOLTAGE = "current", "voltage"
MARKER = "gpi[0]"  # the input the target's GPIO marker is wired to
SOURCE_ID = 1


def _library() -> Any:
    try:
        import pyjls
    except ImportError:
        raise UserError("pyjls is not installed", "rtosmeter.energy",
                        "Install the power extra: pip install 'rtosmeter[power]' "
                        "(scripts/install.sh does)") from None
    return pyjls


def read(path: Path, marker: str = MARKER) -> Capture:
    """The capture in a .jls file: its current, voltage and marker signals."""
    pyjls = _library()
    if not path.is_file():
        raise UserError("no such capture file", str(path), "Pass a .jls file")
    try:
        with pyjls.Reader(str(path)) as r:
            signals = {s.name: s for s in r.signals.values()}
            if CURRENT not in signals:
                raise UserError(f"the capture has no '{CURRENT}' signal (it has "
                                f"{', '.join(sorted(signals))})", str(path),
                                "Record current with the Joulescope (or pass another file)")
            cur = signals[CURRENT]
            rate, n = float(cur.sample_rate), int(cur.length)
            current = np.asarray(r.fsr(cur.signal_id, 0, n), dtype=np.float64)
            volts = signals.get(VOLTAGE)
            if volts is None or volts.length != n or volts.sample_rate != cur.sample_rate:
                raise UserError(f"the capture has no '{VOLTAGE}' signal beside its current",
                                str(path), "Record voltage too, at the same rate")
            voltage = np.asarray(r.fsr(volts.signal_id, 0, n), dtype=np.float64)
            mark = signals.get(marker)
            bits = None
            if mark is not None:
                packed = np.asarray(r.fsr(mark.signal_id, 0, n), dtype=np.uint8)
                bits = np.unpackbits(packed, bitorder="little")[:n].astype(bool)
            analyser = next((f"{s.vendor} {s.model}".strip() for s in r.sources.values()
                             if s.source_id == cur.source_id), "Joulescope")
    except UserError:
        raise
    except Exception as exc:  # pyjls raises plain RuntimeError on a damaged file
        raise UserError(f"cannot read the capture ({exc})", str(path),
                        "Pass a .jls file written by a Joulescope or by rtosmeter") from None
    return Capture(analyser, rate, current, voltage, bits, str(path))


def write(capture: Capture, path: Path) -> Path:
    """Write `capture` as a .jls file (current, voltage, and the marker as gpi[0])."""
    pyjls = _library()
    path.parent.mkdir(parents=True, exist_ok=True)
    vendor, _, model = capture.analyser.partition(" ")
    rate = round(capture.rate_hz)
    if rate != capture.rate_hz:
        raise UserError(f"a .jls file needs a whole sample rate, not {capture.rate_hz}",
                        capture.where, "Resample the capture to a whole rate")
    with pyjls.Writer(str(path)) as w:
        w.source_def(source_id=SOURCE_ID, name=capture.analyser, vendor=vendor,
                     model=model or vendor, version="", serial_number="")
        w.signal_def(1, source_id=SOURCE_ID, sample_rate=rate, name=CURRENT, units="A")
        w.signal_def(2, source_id=SOURCE_ID, sample_rate=rate, name=VOLTAGE, units="V")
        w.fsr(1, 0, capture.current_a.astype(np.float32))
        w.fsr(2, 0, capture.voltage_v.astype(np.float32))
        if capture.marker is not None:
            w.signal_def(3, source_id=SOURCE_ID, sample_rate=rate, name=MARKER, units="",
                         data_type=pyjls.DataType.U1)
            w.fsr(3, 0, np.packbits(capture.marker.astype(np.uint8), bitorder="little"))
    return path
