"""A stored run -> `RunView`: statistics in their unit, checks, normalised scores.

Units (docs/protocol.md, docs/benchmarks.md "Common to every interval"): a sample is a
counter difference in ticks of the stream's timestamp (`HELLO hz`); the
runner recorded with each execution says how to read it. The rate is the
firmware's own report (`CFG ts_hz`, rtosmeter.clocks) where it gave one:

- host:                 `ns (host clock)`, 1e9 / hz ns per tick;
- QEMU with -icount N:  `instructions (QEMU icount)`; one instruction is 2**N
  virtual ns, so a tick is (1e9 / hz) / 2**N instructions (deterministic);
- QEMU without icount:  `timer ticks @<hz> (host-timed, noisy)`;
- a DWT cycle counter:  `cycles (DWT)`;
- QEMU's rmcycles plugin (plugins/qemu): the firmware's own unit,
  `instructions (QEMU, exact)` or `cycles (estimated: <model>, <cpu>, ws=<n>)`,
  one count per tick (deterministic); with a clock (`--clock 80MHz`) these
  become `µs (estimated at 80 MHz ...)`, never plain µs.

The median of the stream's `calib.overhead` series (two back-to-back
timestamp reads, cold sample excluded) is subtracted from every interval of
that stream, clamped at 0, and reported as `Distribution.overhead`; not from
a series the firmware marked `sub=0` (differences of two intervals, e.g.
irq.latency_jitter's `delta`), whose `overhead` is 0.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from rtosmeter import stats
from rtosmeter.energy.view import figures as energy_figures
from rtosmeter.errors import UserError
from rtosmeter.idle.stored import read_idle
from rtosmeter.loads import split as split_load
from rtosmeter.model import (
    NOT_MEANINGFUL,
    AttributedSeries,
    BuildInfo,
    BuildStatus,
    CaseResult,
    CaseStatus,
    Check,
    Distribution,
    Footprint,
    RunView,
    RunWarning,
    Summary,
    Unit,
)
from rtosmeter.run_warnings import case_warnings, clock_warning, exact_cases, guest_warning
from rtosmeter.sample_units import TICK_SET, stream_hz, tick_unit, unit_for
from rtosmeter.scores import add_floor_checks
from rtosmeter.store import BuildRow, ExecutionRow, Store
from rtosmeter.vocabulary import CALIB_CASE, CALIB_SERIES, build_name, system

NOT_RUN_STATUSES = (BuildStatus.UNSUPPORTED, BuildStatus.SKIPPED)  # combinations not run here


def _str_dict(d: Mapping[str, Any]) -> dict[str, str]:
    return {k: v if isinstance(v, str) else json.dumps(v, sort_keys=True) for k, v in d.items()}


def overheads(store: Store, run_id: int) -> dict[int, float]:
    """execution id -> median measurement overhead (calib.overhead) in ticks."""
    out: dict[int, float] = {}
    for execution_id, name, samples in store.case_series(run_id, CALIB_CASE):
        if name == CALIB_SERIES and samples.size:
            warm = samples[1:] if samples.size > 1 else samples
            out[execution_id] = stats.median(warm)
    return out


def subtracted(case_id: str, subtract: bool, overhead_ticks: float) -> float:
    """What to subtract from a series' samples: nothing from calib.overhead (it
    is the overhead) nor from a sub=0 series (a difference of two intervals,
    in which it cancels: docs/protocol.md)."""
    return 0.0 if case_id == CALIB_CASE or not subtract else overhead_ticks


def in_unit(samples: np.ndarray[Any, Any], unit: Unit, overhead_ticks: float
            ) -> np.ndarray[Any, Any]:
    """Raw tick samples as float values in `unit`, overhead subtracted (clamped at 0)."""
    values = samples.astype(np.float64)
    if overhead_ticks:
        values -= overhead_ticks
        np.maximum(values, 0.0, out=values)
    if unit.per_tick != 1.0:
        values *= unit.per_tick
    return values


def distribution(samples: np.ndarray[Any, Any], name: str, what: str, unit: Unit,
                 overhead_ticks: float, keep: bool = False) -> Distribution:
    """Statistics of raw tick samples, overhead subtracted, in `unit`; with
    `keep`, the warm values too."""
    values = in_unit(samples, unit, overhead_ticks)
    s = stats.summarize(values)
    return Distribution(**dataclasses.asdict(s), series=name, what=what, unit=unit,
                        overhead=overhead_ticks * unit.per_tick,
                        values=values[1:] if keep else None)


def compiler_text(config: Mapping[str, Any]) -> str:
    """"clang 14.0.6": the toolchain and the compiler's version, as a build recorded them."""
    return " ".join(str(config.get(k, "")) for k in ("toolchain", "compiler_short")
                    if config.get(k))


