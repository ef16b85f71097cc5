"""The store's rows as Python values, and how values become columns: JSON
text, samples as little-endian uint32 BLOBs, a stream in 1 MiB chunks."""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

STREAM_CHUNK = 1 << 20  # a stream is stored a MiB a row: never one huge value in memory
# An attribution row: series id, function, instructions, cycles, calls
AttributionRow = tuple[int, str, int, int | None, int]


def now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def as_json(value: object) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def samples_to_blob(samples: npt.ArrayLike) -> bytes:
    return np.asarray(samples, dtype="<u4").tobytes()


def blob_to_samples(blob: bytes) -> npt.NDArray[np.uint32]:
    if not isinstance(blob, bytes) or len(blob) % 4:
        raise ValueError(f"a samples blob of {len(blob)} bytes, not whole 32-bit samples"
                         if isinstance(blob, bytes) else f"samples stored as {type(blob).__name__}")
    return np.frombuffer(blob, dtype="<u4").astype(np.uint32, copy=False)


def execution_row(r: Any) -> ExecutionRow:
    return ExecutionRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], json.loads(r[8]),
                        json.loads(r[9]), r[10], json.loads(r[11]),
                        [(int(o), str(m)) for o, m in json.loads(r[12])],
                        json.loads(r[13]), json.loads(r[14]))


def case_row(r: Any) -> CaseRow:
    return CaseRow(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), json.loads(r[6]))



@dataclass(frozen=True)
class RunRow:
    id: int
    started: str
    finished: str
    status: str
    campaign: dict[str, Any]
    host: dict[str, Any]
    tool_version: str


@dataclass(frozen=True)
class BuildRow:
    id: int
    run_id: int
    port: str
    target: str
    profile: str
    config: dict[str, Any]
    status: str
    error: str
    axes: dict[str, str]  # rtosmeter.axes, every axis present


@dataclass(frozen=True)
class ExecutionRow:
    """An execution without its raw stream (read it with `Store.stream()`)."""

    id: int
    run_id: int
    build_id: int
    group: str
    status: str
    error: str
    exit_code: int | None
    wall_s: float | None
    runner: dict[str, Any]
    footprint: dict[str, Any]
    elf: str
    hello: dict[str, str]
    errors: list[tuple[int, str]]
    fault: dict[str, str] | None
    noise: list[str]


@dataclass(frozen=True)
class CaseRow:
    id: int
    execution_id: int
    case_id: str
    status: str
    reason: str
    meta: dict[str, str]
    cfg: dict[str, str]


@dataclass(frozen=True)
class SeriesRow:
    case_row: int
    name: str
    what: str
    samples: npt.NDArray[np.uint32]
    subtract: bool = True  # False: SERIES sub=0, the overhead is not subtracted



def insert_chunks(conn: sqlite3.Connection, execution_id: int, stream: bytes) -> None:
    view = memoryview(stream)
    conn.executemany(
        "INSERT INTO stream_chunks (execution_id, seq, data) VALUES (?, ?, ?)",
        ((execution_id, i, view[start:start + STREAM_CHUNK])
         for i, start in enumerate(range(0, len(view), STREAM_CHUNK))))
