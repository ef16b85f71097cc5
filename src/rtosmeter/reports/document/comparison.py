"""`rtosmeter compare`'s document: one line per system, the changes worst
first under the summary (the verdict's cell flagged, so every format shows a
regression as the report shows a failure), what only one side has, the
notes; its JSON carries every change (compare_table.as_json)."""

from __future__ import annotations

from typing import Any

from rtosmeter.compare import Comparison
from rtosmeter.compare_summary import lines
from rtosmeter.compare_table import HEAD, as_json, rows, summary_line
from rtosmeter.reports.document.cells import Cell, Section, Value
from rtosmeter.reports.document.sheet import Sheet

# The verdict's word (compare_table.MARK) as a cell flag.
VERDICT_FLAG = {"REGRESSION": "worse", "BROKEN": "worse", "improved": "better",
                "noise": "dim", "same": "dim"}
IDENTICAL = "Every figure compared is identical."


def changes_section(comp: Comparison, everything: bool) -> Section | None:
    body = rows(comp, everything)
    if not body:
        return None
    # titled by the summary, as the per-system lines come first: the table can be long
    sec = Section(summary_line(comp), HEAD, numeric=HEAD.index("A"))
    for r in body:
        row: list[Value] = [Cell(r[0], flag=VERDICT_FLAG.get(r[0], "")), *r[1:]]
        sec.add(row)
    return sec


def sheet(comp: Comparison, everything: bool = False,
          extra: dict[str, Any] | None = None) -> Sheet:
    """The comparison; `everything`: identical and not significant figures
    too; `extra`: what the JSON carries beside it (the gate's verdicts)."""
    changes = changes_section(comp, everything)
    lead = lines(comp) + ([] if changes else [summary_line(comp), IDENTICAL])
    sections = [changes] if changes else []
    for title, items in ((f"Only in {comp.name_a}", comp.only_a),
                         (f"Only in {comp.name_b}", comp.only_b)):
        if items:
            sections.append(Section(title, ["system case"], [[i] for i in items]))
    return Sheet("compare", f"compare-{comp.run_a}-{comp.run_b}",
                 f"Comparison: {comp.name_a} → {comp.name_b}", lead, sections,
                 list(comp.notes), data={**as_json(comp), **(extra or {})})
