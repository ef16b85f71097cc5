"""The power runner's last step: one execution's capture, aligned to its
cases by the GPIO marker, stored as energy per case with the trace kept
beside the store.

The capture comes from an analyser while the board runs (analysers.py) or
from a recorded .jls file (`rtosmeter energy import`); either way the
cases that ran are the ones the target marked, in the order it ran them.
"""

from __future__ import annotations

from rtosmeter.energy import jls
from rtosmeter.energy.capture import Capture, WindowEnergy, align
from rtosmeter.energy.stored import trace_path, write_energy
from rtosmeter.errors import UserError
from rtosmeter.store import Store

RAN = ("ok", "failed")  # a case the target ran, so marked: not unsupported, not lost


def marked_cases(store: Store, execution_id: int) -> list[str]:
    """The execution's cases that ran, in the order it ran them."""
    rows = store.conn.execute(
        "SELECT case_id, status FROM cases WHERE execution_id = ? ORDER BY id",
        (execution_id,)).fetchall()
    if not store.conn.execute("SELECT 1 FROM executions WHERE id = ?",
                              (execution_id,)).fetchone():
        raise UserError(f"no execution {execution_id} in the store", str(store.path),
                        "See the executions with `rtosmeter report --format json`")
    return [str(case) for case, status in rows if status in RAN]


def store_capture(store: Store, execution_id: int, capture: Capture
                  ) -> dict[str, WindowEnergy]:
    """Align `capture` to the execution's cases, keep it as a .jls trace
    beside the store and store each case's energy."""
    cases = align(capture, marked_cases(store, execution_id))
    trace = jls.write(capture, trace_path(store, execution_id))
    write_energy(store, execution_id, capture.analyser, cases, trace)
    return cases
