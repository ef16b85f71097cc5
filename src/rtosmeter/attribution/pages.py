"""The HTML report's per-case attribution pages: for every case of a run
with a stored breakdown, OUT/explain-<run>/<case>.html (its icicle charts,
attribution/html.py), which the case's section links to."""

from __future__ import annotations

from pathlib import Path

from rtosmeter.attribution import html
from rtosmeter.attribution.breakdown import breakdowns
from rtosmeter.reports.document.cells import anchor
from rtosmeter.store import Store


def write_pages(store: Store, out: Path, run_id: int) -> dict[str, str]:
    """case id -> the page's path relative to `out` (no case: {})."""
    cases = [c for (c,) in store.conn.execute(
        "SELECT DISTINCT c.case_id FROM attribution a JOIN series s ON s.id = a.series_id "
        "JOIN cases c ON c.id = s.case_row JOIN executions e ON e.id = a.execution_id "
        "WHERE e.run_id = ? ORDER BY c.case_id", (run_id,))]
    links = {}
    for case_id in cases:
        rel = f"explain-{run_id}/{anchor(case_id)}.html"
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html.page(breakdowns(store, run_id, case_id),
                                  f"run {run_id}: {case_id}, per function"), encoding="utf-8")
        links[case_id] = rel
    return links
