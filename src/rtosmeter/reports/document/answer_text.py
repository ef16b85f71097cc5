"""The answer (answer.py) in words and as a table: `sentences(answer)` the
headline lines, `answer_sections` the "at a glance" table of every format (a
`Section`). Adding a row to the table (another axis) is adding a `Row`
builder to `GLANCE_ROWS`."""

from __future__ import annotations

import math
from collections.abc import Callable

from rtosmeter.model import FAIL_MARK, SETTING_MARK, STAND_IN_MARK, WARN_MARK
from rtosmeter.reports.document.answer import (
    HEAP_KEY,
    NEAR_ZERO_COUNTS,
    SETTINGS_NAMED,
    Answer,
    Lead,
    Ranking,
)
from rtosmeter.reports.document.cells import Cell, Section
from rtosmeter.reports.document.ram import ram_cell, ram_label, ram_sentences

# ---- words ----------------------------------------------------------------------


def ratio_text(x: float) -> str:
    return f"{x:.2f}x" if x < 10 else f"{x:.1f}x"


def _range(lead: Lead) -> str:
    (lo, lo_case), (hi, hi_case) = lead.low, lead.high
    if math.isclose(lo, hi, rel_tol=0.005):
        return f"{ratio_text(lo)} in every case"
    return f"from {ratio_text(lo)} ({lo_case}) to {ratio_text(hi)} ({hi_case})"


def ranking_sentence(r: Ranking, labels: dict[str, str]) -> str:
    leader = r.leader
    name = labels[leader]
    noun = "case" if r.family == "throughput" else "series"
    over = (f"over {len(r.cases)} {noun}{'s' if len(r.cases) != 1 and noun == 'case' else ''}"
            " every compared system ran"
            + (f" ({r.left_out} left out)" if r.left_out else ""))
    if not r.leads:
        return f"{r.family.capitalize()}: only {name} {over}."
    if r.family == "throughput":
        parts = [f"{ratio_text(lead.ratio)} the throughput of {labels[lead.other]} "
                 f"({_range(lead)})" for lead in r.leads]
        return (f"Throughput: {name} is fastest, {over}: " + "; ".join(parts)
                + ". Ratios of counts per period (per ms where periods differ), geometric mean."
                + apart_text(r, labels))
    parts = [f"{labels[lead.other]} takes {ratio_text(lead.ratio)} its median "
             f"({_range(lead)})" for lead in r.leads]
    return (f"Latency in {r.unit}: {name} is fastest, {over}: " + "; ".join(parts)
            + ". Ratios of medians, geometric mean." + apart_text(r, labels))


def apart_text(r: Ranking, labels: dict[str, str]) -> str:
    """What the ranking's ratio statistics leave out, and the mean with the
    stand-in cases beside the one without."""
    out = ""
    if r.stand_in:
        with_them = "; ".join(f"{labels[lead.other]} {ratio_text(lead.with_stand_ins)}"
                              for lead in r.leads if lead.with_stand_ins is not None)
        out += (f" {STAND_IN_MARK} Not in the mean: {', '.join(sorted(r.stand_in))} (a stand-in;"
                f" with {'it' if len(r.stand_in) == 1 else 'them'}: {with_them}).")
    if r.near_zero:
        out += (f" Not in the mean: {len(r.near_zero)} series with a median under "
                f"{NEAR_ZERO_COUNTS} counts ({', '.join(r.near_zero[:3])}"
                + (", …" if len(r.near_zero) > 3 else "") + ").")
    return out


def sentences(a: Answer) -> list[str]:
    """The headline: who is fastest at what and by how much, then the caveats."""
    return _verdicts(a) + _footprint_sentences(a) + _caveats(a)


def _verdicts(a: Answer) -> list[str]:
    out = [ranking_sentence(r, a.labels) for r in a.rankings]
    out += [f"Within profile {profile} alone: " + ranking_sentence(r, a.labels)
            for profile, rankings in a.per_profile for r in rankings]
    out += a.no_verdict
    if not a.rankings and not a.no_verdict:
        out.append("No case was run by every compared system: nothing to rank.")
    if a.floor_only:
        out.append(f"{', '.join(a.floor_only)}: the floor the RTOSes are read against, "
                   "not ranked (it runs only the cases that need no kernel).")
    return out


