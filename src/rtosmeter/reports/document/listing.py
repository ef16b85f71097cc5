"""What the run is and what did not run: warnings, unsupported cases,
failures, combinations not run here, errors (every format); and for the
page, the facts, the per-system summary and the configuration side by side."""

from __future__ import annotations

from collections import Counter, defaultdict

from rtosmeter.analysis import not_run_here
from rtosmeter.model import FAIL_MARK, WARN_MARK, CaseStatus, RunView
from rtosmeter.reports.document.answer import is_identity
from rtosmeter.reports.document.cells import Cell, Section
from rtosmeter.reports.document.systems import BuildKey, Column, key_of, system_of
from rtosmeter.vocabulary import CALIB_CASE, family, is_interrupt_rate, system


def unsupported_section(view: RunView) -> Section | None:
    """One compact list per system: each reason once, with the cases it covers."""
    grouped: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for c in view.cases:
        if c.status == CaseStatus.UNSUPPORTED:
            grouped[system(c)][c.reason or "no reason given"].append(c.case_id)
    if not grouped:
        return None
    sec = Section("Unsupported cases (the port lacks what they need; never a number)",
                  ["system", "reason", "cases"])
    for key in sorted(grouped):
        reasons = sorted(grouped[key].items(), key=lambda rc: (-len(rc[1]), rc[0]))
        for i, (reason, ids) in enumerate(reasons):
            sec.rows.append([key if i == 0 else "", reason, ", ".join(sorted(ids))])
    return sec


def failures_section(view: RunView) -> Section | None:
    sec = Section(f"Failed cases ({FAIL_MARK} in the tables above; figures kept where there "
                  "are any)", ["system", "case", "status", "reason"])
    sec.rows = [[system(c), c.case_id, Cell(c.status, flag="fail"), c.reason]
                for c in sorted(view.cases, key=lambda c: (system(c), c.case_id))
                if c.status not in (CaseStatus.OK, CaseStatus.UNSUPPORTED)]
    return sec if sec.rows else None


def not_run_section(view: RunView) -> Section | None:
    sec = Section("Not run here (stored with the reason; not errors)",
                  ["system", "status", "reason"])
    sec.rows = [[key, status, f"not run here: {reason}"]
                for key, status, reason in not_run_here(view)]
    return sec if sec.rows else None


def errors_section(view: RunView) -> Section | None:
    sec = Section("Errors (build failures, faults, hangs, corrupt streams)", ["error"])
    sec.rows = [[Cell(e, flag="fail")] for e in view.errors]
    return sec if sec.rows else None



def warnings_section(view: RunView) -> Section | None:
    """Every warning (QEMU guest errors, outliers, thin percentiles, drift)."""
    sec = Section(f"Warnings ({WARN_MARK} at the figures: read them with care; the run did "
                  "not fail)", ["system", "case", "kind", "warning"])
    sec.rows = [[w.system, w.case_id or "(whole firmware)", w.kind, w.text]
                for w in sorted(view.warnings, key=lambda w: (w.system, w.kind, w.case_id))]
    return sec if sec.rows else None


# ---- the page's run facts, summary and configuration ------------------------------

ISR_NOTE = (
    "Emulated interrupt latency is a code-path length: QEMU charges no virtual time "
    "for exception entry and exit, so this is the number of instructions on the "
    "path, not a hardware latency."
)


def summary(view: RunView, cols: list[Column]) -> Section:
    """Per column, what ran: the comparison itself is the answer above it."""
    table = Section("", ["", "ok", "unsupported", "failed / incomplete", "checks failed",
                         "warnings"])
    warned = Counter(w.system for w in view.warnings)
    for col in cols:
        results = [c for c in view.cases if key_of(c) == col.key]
        ok = sum(r.status == CaseStatus.OK for r in results)
        unsup = sum(r.status == CaseStatus.UNSUPPORTED for r in results)
        bad = len(results) - ok - unsup
        checks = sum(not ch.ok for r in results for ch in r.checks)
        n = warned[system_of(col.key)]
        table.add([
            col.label,
            Cell(str(ok)),
            Cell(str(unsup), flag="dim" if unsup else ""),
            Cell(str(bad), flag="fail" if bad else ""),
            Cell(str(checks), flag="fail" if checks else ""),
            Cell(f"{WARN_MARK} {n}" if n else "0"),
        ])
    return table


