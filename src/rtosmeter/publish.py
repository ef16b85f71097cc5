"""`rtosmeter publish DIR`: a static site of a store, in the spirit of asv
publish, browsable offline from the file system.

- index.html: every run (status, campaign, systems, sources), every study's
  headline (or "not run in this store"), and every case with the runs that
  hold it;
- runs/run-N.html: each run's HTML report (reports/html.py);
- cases/<case>.html: the case across runs (history.py's chart, inline SVG)
  and its figures per run (history_values.py);
- studies/<study>.html: each study's report with its verdicts.

Links are relative and nothing is fetched (inline CSS and SVG, no script,
no CDN): the folder can be copied anywhere or served as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rtosmeter import history
from rtosmeter.errors import UserError
from rtosmeter.history_values import run_values
from rtosmeter.safe_write import write_text
from rtosmeter.store import Store
from rtosmeter.textsafe import chart_name


@dataclass
class CasePage:
    case_id: str
    file: str  # relative to the site's root
    runs: list[int] = field(default_factory=list)
    # "system figure" -> run id -> text (median or count per period, with its unit)
    figures: dict[str, dict[int, str]] = field(default_factory=dict)


@dataclass
class StudyLink:
    name: str
    headline: str
    file: str  # "" when the study has no run in the store


def _figure_text(values: dict[str, object]) -> str:
    if "status" in values:
        return str(values["status"])
    value = values.get("median", values.get("score"))
    if not isinstance(value, int | float):
        return "-"
    return f"{value:,.6g} {values.get('unit', '')}".strip()


def _cases(store: Store, run_ids: list[int]) -> dict[str, CasePage]:
    pages: dict[str, CasePage] = {}
    for run_id in run_ids:
        for system, figures in run_values(store, run_id).items():
            for name, values in figures.items():
                case_id = name.split(" ", 1)[0]
                page = pages.setdefault(case_id, CasePage(
                    case_id, f"cases/{chart_name(case_id)}.html"))
                if run_id not in page.runs:
                    page.runs.append(run_id)
                page.figures.setdefault(f"{system} {name}", {})[run_id] = _figure_text(values)
    return dict(sorted(pages.items()))


def _studies(store: Store, site: Path) -> list[StudyLink]:
    from rtosmeter.catalog import load_catalog
    from rtosmeter.definitions import Definitions
    from rtosmeter.reports import html
    from rtosmeter.studies import definition
    from rtosmeter.studies.report import build, sheet
    from rtosmeter.studies.run import latest_runs

    defs = Definitions.load()
    out = []
    for study in definition.load_all(defs, load_catalog(defs.root)):
        if not latest_runs(store, study.name):
            out.append(StudyLink(study.name, f"{study.name}: not run in this store", ""))
            continue
        doc = build(study, store)
        file = f"studies/{chart_name(study.name)}.html"
        write_text(site / file, _back_link(html.render(sheet(doc)), "../index.html"), site)
        out.append(StudyLink(study.name, doc.headline, file))
    return out


def _back_link(page: str, index: str) -> str:
    """A report page of its own (run or study) with a link back to the index
    as the first thing in its body."""
    link = f'<p><a href="{index}">← all runs, cases and studies</a></p>'
    head, sep, rest = page.partition("<body>")
    return f"{head}{sep}{link}{rest}" if sep else link + page




def publish(store: Store, site: Path) -> Path:
    """Write the site into `site`; returns its index.html."""
    from rtosmeter import analysis
    from rtosmeter.reports import html

    env = html.environment()  # the report's: autoescape, nothing unsafe from the store
    runs = history.list_runs(store)
    run_ids = [r.id for r in runs if store.executions(r.id)]
    for run_id in run_ids:
        page = html.render(analysis.load_run(store, run_id))
        write_text(site / "runs" / f"run-{run_id}.html", _back_link(page, "../index.html"),
                   site)
    cases = _cases(store, run_ids)
    for case in cases.values():
        try:
            svg = history.chart(history.case_history(store, case.case_id))
        except UserError:  # no run has it ok: nothing to draw, the table says why
            svg = ""
        write_text(site / case.file, env.get_template("publish_case.html.j2").render(
            case=case, svg=svg, runs=[r for r in runs if r.id in case.runs]), site)
    studies = _studies(store, site)
    index = site / "index.html"
    write_text(index, env.get_template("publish_index.html.j2").render(
        runs=runs, reported=set(run_ids), cases=list(cases.values()), studies=studies,
        store=str(store.path)), site)
    return index
