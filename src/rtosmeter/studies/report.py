"""The study's report document: sections of cells (reports/document/cells)
that every report format renders (`sheet`: reports/table.py, markdown.py,
csv.py, json.py, html.py): the headline verdicts, the study's conditions
beside ours, the systems, the operations' cases, each of the study's tables
re-rendered, the findings with verdict and cause, notes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rtosmeter.model import RunView
from rtosmeter.reports.document.cells import Cell, Section
from rtosmeter.reports.document.sheet import Sheet
from rtosmeter.store import Store
from rtosmeter.studies import tables
from rtosmeter.studies.figures import Lookup, legend
from rtosmeter.studies.limits import emulation_limit
from rtosmeter.studies.model import Study
from rtosmeter.studies.run import (
    RERUN_INFIX,
    UNIT_INFIX,
    as_run,
    campaign_name,
    latest_runs,
    port_of,
)
from rtosmeter.studies.verdicts import (
    DIFFERS,
    REPRODUCED,
    TRIED,
    UNTESTABLE,
    VERDICTS,
    Verdict,
    headline,
    judge,
)

VERDICT_FLAG = {REPRODUCED: "best", DIFFERS: "fail"}
EMULATION_NOTE = (
    "Under QEMU -icount every figure of ours counts instructions: the study's board adds "
    "flash wait states, bus and pipeline effects that an instruction count cannot show. "
    "Estimated µs are our count ÷ the study's clock (one instruction per cycle), labelled "
    "estimated; they are never a measurement.")


@dataclass
class StudyDocument:
    study: Study
    title: str
    headline: str
    runs: dict[str, int]
    sections: list[Section]
    verdicts: list[Verdict]
    notes: list[str] = field(default_factory=list)


def _headline(study: Study, verdicts: list[Verdict]) -> str:
    h = headline(study, verdicts)
    return (f"{study.name}: {h.reproduced} of {h.findings} findings reproduced on "
            f"{study.targets[0].name} ({h.text()})")


def answered_line(study: Study, verdicts: list[Verdict]) -> str:
    """The share a run here answers: of the testable findings (neither
    untestable nor trivial), those reproduced or with a confirmed cause."""
    h = headline(study, verdicts)
    share = f" ({h.answered / h.testable:.0%})" if h.testable else ""
    return (f"Of the {h.testable} testable findings, {h.answered} are reproduced or differ by "
            f"a cause a rerun confirms{share}.")


def verdict_section(study: Study, verdicts: list[Verdict]) -> Section:
    sec = Section("Verdicts per target", ["target", *VERDICTS, "findings"], numeric=1)
    for t in study.targets:
        mine = [v for v in verdicts if v.target == t.name]
        counts = [sum(v.verdict == k for v in mine) for k in VERDICTS]
        sec.add([t.name, *(Cell(str(n)) for n in counts), Cell(str(len(mine)))])
    return sec


def conditions_section(study: Study, view: RunView | None) -> Section:
    sec = Section("The study's conditions and ours", ["condition", "the study", "ours"])
    ours = _our_conditions(study, view)
    for key, text in study.conditions.items():
        sec.add([key, text, ours.get(key, "")])
    return sec


def _our_conditions(study: Study, view: RunView | None) -> dict[str, str]:
    """Ours, as the run's builds record them (each value once)."""
    builds = [b for b in view.builds if b.status == "ok"] if view else []

    def seen(key: str, fmt: str = "{}") -> str:
        """Each value once; where they differ, the builds of each."""
        by: dict[str, list[str]] = {}
        for b in builds:
            if value := b.config.get(key, ""):
                by.setdefault(value, []).append(f"{b.port}/{b.profile}")
        if len(by) == 1:
            return fmt.format(next(iter(by)))
        return "; ".join(f"{fmt.format(v)} ({', '.join(who)})" for v, who in by.items())

    return {"compiler": seen("compiler_version") or "(no build stored)",
            "optimisation": seen("opt_flags", "{} (profile intent: speed)"),
            "tick_hz": seen("tick_hz", "{} Hz"),
            "measurement": seen("unit") + (f"; Thread-Metric periods of "
                                           f"{seen('tm_period_ms', '{} ms')} x "
                                           f"{seen('tm_periods')}" if _thread_metric(study)
                                           else ""),
            "kernel": "each port's configuration of its profile (ports/NAME/), recorded "
                      "per build: `rtosmeter report RUN --out OUT` shows it"}