def _footprint_sentences(a: Answer) -> list[str]:
    out = []
    if a.footprint:
        small = min(a.footprint, key=lambda k: a.footprint[k][0])
        out.append(f"Smallest Flash: {a.labels[small]} "
                   f"({a.footprint[small][0]:,.0f} B, median over "
                   f"{a.footprint[small][2]} firmwares).")
    ram = ram_sentences(a.ram, a.labels)
    out += ram
    # Footprints stored unsplit: the heap a port reserves is named instead.
    for heap in dict.fromkeys(a.heap.values()) if not ram else ():
        who = ", ".join(a.labels[k] for k, h in a.heap.items() if h == heap)
        out.append(f"{SETTING_MARK} {who}: the RAM figure holds a {heap:,} B heap "
                   f"({HEAP_KEY}, a setting of the profile, not the kernel's need).")
    return out


def _caveats(a: Answer) -> list[str]:
    out = [f"{STAND_IN_MARK} {s}" for s in a.stand_ins]
    if a.failed_checks:
        out.append(f"{FAIL_MARK} {len(a.failed_checks)} failed: "
                   + "; ".join(a.failed_checks[:5])
                   + ("; …" if len(a.failed_checks) > 5 else "") + ".")
    if a.warnings:
        out.append(f"{WARN_MARK} Warnings: " + ", ".join(
            f"{a.labels[k]} {n}" for k, n in sorted(a.warnings.items())) + " (see Warnings).")
    if a.settings:
        named = [f"{key} ({' / '.join(f'{lbl} {v}' for lbl, v in vals.items())})"
                 for key, vals in a.settings[:SETTINGS_NAMED]]
        more = len(a.settings) - SETTINGS_NAMED
        out.append(f"{len(a.settings)} setting(s) differ between the compared builds: "
                   + "; ".join(named) + (f"; and {more} more" if more > 0 else "") + ".")
    return out


# ---- the "at a glance" table --------------------------------------------------------

Row = Callable[[Answer, str], str]
Label = str | Callable[[Answer], str]  # a row's label, or what tells it from the answer


def _score(fam: str) -> Row:
    def cell(a: Answer, k: str) -> str:
        r = next((r for r in a.rankings if r.family == fam), None)
        if r is None:
            return ""
        v = r.score[k]
        if not math.isfinite(v):  # every score 0: no share of the best
            return "-"
        return f"{v:.1f} %" if fam == "throughput" else ratio_text(v)
    return cell


def _flash(a: Answer, k: str) -> str:
    return f"{a.footprint[k][0]:,.0f}" if k in a.footprint else ""


def _ram(a: Answer, k: str) -> str:
    return ram_cell(a.ram, k, a.heap.get(k, 0))


def _failed(a: Answer, k: str) -> str:
    n = sum(1 for f in a.failed_checks if f.startswith(a.labels[k] + " "))
    return f"{FAIL_MARK} {n}" if n else "0"


def _warned(a: Answer, k: str) -> str:
    n = a.warnings.get(k, 0)
    return f"{WARN_MARK} {n}" if n else "0"


GLANCE_ROWS: list[tuple[Label, Row]] = [
    ("throughput: geo. mean % of the best (common cases; higher is better)", _score("throughput")),
    ("latency: geo. mean multiple of the lowest median (common series; lower is better)",
     _score("latency")),
    ("Flash bytes (median firmware)", _flash),
    (lambda a: ram_label(a.ram), _ram),
    ("failed checks or cases", _failed),
    ("warnings", _warned),
]


def glance_rows(a: Answer) -> list[tuple[str, list[str]]]:
    """(row label, one text per compared system) of the rows that say something."""
    out = []
    for label, row in GLANCE_ROWS:
        cells = [row(a, k) for k in a.systems]
        if any(cells):
            out.append((label if isinstance(label, str) else label(a), cells))
    return out


def answer_sections(found: list[Answer]) -> list[Section]:
    """Per target: who is fastest at what and by how much, as a table of the
    compared systems with the headline sentences as notes."""
    out = []
    for a in found:
        sec = Section(f"The answer on {a.target}", ["", *(a.labels[k] for k in a.systems)],
                      numeric=1)
        for label, cells in glance_rows(a):
            sec.add([label, *(Cell(c.removeprefix(FAIL_MARK).strip(), flag="fail")
                              if c.startswith(FAIL_MARK) else Cell(c) for c in cells)])
        sec.notes = sentences(a)
        sec.lead = len(a.rankings) + sum(len(r) for _, r in a.per_profile)
        out.append(sec)
    return out
