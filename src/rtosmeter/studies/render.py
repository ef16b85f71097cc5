"""The study's report document in every format: terminal (rich), Markdown,
HTML (templates/study.html.j2) and JSON. Each renders the same sections
and cells, so a figure reads the same in all four."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from rtosmeter.reports.document.cells import Cell, Section, Value
from rtosmeter.studies.report import StudyDocument

SUFFIX = {"terminal": ".txt", "markdown": ".md", "html": ".html", "json": ".json"}


def terminal(doc: StudyDocument, width: int = 160) -> str:
    from rich.console import Console
    from rich.text import Text

    from rtosmeter.reports.table import _table, terminal_width

    console = Console(record=True, width=width or terminal_width(), no_color=True,
                      file=io.StringIO())
    console.print(Text(doc.title, style="bold"))
    console.print(Text(doc.headline, style="bold"))
    for sec in doc.sections:
        console.print()
        console.print(Text(sec.title, style="bold"))
        console.print(_table(sec))
        for note in sec.notes:
            console.print(Text(note, style="italic"))
    for note in doc.notes:
        console.print(Text(note, style="italic"))
    return console.export_text()


def markdown(doc: StudyDocument) -> str:
    from rtosmeter.reports.markdown import table
    from rtosmeter.textsafe import markdown_safe

    parts = [f"# {markdown_safe(doc.title)}", "", f"**{markdown_safe(doc.headline)}**", "",
             markdown_safe(doc.study.summary), ""]
    parts += [table(sec) for sec in doc.sections]
    parts += [f"*{markdown_safe(n)}*\n" for n in doc.notes]
    return "\n".join(parts).rstrip("\n") + "\n"


def html(doc: StudyDocument) -> str:
    import jinja2

    from rtosmeter.reports.html import FLAG_CLASS

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent.parent / "reports" / "templates"),
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
        lstrip_blocks=True)
    env.globals["flag_class"] = FLAG_CLASS
    return env.get_template("study.html.j2").render(doc=doc)


def _cell(value: Value) -> dict[str, str]:
    cell = value if isinstance(value, Cell) else Cell(value)
    return {"text": cell.text, "sub": cell.sub, "flag": cell.flag}


def _section(sec: Section) -> dict[str, Any]:
    return {"title": sec.title, "headers": sec.headers,
            "rows": [[_cell(v) for v in row] for row in sec.rows], "notes": sec.notes}


def as_json(doc: StudyDocument) -> dict[str, Any]:
    return {
        "schema": "rtosmeter-study", "study": doc.study.name, "title": doc.title,
        "headline": doc.headline, "runs": doc.runs,
        "verdicts": [{"finding": v.finding.id, "target": v.target, "verdict": v.verdict,
                      "paper": v.paper, "ours": v.ours, "ratio_error": v.error,
                      "cause": v.finding.cause, "confirmation": v.confirmation,
                      "rerun": v.rerun.verdict if v.rerun else None} for v in doc.verdicts],
        "sections": [_section(s) for s in doc.sections], "notes": doc.notes}


def render(doc: StudyDocument, fmt: str) -> str:
    if fmt == "terminal":
        return terminal(doc)
    if fmt == "markdown":
        return markdown(doc)
    if fmt == "html":
        return html(doc)
    return json.dumps(as_json(doc), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def first_screen(doc: StudyDocument) -> str:
    """What `study run` ends with: the headline, then each finding that is
    not reproduced on the primary target, in one line."""
    primary = doc.study.targets[0].name
    lines = [doc.headline]
    for v in doc.verdicts:
        if v.target != primary or v.verdict == "reproduced":
            continue
        f = v.finding
        if v.verdict == "untestable":
            lines.append(f"  {f.id} untestable: {v.ours}")
            continue
        cause = f"; cause {f.cause}: {v.confirmation}" if f.cause else f"; {v.confirmation}"
        cause += f" (rerun: {v.rerun.verdict})" if v.rerun else ""
        lines.append(f"  {f.id} differs: paper {v.paper}, ours {v.ours}{cause}")
    lines.append(f"The whole report: rtosmeter study report {doc.study.name} "
                 "[--format terminal|markdown|html|json]")
    return "\n".join(lines)
