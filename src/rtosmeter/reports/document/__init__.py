"""The report document: built once from the analysed run, rendered by
every format (reports/table.py, markdown.py, csv.py, json.py, html.py).

It is format-neutral: sections (`cells.Section`, titled tables of cells
with a class and the marks † ‡ ⚠ ✗), charts (SVG), matrices and notes.
The answer comes first; then the comparison, target by target and family
by family (throughput, checks, latency, interrupts, overhead, footprint),
then what did not run or failed; the full statistics; the flat records of
docs/results-schema.md. The page (`Document.page`: columns with colours,
per-case distributions and charts, the configuration side by side) is
built on first use, so the text formats never draw a chart.

A view is another reading of the same document (`rtosmeter report
--view NAME`): `load` (behaviour under load, the application benchmarks),
`thread-metric` (each tm.* test relative to the slowest and to the
best system, as Thread-Metric results are quoted) and `energy` (estimated
and measured energy, also in the report's comparison).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from rtosmeter import __version__
from rtosmeter.analysis import not_run_here
from rtosmeter.errors import UserError
from rtosmeter.model import RunView
from rtosmeter.reports import REPORT
from rtosmeter.reports.document import energy, load, net_load
from rtosmeter.reports.document.answer import Answer, answers
from rtosmeter.reports.document.answer_text import answer_sections
from rtosmeter.reports.document.cases import LatencyCase, page_latency
from rtosmeter.reports.document.cells import Cell, Chart, Section, anchor, title
from rtosmeter.reports.document.checks import (
    checks_section,
    interrupt_section,
    overhead_section,
)
from rtosmeter.reports.document.footprint import footprint_section, page_footprint, ram_section
from rtosmeter.reports.document.glance import Glance, glance
from rtosmeter.reports.document.idle import idle_section
from rtosmeter.reports.document.latency import latency_sections
from rtosmeter.reports.document.listing import (
    campaign,
    case_ids,
    configuration,
    errors_section,
    facts,
    failures_section,
    interrupts_not_run,
    not_run_section,
    notices,
    summary,
    unsupported_section,
    warnings_section,
)
from rtosmeter.reports.document.records import records
from rtosmeter.reports.document.statistics import statistics_sections
from rtosmeter.reports.document.systems import Column, columns
from rtosmeter.reports.document.throughput import (
    ThroughputGroup,
    page_groups,
    relative_sections,
    throughput_section,
)

VIEWS = (REPORT, "load", "thread-metric", "energy")


@dataclass
class View:
    """Another reading of the report: a titled list of sections."""

    heading: str  # after the run's title
    sections: list[Section]
    empty: str  # said when there is no section


@dataclass
class Target:
    """The comparison on one target, family by family."""

    target: str
    throughput: Section | None
    checks: Section | None
    latency: list[Section]
    interrupts: Section | None
    overhead: Section | None
    footprint: Section | None
    ram: Section | None  # RAM by part: what the answer's RAM row compares

    @property
    def sections(self) -> list[Section]:
        found = [self.throughput, self.checks, *self.latency, self.interrupts, self.overhead,
                 self.footprint, self.ram]
        return [s for s in found if s is not None]


def _target(view: RunView, target: str) -> Target:
    return Target(target, throughput_section(view, target), checks_section(view, target),
                  latency_sections(view, target), interrupt_section(view, target),
                  overhead_section(view, target), footprint_section(view, target),
                  ram_section(view, target))


@dataclass
class Block:
    """A comparison section on the page, titled by its target (the page's
    section says what it is; the section's own title is the caption)."""

    title: str
    anchor: str
    table: Section
    notes: list[str]


def _blocks(targets: list[Target], part: str) -> list[Block]:
    out = []
    for t in targets:
        sec: Section | None = getattr(t, part)
        if sec is not None:
            out.append(Block(t.target, anchor(f"{sec.title.split(' on ')[0]}-{t.target}"),
                             sec, sec.notes))
    return out


@dataclass
class Page:
    """What a format with room shows beyond the comparison tables (HTML;
    Markdown takes its charts)."""

    heading: str
    columns: list[Column]
    summary: Section
    facts: list[tuple[str, str]]
    notices: list[str]
    throughput: list[ThroughputGroup]
    latency: list[LatencyCase]
    unsupported_by_all: list[str]
    footprint_charts: list[Chart]
    footprint: Section | None
    ram_breakdown: list[Section]  # per target: RAM by part
    config: Section
    config_differs: int
    runner: Section
    environment: Section
    checks: list[Block]
    interrupts: list[Block]
    interrupts_not_run: list[tuple[str, str, str, str]]
    overhead: list[Block]
    not_run_here: list[tuple[str, str, str]] = field(default_factory=list)
    tool_version: str = __version__
    glance_charts: dict[str, list[Chart]] = field(default_factory=dict)  # target -> charts

    @property
    def charts(self) -> list[Chart]:
        out = [c for cs in self.glance_charts.values() for c in cs]
        out += [c for g in self.throughput for c in g.charts]
        out += [c for case in self.latency for c in case.charts]
        return out + self.footprint_charts


@dataclass
class Document:
    """The report of one run, for every format to render."""

    view: RunView  # the analysed run, for the formats that dump it (JSON)
    title: str
    host: str
    answers: list[Answer]
    answer: list[Section]
    targets: list[Target]
    warnings: Section | None
    apart: list[Section]  # what did not run or failed, after the comparison
    statistics: list[Section]
    records: list[dict[str, Any]]
    views: dict[str, View]  # the views other than the report itself
    idle: Section | None = None  # sleep residency and wake-ups (docs/idle.md)
    energy: list[Section] = field(default_factory=list)  # measured and estimated, per target
    glances: list[Glance] = field(default_factory=list)  # the first screen, per target

    @property
    def comparison(self) -> list[Section]:
        """Target by target, the energy, then warnings and what did not run or failed."""
        return [s for t in self.targets for s in t.sections] + self.energy + self.apart

    def view_named(self, name: str) -> View:
        """The view `name` (not the report itself, which each format lays
        out); an unknown name lists the valid ones."""
        if name not in self.views:
            raise UserError(f"unknown report view {name!r}", "--view",
                            f"Use one of: {', '.join(VIEWS)}")
        return self.views[name]

    @cached_property
    def page(self) -> Page:
        """Built on first use: it draws the charts (matplotlib)."""
        from rtosmeter import charts

        charts.reset_ids()  # the same run gives the same bytes
        from rtosmeter.reports.document.glance import charts as glance_charts

        drawn = {g.target: glance_charts(g) for g in self.glances}
        view = self.view
        cols = columns(view)
        ids = case_ids(view)
        throughput = page_groups(view, cols, ids)
        latency, nobody = page_latency(view, cols)
        fp_charts, fp_table = page_footprint(view, cols)
        config, differs, runner = configuration(view, cols)
        name = campaign(view)
        order = [self.by_target[t] for t in dict.fromkeys(c.target for c in view.cases)]
        return Page(
            heading=f"rtosmeter run #{view.run_id}" + (f" — {name}" if name else ""),
            columns=cols, summary=summary(view, cols), facts=facts(view, cols),
            notices=notices(cols), throughput=throughput, latency=latency,
            unsupported_by_all=nobody, footprint_charts=fp_charts, footprint=fp_table,
            ram_breakdown=[t.ram for t in order if t.ram is not None],
            config=config, config_differs=differs, runner=runner,
            environment=Section("", ["", "value"], [[k, Cell(str(v))] for k, v in
                                                    view.host.items()]),
            checks=_blocks(order, "checks"), interrupts=_blocks(order, "interrupts"),
            interrupts_not_run=interrupts_not_run(view, cols),
            overhead=_blocks(order, "overhead"), not_run_here=not_run_here(view),
            glance_charts=drawn)

    @property
    def by_target(self) -> dict[str, Target]:
        return {t.target: t for t in self.targets}


def build(view: RunView) -> Document:
    """The document of the analysed run `view`."""
    found = answers(view)
    names = sorted({c.target for c in view.cases})
    names += sorted({f.target for f in view.footprints} - set(names))
    warnings = warnings_section(view)
    idle = idle_section(view)
    apart = [s for s in (idle, warnings, unsupported_section(view), failures_section(view),
                         not_run_section(view), errors_section(view)) if s is not None]
    host = ", ".join(f"{k}: {v}" for k, v in sorted(view.host.items()))
    doc = Document(view, title(view), host, found, answer_sections(found),
                   [_target(view, t) for t in names], warnings, apart,
                   statistics_sections(view), records(view), {}, idle,
                   energy.sections(view), [glance(view, a) for a in found])
    doc.views = {
        "load": View("under load and application benchmarks",
                     load.sections(view) + net_load.sections(view), load.EMPTY),
        "thread-metric": View("Thread-Metric, relative", relative_sections(view),
                              "No Thread-Metric (tm.*) result in this run."),
        "energy": View("energy: estimated and measured", doc.energy, energy.EMPTY),
    }
    return doc


def of(source: RunView | Document) -> Document:
    """A document, built from the run unless it is one already."""
    return source if isinstance(source, Document) else build(source)