def _thread_metric(study: Study) -> bool:
    """Whether the study reads Thread-Metric counts (its periods matter)."""
    return any(c.startswith("tm.") for o in study.operations for c in o.cases)


def systems_section(study: Study, view: RunView | None) -> Section:
    sec = Section("Systems: the study's version and ours",
                  ["system", "the study", "ours", "note"])
    # the version of a port's builds that ran (a skipped build has none)
    versions = {b.port: b.config["rtos_version"] for b in (view.builds if view else [])
                if b.config.get("rtos_version")}
    for s in study.systems:
        port = port_of(s)
        ours = f"{port} {versions.get(port, '')}".strip() if s.port else "-"
        prof = f", profile {s.profile}" if s.profile else ""
        # one line per reason: a target's builds under several loads share it
        skipped = list(dict.fromkeys(
            f"not run here: {b.target}: {b.error}" for b in (view.builds if view else [])
            if b.port == port and b.status in ("skipped", "unsupported")))
        note = "; ".join([s.unavailable or s.nearest, *skipped]).strip("; ")
        sec.add([s.label, s.version, Cell(ours + prof, flag="dim" if not s.runnable else ""),
                 note])
    return sec


def operations_section(study: Study) -> Section:
    sec = Section("Operations: the study's, as rtosmeter cases",
                  ["operation", "the paper's name", "case", "series", "why"])
    for o in study.operations:
        sec.add([o.id, o.label, o.case or "-", o.series or "-", o.reason or o.untestable])
        for name, m in o.per_system:  # another object on this kernel
            sec.add([o.id, f"{o.label}: on {name}", m.case, m.series or "-", m.reason])
    return sec


def emulated_units(view: RunView | None) -> dict[str, str]:
    """Target -> what its emulated figures count ("instructions", "cycles"); a
    target measured on its board has none (its figures answer for themselves)."""
    units: dict[str, str] = {}
    for c in view.cases if view else []:
        for d in c.distributions:
            if d.unit.emulated:
                units.setdefault(c.target, "cycles" if "cycle" in d.unit.label else "instructions")
    for b in view.builds if view else []:  # Thread-Metric counts alone: the build's unit
        if b.status == "ok" and b.target not in units and b.config.get("unit"):
            units[b.target] = "cycles" if "cycle" in b.config["unit"] else "instructions"
    return units


def findings_section(study: Study, verdicts: list[Verdict], units: dict[str, str]
                     ) -> Section:
    sec = Section("Findings", ["finding", "source", "paper", "ours", "target", "verdict",
                               "ratio error", "cause", "confirmation",
                               "where emulation cannot answer"])
    for v in verdicts:
        f = v.finding
        verdict = v.verdict + (f" ({v.ours})" if v.verdict == UNTESTABLE else "")
        shown = v.confirmation.startswith(TRIED)  # the rerun's figures are in it
        again = f"; rerun: {v.rerun.verdict} ({v.rerun.ours})" if v.rerun and not shown else ""
        cause = f"{f.cause}: {f.cause_text}" if f.cause else ""
        cause += f" (the paper: {f.quote})" if f.quote else ""
        cause += f" (the paper, stating no mechanism: {f.citation})" if f.citation else ""
        sec.add([f"{f.id} {f.text}", f.source, v.paper,
                 v.ours if v.verdict != UNTESTABLE else "-", v.target,
                 Cell(verdict, flag=VERDICT_FLAG.get(v.verdict, "dim")),
                 f"{v.error * 100:+.0f} %" if v.error is not None else "-",
                 cause, v.confirmation + again,
                 emulation_limit(study, f, units.get(v.target, ""))])
    return sec