def _system(builds: Mapping[int, BuildRow], ex: ExecutionRow) -> str:
    b = builds.get(ex.build_id)
    return f"{build_name(b)} {ex.group}" if b else f"build {ex.build_id}"


def _execution_errors(builds: Mapping[int, BuildRow], ex: ExecutionRow) -> list[str]:
    where = _system(builds, ex)
    out = []
    if ex.status != "ok":
        out.append(f"{where}: {ex.status}" + (f": {ex.error}" if ex.error else ""))
    if ex.status != "error":  # an execution that never ran: its empty stream says no more
        out += [f"{where}: stream byte {off}: {msg}" for off, msg in ex.errors]
    return out


def _footprint(b: BuildRow, ex: ExecutionRow) -> Footprint | None:
    fp = ex.footprint
    if not fp or "flash" not in fp:
        return None
    parts: dict[str, tuple[int, int]] = {}
    try:
        for origin, value in dict(fp.get("parts", {})).items():
            if isinstance(value, Mapping):
                parts[origin] = (int(value.get("flash", 0)), int(value.get("ram", 0)))
            else:
                parts[origin] = (int(value[0]), int(value[1]))
        reserved = [(str(r["name"]), str(r["kind"]), int(r["ram"]))
                    for r in fp.get("reserved", [])]
        return Footprint(b.port, b.target, b.profile, ex.group, int(fp["flash"]),
                         int(fp.get("ram", 0)), parts, b.axes, compiler_text(b.config),
                         bool(fp.get("declared", False)), reserved)
    except (TypeError, ValueError, KeyError, IndexError):
        return None  # a footprint of another shape: extra information, not the run


def _case_results(store: Store, run_id: int, builds: Mapping[int, BuildRow],
                  execs: Mapping[int, ExecutionRow]
                  ) -> tuple[dict[int, CaseResult], dict[int, int], dict[int, dict[str, str]]]:
    """The run's cases by row, the execution of each row, and each build's
    stream CFG."""
    results: dict[int, CaseResult] = {}
    exec_of: dict[int, int] = {}
    stream_cfg: dict[int, dict[str, str]] = {}
    # A build's groups in name order, as a -j 1 run executes them, not as they
    # finished: a consumer keeping one calib.overhead per system keeps the same one.
    for row in sorted(store.cases(run_id), key=lambda r: (
            execs[r.execution_id].build_id, execs[r.execution_id].group, r.id)):
        ex = execs[row.execution_id]
        b = builds[ex.build_id]
        results[row.id] = CaseResult(b.port, b.target, b.profile, ex.group, row.case_id,
                                     row.status, row.reason, meta=dict(row.meta), axes=b.axes,
                                     compiler=compiler_text(b.config))
        exec_of[row.id] = ex.id
        stream_cfg.setdefault(ex.build_id, row.cfg)
    return results, exec_of, stream_cfg


def _add_rows(store: Store, run_id: int, results: Mapping[int, CaseResult],
              exec_of: Mapping[int, int], units: Mapping[int, Unit], keep_samples: bool,
              overhead: Mapping[int, float], tick_units: Mapping[int, Unit | None]) -> None:
    """Each case's distributions (overhead subtracted), counts and checks; a
    failed check fails its case."""
    for srow in store.iter_series(run_id):
        case = results[srow.case_row]
        ex_id = exec_of[srow.case_row]
        ticks = subtracted(case.case_id, srow.subtract, overhead.get(ex_id, 0.0))
        unit = units[ex_id]
        if (case.case_id, srow.name) in TICK_SET:
            unit = tick_units[ex_id] or unit
        case.distributions.append(
            distribution(srow.samples, srow.name, srow.what, unit, ticks, keep_samples))
    for case_row, name, _period, value in store.counts(run_id):
        results[case_row].counts.setdefault(name, []).append(value)
    for case_row, name, ok, got, want in store.checks(run_id):
        case = results[case_row]
        case.checks.append(Check(name, ok, got, want))
        if not ok and case.status == CaseStatus.OK:  # a failed property fails the case, loudly
            case.status = CaseStatus.FAILED
            case.reason = f"check {name} failed: got {got}, want {want}"


