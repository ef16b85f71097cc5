"""The report's families beyond the result records, as flat records for the
JSON report (docs/results-schema.md): idle, energy, the load view's changes
against idle and the network-stack view's against net-idle. Each list is in
the order of its coordinates, never in the order the executions finished,
so two identical runs give the same records."""

from __future__ import annotations

from typing import Any

from rtosmeter import axes
from rtosmeter.energy.view import EnergyFigure
from rtosmeter.idle.figures import IdleFigures
from rtosmeter.loads import IDLE, NET_IDLE, split
from rtosmeter.model import CaseResult, CaseStatus, RunView
from rtosmeter.reports.document.energy import SATURATED, marker
from rtosmeter.reports.document.idle import window_key
from rtosmeter.reports.document.load import Key, Paired, change
from rtosmeter.reports.document.net_load import COUNTS, stack_count, stack_loads
from rtosmeter.vocabulary import build_name

Record = dict[str, Any]


def _idle_record(system: str, coords: Record, f: IdleFigures) -> Record:
    entered = sum(f.interrupts.values())
    seconds = f.window_ns / 1e9 if f.timed and f.window_ns else None
    residency = f.residency
    return {
        "system": system, **coords, "window": f.window, "timed": f.timed,
        "time_limit": f.time_limit, "window_ns": f.window_ns, "asleep_ns": f.asleep_ns,
        "awake_ns": f.awake_ns, "asleep_pct": None if residency is None else residency * 100,
        "wakeups": f.wakeups, "wakeups_per_s": f.wakeups_per_s,
        "wake_causes": dict(sorted(f.wake_causes.items())),
        "interrupts": dict(sorted(f.interrupts.items())),
        "interrupts_per_s": entered / seconds if seconds else None,
        "instructions_awake": f.instructions_awake,
        "instructions_per_wakeup": f.instructions_per_wakeup if f.wakeups else None,
    }


def idle_records(view: RunView) -> list[Record]:
    """One record per system and window (the whole execution too)."""
    builds = {build_name(b): b for b in view.builds}
    out = []
    for system, f in view.idle:
        b = builds.get(system)
        coords = ({"port": b.port, "target": b.target, "profile": b.profile,
                   "toolchain": axes.complete(b.axes)["toolchain"]} if b is not None else
                  {"port": "", "target": "", "profile": "", "toolchain": ""})
        out.append(_idle_record(system, coords, f))
    return sorted(out, key=lambda r: (r["port"], r["target"], r["profile"], r["toolchain"],
                                      r["system"], window_key(r["window"])))


def _energy_record(f: EnergyFigure) -> Record:
    edge = f.by_stream
    return {
        "port": f.port, "target": f.target, "profile": f.profile, "load": f.load,
        "window": f.window, "kind": f.kind, "chip": f.chip, "marker": marker(f),
        "label": f.label, "saturated": f.saturated,
        "saturated_marker": SATURATED if f.saturated else "",
        "duration_s": f.duration_s, "energy_uj": f.energy_uj, "average_mw": f.average_mw,
        "uj_per_wakeup": f.uj_per_wakeup, "wakeups": f.wakeups,
        "wakeups_per_s": f.wakeups / f.duration_s if f.wakeups is not None and f.duration_s
        else None,
        "asleep_pct": None if f.residency is None else f.residency * 100,
        "battery_days": f.battery_days, "duty_cycle": f.duty_cycle,
        "by_stream": None if edge is None else {"edge_s": edge[0], "low_uj": edge[1],
                                                "high_uj": edge[2]},
    }


def energy_records(view: RunView) -> list[Record]:
    """Every measured and estimated figure, with the marker shown at it."""
    return sorted((_energy_record(f) for f in view.energy),
                  key=lambda r: (r["port"], r["target"], r["profile"], r["load"], r["kind"],
                                 r["chip"], window_key(r["window"])))


def _coords(key: Key, load: str, c: CaseResult) -> Record:
    return {"port": key[0], "target": key[1], "profile": key[2], "load": load,
            "case_id": key[3], "status": c.status, "stand_in": bool(c.stand_ins)}


