"""The HTML report's per-case attribution pages: for every case of a run
with a stored breakdown, OUT/explain-<run>/<case>.html (the breakdown's
document, reports/document/explain.py, as the html format renders it),
which the case's section links to. Not a format: its name starts with "_"."""

from __future__ import annotations

from pathlib import Path

from rtosmeter.attribution.breakdown import breakdowns
from rtosmeter.reports import html
from rtosmeter.reports.document.cells import anchor
from rtosmeter.reports.document.explain import sheet
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
        found = breakdowns(store, run_id, case_id)
        html.write(sheet(found, f"run {run_id}: {case_id}, per function"), path)
        links[case_id] = rel
    return links
