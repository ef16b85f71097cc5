"""Helpers for the data-half tests (protocol, store, analysis, reports): craft
streams with the real writer and store them in a real SQLite file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rtosmeter.catalog import load_caps
from rtosmeter.definitions import project_root
from rtosmeter.protocol import ParsedStream, StreamWriter, name_missing, parse_stream
from rtosmeter.store import Store

LatCase = tuple[str, Mapping[str, Sequence[int]]]  # case id, series name -> ticks


def craft(port: str, target: str, hz: int, calib: Sequence[int],
          latency: Sequence[LatCase] = (), throughput: Mapping[str, Sequence[int]] | None = None,
          unsupported: Mapping[str, str] | None = None,
          checks: Mapping[str, tuple[int, int]] | None = None, group: str = "g",
          cfg: Mapping[str, str] | None = None, period_ms: int | None = None,
          unit: str = "ticks", profile: str = "default") -> bytes:
    """A complete stream: calib.overhead first, then the given cases; `cfg`
    adds CFG records (e.g. a port's stand_in.<CAP>), `period_ms` the HELLO's
    throughput period as a time (firmware of today sends it)."""
    w = StreamWriter()
    # HELLO announces the longest series: the parser refuses samples beyond it.
    longest = max([len(calib)] + [len(s) for _, ser in latency for s in ser.values()])
    hello = dict(v=1, port=port, target=target, group=group, ts="counter", unit=unit, hz=hz,
                 samples=longest, batch=1024, tm_period=100, tm_periods=3, profile=profile)
    if period_ms is not None:
        hello["tm_period_ms"] = period_ms
    w.record("HELLO", hello)
    w.record("CFG", {"k": "compiler", "v": "gcc 12.2"})
    for key, value in (cfg or {}).items():
        w.record("CFG", {"k": key, "v": value})
    n = 0
    for cid, series in [("calib.overhead", {"overhead": calib}), *latency]:
        w.record("CASE", {"id": cid})
        for sid, (name, samples) in enumerate(series.items()):
            w.record("SERIES", {"id": sid, "name": name, "what": f"{name} interval"})
            for first in range(0, len(samples), 1024):
                w.samples(sid, first, samples[first:first + 1024])
        for name, (got, want) in (checks or {}).items():
            if cid != "calib.overhead":
                w.record("CHECK", {"name": name, "ok": int(got == want), "got": got,
                                   "want": want})
        w.record("END", {"id": cid, "status": "ok"})
        n += 1
    for cid, counts in (throughput or {}).items():
        w.record("CASE", {"id": cid})
        for period, value in enumerate(counts):
            w.record("COUNT", {"name": "total", "period": period, "value": value})
        w.record("END", {"id": cid, "status": "ok"})
        n += 1
    for cid, reason in (unsupported or {}).items():
        w.record("UNSUP", {"id": cid, "reason": reason})
        n += 1
    w.record("BYE", {"cases": n, "status": 0})
    return w.getvalue()


# bit -> capability name, from RM_CAPS in port.h (the recorder names masks so).
CAP_BITS = {c.bit: n for n, c in load_caps(project_root()).items()}


def parse_named(data: bytes) -> ParsedStream:
    """A stream parsed and its capability masks named, as the recorder stores it."""
    parsed = parse_stream(data)
    name_missing(parsed, CAP_BITS)
    return parsed


def store_run(path: Path, executions: Sequence[tuple[bytes, Mapping[str, Any]]],
              footprint: Mapping[str, Any] | None = None) -> int:
    """One run holding these (stream, runner info) executions, one build each."""
    with Store.open(path) as st:
        run = st.create_run({"name": "test"}, {"machine": "x86_64", "os": "Linux"}, "0.1.0")
        for data, runner in executions:
            parsed = parse_named(data)
            port, target = parsed.header["port"], parsed.header["target"]
            b = st.add_build(run, port, target, "default", {"compiler": "gcc 12.2"})
            st.add_execution(run, b, parsed.header["group"], status="ok", exit_code=0,
                             wall_s=0.1, runner=runner, stream=data,
                             footprint=footprint or {}, parsed=parsed)
        st.finish_run(run)
    return run
