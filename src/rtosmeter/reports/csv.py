"""CSV report: one row per (port, target, profile, case, series); columns and
their meaning in docs/results-schema.md. Empty cell = not applicable."""

from __future__ import annotations

import csv
import io

from rtosmeter.model import RunView
from rtosmeter.reports import document
from rtosmeter.reports.document import Document
from rtosmeter.reports.document.cells import Cell, Value
from rtosmeter.reports.document.records import RESULT_FIELDS
from rtosmeter.reports.document.sheet import Sheet
from rtosmeter.textsafe import csv_safe

SUFFIX = ".csv"


def _cell(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float):
        return repr(value)  # round-trips exactly
    return csv_safe(value)


def _text(value: Value) -> object:
    return csv_safe(value.plain() if isinstance(value, Cell) else value)


def _sheet(sheet: Sheet) -> str:
    """Each table as CSV, its title in a first column (one table: a plain
    CSV of it); tables apart by a blank line, as they have their own columns."""
    blocks = []
    for sec in sheet.sections:
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["section", *(csv_safe(h) for h in sec.headers)])
        writer.writerows([csv_safe(sec.title), *(_text(v) for v in row)] for row in sec.rows)
        blocks.append(buf.getvalue())
    return "\n".join(blocks)


def render(source: RunView | Document | Sheet) -> str:
    if isinstance(source, Sheet):
        return _sheet(source)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(RESULT_FIELDS)
    for rec in document.of(source).records:
        writer.writerow([_cell(rec[k]) for k in RESULT_FIELDS])
    return buf.getvalue()
