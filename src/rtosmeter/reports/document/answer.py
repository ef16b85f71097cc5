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

`answers(view)` is the model; answer_text.py says it in words and as the
"at a glance" table of every format.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rtosmeter.model import (
    BuildInfo,
    CaseResult,
    CaseStatus,
    RunView,
)
from rtosmeter.numbers import whole_or_none
from rtosmeter.reports.document.ram import RamFigure, ram_figures
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


Medians = dict[str, dict[str, dict[str, float]]]  # unit -> "case · series" -> system -> value


def _ranked_latency(c: CaseResult, systems: list[str]) -> bool:
    """A latency case the ranking reads: not the calibration, not a rate."""
    return (family(c) == "latency" and c.case_id != CALIB_CASE and not is_interrupt_rate(c)
            and system(c) in systems)


def _latency_medians(cases: list[CaseResult], systems: list[str]
                     ) -> tuple[Medians, Medians, set[str]]:
    """Each series' median per unit and system, the near-zero floor of each,
    and the names of every series (ranked or not)."""
    rows: Medians = defaultdict(lambda: defaultdict(dict))
    floor: Medians = defaultdict(lambda: defaultdict(dict))
    names: set[str] = set()
    for c in (c for c in cases if _ranked_latency(c, systems)):
        for d in c.distributions:
            if d.series in NOT_A_COST:
                continue
            names.add(f"{c.case_id} · {d.series}")
            if c.status == CaseStatus.OK and d.p50 >= 0:
                rows[d.unit.label][f"{c.case_id} · {d.series}"][system(c)] = d.p50
                floor[d.unit.label][f"{c.case_id} · {d.series}"][system(c)] = \
                    NEAR_ZERO_COUNTS * d.unit.per_tick
    return rows, floor, names


def _latency(cases: list[CaseResult], systems: list[str]) -> Ranking | None:
    """The ranking in the unit with the most series every system measured."""
    rows, floor, names = _latency_medians(cases, systems)
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
