"""The store's `attribution` table (schema v5): per series, per function,
the instructions (and estimated cycles) of all its samples and the calls.
The per-sample mean is the total over the series' sample count."""

from __future__ import annotations

from dataclasses import dataclass

TABLE = """CREATE TABLE attribution (
    execution_id INTEGER NOT NULL REFERENCES executions(id),
    series_id INTEGER NOT NULL REFERENCES series(id),
    function TEXT NOT NULL,
    instructions INTEGER NOT NULL,            -- over every sample of the series
    cycles INTEGER,                           -- estimated (mode=cycles), else NULL
    calls INTEGER NOT NULL
);
CREATE INDEX attribution_series ON attribution(series_id)"""

Row = tuple[int, str, int, int | None, int]  # series id, function, instructions, cycles, calls


@dataclass(frozen=True)
class FunctionCost:
    function: str
    instructions: int  # over all samples
    cycles: int | None
    calls: int
