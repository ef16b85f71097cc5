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
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from rtosmeter import axes, measure, qemu_plugin, stats
from rtosmeter.energy.view import figures as energy_figures
from rtosmeter.errors import UserError
from rtosmeter.idle import read_idle
from rtosmeter.loads import split as split_load
from rtosmeter.model import (
    NOT_MEANINGFUL,
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
from rtosmeter.numbers import whole_or_none
from rtosmeter.protocol import MAX_CLOCK_HZ
from rtosmeter.store import BuildRow, ExecutionRow, Store

CALIB_CASE = "calib.overhead"
CALIB_SERIES = "overhead"
NOT_RUN_STATUSES = (BuildStatus.UNSUPPORTED, BuildStatus.SKIPPED)  # combinations not run here


def format_hz(hz: float) -> str:
    """25000000 -> "25 MHz", 1000000000 -> "1 GHz", 32768 -> "32.768 kHz"."""
    for scale, name in ((1e9, "GHz"), (1e6, "MHz"), (1e3, "kHz")):
        if hz >= scale:
            return f"{hz / scale:g} {name}"
    return f"{hz:g} Hz"


def _shift(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    return whole_or_none(str(value).strip(), 0, 10)


def stream_hz(hello: Mapping[str, str], runner: Mapping[str, Any]) -> float:
    """The timestamp rate: the firmware's own report (CFG ts_hz, kept in the
    runner info), else HELLO hz, the build's copy of target.toml (clocks.py)."""
    text = str(runner.get("ts_hz") or hello.get("hz", "0"))
    return float(whole_or_none(text, 1, MAX_CLOCK_HZ) or 0)


def unit_for(hello: Mapping[str, str], runner: Mapping[str, Any],
             clock_hz: int | None = None) -> Unit:
    """The unit of one stream's samples (see the module docstring)."""
    hz = stream_hz(hello, runner)
    counted = qemu_plugin.unit_of(runner)  # the plugin's unit, as the run recorded it
    if counted is not None:
        declared = hello.get("unit") or str(runner.get("unit", counted.value))
        if clock_hz:
            label, per_count = qemu_plugin.estimated_time(counted, declared, clock_hz)
            return Unit(label, per_count, True, True)
        return Unit(declared, 1.0, True, True)
    counter = f"{hello.get('ts', '')} {hello.get('unit', '')}".lower()
    kind = str(runner.get("runner", "")).lower()
    if hz <= 0:
        return Unit(f"{hello.get('unit', 'ticks') or 'ticks'} (rate unknown)", 1.0, False)
    if "dwt" in counter or hello.get("unit", "") == "cycles":
        return Unit("cycles (DWT)", 1.0, False)
    if kind == "host" or (not kind and hello.get("target") == "host"):
        return Unit("ns (host clock)", 1e9 / hz, False)
    if kind == "qemu":
        shift = _shift(runner.get("icount_shift"))
        if shift is not None:
            return Unit("instructions (QEMU icount)", (1e9 / hz) / 2**shift, True, True)
        return Unit(f"timer ticks @{format_hz(hz)} (host-timed, noisy)", 1.0, False, True)
    return Unit(f"{hello.get('unit', 'ticks') or 'ticks'} @{format_hz(hz)}", 1.0, False)


# Series whose interval the kernel's tick sets (lat.jitter.periodic: A sleeps
# one tick). The tick is emulated target time, derived from the emulated
# clock: 1 ms is 1 ms on a board too. The instructions counted in it
# converted at a clock (15,625 at 80 MHz: 195 µs) would shorten the tick, so
# under a clock these stay in emulated time, labelled as such.
TICK_SET = frozenset({("lat.jitter.periodic", "period")})


def tick_unit(hello: Mapping[str, str], runner: Mapping[str, Any],
              clock_hz: int | None) -> Unit | None:
    """The unit of a TICK_SET series under a clock: µs of emulated time when
    the plugin counted instructions (under -icount, exact virtual time at the
    stream's rate), else the counts unconverted; None without a clock."""
    counted = qemu_plugin.unit_of(runner)
    if not clock_hz or counted is None:
        return None
    hz = stream_hz(hello, runner)
    if counted is measure.Unit.INSTRUCTIONS and hz > 0:
        return Unit(f"µs of emulated time (the kernel's tick; not converted at "
                    f"{format_hz(clock_hz)})", 1e6 / hz, True, True)
    return unit_for(hello, runner, None)


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


def build_name(b: BuildRow | BuildInfo) -> str:
    """A build's system: "port/target/profile" and its axes (rtosmeter.axes)."""
    return axes.name(b.port, b.target, b.profile, b.axes)


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
    for row in store.cases(run_id):
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
    its first execution's runner with the unit the figures are in."""
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
    infos = [_build_info(b, next((e for e in execs.values() if e.build_id == b.id), None),
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
                   warnings, idle, energy_figures(store, run_id))


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


# ---- warnings: what did not fail but is to be read with care ---------------

OUTLIER_K = 4.0  # an extreme beyond p99 x K (or below p1 / K) is an outlier
DRIFT_LIMIT = 0.01  # throughput counts more than 1 % apart between periods
# Under exact emulation a period boundary falls between two iterations, so a
# count may be one more or one less from period to period: that is no drift.
EXACT_DRIFT_COUNTS = 2
GUEST_ERRORS_SHOWN = 3


def guest_warning(builds: Mapping[int, Any], ex: ExecutionRow) -> RunWarning | None:
    """QEMU's guest errors of one execution (runner info `guest_error_kinds`;
    for runs stored before it, the lines of the stored stderr tail)."""
    from rtosmeter.runners.qemu import guest_errors

    runner = ex.runner
    kinds: dict[str, int] = {}
    try:
        kinds = {str(k): int(v) for k, v in json.loads(str(runner["guest_error_kinds"])).items()}
    except (KeyError, ValueError, TypeError, AttributeError):
        kinds = dict(guest_errors(str(runner.get("stderr", "")).splitlines()))
    total = _int(runner.get("guest_errors")) or sum(kinds.values())
    if not total:
        return None
    b = builds.get(ex.build_id)
    key = f"{b.port}/{b.target}/{b.profile}" if b else f"build {ex.build_id}"
    shown = "; ".join(f"{msg} (x{n})" for msg, n in sorted(kinds.items(), key=lambda kv: -kv[1])
                      [:GUEST_ERRORS_SHOWN])
    return RunWarning(key, "", "guest-error",
                      f"{ex.group}: QEMU logged {total} guest error(s)"
                      + (f": {shown}" if shown else ""), ex.group,
                      tuple(sorted(kinds.items(), key=lambda kv: -kv[1])))


def clock_warning(builds: Mapping[int, Any], ex: ExecutionRow) -> RunWarning:
    """The firmware's clocks differ from its target.toml (clocks.clock_info)."""
    b = builds.get(ex.build_id)
    key = f"{b.port}/{b.target}/{b.profile}" if b else f"build {ex.build_id}"
    return RunWarning(key, "", "clock", f"{ex.group}: {ex.runner['clock_warning']}")


def _int(value: Any) -> int:
    try:
        return int(str(value))
    except ValueError:
        return 0


def outlier_text(d: Distribution) -> str:
    """"max 105,324 is 6.8x the p99 15,900" when an extreme lies far outside
    the 1-99 % range, else "" (a preempted host sample, a missed period: the
    box plots cut such a value off, so it is said in words)."""
    if math.isnan(d.p99) or d.n < 2:
        return ""
    out = []
    if d.max > OUTLIER_K * max(d.p99, 1.0):
        out.append(f"max {d.max:,.0f} is {d.max / max(d.p99, 1.0):.1f}x the p99 {d.p99:,.0f}")
    if d.min > 0 and d.min * OUTLIER_K < d.p1:  # a 0 deviation is no outlier
        out.append(f"min {d.min:,.0f} is under the p1 {d.p1:,.0f} / {OUTLIER_K:g}")
    return (f"{d.series}: " + " and ".join(out) + f" (median {d.p50:,.0f} {d.unit.label})"
            if out else "")


def exact_cases(results: Mapping[int, CaseResult], exec_of: Mapping[int, int],
                units: Mapping[int, Unit]) -> set[int]:
    """The ids (id()) of cases counted exactly (emulated under -icount)."""
    return {id(c) for row, c in results.items()
            if (u := units.get(exec_of.get(row, -1))) is not None and u.deterministic
            and u.emulated}


def _drift(total: list[int], exact: bool) -> float:
    """How far the counts per period spread (max - min over the mean), 0
    when they are within one count of their middle under exact emulation."""
    mean = sum(total) / len(total) if total else 0.0
    spread = max(total) - min(total) if total else 0
    if mean <= 0 or (exact and spread <= EXACT_DRIFT_COUNTS):
        return 0.0
    return spread / mean


def case_warnings(cases: Iterable[CaseResult], exact: Collection[int] = ()) -> list[RunWarning]:
    """Outliers, percentiles from too few samples, drifting throughput counts
    (not a ±1 count under exact emulation: `exact` holds those cases' id())."""
    out: list[RunWarning] = []
    p99 = next(s for s in stats.STATISTICS if s.name == "p99")
    for c in cases:
        key = system(c)
        for d in c.distributions:
            if (text := outlier_text(d)):
                out.append(RunWarning(key, c.case_id, "outlier", text))
        thin = [d for d in c.distributions if c.case_id != CALIB_CASE
                and not stats.resting_on_samples(p99, d.n) and d.n]
        if thin:
            fewest = min(thin, key=lambda d: d.n)
            out.append(RunWarning(key, c.case_id, "few-samples",
                                  f"p99 of {len(thin)} series from too few samples (fewest: "
                                  f"{fewest.n} in {fewest.series}; a p99 needs "
                                  f"{stats.min_samples_for_percentile(99)})"))
        total = c.counts.get("total", [])
        if c.case_id.startswith("tm.") and (drift := _drift(total, id(c) in exact)) > DRIFT_LIMIT:
            out.append(RunWarning(key, c.case_id, "drift",
                                  f"counts per period drift by {100 * drift:.1f} % "
                                  f"({min(total):,} to {max(total):,})"))
    return out


# ---- families and normalisation ---------------------------------------------


def family(case: CaseResult) -> str:
    """throughput | latency | other.

    Only `tm.*` cases are the throughput family (docs/benchmarks.md §1);
    an interrupt rate ramp (irq.max_rate, counts per step) is "other", so it
    is never normalised against Thread-Metric scores. A case with interval
    series, or a latency case id, is latency.
    """
    if case.case_id.startswith("tm."):
        return "throughput"
    if is_interrupt_rate(case):
        return "other"
    if case.distributions or case.case_id.startswith(("lat.", "calib.", "sw.", "irq.")):
        return "latency"
    return "other"


def is_interrupt_rate(case: CaseResult) -> bool:
    """An interrupt-responsiveness case that reports a rate, not intervals
    (irq.max_rate: counts per step of the ramp, the result in META)."""
    return case.case_id.startswith("irq.") and (bool(case.counts)
                                                or case.case_id.endswith("max_rate"))


def measures_interrupts(case: CaseResult) -> bool:
    """A case timing an interrupt's path (lat.isr.*, irq.*): under emulation
    a code-path length, as QEMU charges no time for exception entry."""
    return case.case_id.startswith(("lat.isr", "irq."))


def system(case: CaseResult | Footprint) -> str:
    """The compared system: "port/target/profile" and its axes ("+clang")."""
    return axes.name(case.port, case.target, case.profile, case.axes)


@dataclass(frozen=True)
class Normalised:
    """One throughput score against the others of its case on its target."""

    case_id: str
    target: str
    system: str
    score: float
    percent_of_best: float  # best system = 100 %
    multiple_of_slowest: float  # slowest system = 1.0x


def normalise_throughput(cases: Iterable[CaseResult]) -> list[Normalised]:
    """Per (target, case): percent of the best score and multiple of the slowest.

    Scores of different measurement periods compare per ms of the period.
    Only systems on the same target are compared (a host and an emulated
    Cortex-M count in different time bases). Cases without a score (failed,
    unsupported) are left out.
    """
    groups: dict[tuple[str, str], list[CaseResult]] = defaultdict(list)
    for c in cases:
        if c.score is not None and c.status == CaseStatus.OK and family(c) == "throughput":
            groups[(c.target, c.case_id)].append(c)
    out = []
    for (target, case_id), found in sorted(groups.items()):
        # counts of periods of different lengths (profile quick: 20 ms) compare
        # as counts per ms; with the same period (or an unknown one), as counts
        periods = {c.period_ms for c in found}
        per_ms = len(periods) > 1 and None not in periods
        rates = [(c, (c.score or 0.0) / (c.period_ms or 1.0) if per_ms else c.score or 0.0)
                 for c in found]
        best = max(r for _, r in rates)
        slowest = min(r for _, r in rates)
        for c, rate in rates:
            out.append(Normalised(
                case_id, target, system(c), c.score or 0.0,
                100.0 * rate / best if best > 0 else math.nan,
                rate / slowest if slowest > 0 else math.nan))
    return out


# ---- the floor check: tm.basic against bare metal ("calibration" is only
# calib.overhead, the measurement overhead) --------------------------------

FLOOR_CASE = "tm.basic"
FLOOR_PORT = "baremetal"
FLOOR_CHECK = "within_1pct_of_bare_metal"
FLOOR_TOLERANCE = 0.01  # docs/benchmarks.md tm.basic: within 1 %


@dataclass(frozen=True)
class FloorCheck:
    """One port's tm.basic score against the bare-metal score on the same
    target, profile and axes (same compiler and flags: the fair comparison)."""

    port: str
    target: str
    profile: str
    score: float
    floor: float | None  # None: no bare-metal tm.basic score in this run
    axes: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def system(self) -> str:
        return axes.name(self.port, self.target, self.profile, self.axes)

    @property
    def deviation(self) -> float | None:
        """(score - floor) / floor; None without a floor."""
        if self.floor is None or self.floor <= 0:
            return None
        return (self.score - self.floor) / self.floor

    @property
    def ok(self) -> bool | None:
        dev = self.deviation
        return None if dev is None else abs(dev) <= FLOOR_TOLERANCE

    def describe(self) -> str:
        """"+0.40 % vs bare metal" or "no bare-metal floor in this run"."""
        dev = self.deviation
        if dev is None:
            return "no bare-metal floor in this run"
        return f"{100 * dev:+.2f} % vs bare metal"


def floor_checks(cases: Iterable[CaseResult]) -> list[FloorCheck]:
    """tm.basic of every port but bare metal, against bare metal's tm.basic
    score on the same target and profile (docs/benchmarks.md: the arithmetic loop
    makes no kernel call, so it should score the same everywhere; a port more
    than 1 % away steals time, e.g. with its tick, or was built differently)."""
    basic = [c for c in cases if c.case_id == FLOOR_CASE and c.score is not None]
    floors = {(c.target, c.profile, axes.canonical(c.axes)): c.score for c in basic
              if c.port == FLOOR_PORT and c.status == CaseStatus.OK}
    return [FloorCheck(c.port, c.target, c.profile, c.score or 0.0,
                       floors.get((c.target, c.profile, axes.canonical(c.axes))), c.axes)
            for c in basic if c.port != FLOOR_PORT]


def add_floor_checks(cases: list[CaseResult]) -> None:
    """Append the derived check to each port's tm.basic when a floor exists.

    The check flags the port (reports mark it, csv counts it in
    `checks_failed`) but leaves the case's status alone: the count is still a
    valid measurement of that port.
    """
    by_key = {system(c): c for c in cases if c.case_id == FLOOR_CASE}
    for cal in floor_checks(cases):
        case = by_key[cal.system]
        if cal.floor is None or any(k.name == FLOOR_CHECK for k in case.checks):
            continue
        case.checks.append(Check(FLOOR_CHECK, bool(cal.ok), round(cal.score),
                                 round(cal.floor)))


def not_run_here(view: RunView) -> list[tuple[str, str, str]]:
    """(system, status, reason) of the combinations stored as not run here
    (port not made for the target, RTOS tree or tools missing): listed apart
    from errors, which are failures of what did run."""
    return [(build_name(b), b.status, b.error)
            for b in view.builds if b.status in NOT_RUN_STATUSES]