def case_ids(view: RunView) -> list[str]:
    return list(dict.fromkeys(c.case_id for c in view.cases))


def _kind(view: RunView, cid: str) -> str:
    results = [c for c in view.cases if c.case_id == cid]
    if cid == CALIB_CASE:
        return "calibration"
    if any(family(r) == "throughput" for r in results):
        return "throughput"
    return "interrupt rate" if any(is_interrupt_rate(r) for r in results) else "latency"


def case_counts(view: RunView) -> str:
    """"42 (9 throughput, 31 latency, 1 interrupt rate, 1 calibration)"."""
    kinds = Counter(_kind(view, cid) for cid in case_ids(view))
    order = ("throughput", "latency", "interrupt rate", "calibration")
    parts = ", ".join(f"{kinds[k]} {k}" for k in order if kinds[k])
    return f"{sum(kinds.values())} ({parts})"


def campaign(view: RunView) -> str:
    return str(view.campaign.get("campaign") or view.campaign.get("name") or "")


def facts(view: RunView, cols: list[Column]) -> list[tuple[str, str]]:
    name = campaign(view)
    return [
        ("run", f"#{view.run_id}" + (f" — campaign {name}" if name else "")),
        ("status", view.status),
        ("started", view.started),
        ("finished", view.finished or "—"),
        ("ports", ", ".join(dict.fromkeys(c.key[0] for c in cols))),
        ("targets", ", ".join(dict.fromkeys(c.key[1] for c in cols))),
        ("profiles", ", ".join(dict.fromkeys(c.key[2] for c in cols))),
        ("cases", case_counts(view)),
        ("samples", f"{sum(d.n for c in view.cases for d in c.distributions):,}"),
    ]


def notices(cols: list[Column]) -> list[str]:
    out = []
    if any(c.emulated for c in cols):
        out.append("Emulated targets run under QEMU with -icount: figures are counts of "
                   "virtual-clock ticks or instructions, exact and repeatable, not "
                   "times. " + ISR_NOTE)
    if any(not c.emulated for c in cols):
        out.append("Host and board figures come from a real clock and are noisy: read "
                   "the percentiles, not only the mean.")
    return out


def _side_by_side(cols: list[Column], values: dict[BuildKey, dict[str, str]]
                  ) -> tuple[Section, int]:
    """Settings as rows, builds as columns. A setting differs when two builds
    give it different values; one only some builds report (an RTOS's own
    kernel option) is "specific", listed after the shared ones."""
    def kind(k: str) -> int:
        if is_identity(k):
            return 2
        return 1 if any(k not in values.get(c.key, {}) for c in cols) else 0

    keys = sorted({k for v in values.values() for k in v}, key=lambda k: (kind(k), k))
    table = Section("", ["", *(c.label for c in cols)])
    differs = 0
    for k in keys:
        vals = [values.get(c.key, {}).get(k) for c in cols]
        diff = len({v for v in vals if v is not None}) > 1 and not is_identity(k)
        differs += diff
        css = "differs" if diff else ("identity" if is_identity(k)
                                      else "specific" if kind(k) else "")
        table.add([k, *(Cell("—" if v is None else str(v), flag="dim" if v is None else "")
                        for v in vals)], css)
    return table, differs


def configuration(view: RunView, cols: list[Column]) -> tuple[Section, int, Section]:
    """The builds' settings side by side, how many differ, and their runners."""
    builds = {key_of(b): b for b in view.builds}
    config = {}
    runner = {}
    for c in cols:
        b = builds.get(c.key)
        if b is None:
            continue
        config[c.key] = {"build status": b.status + (f": {b.error}" if b.error else ""),
                         **{k: str(v) for k, v in b.config.items()}}
        runner[c.key] = {k: str(v) for k, v in b.runner.items()}
    table, differs = _side_by_side(cols, config)
    return table, differs, _side_by_side(cols, runner)[0]


def interrupts_not_run(view: RunView, cols: list[Column]) -> list[tuple[str, str, str, str]]:
    """(system, case, status, reason) of interrupt-rate cases without a rate."""
    label = {c.key: c.label for c in cols}
    return [(label.get(key_of(c), str(key_of(c))), c.case_id, c.status, c.reason)
            for c in view.cases if is_interrupt_rate(c) and c.status == CaseStatus.UNSUPPORTED]
