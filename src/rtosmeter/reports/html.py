"""The self-contained HTML report of one run: the report document
(reports/document) rendered by the Jinja2 template `templates/report.html.j2`;
a comparison, a study or a breakdown (`Sheet`) by `templates/sheet.html.j2`.

The page needs no network: styles are inline and every chart is inline SVG
(the document's charts, drawn by `charts.py` from statistics). Everything
taken from the run (case IDs, port names, configuration values, reasons) is
escaped by Jinja2's autoescape; the only markup inserted unescaped is the
SVG matplotlib wrote, which escapes its text itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import jinja2

from rtosmeter.model import RunView
from rtosmeter.reports import document
from rtosmeter.reports.document import Document
from rtosmeter.reports.document.cases import BOX_LEGEND, STATS_UNFOLDED
from rtosmeter.reports.document.glance import EMULATED
from rtosmeter.reports.document.listing import ISR_NOTE
from rtosmeter.reports.document.sheet import Sheet
from rtosmeter.safe_write import write_text
from rtosmeter.textsafe import html_safe

SUFFIX = ".html"

# The shared cell's flag as an HTML class (kind is one already).
FLAG_CLASS = {"": "", "fail": "failed", "dim": "dim", "best": "best", "worse": "failed",
              "better": "best"}


def environment() -> jinja2.Environment:
    """The one Jinja2 environment of every page rtosmeter writes (the run's
    report, a comparison, a study, a breakdown, the published site)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
        autoescape=True,  # every name from the run is data, never markup
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=html_safe,  # no bidi override or ESC from the run reaches the page
    )
    env.globals["flag_class"] = FLAG_CLASS
    return env


def render(source: RunView | Document | Sheet, explain: Mapping[str, str] | None = None
           ) -> str:
    """The report as one self-contained HTML page; `explain`: case id -> the
    link to its per-function page (reports/_explain_pages.py)."""
    if isinstance(source, Sheet):
        return environment().get_template("sheet.html.j2").render(doc=source)
    doc = document.of(source)
    return environment().get_template("report.html.j2").render(
        doc=doc, r=doc.page, box_legend=BOX_LEGEND, isr_note=ISR_NOTE,
        stats_unfolded=STATS_UNFOLDED, explain=explain or {}, emulated=EMULATED)


def write(source: RunView | Document | Sheet, path: Path,
          explain: Mapping[str, str] | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, render(source, explain))
    return path
