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
from rtosmeter.reports.document import Document, families
from rtosmeter.reports.document.answer import Answer
from rtosmeter.reports.document.answer_text import sentences
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


# The runner's last look at the guest's instruction count (the QEMU watchdog's
# poll): a sample of wall-clock time, not a figure, so identical runs differ in it.
VOLATILE_RUNNER = ("icount",)


def _toolchain(item: Any) -> str:
    return axes.complete(item.axes)["toolchain"]


def _builds(view: RunView) -> list[dict[str, Any]]:
    out = []
    for b in sorted(view.builds, key=lambda b: (b.port, b.target, b.profile, axes.order(b.axes))):
        d = asdict(b)
        d["runner"] = {k: v for k, v in sorted(b.runner.items()) if k not in VOLATILE_RUNNER}
        d["config"] = dict(sorted(b.config.items()))
        out.append(d)
    return out


def _cases(view: RunView) -> list[Any]:
    """The cases in the order of their coordinates (calib.overhead: one per group)."""
    return sorted(view.cases, key=lambda c: (c.port, c.target, c.profile, axes.order(c.axes),
                                             c.case_id, c.group))


def _result_key(r: dict[str, Any]) -> tuple[str, ...]:
    return tuple(str(r[k]) for k in ("port", "target", "profile", "toolchain", "case_id",
                                     "group", "series"))


def _keys_sorted(value: Any) -> Any:
    """Maps keyed by system or case in key order, not in the order the run's
    cases came in."""
    if isinstance(value, dict):
        return {k: _keys_sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list | tuple):
        return [_keys_sorted(v) for v in value]
    return value


def _answer(a: Answer) -> dict[str, Any]:
    return {"target": a.target, "systems": a.systems, "sentences": sentences(a),
            "rankings": [asdict(r) for r in a.rankings],
            "footprint": a.footprint, "heap_bytes": a.heap,
            "ram": {k: asdict(f) for k, f in a.ram.items()},
            "failed": a.failed_checks, "settings_differ": dict(a.settings)}


def _attribution(view: RunView) -> list[dict[str, Any]]:
    """Each attributed series with its largest functions (run --attribute)."""
    return [{"system": a.system, "case_id": a.case_id, "series": a.series, "group": a.group,
             "samples": a.samples, "total": a.total,
             "functions": [{"function": f, "instructions": i, "cycles": c, "calls": n}
                           for f, i, c, n in a.functions]}
            for a in sorted(view.attribution, key=lambda a: (a.system, a.case_id, a.group,
                                                             a.series))]


def data(source: RunView | Document) -> dict[str, Any]:
    """The report as one JSON value: the run, its records and its answer,
    every list in the order of its coordinates (docs/results-schema.md)."""
    report = document.of(source)
    view = report.view
    cases = _cases(view)
    doc: dict[str, Any] = _clean({
        "schema": "rtosmeter-results",
        "version": SCHEMA_VERSION,
        "run": {"id": view.run_id, "started": view.started, "finished": view.finished,
                "status": view.status, "campaign": view.campaign, "host": view.host},
        "builds": _builds(view),
        "results": sorted(report.records, key=_result_key),
        "checks": sorted(({"port": c.port, "target": c.target, "profile": c.profile,
                           "toolchain": _toolchain(c), "case_id": c.case_id, **asdict(k)}
                          for c in cases for k in c.checks),
                         key=lambda k: (k["port"], k["target"], k["profile"], k["toolchain"],
                                        k["case_id"], k["name"])),
        "meta": [{"port": c.port, "target": c.target, "profile": c.profile,
                  "toolchain": _toolchain(c), "group": c.group, "case_id": c.case_id,
                  "meta": dict(sorted(c.meta.items()))} for c in cases if c.meta],
        "footprints": [asdict(f) for f in sorted(
            view.footprints, key=lambda f: (f.port, f.target, f.profile, axes.order(f.axes),
                                            f.group))],
        "errors": sorted(view.errors),
        "warnings": sorted((asdict(w) for w in view.warnings),
                           key=lambda w: (w["system"], w["case_id"], w["group"], w["kind"],
                                          w["text"])),
        "answer": [{k: _keys_sorted(v) for k, v in _answer(a).items()}
                   for a in report.answers],
        "idle": families.idle_records(view),
        "energy": families.energy_records(view),
        "load": families.load_records(view),
        "net_load": families.net_load_records(view),
        "attribution": _attribution(view),
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