def _build_info(b: BuildRow, first: ExecutionRow | None, cfg: Mapping[str, str],
                units: Mapping[int, Unit]) -> BuildInfo:
    """One build's settings: the build's, the stream's CFG and HELLO, and
    its first execution's runner (first by group name) with the unit the figures are in."""
    # The stream's own word on the throughput period backs up the build's.
    hello = ({f"{k}_ticks" if k == "tm_period" else k: first.hello[k]
              for k in ("tm_period", "tm_periods", "tm_period_ms", "tick_hz")
              if k in first.hello} if first else {})
    # the build's word wins, but an empty value does not hide the stream's
    built = {k: v for k, v in _str_dict(b.config).items() if v or not cfg.get(k)}
    config = {**hello, **cfg, **built}
    runner = _str_dict(first.runner) if first else {}
    if first:  # the unit figures are in; the counter's own unit stays apart
        if runner.get("unit", "") not in ("", units[first.id].label):
            runner["counter_unit"] = runner["unit"]
        runner["unit"] = units[first.id].label
    return BuildInfo(b.port, b.target, b.profile, b.status, b.error, config, runner, b.axes)


def _run_warnings(builds: Mapping[int, BuildRow], execs: Mapping[int, ExecutionRow],
                  results: Mapping[int, CaseResult], exec_of: Mapping[int, int],
                  units: Mapping[int, Unit]) -> list[RunWarning]:
    """QEMU's guest errors, clock mismatches and the cases' own warnings;
    each case lists those that concern it."""
    warnings = ([w for ex in execs.values() if (w := guest_warning(builds, ex)) is not None]
                + [clock_warning(builds, ex) for ex in execs.values()
                   if ex.runner.get("clock_warning")]
                + case_warnings(results.values(), exact_cases(results, exec_of, units)))
    for case in results.values():
        case.warned = [w.text for w in warnings if w.case_id == case.case_id
                       and w.system == system(case)]
    return warnings


def load_run(store: Store, run_id: int, keep_samples: bool = False,
             clock_hz: int | None = None) -> RunView:
    """Everything reports need about one run, computed from its raw rows;
    with `keep_samples`, each distribution keeps its values (compare)."""
    run = store.run(run_id)
    builds = {b.id: b for b in store.builds(run_id)}
    execs = {e.id: e for e in store.executions(run_id)}
    units = {e.id: unit_for(e.hello, e.runner, clock_hz) for e in execs.values()}

    # A combination that cannot run here is not an error: reports list it apart
    # (not_run_here()).
    errors = [f"{build_name(b)}: build {b.status}: {b.error}"
              for b in builds.values() if b.status not in (BuildStatus.OK, *NOT_RUN_STATUSES)]
    for ex in execs.values():
        errors += _execution_errors(builds, ex)

    results, exec_of, stream_cfg = _case_results(store, run_id, builds, execs)
    tick_units = {e.id: tick_unit(e.hello, e.runner, clock_hz) for e in execs.values()}
    _add_rows(store, run_id, results, exec_of, units, keep_samples, overheads(store, run_id),
              tick_units)
    infos = [_build_info(b, min((e for e in execs.values() if e.build_id == b.id),
                                key=lambda e: (e.group, e.id), default=None),
                         stream_cfg.get(b.id, {}), units) for b in builds.values()]
    footprints = [fp for ex in execs.values()
                  if (fp := _footprint(builds[ex.build_id], ex)) is not None]
    runs_of = {row: execs[e] for row, e in exec_of.items()}
    _mark_stand_ins(results, runs_of, stream_cfg)
    _add_per_iteration(results, runs_of, units)
    _void_timings(results, runs_of, stream_cfg)
    add_floor_checks(list(results.values()))
    warnings = _run_warnings(builds, execs, results, exec_of, units)
    idle = [(build_name(builds[execs[ex].build_id]), f)
            for ex, figures in read_idle(store, run_id).items() for f in figures]
    return RunView(run.id, run.started, run.finished, run.status, dict(run.campaign),
                   _str_dict(run.host), infos, list(results.values()), footprints, errors,
                   warnings, idle, energy_figures(store, run_id),
                   _attributed(store, run_id, builds, execs))


ATTRIBUTED_SHOWN = 10  # functions per series in the summary; `explain` has them all