def _score_change(key: Key, load: str, c: CaseResult, base: CaseResult) -> Record:
    ok = c.status == CaseStatus.OK and c.score is not None and base.score is not None
    return {**_coords(key, load, c), "family": "throughput", "series": "total",
            "stand_in": bool(c.stand_ins or base.stand_ins),
            "base": base.score, "loaded": c.score,
            "change_pct": change(c.score, base.score) if ok and c.score is not None
            and base.score is not None else None, "max_change_pct": None}


def _median_changes(key: Key, load: str, c: CaseResult, base: CaseResult) -> list[Record]:
    out = []
    for b in base.distributions:
        d = next((x for x in c.distributions if x.series == b.series), None)
        ok = d is not None and c.status == CaseStatus.OK
        out.append({**_coords(key, load, c), "family": "latency", "series": b.series,
                    "base": b.p50, "loaded": d.p50 if d is not None else None,
                    "change_pct": change(d.p50, b.p50) if ok and d is not None else None,
                    "max_change_pct": change(d.max, b.max) if ok and d is not None
                    else None})
    return out


def _changes(pairs: Paired, fam: str, against: str, loads: list[str]) -> list[Record]:
    """Each loaded case's change against the same case under `against`."""
    out: list[Record] = []
    for key, base in ((k, c) for (k, ld), c in pairs.by.items() if ld == against):
        for c in (pairs.by[(key, ld)] for ld in loads if (key, ld) in pairs.by):
            load = split(c.profile)[1]
            out += ([_score_change(key, load, c, base)] if fam == "throughput"
                    else _median_changes(key, load, c, base))
    return out


def _order(r: Record) -> tuple[str, ...]:
    return (r["port"], r["target"], r["profile"], r["case_id"], r["series"], r["load"])


def load_records(view: RunView) -> list[Record]:
    """The load view: every figure of a loaded build against the same case
    idle (Thread-Metric's count per period, each latency series' median)."""
    out: list[Record] = []
    for target in sorted({c.target for c in view.cases}):
        for fam in ("throughput", "latency"):
            pairs = Paired(view, target, fam)
            out += _changes(pairs, fam, IDLE, pairs.loads)
    return sorted(out, key=_order)


def _means(changes: list[Record]) -> list[Record]:
    """Per port and stack load, the mean change over its tests (the study's PD)."""
    by: dict[tuple[str, str, str, str], list[Record]] = {}
    for r in changes:
        if r["change_pct"] is not None:
            by.setdefault((r["port"], r["target"], r["profile"], r["load"]), []).append(r)
    return [{"port": p, "target": t, "profile": pr, "load": ld, "tests": len(rs),
             "mean_change_pct": sum(r["change_pct"] for r in rs) / len(rs),
             "stand_in": any(r["stand_in"] for r in rs)}
            for (p, t, pr, ld), rs in sorted(by.items())]


def _stack_counts(view: RunView) -> list[Record]:
    builds: dict[tuple[str, str, str], list[CaseResult]] = {}
    for c in view.cases:
        if "net.sent" in c.meta:
            builds.setdefault((c.port, c.target, split(c.profile)[1]), []).append(c)
    return [{"port": p, "target": t, "load": ld, **{n: stack_count(cs, n) for n in COUNTS},
             "cases": len(cs),
             "matching": sum(1 for c in cs if c.status != CaseStatus.FAILED)}
            for (p, t, ld), cs in sorted(builds.items())]


def net_load_records(view: RunView) -> Record:
    """The network-stack view: Thread-Metric against net-idle, the mean per
    port and load, and the stack's counts per build (META net.*)."""
    changes: list[Record] = []
    for target in sorted({c.target for c in view.cases}):
        pairs = Paired(view, target, "throughput")
        loads = stack_loads(pairs.loads)
        if NET_IDLE in pairs.loads and loads:
            changes += _changes(pairs, "throughput", NET_IDLE, loads)
    changes.sort(key=_order)
    return {"against_net_idle": changes, "means": _means(changes),
            "counts": _stack_counts(view)}
