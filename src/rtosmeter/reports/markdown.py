"""Markdown report: the comparison as GitHub tables (every series, not the
terminal's subset), then the full per-series statistics."""

from __future__ import annotations

from rtosmeter.model import FAIL_MARK, RunView
from rtosmeter.reports._common import (
    Cell,
    Section,
    Value,
    answer_sections,
    sections,
    statistics_sections,
    title,
)
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


def render(view: RunView) -> str:
    parts = [f"# {_escape(title(view))}", ""]
    host = ", ".join(f"{k}: {v}" for k, v in sorted(view.host.items()))
    if host:
        parts += [f"Host: {_escape(host)}", ""]
    parts += [table(sec) for sec in answer_sections(view)]  # the answer first
    secs = sections(view, compact=False)
    if not secs:
        parts.append("No results stored for this run.\n")
    parts += [table(sec) for sec in secs]
    stats = statistics_sections(view)
    if stats:
        parts += ["# Full statistics", ""] + [table(sec) for sec in stats]
    return "\n".join(parts).rstrip("\n") + "\n"
