"""Markdown report: the comparison as GitHub tables (every series, not the
terminal's subset), then the full per-series statistics."""

from __future__ import annotations

from pathlib import Path

from rtosmeter.model import FAIL_MARK, RunView
from rtosmeter.reports import REPORT, document
from rtosmeter.reports.document import Document
from rtosmeter.reports.document.cases import BOX_LEGEND
from rtosmeter.reports.document.cells import Cell, Chart, Section, Value
from rtosmeter.reports.document.glance import EMULATED
from rtosmeter.reports.document.sheet import Sheet
from rtosmeter.safe_write import write_text
from rtosmeter.textsafe import markdown_safe

SUFFIX = ".md"


_escape = markdown_safe


def _cell(value: Value) -> str:
    if isinstance(value, str):
        return _escape(value)
    cell: Cell = value
    text = _escape(cell.text)
    if cell.flag == "fail":
        text = f"{FAIL_MARK} {text}"
    elif cell.flag == "dim" and text:
        text = f"*{text}*"
    elif cell.flag == "worse":
        text = f"**{text}**"
    return text + (f" <sub>{_escape(cell.sub)}</sub>" if cell.sub else "")


def table(sec: Section) -> str:
    align = ["---:" if sec.numeric and i >= sec.numeric else ":---"
             for i in range(len(sec.headers))]
    lines = [f"## {_escape(sec.title)}", "",
             "| " + " | ".join(_escape(h) for h in sec.headers) + " |",
             "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in sec.rows]
    lines += [""] + [f"*{_escape(n)}*\n" for n in sec.notes]
    return "\n".join(lines)


def _view(doc: Document, name: str) -> str:
    v = doc.view_named(name)
    parts = [f"# {_escape(doc.title)}: {_escape(v.heading)}", ""]
    if not v.sections:
        parts.append(v.empty + "\n")
    parts += [table(sec) for sec in v.sections]
    return "\n".join(parts).rstrip("\n") + "\n"


def _sheet(sheet: Sheet) -> str:
    """A comparison, a study or a breakdown: the headline in bold, its
    sentences, its tables, its notes (the charts are the HTML page's)."""
    parts = [f"# {_escape(sheet.title)}", ""]
    parts += [(f"**{_escape(line)}**" if i == 0 else _escape(line)) + "\n"
              for i, line in enumerate(sheet.lead)]
    parts += [table(sec) for sec in sheet.sections]
    parts += [f"*{_escape(n)}*\n" for n in sheet.notes]
    return "\n".join(parts).rstrip("\n") + "\n"


def render(source: RunView | Document | Sheet, view: str = REPORT) -> str:
    """The report: the answer first, the comparison, the full statistics
    (or another view of the report)."""
    if isinstance(source, Sheet):
        return _sheet(source)
    doc = document.of(source)
    if view != REPORT:
        return _view(doc, view)
    parts = [f"# {_escape(doc.title)}", ""]
    if doc.host:
        parts += [f"Host: {_escape(doc.host)}", ""]
    for g in doc.glances:  # the answer first: a sentence per family, then its figures
        parts += [f"## At a glance: {_escape(g.target)}", ""]
        parts += [f"*{_escape(line)}*\n" for line in ([EMULATED] if g.emulated else [])
                  + ([g.no_rtos] if g.no_rtos else [])]
        parts += [f"- {_escape(g.sentence(f))}" for f in g.families] + [""]
    parts += [table(sec) for sec in doc.answer]
    if not doc.comparison:
        parts.append("No results stored for this run.\n")
    parts += [table(sec) for sec in doc.comparison]
    if doc.statistics:
        parts += ["# Full statistics", ""] + [table(sec) for sec in doc.statistics]
    return "\n".join(parts).rstrip("\n") + "\n"


def write(source: RunView | Document, out_dir: Path, name: str = "report.md") -> Path:
    """The report followed by its charts, as SVG files in
    `out_dir/charts/run-<id>/` linked with relative paths, so the page
    renders with its images on GitHub. The run's folder is emptied first:
    no stale chart stays."""
    from rtosmeter import charts

    doc = document.of(source)
    folder = f"charts/run-{doc.view.run_id}"
    chart_dir = out_dir / folder
    if chart_dir.is_dir():
        for old in chart_dir.glob("*.svg"):
            old.unlink()
    chart_dir.mkdir(parents=True, exist_ok=True)
    lines = [render(doc).rstrip("\n"), "", "## Charts", "",
             f"Latency charts: {BOX_LEGEND}", ""]
    page = doc.page
    groups: list[tuple[str, list[Chart]]] = [
        (_escape(f"At a glance: {target}"), found) for target, found in page.glance_charts.items()]
    groups += [(_escape(f"Throughput, {g.title}"), g.charts) for g in page.throughput]
    groups += [(_escape(c.case_id), c.charts) for c in page.latency]
    if page.footprint_charts:
        groups.append(("Footprint", page.footprint_charts))
    for heading, chart_list in groups:
        if not chart_list:
            continue
        lines += [f"### {heading}", ""]
        for chart in chart_list:
            file = f"{chart.name}.svg"
            charts.save(chart.svg, str(chart_dir / file))
            lines += [f"![{_escape(chart.title)}]({folder}/{file})", ""]
    path = out_dir / name
    write_text(path, "\n".join(lines).rstrip("\n") + "\n")
    return path