def runs_section(runs: dict[str, int]) -> Section:
    sec = Section("Runs read (the latest of each campaign in the store)", ["campaign", "run"])
    for name, run_id in sorted(runs.items()):
        sec.add([name, str(run_id)])
    return sec


def build(study: Study, store: Store) -> StudyDocument:
    """The report from the latest runs of the study in `store`."""
    from rtosmeter import analysis

    runs = latest_runs(store, study.name)
    main_id = runs.get(campaign_name(study.name))
    view = analysis.load_run(store, main_id) if main_id is not None else None
    study = as_run(study, {b.port for b in view.builds} if view else set())
    units = {unit: Lookup(study, analysis.load_run(store, rid), unit=unit)
             for name, rid in runs.items() if UNIT_INFIX in name
             for unit in (name.split(UNIT_INFIX, 1)[1],)}
    main = Lookup(study, view, units=units)
    reruns = {name.split(RERUN_INFIX, 1)[1]: Lookup(study, analysis.load_run(store, rid),
                                                   name.split(RERUN_INFIX, 1)[1])
              for name, rid in runs.items() if RERUN_INFIX in name}
    verdicts = judge(study, main, reruns)
    secs = [verdict_section(study, verdicts), conditions_section(study, view),
            systems_section(study, view), operations_section(study)]
    for t in study.targets:
        secs += tables.sections(study, main, t.name)
    secs += [findings_section(study, verdicts, emulated_units(view)), runs_section(runs)]
    partial = [f"Run {rid} of {name} is {store.run(rid).status}, not done: the verdicts "
               "that read it rest on part of it (finish it with `study run --resume`)."
               for name, rid in sorted(runs.items()) if store.run(rid).status != "done"]
    notes = [*partial, *legend(study, view.cases if view else []), EMULATION_NOTE]
    if view is None:
        notes.insert(0, f"No run of {campaign_name(study.name)} in this store: run "
                        f"`rtosmeter study run {study.name}` first.")
    head = _headline(study, verdicts) + (" (partial: a run is not done)" if partial else "")
    return StudyDocument(study, f"{study.title} ({study.authors}, {study.year}), re-run",
                         head, runs, secs, verdicts, notes)


def _verdict_data(v: Verdict) -> dict[str, Any]:
    """One finding's verdict as JSON: what the study expected, what we measured."""
    return {"finding": v.finding.id, "target": v.target, "verdict": v.verdict,
            "expected": v.paper, "measured": v.ours, "paper": v.paper, "ours": v.ours,
            "ratio_error": v.error, "cause": v.finding.cause, "confirmation": v.confirmation,
            "rerun": v.rerun.verdict if v.rerun else None}


def sheet(doc: StudyDocument) -> Sheet:
    """The report for every format; its JSON carries the verdicts."""
    return Sheet("study", f"study-{doc.study.name}", doc.title,
                 [doc.headline, answered_line(doc.study, doc.verdicts), doc.study.summary],
                 doc.sections, doc.notes,
                 data={"study": doc.study.name, "headline": doc.headline, "runs": doc.runs,
                       "verdicts": [_verdict_data(v) for v in doc.verdicts]})


def first_screen(doc: StudyDocument) -> str:
    """What `study run` ends with: the headline, then each finding that is
    not reproduced on the primary target, in one line."""
    primary = doc.study.targets[0].name
    lines = [doc.headline, answered_line(doc.study, doc.verdicts)]
    for v in doc.verdicts:
        if v.target != primary or v.verdict == REPRODUCED:
            continue
        f = v.finding
        if v.verdict != DIFFERS:  # tie, trivial, untestable: ours says why
            lines.append(f"  {f.id} {v.verdict}: {v.ours}")
            continue
        cause = f"; cause {f.cause}: {v.confirmation}" if f.cause else f"; {v.confirmation}"
        cause += f" (rerun: {v.rerun.verdict})" if v.rerun and TRIED not in cause else ""
        lines.append(f"  {f.id} differs: paper {v.paper}, ours {v.ours}{cause}")
    lines.append(f"The whole report: rtosmeter study report {doc.study.name} "
                 "[--format table|md|csv|json|html]")
    return "\n".join(lines)
