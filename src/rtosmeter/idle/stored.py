"""Idle figures in the store's `idle` table (rtosmeter.store.schema):
`write_idle` after an execution, `read_idle` for a run's analysis."""

from __future__ import annotations

import json
from functools import partial

from rtosmeter.idle.figures import WHOLE, IdleFigures
from rtosmeter.store import Store


def write_idle(store: Store, execution_id: int, figures: IdleFigures) -> None:
    """Store (or replace) one window's figures of an execution."""
    with store.transaction():
        store.conn.execute(
            "INSERT OR REPLACE INTO idle (execution_id, win, window_ns, asleep_ns, awake_ns, "
            "wakeups, wake_causes, instructions_awake, interrupts, time_limit) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (execution_id, figures.window, figures.window_ns, figures.asleep_ns,
             figures.awake_ns, figures.wakeups,
             json.dumps(dict(sorted(figures.wake_causes.items()))),
             figures.instructions_awake, json.dumps(dict(sorted(figures.interrupts.items()))),
             figures.time_limit))


def read_idle(store: Store, run_id: int) -> dict[int, list[IdleFigures]]:
    """Every execution of the run that has idle figures: execution id -> its
    windows, the whole execution first, then the cases in id order."""
    rows = store.conn.execute(
        "SELECT i.execution_id, i.win, i.window_ns, i.asleep_ns, i.awake_ns, i.wakeups, "
        "i.wake_causes, i.instructions_awake, i.interrupts, i.time_limit FROM idle i "
        "JOIN executions e ON e.id = i.execution_id WHERE e.run_id = ? "
        "ORDER BY i.execution_id, i.win != ?, i.win", (run_id, WHOLE)).fetchall()
    out: dict[int, list[IdleFigures]] = {}
    for row in rows:
        figures = store.decoded(f"idle figures {row[1]} of execution {row[0]}",
                                partial(_figures, row))
        out.setdefault(int(row[0]), []).append(figures)
    return out


def _figures(row: tuple[object, ...]) -> IdleFigures:
    _, win, window_ns, asleep, awake, wakeups, causes, instructions, entered, limit = row
    parsed, entries = json.loads(str(causes)), json.loads(str(entered))
    if not isinstance(parsed, dict) or not isinstance(entries, dict):
        raise ValueError("wake_causes or interrupts is not an object")
    return IdleFigures(int(str(window_ns)), int(str(asleep)), int(str(awake)),
                       int(str(wakeups)), parsed, int(str(instructions)), str(win), entries,
                       str(limit))
