"""Markdown report: the same sections as the terminal table, as GitHub tables."""

from __future__ import annotations

from rtosmeter.model import RunView
from rtosmeter.reports._common import Section, sections, title

SUFFIX = ".md"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(sec: Section) -> str:
    align = ["---:" if sec.numeric and i >= sec.numeric else ":---"
             for i in range(len(sec.headers))]
    lines = [f"## {sec.title}", "",
             "| " + " | ".join(_cell(h) for h in sec.headers) + " |",
             "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in sec.rows]
    lines += [""] + [f"*{n}*\n" for n in sec.notes]
    return "\n".join(lines)


def render(view: RunView) -> str:
    parts = [f"# {title(view)}", ""]
    host = ", ".join(f"{k}: {v}" for k, v in sorted(view.host.items()))
    if host:
        parts += [f"Host: {host}", ""]
    parts += [table(sec) for sec in sections(view)] or ["No results stored for this run.\n"]
    return "\n".join(parts).rstrip("\n") + "\n"
