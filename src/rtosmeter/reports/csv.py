"""CSV report: one row per (port, target, profile, case, series); columns and
their meaning in docs/results-schema.md. Empty cell = not applicable."""

from __future__ import annotations

import csv
import io

from rtosmeter.model import RunView
from rtosmeter.reports import document
from rtosmeter.reports.document import Document
from rtosmeter.reports.document.records import RESULT_FIELDS
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


def render(source: RunView | Document) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(RESULT_FIELDS)
    for rec in document.of(source).records:
        writer.writerow([_cell(rec[k]) for k in RESULT_FIELDS])
    return buf.getvalue()
