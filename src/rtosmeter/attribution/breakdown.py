"""A series' per-function breakdown as the store's `attribution` table
holds it (rtosmeter.store.schema), read back with what it is measured
against: its samples, their sum and the measurement overhead the figures
subtract."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from rtosmeter.analysis import overheads, subtracted
from rtosmeter.axes import name as axes_name
from rtosmeter.store import Store, blob_to_samples


@dataclass(frozen=True)
class FunctionCost:
    """One function's share of a series: over all its samples."""

    function: str
    instructions: int
    cycles: int | None
    calls: int


@dataclass(frozen=True)
class Breakdown:
    execution_id: int
    system: str  # port/target/profile (and axes), as the reports name a build
    port: str
    case_id: str
    series: str
    samples: int
    total: int  # the sum of the samples: what the functions' counts sum to
    unit: str  # instructions | cycles (the plugin's mode)
    overhead: float  # per sample, subtracted by the figures (calib.overhead)
    functions: tuple[FunctionCost, ...]  # largest first

    def cost(self, f: FunctionCost) -> int:
        return f.cycles if self.unit == "cycles" and f.cycles is not None else f.instructions

    @property
    def attributed(self) -> int:
        return sum(self.cost(f) for f in self.functions)

    @property
    def per_sample(self) -> float:
        return self.total / self.samples if self.samples else 0.0


def breakdowns(store: Store, run_id: int, case_id: str, series: str | None = None,
               ports: tuple[str, ...] = ()) -> list[Breakdown]:
    """Every attributed series of `case_id` in the run (one per execution and
    series), in the order of the builds."""
    over = overheads(store, run_id)
    rows = store.conn.execute(
        "SELECT e.id, b.port, b.target, b.profile, b.axes, s.id, s.name, s.samples, s.sub, "
        "e.runner FROM executions e JOIN builds b ON b.id = e.build_id "
        "JOIN cases c ON c.execution_id = e.id JOIN series s ON s.case_row = c.id "
        "WHERE e.run_id = ? AND c.case_id = ? ORDER BY b.id, e.id, s.id",
        (run_id, case_id)).fetchall()
    out = []
    for ex_id, port, target, profile, axes, sid, name, blob, sub, runner in rows:
        if (series is not None and name != series) or (ports and port not in ports):
            continue
        funcs = [FunctionCost(f, i, c, calls) for f, i, c, calls in store.conn.execute(
            "SELECT function, instructions, cycles, calls FROM attribution WHERE series_id = ?",
            (sid,))]
        if not funcs:
            continue
        unit = "cycles" if json.loads(runner).get("mode") == "cycles" else "instructions"
        samples = blob_to_samples(bytes(blob))
        b = Breakdown(ex_id, axes_name(port, target, profile, json.loads(axes)), port, case_id,
                      name, int(samples.size), int(samples.astype("u8").sum()), unit,
                      subtracted(case_id, bool(sub), over.get(ex_id, 0.0)), ())
        ordered = sorted(funcs, key=lambda f: (-b.cost(f), f.function))
        out.append(replace(b, functions=tuple(ordered)))
    return out
