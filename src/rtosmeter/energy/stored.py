"""Measured energy in the store: the `energy` table, one row per case of an
execution measured with a power analyser; the `energy_stream` table, how
well each case aligned by the stream's arrival times is known (a case
aligned by the marker has no row there; both in rtosmeter.store.schema);
and the execution's trace as a .jls file beside the store (`traces/`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rtosmeter.energy.by_stream import StreamWindow
from rtosmeter.energy.capture import WindowEnergy

if TYPE_CHECKING:
    from rtosmeter.store import Store

TRACES = "traces"  # the folder beside the store that holds the traces



@dataclass(frozen=True)
class MeasuredEnergy:
    """One case's measured energy, with the execution it belongs to."""

    execution_id: int
    case_id: str
    analyser: str
    window: WindowEnergy
    trace: str
    by_stream: tuple[float, float, float] | None = None  # (edge_s, low_uj, high_uj)


def trace_path(store: Store, execution_id: int) -> Path:
    return store.path.parent / TRACES / f"execution-{execution_id}.jls"


def write_energy(store: Store, execution_id: int, analyser: str,
                 cases: dict[str, WindowEnergy], trace: Path,
                 by_stream: dict[str, StreamWindow] | None = None) -> None:
    """Store (or replace) the measured energy of an execution's cases, and
    how well they are known when `by_stream` aligned them."""
    relative = str(trace.relative_to(store.path.parent))
    with store.transaction():
        store.conn.execute("DELETE FROM energy WHERE execution_id = ?", (execution_id,))
        store.conn.execute("DELETE FROM energy_stream WHERE execution_id = ?", (execution_id,))
        store.conn.executemany(
            "INSERT INTO energy_stream (execution_id, case_id, edge_s, low_uj, high_uj) "
            "VALUES (?, ?, ?, ?, ?)", [(execution_id, case, s.edge_s, s.low_uj, s.high_uj)
                                       for case, s in (by_stream or {}).items()])
        store.conn.executemany(
            "INSERT INTO energy (execution_id, case_id, analyser, start_s, duration_s, "
            "energy_uj, mean_ma, mean_v, trace) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(execution_id, case, analyser, w.start_s, w.duration_s, w.energy_uj, w.mean_ma,
              w.mean_v, relative) for case, w in cases.items()])


def read_energy(store: Store, run_id: int) -> list[MeasuredEnergy]:
    """Every measured case of the run, by execution and start."""
    rows = store.conn.execute(
        "SELECT n.execution_id, n.case_id, n.analyser, n.start_s, n.duration_s, n.energy_uj, "
        "n.mean_ma, n.mean_v, n.trace, s.edge_s, s.low_uj, s.high_uj FROM energy n "
        "JOIN executions e ON e.id = n.execution_id LEFT JOIN energy_stream s "
        "ON s.execution_id = n.execution_id AND s.case_id = n.case_id "
        "WHERE e.run_id = ? ORDER BY n.execution_id, n.start_s", (run_id,)).fetchall()
    return [MeasuredEnergy(int(r[0]), str(r[1]), str(r[2]),
                           WindowEnergy(float(r[3]), float(r[4]), float(r[5]), float(r[6]),
                                        float(r[7])), str(r[8]),
                           None if r[9] is None else (float(r[9]), float(r[10]), float(r[11])))
            for r in rows]
