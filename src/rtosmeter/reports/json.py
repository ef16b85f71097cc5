"""JSON report: the run, its environment and configurations, and one result
object per (port, target, profile, case, series); see docs/results-schema.md."""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from typing import Any

from rtosmeter import axes
from rtosmeter.model import RunView
from rtosmeter.reports import document
from rtosmeter.reports.document import Document
from rtosmeter.reports.document.answer import sentences
from rtosmeter.reports.document.cells import Cell, Section, Value
from rtosmeter.reports.document.records import SCHEMA_VERSION
from rtosmeter.reports.document.sheet import Sheet

SUFFIX = ".json"


def _clean(value: Any) -> Any:
    """NaN and infinities are not JSON: they become null."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def data(source: RunView | Document) -> dict[str, Any]:
    """The report as one JSON value: the run, its records and its answer."""
    report = document.of(source)
    view = report.view
    doc: dict[str, Any] = _clean({
        "schema": "rtosmeter-results",
        "version": SCHEMA_VERSION,
        "run": {"id": view.run_id, "started": view.started, "finished": view.finished,
                "status": view.status, "campaign": view.campaign, "host": view.host},
        "builds": [asdict(b) for b in view.builds],
        "results": report.records,
        "checks": [{"port": c.port, "target": c.target, "profile": c.profile,
                    "toolchain": axes.complete(c.axes)["toolchain"],
                    "case_id": c.case_id, **asdict(k)} for c in view.cases for k in c.checks],
        "meta": [{"port": c.port, "target": c.target, "profile": c.profile,
                  "toolchain": axes.complete(c.axes)["toolchain"],
                  "case_id": c.case_id, "meta": c.meta} for c in view.cases if c.meta],
        "footprints": [asdict(f) for f in view.footprints],
        "errors": view.errors,
        "warnings": [asdict(w) for w in view.warnings],
        "answer": [{"target": a.target, "systems": a.systems, "sentences": sentences(a),
                    "rankings": [asdict(r) for r in a.rankings],
                    "footprint": a.footprint, "heap_bytes": a.heap,
                    "ram": {k: asdict(f) for k, f in a.ram.items()},
                    "failed": a.failed_checks, "settings_differ": dict(a.settings)}
                   for a in report.answers],
    })
    return doc


def _cell(value: Value) -> dict[str, str]:
    cell = value if isinstance(value, Cell) else Cell(value)
    return {"text": cell.text, "sub": cell.sub, "flag": cell.flag}


def _section(sec: Section) -> dict[str, Any]:
    return {"title": sec.title, "headers": sec.headers,
            "rows": [[_cell(v) for v in row] for row in sec.rows], "notes": sec.notes}


def sheet_data(sheet: Sheet) -> dict[str, Any]:
    """A comparison, a study or a breakdown as one JSON value: its figures
    (`Sheet.data`: the changes, the verdicts, the functions), then the
    tables every other format shows, cell by cell."""
    out: dict[str, Any] = _clean({"schema": f"rtosmeter-{sheet.kind}", "title": sheet.title,
                                  "lead": sheet.lead, **sheet.data})
    out["sections"] = [_section(s) for s in sheet.sections]
    out["notes"] = sheet.notes
    return out


def render(source: RunView | Document | Sheet) -> str:
    if isinstance(source, Sheet):
        return json.dumps(sheet_data(source), indent=2, ensure_ascii=False,
                          allow_nan=False) + "\n"
    return json.dumps(data(source), indent=2, allow_nan=False) + "\n"
