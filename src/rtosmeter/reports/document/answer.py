"""The answer first: per target, who is fastest at what, by how much, and
what to read with care — computed once here, rendered by every format.

Only cases every compared system ran (status ok, a figure in the same unit)
count, so a port that ran one case cannot win by it. Two kinds of case are
kept apart from the ratio statistics, named beside them: a case where a
compared system measured a stand-in (†: another object than the case
names), and a latency series whose median is near zero for some system
(under NEAR_ZERO_COUNTS counts of its counter: one count of quantisation is
then over 10 % of the figure, so a ratio of two such medians, e.g. jitter
deviations of 0.1 and 600, measures the counter, not the kernel). Bare metal is the floor
the RTOSes are read against, not a contender: it is compared only when fewer
than two other systems are there. Ratios are geometric means of per-case
ratios (Fleming & Wallace, "How not to lie with statistics: the correct way
to summarize benchmark results", CACM 29(3), 1986), with the smallest and
largest per-case ratio and its case, so the spread is never hidden.

`answers(view)` is the model; `answer_sections` the "at a glance" table of
every format (a `Section`), `sentences(answer)` the headline lines. Adding a
row to the table (another axis) is adding a `Row` builder to `GLANCE_ROWS`.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from rtosmeter.model import (
    FAIL_MARK,
    SETTING_MARK,
    STAND_IN_MARK,
    WARN_MARK,
    BuildInfo,
    CaseResult,
    CaseStatus,
    RunView,
)
from rtosmeter.numbers import whole_or_none
from rtosmeter.reports.document.cells import Cell, Section
from rtosmeter.reports.document.ram import (
    RamFigure,
    ram_cell,
    ram_figures,
    ram_label,
    ram_sentences,
)
from rtosmeter.scores import normalise_throughput
from rtosmeter.vocabulary import CALIB_CASE, FLOOR_PORT, family, is_interrupt_rate, system

# Settings that differ between builds by nature (which port, where its tree
# lives, what ran it), not a fairness question.
IDENTITY_KEYS = frozenset({
    "port", "target", "profile", "build_dir", "caps", "groups", "source_hash", "rtos_source",
    "rtos_source_origin", "rtos_version", "rtos_commit", "build status",
    "command", "elf", "icount", "stderr", "guest_errors", "guest_error_kinds"})
HEAP_KEY = "heap_bytes"  # CFG of a port whose heap is a static array in RAM
SETTINGS_NAMED = 8  # differing settings named in the first screen
# Series that are context, not the cost of an operation (lat.jitter.periodic's
# period follows the tick rate): never in the latency ranking.
NOT_A_COST = frozenset({"period"})
NEAR_ZERO_COUNTS = 10  # a median under this many counts of its counter: no ratio


def is_identity(key: str) -> bool:
    """A setting that differs between builds by nature, not a fairness question."""
    return key in IDENTITY_KEYS or key.lower().endswith("_dir")


def label_of(key: str, keys: Iterable[str]) -> str:
    """"port/target/profile" -> "port", or "port/profile" when profiles
    differ (the text reports' column labels)."""
    port, _, profile = key.split("/", 2)
    profiles = {k.rsplit("/", 1)[1] for k in keys}
    return port if len(profiles) <= 1 else f"{port}/{profile}"


@dataclass(frozen=True)
class Lead:
    """The leader against one other system: the geometric mean of per-case
    ratios (> 1: the leader is better) and the two extremes."""

    other: str
    ratio: float
    low: tuple[float, str]  # (ratio, case) where the leader gains least (or loses)
    high: tuple[float, str]
    with_stand_ins: float | None = None  # the geo. mean with the stand-in cases, if any


@dataclass
class Ranking:
    """One family on one target over the cases every compared system ran."""

    family: str  # throughput | latency
    unit: str
    what: str  # "count per period" | "median"
    cases: list[str]  # the common cases (case id, or "case id · series")
    left_out: int  # cases some compared system did not run (or not in this unit)
    score: dict[str, float]  # system -> geo. mean % of best (throughput) or x best (latency)
    leads: list[Lead]
    # the common cases' figures: case -> system -> % of best | median
    table: dict[str, dict[str, float]] = field(default_factory=dict)
    # kept apart from the ratio statistics: stand-in cases (with their figures,
    # shown beside) and near-zero series (named)
    stand_in: dict[str, dict[str, float]] = field(default_factory=dict)
    near_zero: list[str] = field(default_factory=list)

    @property
    def leader(self) -> str:
        better = max if self.family == "throughput" else min
        return better(self.score, key=lambda k: self.score[k])


@dataclass
class Answer:
    target: str
    systems: list[str]  # the compared "port/target/profile"
    labels: dict[str, str]
    rankings: list[Ranking]
    footprint: dict[str, tuple[float, float, int]]  # system -> (flash, ram, firmwares)
    heap: dict[str, int]  # system -> heap bytes inside its RAM figure
    failed_checks: list[str]
    warnings: dict[str, int]  # system -> count
    settings: list[tuple[str, dict[str, str]]]  # differing key -> label -> value
    stand_ins: list[str]  # "system: CAP measured as ..." within the common cases
    floor_only: list[str] = field(default_factory=list)  # systems left out (bare metal)
    # with several profiles: the ports compared within each profile alone
    per_profile: list[tuple[str, list[Ranking]]] = field(default_factory=list)
    ram: dict[str, RamFigure] = field(default_factory=dict)  # system -> like-with-like RAM
    # why a family has no ranking, and the option that brings it back
    no_verdict: list[str] = field(default_factory=list)


def geometric_mean(values: Sequence[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else math.nan


def _compared(keys: list[str]) -> tuple[list[str], list[str]]:
    """(contenders, left out): bare metal is the floor, unless it is needed
    to have two systems to compare."""
    others = [k for k in keys if not k.startswith(FLOOR_PORT + "/")]
    return (others, [k for k in keys if k not in others]) if len(others) >= 2 else (keys, [])


def _ratios(table: dict[str, dict[str, float]], leader: str, other: str,
            higher_better: bool) -> dict[str, float]:
    return {case: (row[leader] / row[other] if higher_better else row[other] / row[leader])
            for case, row in table.items()}


def _leads(table: dict[str, dict[str, float]], systems: list[str], leader: str,
           higher_better: bool, apart: dict[str, dict[str, float]]) -> list[Lead]:
    out = []
    for other in systems:
        if other == leader:
            continue
        ratios = _ratios(table, leader, other, higher_better)
        low = min(ratios.items(), key=lambda kv: kv[1])
        high = max(ratios.items(), key=lambda kv: kv[1])
        with_apart = (geometric_mean([*ratios.values(),
                                      *_ratios(apart, leader, other, higher_better).values()])
                      if apart else None)
        out.append(Lead(other, geometric_mean(list(ratios.values())), (low[1], low[0]),
                        (high[1], high[0]), with_apart))
    return sorted(out, key=lambda lead: lead.ratio)


def _rank(fam: str, unit: str, rows: dict[str, dict[str, float]], all_cases: int,
          systems: list[str], stand_in: set[str], near_zero: list[str] | None = None
          ) -> Ranking | None:
    """The ranking over `rows` (the common cases), less the stand-in cases
    (kept apart, shown beside) and the near-zero series (named)."""
    table = {k: row for k, row in rows.items() if k.split(" · ")[0] not in stand_in}
    apart = {k: row for k, row in rows.items() if k not in table}
    if not table:
        return None
    higher = fam == "throughput"
    rel: dict[str, list[float]] = defaultdict(list)
    for row in table.values():
        best = max(row.values()) if higher else min(row.values())
        for k, v in row.items():
            rel[k].append(100 * v / best if higher else v / best)
    score = {k: geometric_mean(rel[k]) for k in systems}
    leader = (max if higher else min)(systems, key=lambda k: score[k])
    return Ranking(fam, unit, "count per period" if higher else "median", sorted(table),
                   all_cases - len(table) - len(apart) - len(near_zero or []), score,
                   _leads(table, systems, leader, higher, apart), table, apart,
                   sorted(near_zero or []))


def _stand_in_cases(cases: list[CaseResult], systems: list[str]) -> set[str]:
    """Cases where a compared system measured a stand-in (†)."""
    return {c.case_id for c in cases if system(c) in systems and c.stand_ins}


def _throughput(cases: list[CaseResult], systems: list[str]) -> Ranking | None:
    norm = normalise_throughput(cases)
    per: dict[str, dict[str, float]] = defaultdict(dict)
    for n in norm:  # the analysis' normalisation: counts per ms when periods differ
        if n.system in systems and n.percent_of_best > 0:
            per[n.case_id][n.system] = n.percent_of_best
    ids = {c.case_id for c in cases if family(c) == "throughput" and system(c) in systems}
    common = {cid: row for cid, row in per.items() if set(row) == set(systems)}
    unit = "count per period"
    return _rank("throughput", unit, common, len(ids), systems, _stand_in_cases(cases, systems))


def _latency(cases: list[CaseResult], systems: list[str]) -> Ranking | None:
    rows: dict[str, dict[str, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    floor: dict[str, dict[str, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    names: set[str] = set()
    for c in cases:
        if (family(c) != "latency" or c.case_id == CALIB_CASE or is_interrupt_rate(c)
                or system(c) not in systems):
            continue
        for d in c.distributions:
            if d.series in NOT_A_COST:
                continue
            names.add(f"{c.case_id} · {d.series}")
            if c.status == CaseStatus.OK and d.p50 >= 0:
                rows[d.unit.label][f"{c.case_id} · {d.series}"][system(c)] = d.p50
                floor[d.unit.label][f"{c.case_id} · {d.series}"][system(c)] = \
                    NEAR_ZERO_COUNTS * d.unit.per_tick
    best: Ranking | None = None
    for unit, table in rows.items():
        common = {k: row for k, row in table.items() if set(row) == set(systems)}
        low = sorted(k for k, row in common.items()
                     if any(v < floor[unit][k][s] for s, v in row.items()))
        r = _rank("latency", unit, {k: v for k, v in common.items() if k not in low},
                  len(names), systems, _stand_in_cases(cases, systems), low)
        if r is not None and (best is None or len(r.cases) > len(best.cases)):
            best = r
    return best


def _unit_split(cases: list[CaseResult], systems: list[str], labels: dict[str, str],
                rankings: list[Ranking]) -> list[str]:
    """Why latency has no verdict when the compared systems measured it in
    different units (the QEMU plugin's instructions beside the target's
    timer ticks), and the option that puts them in one."""
    if any(r.family == "latency" for r in rankings):
        return []
    units: dict[str, dict[str, None]] = defaultdict(dict)
    for c in cases:
        if family(c) == "latency" and system(c) in systems and c.status == CaseStatus.OK:
            for d in c.distributions:
                units[d.unit.label][system(c)] = None
    if len(units) < 2:
        return []
    parts = "; ".join(f"{', '.join(labels[k] for k in who)} in {unit}"
                      for unit, who in sorted(units.items()))
    return [f"Latency: no verdict, the compared systems measured it in different units "
            f"({parts}), so no series is in one unit for all. Rerun them in one unit: "
            f"`--unit ticks` (the target's timer, on every port) or `--unit instructions` "
            f"(the QEMU plugin's exact count, where every port's build places its counter)."]


def _footprint(view: RunView, target: str, systems: list[str]
               ) -> dict[str, tuple[float, float, int]]:
    """Median Flash and RAM over the firmwares (groups) every system built."""
    by: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
    for f in view.footprints:
        key = f"{f.port}/{f.target}/{f.profile}"
        if f.target == target and key in systems:
            by[f.group][key] = (f.flash, f.ram)
    common = [row for row in by.values() if set(row) == set(systems)]
    if not common:
        return {}

    def median(xs: list[int]) -> float:
        xs = sorted(xs)
        mid = len(xs) // 2
        return float(xs[mid]) if len(xs) % 2 else (xs[mid - 1] + xs[mid]) / 2

    return {k: (median([r[k][0] for r in common]), median([r[k][1] for r in common]),
                len(common)) for k in systems}


def heap_of(build: BuildInfo | None) -> int:
    """The heap a port reserves as a static array (CFG heap_bytes): it is in
    the RAM figure, and a setting, not the kernel's need."""
    return whole_or_none((build.config if build else {}).get(HEAP_KEY, "0")) or 0


# A value that reads as a setting (a number, on/off), not the name of an
# implementation: differing from port to port, it is still a fairness question.
_SETTING = re.compile(r"^(-?\d+(\.\d+)?|on|off|yes|no|true|false)\b", re.IGNORECASE)


def differing_settings(builds: Iterable[BuildInfo], labels: dict[str, str]
                       ) -> list[tuple[str, dict[str, str]]]:
    """Settings two compared builds give different values: those every build
    reports first. Left out: identity keys, a value that only names the
    profile, and a name that differs only from port to port (which heap a
    kernel has is what it is, not a setting of this run; a tick rate is)."""
    found = [(f"{b.port}/{b.target}/{b.profile}", b) for b in builds]
    found = [(k, b) for k, b in found if k in labels]
    keys = {k for _, b in found for k in b.config if not is_identity(k)}
    out = []
    for key in keys:
        got = {labels[k]: b.config[key] for k, b in found if key in b.config}
        per_port: dict[str, set[str]] = defaultdict(set)
        for _, b in found:
            if key in b.config:
                per_port[b.port].add(b.config[key])
        by_port_only = len(per_port) > 1 and all(len(v) == 1 for v in per_port.values())
        if (len(set(got.values())) < 2 or all(b.config.get(key) == b.profile for _, b in found)
                or (by_port_only and not all(_SETTING.match(v) for v in got.values()))):
            continue
        out.append((key, got))
    return sorted(out, key=lambda kv: (len(kv[1]) < len(found), kv[0]))


def _failed_cases(cases: list[CaseResult], labels: dict[str, str]) -> list[str]:
    """Failed checks, then cases that did not finish without a failed check."""
    failed = [f"{labels[system(c)]} {c.case_id}: {k.name.replace('_', ' ')} "
              f"(got {k.got}, want {k.want})"
              for c in cases for k in c.checks if not k.ok]
    failed += [f"{labels[system(c)]} {c.case_id}: {c.status}" + (f" ({c.reason})"
               if c.reason else "") for c in cases
               if c.status not in (CaseStatus.OK, CaseStatus.UNSUPPORTED)
               and all(k.ok for k in c.checks)]
    return failed


def _per_profile(cases: list[CaseResult], systems: list[str]
                 ) -> list[tuple[str, list[Ranking]]]:
    profiles = list(dict.fromkeys(k.rsplit("/", 1)[1] for k in systems))
    return [(p, rankings(cases, same)) for p in profiles
            if len(same := [k for k in systems if k.endswith("/" + p)]) > 1
            and len(profiles) > 1]


def answer(view: RunView, target: str) -> Answer:
    builds = {f"{b.port}/{b.target}/{b.profile}": b for b in view.builds}
    cases = [c for c in view.cases if c.target == target]
    keys = list(dict.fromkeys(sorted({system(c) for c in cases},
                                     key=lambda k: (k.startswith(FLOOR_PORT + "/"), k))))
    systems, floor = _compared(keys)
    labels = {k: label_of(k, keys) for k in keys}
    ranked = rankings(cases, systems)
    common = {c.split(" · ")[0] for r in ranked for c in [*r.cases, *r.stand_in]}
    warned: dict[str, int] = defaultdict(int)
    for w in view.warnings:
        if w.system in labels:
            warned[w.system] += 1
    stand_ins = _grouped((f"{cap} measured as {what}", labels[system(c)], c.case_id)
                         for c in cases if system(c) in systems and c.case_id in common
                         for cap, what in sorted(c.stand_ins.items()))
    return Answer(target, systems, labels, ranked, _footprint(view, target, systems),
                  {k: h for k in systems if (h := heap_of(builds.get(k)))},
                  _failed_cases(cases, labels), dict(warned),
                  differing_settings([builds[k] for k in systems if k in builds],
                                     {k: labels[k] for k in systems}),
                  stand_ins, [labels[k] for k in floor], _per_profile(cases, systems),
                  ram=ram_figures(view.footprints, target, systems),
                  no_verdict=_unit_split(cases, systems, labels, ranked))


def answers(view: RunView) -> list[Answer]:
    return [answer(view, target) for target in sorted({c.target for c in view.cases})]


def _grouped(found: Iterable[tuple[str, str, str]]) -> list[str]:
    """(what, system, case) -> "what: system, system (case, case)", one line per what."""
    by: dict[str, tuple[dict[str, None], dict[str, None]]] = {}
    for what, who, case in found:
        systems, cases = by.setdefault(what, ({}, {}))
        systems[who] = None
        cases[case] = None
    return [f"{what}: {', '.join(s)} ({', '.join(c)})" for what, (s, c) in by.items()]


def rankings(cases: list[CaseResult], systems: list[str]) -> list[Ranking]:
    return [r for r in (_throughput(cases, systems), _latency(cases, systems)) if r]


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
