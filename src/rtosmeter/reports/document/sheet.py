"""A document with no run behind it: what `compare`, `study report` and
`explain` build, for the report's format modules to render (reports/table.py,
markdown.py, csv.py, json.py, html.py), so a comparison, a study and a
breakdown read like the run report: the same sections of cells (`cells.Section`,
classes and marks), charts and notes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rtosmeter.reports.document.cells import Chart, Section


@dataclass
class Sheet:
    """Titled sections of cells, with the sentences before them and after them."""

    kind: str  # what it is: compare, study, explain (its JSON's schema: rtosmeter-<kind>)
    name: str  # the file name stem a written copy takes ("study-beningo2024")
    title: str
    lead: list[str]  # sentences before the tables; the first is the headline
    sections: list[Section]
    notes: list[str] = field(default_factory=list)  # after the tables
    charts: list[Chart] = field(default_factory=list)  # the HTML page shows them
    # What the JSON carries beside the sections: the figures a reader takes
    # (a study's verdicts, a comparison's changes), as JSON-ready values.
    data: dict[str, Any] = field(default_factory=dict)