def _attributed(store: Store, run_id: int, builds: Mapping[int, BuildRow],
                execs: Mapping[int, ExecutionRow]) -> list[AttributedSeries]:
    """Each attributed series with its largest functions (run --attribute)."""
    by_series: dict[tuple[int, str, str], tuple[list[int], list[tuple[str, int, int | None,
                                                                     int]]]] = {}
    for ex, case_id, series, samples, fn, instructions, cycles, calls in store.attribution(
            run_id):
        by_series.setdefault((ex, case_id, series), (samples, []))[1].append(
            (fn, instructions, cycles, calls))
    out = []
    for (ex, case_id, series), (samples, functions) in by_series.items():
        largest = sorted(functions, key=lambda f: (-f[1], f[0]))[:ATTRIBUTED_SHOWN]
        out.append(AttributedSeries(build_name(builds[execs[ex].build_id]), case_id, series,
                                    execs[ex].group, len(samples), sum(samples),
                                    tuple(largest)))
    return out


STAND_IN_PREFIX = "stand_in."


def _case_needs() -> dict[str, tuple[str, ...]]:
    """Each case's capabilities, from the catalog of this checkout (empty when
    there is none: then no stand-in can be attributed)."""
    from rtosmeter.catalog import load_catalog
    from rtosmeter.definitions import project_root

    try:
        return {c.id: c.needs for c in load_catalog(project_root()).cases}
    except UserError:
        return {}


def _mark_stand_ins(results: Mapping[int, CaseResult], runs_of: Mapping[int, ExecutionRow],
                    cfg_of_build: Mapping[int, Mapping[str, str]]) -> None:
    """Attach to each case what its port measured in place of a capability
    the case needs (CFG stand_in.<CAP>, port.h; under a net-* load every
    case needs NET, the stack it runs beside), or in place of the case's
    shared body (CFG stand_in.<case id>: the port's own body, port.h)."""
    needs = _case_needs()
    for row, case in results.items():
        cfg = cfg_of_build.get(runs_of[row].build_id, {})
        named = {*needs.get(case.case_id, ()), case.case_id}
        if split_load(case.profile)[1].startswith("net-"):  # every case runs on the stack
            named.add("NET")
        case.stand_ins = {k[len(STAND_IN_PREFIX):]: v for k, v in cfg.items()
                          if k.startswith(STAND_IN_PREFIX) and k[len(STAND_IN_PREFIX):] in named}


TIMING_KEY = "timing"  # CFG: "not meaningful: <why>" voids an execution's figures


def _void_timings(results: Mapping[int, CaseResult], runs_of: Mapping[int, ExecutionRow],
                  cfg_of_build: Mapping[int, Mapping[str, str]]) -> None:
    """Cases whose stream says its clock does not measure the code (CFG
    `timing` = "not meaningful: <why>", e.g. Zephyr's native_sim) keep their
    status, series names and sample counts (functional checks), but no figure:
    every statistic is NaN (a report's "-", JSON's null), the unit says why,
    the counts per period and the per-iteration figure go."""
    for row, case in results.items():
        said = cfg_of_build.get(runs_of[row].build_id, {}).get(TIMING_KEY, "")
        if not said.startswith(NOT_MEANINGFUL):
            continue
        case.timing_void = said[len(NOT_MEANINGFUL):].lstrip(" :") or "the clock does not run"
        void = Unit(f"{NOT_MEANINGFUL} ({case.timing_void})", math.nan, False)
        nan: dict[str, Any] = {f.name: math.nan for f in dataclasses.fields(Summary)
                               if f.name != "n"}
        case.distributions = [dataclasses.replace(d, **nan, unit=void, overhead=math.nan,
                                                  values=None) for d in case.distributions]
        case.counts = {}
        case.per_iteration = None


def _add_per_iteration(results: Mapping[int, CaseResult], runs_of: Mapping[int, ExecutionRow],
                       units: Mapping[int, Unit]) -> None:
    """Throughput under deterministic emulation: the period in the unit (the
    HELLO's tm_period_ms at the counter's rate) over the count."""
    for row, case in results.items():
        ex = runs_of[row]
        unit = units[ex.id]
        score = case.score
        try:
            period_ms = float(ex.hello.get("tm_period_ms", ""))
        except ValueError:
            continue
        hz = stream_hz(ex.hello, ex.runner)
        case.period_ms = period_ms if period_ms > 0 else None
        if score and unit.deterministic and unit.emulated and period_ms > 0 and hz > 0:
            case.per_iteration = period_ms * hz / 1000.0 * unit.per_tick / score
            case.per_iteration_unit = unit.label


def not_run_here(view: RunView) -> list[tuple[str, str, str]]:
    """(system, status, reason) of the combinations stored as not run here
    (port not made for the target, RTOS tree or tools missing): listed apart
    from errors, which are failures of what did run."""
    return [(build_name(b), b.status, b.error)
            for b in view.builds if b.status in NOT_RUN_STATUSES]
