"""Expand a campaign into build and run jobs, run them, store each result.

A campaign names (port, target, profile) combinations, each built with one or
more toolchains (an axis: rtosmeter.axes); each becomes one build tree, and
each benchmark group of it one run job. Builds run one after another, each
with `-j N` for the compiler; runs go up to N at a time, except those of an
`exclusive` runner (host runs: real time on a pinned CPU), which go one at a
time after the last build. The scheduler never names a runner kind:
`rtosmeter.runners` finds the runner of a target.
Every finished execution is parsed and stored at once, so a run that is
killed loses nothing, and `--resume` skips the groups already stored. A
failing build or run never stops the others; a combination that cannot run
here is stored with the reason.
"""

from __future__ import annotations

import fnmatch
import importlib
import os
import platform
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from rtosmeter import __version__, axes, instances
from rtosmeter.build import BuildResult, BuildSpec, build, compiler_errors, missing_tools
from rtosmeter.catalog import Catalog
from rtosmeter.children import kill_all
from rtosmeter.clocks import clock_info
from rtosmeter.definitions import (
    DEFAULT_TOOLCHAIN,
    Campaign,
    Definitions,
    Params,
    Target,
    Toolchain,
    load_profile,
)
from rtosmeter.errors import ToolMissing, UserError
from rtosmeter.loads import profile_name as loaded_name
from rtosmeter.protocol import ParsedStream, name_missing, parse_stream
from rtosmeter.qemu_plugin import PluginSpec, resolve_unit, spec_for
from rtosmeter.runners import run_once, runner_class, unavailable
from rtosmeter.runners.base import RunOutcome, RunRequest
from rtosmeter.sources import SourceMissing, SourceTree, find_source
from rtosmeter.store import RunLock, Store, StoreError

ALWAYS_KEPT = ("calib.*",)  # cases kept whatever --bench says (overhead subtraction)


# ---- what can run here ------------------------------------------------------


def unavailable_reason(target: Target, toolchain: Toolchain) -> str:
    """Why this target cannot be built with `toolchain` and run here ("" when
    it can; what running needs, its runner says)."""
    missing = missing_tools(target, toolchain)
    if missing:
        return ("missing " + ", ".join(p for p, _ in missing) + ": apt-get install "
                + " ".join(dict.fromkeys(pkg for _, pkg in missing)))
    return unavailable(target)


def is_exclusive(target: Target) -> bool:
    """Whether the target's executions must run alone, after every build."""
    cls = runner_class(target.kind)
    return bool(cls and cls.exclusive)


# ---- the plan ---------------------------------------------------------------


@dataclass
class Combo:
    """One (port, target, profile) and its axes (toolchain): one build tree,
    one run job per group."""

    port: str
    target: str
    profile: str
    bench: str
    groups: list[str]
    params: dict[str, int]
    optional: bool = False
    skip_status: str = ""  # "" | unsupported | skipped
    skip_reason: str = ""
    unit: str = ""  # "" (the target's counter) | instructions | cycles (the QEMU plugin)
    ws: int = 0  # cycles: flash wait states
    div: int = 12  # cycles: SDIV/UDIV cycles
    axes: dict[str, str] = field(default_factory=dict)  # rtosmeter.axes: every axis

    def __post_init__(self) -> None:
        self.axes = axes.complete(self.axes)  # a plan stored before an axis existed

    @property
    def toolchain(self) -> str:
        return self.axes["toolchain"]

    @property
    def key(self) -> str:
        return axes.name(self.port, self.target, self.profile, self.axes)

    @property
    def done_key(self) -> tuple[str, str, str, str]:
        """(port, target, profile, canonical axes): Store.done_groups' key, less the group."""
        return (self.port, self.target, self.profile, axes.canonical(self.axes))


@dataclass
class Plan:
    campaign: str
    campaign_file: str
    combos: list[Combo]
    jobs: int
    icount: bool
    sources: dict[str, str] = field(default_factory=dict)
    profile_file: str = ""  # --profile FILE: loaded again by --resume

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Plan:
        combos = [Combo(**c) for c in data.get("combos", [])]
        return cls(data.get("campaign", "?"), data.get("campaign_file", ""), combos,
                   int(data.get("jobs", 2)), bool(data.get("icount", True)),
                   dict(data.get("sources", {})), str(data.get("profile_file", "")))


@dataclass(frozen=True)
class Selection:
    """Command-line choices that narrow or replace the campaign."""

    ports: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    bench: str | None = None
    profile: str | None = None
    jobs: int = 2
    icount: bool = True
    sources: dict[str, Path] = field(default_factory=dict)
    profile_file: Path | None = None  # --profile FILE (its profile is in the definitions)
    unit: str | None = None  # --unit (None: the campaign's, else the default)
    ws: int | None = None  # --cycle-ws (None: the campaign's, else 0)
    div: int | None = None  # --cycle-div (None: the campaign's, else 12)
    loads: tuple[str, ...] = ()  # --load (empty: the campaign's, else idle)
    toolchains: tuple[str, ...] = ()  # --toolchain (empty: the campaign's)


# (port, target, profiles, bench, optional, loads, toolchains)
Pair = tuple[str, str, tuple[str, ...], str, bool, tuple[str, ...], tuple[str, ...]]


def _pairs(defs: Definitions, campaign: Campaign, sel: Selection) -> list[Pair]:
    """(port, target, profiles, bench, optional, loads, toolchains) from the
    campaign and the options (--toolchain replaces the campaign's toolchains);
    a port may be an instance (`freertos@V9.0.0`, instances.py), and a plain
    port with labelled --source trees runs as those instances."""
    for p in sel.ports:
        defs.port(p)
    for t in sel.targets:
        defs.target(t)
    for tc in sel.toolchains:
        defs.toolchain(tc)
    default_tcs = sel.toolchains or (DEFAULT_TOOLCHAIN,)
    wanted = instances.expand(sel.ports, sel.sources)
    out: list[Pair] = []
    if sel.ports and sel.targets:  # explicit: every pair, unsupported ones said so
        return [(p, t, ("default",), "*", False, IDLE_ONLY, default_tcs)
                for p in wanted for t in sel.targets]
    for e in campaign.entries:
        for p in instances.expand(e.ports, sel.sources):
            for t in e.targets:
                if sel.ports and p not in wanted and instances.split(p)[0] not in sel.ports:
                    continue
                if sel.targets and t not in sel.targets:
                    continue
                # A port or target named on the command line is wanted, not optional.
                explicit = bool(sel.ports or sel.targets)
                out.append((p, t, e.profiles, e.bench, e.optional and not explicit, e.loads,
                            sel.toolchains or e.toolchains))
    if out:
        return out
    # The campaign has nothing for the chosen port/target: use what the port
    # (or the target) declares, on the targets that are available here.
    ports = wanted or tuple(defs.ports)
    targets = sel.targets or tuple(defs.targets)
    for p in ports:
        for t in targets:
            if defs.port(p).supports(defs.targets[t]) and runner_class(defs.targets[t].kind):
                out.append((p, t, ("default",), "*", not sel.targets, IDLE_ONLY, default_tcs))
    if not out:
        what = f"port {', '.join(sel.ports)}" if sel.ports else f"target {', '.join(targets)}"
        raise UserError(f"nothing to run for {what}", "--port/--target",
                        "Run `rtosmeter list` to see which ports run on which targets")
    return out


IDLE_ONLY = ("idle",)


def _loaded(profiles: tuple[str, ...], loads: tuple[str, ...], where: str) -> list[str]:
    """Every profile under every load: `default`, `default+irq:2000:50`..."""
    return [loaded_name(p, load, where) for p in profiles for load in loads]


def _merge_bench(first: Combo, again: Combo, catalog: Catalog) -> None:
    """One build per (port, target, profile): the cases of both entries."""
    if "*" in (first.bench, again.bench):
        first.bench = "*"
    elif again.bench not in first.bench.split(","):
        first.bench = f"{first.bench},{again.bench}"
    first.groups = catalog.groups_for(first.bench)


def make_plan(defs: Definitions, catalog: Catalog, campaign: Campaign, sel: Selection) -> Plan:
    combos: list[Combo] = []
    seen: dict[str, Combo] = {}
    for port_name, target_name, profiles, bench, optional, loads, tcs in _pairs(
            defs, campaign, sel):
        port, target = defs.port(port_name), defs.targets[target_name]
        loaded = _loaded((sel.profile,) if sel.profile else profiles, sel.loads or loads,
                         "--load" if sel.loads else str(campaign.file))
        for profile_name, tc in [(p, tc) for p in loaded for tc in tcs]:
            profile = defs.profile(profile_name)
            toolchain = defs.toolchain(tc)
            pattern = sel.bench or bench
            params = profile.params_for(target.kind).merged(campaign.params.get(target.kind, {}))
            params = params.merged({k: min(getattr(params, k), v)  # the target's RAM caps
                                    for k, v in target.params.items()})
            combo = Combo(port_name, target.name, profile.name, pattern,
                          catalog.groups_for(pattern), asdict(params), optional,
                          axes={"toolchain": toolchain.name})
            if combo.key in seen:  # a later [[run]] entry adds its cases to the build
                _merge_bench(seen[combo.key], combo, catalog)
                continue
            seen[combo.key] = combo
            combo.ws = next(v for v in (sel.ws, campaign.cycle_ws, 0) if v is not None)
            combo.div = next(v for v in (sel.div, campaign.cycle_div, 12) if v is not None)
            combo.unit = resolve_unit(
                sel.unit or campaign.unit, target.kind, target.cpu,
                target.qemu.machine if target.qemu else "", sel.icount,
                f"target {target.name} (--unit)" if sel.unit else str(campaign.file),
                combo.ws, combo.div)
            if why := port.unsupported_reason(target, toolchain.name):  # port.toml [targets]
                combo.skip_status, combo.skip_reason = "unsupported", why
            elif toolchain.use_for(target) is None:
                combo.skip_status = "unsupported"
                combo.skip_reason = (f"toolchain {toolchain.name} does not build for "
                                     f"{target.name} (no [targets."
                                     f"{target.toolchain or 'host'}] in {toolchain.file})")
            elif reason := unavailable_reason(target, toolchain):
                if not optional:
                    raise UserError(f"target {target.name} cannot run here: {reason}",
                                    "--target" if sel.targets else str(campaign.file),
                                    "Install what is missing (scripts/install.sh), or mark the "
                                    "[[run]] entry if_available = true")
                combo.skip_status, combo.skip_reason = "skipped", f"{target.name}: {reason}"
            combos.append(combo)
    return Plan(campaign.name, str(campaign.file), combos, sel.jobs, sel.icount,
                {k: str(v) for k, v in sel.sources.items()},
                str(sel.profile_file) if sel.profile_file else "")


# ---- progress ---------------------------------------------------------------


class Reporter:
    """Progress bar with ETA on stderr, only on a terminal; plain (no colour,
    no bold) under NO_COLOR; and warnings."""

    def __init__(self, total: int, quiet: bool | None = None,
                 console: Console | None = None) -> None:
        plain = bool(os.environ.get("NO_COLOR"))
        self.console = console or Console(stderr=True, no_color=plain)
        if quiet is None:
            quiet = not sys.stderr.isatty()
        self.quiet = quiet
        self.progress: Progress | None = None
        self.task: Any = None
        if not quiet:
            style = "none" if plain else "bold"
            self.progress = Progress(
                TextColumn("{task.description}", style=style),
                BarColumn(style="none" if plain else "bar.back",
                          complete_style="none" if plain else "bar.complete",
                          finished_style="none" if plain else "bar.finished"),
                MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("eta"),
                TimeRemainingColumn(), console=self.console, transient=True)
            self.task = self.progress.add_task("starting", total=total)

    @contextmanager
    def running(self) -> Iterator[Reporter]:
        if self.progress is None:
            yield self
            return
        with self.progress:
            yield self

    def current(self, text: str) -> None:
        if self.progress is not None:
            self.progress.update(self.task, description=text)

    def advance(self, n: int = 1) -> None:
        if self.progress is not None:
            self.progress.advance(self.task, n)

    def warn(self, text: str) -> None:
        self.console.print(f"warning: {text}", markup=False, highlight=False)

    def note(self, text: str) -> None:
        """Not a problem, but worth saying (a combination not run here)."""
        self.console.print(f"note: {text}", markup=False, highlight=False)


# ---- execution --------------------------------------------------------------


@dataclass
class RunJob:
    combo: Combo
    group: str
    build_id: int
    executable: Path
    target: Target
    plugin: PluginSpec | None = None


@dataclass
class JobResult:
    job: RunJob
    outcome: RunOutcome


def _run_one(job: RunJob, icount: bool,
             run: Callable[[RunRequest], RunOutcome] = run_once) -> JobResult:
    t = job.target
    try:
        outcome = run(RunRequest(job.executable, t, icount, plugin=job.plugin))
    except Exception as exc:  # a runner bug must not stop the campaign
        outcome = RunOutcome(b"", "error", None, f"runner failed: {exc!r}", 0.0,
                             {"runner": t.kind})
    return JobResult(job, outcome)


def _footprint(elf: Path) -> dict[str, Any]:
    """Flash/RAM split of a firmware (rtosmeter.footprint), stored with its execution."""
    try:
        module = importlib.import_module("rtosmeter.footprint")
    except ImportError:
        return {}
    fn: Callable[..., Any] | None = getattr(module, "footprint", None)
    if fn is None:
        return {}
    try:
        result = fn(elf)
    except Exception as exc:  # footprint is extra information, not the run
        return {"error": f"{type(exc).__name__}: {exc}"}
    data = asdict(result) if hasattr(result, "__dataclass_fields__") else dict(result)
    data.pop("symbols", None)  # per-symbol sizes stay in the map file next to the ELF
    return data


def _filter_cases(parsed: ParsedStream, bench: str) -> ParsedStream:
    if bench in ("", "*"):
        return parsed
    globs = [g.strip() for g in bench.split(",") if g.strip()] + list(ALWAYS_KEPT)
    kept = [c for c in parsed.cases if any(fnmatch.fnmatchcase(c.id, g) for g in globs)]
    return replace(parsed, cases=kept)


def _execution_status(outcome: RunOutcome, parsed: ParsedStream, job: RunJob
                      ) -> tuple[str, str]:
    if outcome.status == "error":
        return "error", outcome.message
    problems = []
    # The executable must be the group's own: a stale one (an RTOS build tool
    # that kept an old object) would store another group's cases under this one.
    said = parsed.header.get("group", job.group) if parsed.header else job.group
    if said != job.group:
        problems.append(f"{job.executable} runs group {said}, not {job.group}: the build "
                        f"left another group's code in it (rebuild in an empty --out)")
    # A complete stream whose exit status is its BYE status ended normally:
    # failed cases are reported per case, not as a failed execution.
    normal_exit = (outcome.status == "exit" and parsed.complete and not parsed.errors
                   and parsed.bye_status == outcome.exit_code)
    if outcome.status != "ok" and not normal_exit:
        problems.append(outcome.message)
    if parsed.errors:
        problems.append("stream: " + "; ".join(str(e) for e in parsed.errors[:5]))
    elif not parsed.complete:
        problems.append("stream ended without BYE")
    return ("ok", "") if not problems else ("failed", " | ".join(problems))


class Scheduler:
    def __init__(self, defs: Definitions, catalog: Catalog, store: Store, out: Path,
                 reporter: Reporter | None = None,
                 run: Callable[[RunRequest], RunOutcome] = run_once) -> None:
        self.defs = defs
        self.run_request = run  # run_once, or a farm's (rtosmeter.farm)
        self.catalog = catalog
        self.store = store
        self.out = out
        self.reporter = reporter
        self.summary: dict[str, int] = {"builds_failed": 0, "executions": 0, "failed": 0,
                                        "not_run": 0}
        self.not_run_reasons: list[str] = []

    def _spec(self, combo: Combo, plan: Plan, groups: list[str]) -> BuildSpec:
        port = self.defs.port(combo.port, f"run {combo.key}")
        source: SourceTree | None = find_source(
            port, {k: Path(v) for k, v in plan.sources.items()},
            instances.split(combo.port)[1])
        return BuildSpec(port, self.defs.target(combo.target), self.defs.profile(combo.profile),
                         Params(**combo.params), tuple(groups), source, self.out,
                         self.defs.toolchain(combo.toolchain, f"run {combo.key}"),
                         self._plugin(combo), combo.port)

    def _plugin(self, combo: Combo) -> PluginSpec | None:
        if not combo.unit:
            return None
        t = self.defs.target(combo.target)
        return spec_for(combo.unit, t.cpu, t.qemu.machine if t.qemu else "",
                        f"target {t.name}", combo.ws, combo.div)

    def _build(self, combo: Combo, plan: Plan, groups: list[str]) -> BuildResult | str:
        try:
            spec = self._spec(combo, plan, groups)
        except SourceMissing as exc:
            return exc.reason
        return build(spec, self.defs.root, self.catalog, plan.jobs)

    def _store_skip(self, run_id: int, combo: Combo, status: str, reason: str) -> None:
        """A combination that cannot run here: stored with the reason, counted
        apart from failures (it is not an error of what ran)."""
        self.store.add_build(run_id, combo.port, combo.target, combo.profile,
                             {"groups": ",".join(combo.groups)}, status=status, error=reason,
                             axes=combo.axes)
        self.summary["not_run"] += 1
        self.not_run_reasons.append(f"{combo.key} {status}: {reason}")
        if self.reporter:
            self.reporter.note(f"{combo.key} not run here, {status}: {reason}")

    def _store_execution(self, run_id: int, result: JobResult) -> None:
        job, outcome = result.job, result.outcome
        parsed = _filter_cases(parse_stream(outcome.stream), job.combo.bench)
        name_missing(parsed, {cap.bit: name for name, cap in self.catalog.caps.items()})
        status, error = _execution_status(outcome, parsed, job)
        runner = dict(outcome.info)
        runner.setdefault("runner", job.target.kind)
        if job.plugin is None:
            runner["unit"] = job.target.counter.unit
            runner["counter"] = job.target.counter.name
            runner["hz"] = str(job.target.counter.hz)
        else:  # the plugin's counter: unit and rate as the firmware's HELLO declares them
            hello = parsed.header
            runner["unit"] = job.plugin.unit
            runner["counter"] = "rmcycles (QEMU plugin)"
            runner["hz"] = str(hello.get("hz", "")) if hello else ""
        runner.update(clock_info(job.target, parsed.config, job.plugin is not None))
        if runner.get("clock_warning") and self.reporter:
            self.reporter.note(f"{job.combo.key}: warning: {runner['clock_warning']}")
        # A footprint is a firmware's flash/RAM: cross-compiled images only.
        footprint = _footprint(job.executable) if job.target.toolchain else {}
        self.store.add_execution(
            run_id, job.build_id, job.group, status=status, error=error,
            exit_code=outcome.exit_code, wall_s=outcome.wall_s, runner=runner,
            stream=outcome.stream, footprint=footprint, elf=str(job.executable), parsed=parsed)
        self.summary["executions"] += 1
        if status != "ok":
            self.summary["failed"] += 1
            if self.reporter:
                self.reporter.warn(f"{job.combo.key} group {job.group}: {error}")

    def run(self, run_id: int, plan: Plan, done: set[tuple[str, str, str, str, str]]) -> None:
        """Build and run everything of the plan that is not in `done`."""
        todo: list[tuple[Combo, list[str]]] = []
        for combo in plan.combos:
            if combo.skip_status:
                self._store_skip(run_id, combo, combo.skip_status, combo.skip_reason)
                continue
            groups = [g for g in combo.groups if (*combo.done_key, g) not in done]
            if groups:
                todo.append((combo, groups))
        # Exclusive builds last: their runs start after the compiler is quiet.
        todo.sort(key=lambda cg: is_exclusive(self.defs.targets[cg[0].target]))
        total = len(todo) + sum(len(g) for _, g in todo)
        rep = self.reporter
        if rep is not None and rep.progress is not None:
            rep.progress.update(rep.task, total=total)
        builder = ThreadPoolExecutor(1, thread_name_prefix="rm-build")
        parallel = ThreadPoolExecutor(max(1, plan.jobs), thread_name_prefix="rm-run")
        alone = ThreadPoolExecutor(1, thread_name_prefix="rm-alone")
        pending: dict[Future[Any], tuple[str, Any]] = {}
        deferred: list[RunJob] = []
        builds_left = len(todo)
        for combo, groups in todo:
            bfut: Future[Any] = builder.submit(self._build, combo, plan, groups)
            pending[bfut] = ("build", (combo, groups))
        try:
            if todo and rep:
                rep.current(f"building {todo[0][0].key}")
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    kind, payload = pending.pop(fut)
                    if kind == "build":
                        builds_left -= 1
                        jobs = self._after_build(run_id, payload, fut.result())
                        for job in jobs:
                            if is_exclusive(job.target):
                                deferred.append(job)
                            else:
                                pending[parallel.submit(_run_one, job, plan.icount,
                                                       self.run_request)] = ("run", job)
                        if builds_left == 0:
                            for job in deferred:
                                pending[alone.submit(_run_one, job, plan.icount,
                                                    self.run_request)] = ("run", job)
                            deferred.clear()
                    else:
                        result: JobResult = fut.result()
                        self._store_execution(run_id, result)
                    if rep:
                        rep.advance()
                        rep.current(self._describe(pending))
        except BaseException:
            for pool in (builder, parallel, alone):
                pool.shutdown(wait=False, cancel_futures=True)
            kill_all()
            raise
        finally:
            for pool in (builder, parallel, alone):
                pool.shutdown(wait=True)

    @staticmethod
    def _describe(pending: dict[Future[Any], tuple[str, Any]]) -> str:
        running = [p for f, p in pending.items() if f.running()]
        if not running:
            return "finishing"
        kind, payload = running[0]
        if kind == "build":
            return f"building {payload[0].key}"
        return f"running {payload.combo.key} {payload.group}"

    def _after_build(self, run_id: int, payload: tuple[Combo, list[str]],
                     result: BuildResult | str) -> list[RunJob]:
        combo, groups = payload
        if isinstance(result, str):  # RTOS source missing
            self._store_skip(run_id, combo, "unsupported", result)
            return []
        limit = self.defs.ports[combo.port].toolchain_limit(combo.toolchain,
                                                              self.defs.targets[combo.target])
        if result.status != "ok" and limit is not None:  # the RTOS's code, said in port.toml
            errors = compiler_errors(result) or [result.error.splitlines()[0]]
            self._store_skip(run_id, combo, "unsupported",
                             f"{limit.why}. {result.config.get('compiler', combo.toolchain)}: "
                             + " | ".join(errors) + f" (log: {result.log})")
            return []
        build_id = self.store.add_build(run_id, combo.port, combo.target, combo.profile,
                                        result.config, status=result.status, error=result.error,
                                        axes=combo.axes)
        if result.status != "ok":
            self.summary["builds_failed"] += 1
            if self.reporter:
                self.reporter.warn(result.error)
        target = self.defs.targets[combo.target]
        for group, reason in result.failed_groups.items():
            self.store.add_execution(run_id, build_id, group, status="error",
                                     error=f"build failed: {reason}")
        return [RunJob(combo, g, build_id, exe, target, self._plugin(combo))
                for g, exe in result.executables.items() if g in groups]


# ---- the run as a whole -----------------------------------------------------


def _tool_version(cmd: list[str]) -> str:
    if shutil.which(cmd[0]) is None:
        return ""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return (proc.stdout.splitlines() or [""])[0].strip()


def host_info() -> dict[str, str]:
    return {
        "machine": platform.machine(), "os": platform.platform(),
        "python": platform.python_version(), "cpus": str(os.cpu_count() or 0),
        "hostname": platform.node(),
        "cmake": _tool_version(["cmake", "--version"]),
        "ninja": _tool_version(["ninja", "--version"]),
        "gcc": _tool_version(["gcc", "--version"]),
        "arm-none-eabi-gcc": _tool_version(["arm-none-eabi-gcc", "--version"]),
        "clang": _tool_version(["clang", "--version"]),
        "qemu-system-arm": _tool_version(["qemu-system-arm", "--version"]),
    }


@dataclass
class RunSummary:
    run_id: int
    status: str
    seconds: float
    executions: int
    failed: int
    builds_failed: int
    not_run: int = 0  # combinations stored as not run here (unsupported, skipped)


class Interrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised in the main thread like Ctrl-C's KeyboardInterrupt."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class RunInterrupted(Exception):
    """The run stopped on a signal; it is stored as interrupted, its children ended."""

    def __init__(self, run_id: int, signum: int) -> None:
        super().__init__(run_id, signum)
        self.run_id = run_id
        self.signum = signum


def _open_run(defs: Definitions, store: Store, plan: Plan | None, resume: int | None
              ) -> tuple[int, Plan, set[tuple[str, str, str, str, str]], RunLock]:
    """The run to work on (new, or resumed with its stored plan) and its lock."""
    if resume is None:
        if plan is None:
            raise ValueError("execute() needs a plan unless it resumes a run")
        run_id = store.create_run(plan.as_json(), host_info(), __version__)
        return run_id, plan, set(), store.lock_run(run_id)
    lock = store.lock_run(resume)  # refuses a run another process is still running
    try:
        plan = Plan.from_json(store.run(resume).campaign)
        if plan.profile_file:
            profile = load_profile(Path(plan.profile_file))
            defs.profiles[profile.name] = profile
        done = store.done_groups(resume)
        store.reopen_run(resume)
    except BaseException:
        lock.release()
        raise
    return resume, plan, done, lock


def _close_run(store: Store, run_id: int, status: str, lock: RunLock) -> None:
    try:
        store.finish_run(run_id, status)
    except StoreError:
        if status == "done":
            raise  # else the run is failing already: keep the first error
    finally:
        lock.release()


def _nothing_ran(store: Store, run_id: int, plan: Plan, scheduler: Scheduler) -> UserError:
    """An empty run is not kept: `latest` stays the run before it."""
    store.delete_run(run_id)
    reasons = "; ".join(scheduler.not_run_reasons) or "the campaign selects no benchmark group"
    return UserError(f"nothing ran ({reasons})", f"campaign {plan.campaign}",
                     "Give missing RTOS trees with --source NAME=PATH, or choose ports and "
                     "targets that run here (`rtosmeter list`); nothing was stored")


def execute(defs: Definitions, catalog: Catalog, store: Store, out: Path, plan: Plan | None,
            resume: int | None = None, quiet: bool | None = None,
            reporter: Reporter | None = None,
            run: Callable[[RunRequest], RunOutcome] = run_once) -> RunSummary:
    """Run a plan (or resume a stored run, whose plan is reused) into the store;
    `run` runs one execution (a farm's, to run elsewhere)."""
    started = time.monotonic()
    run_id, plan, done, lock = _open_run(defs, store, plan, resume)
    total = sum(len(c.groups) + 1 for c in plan.combos)
    reporter = reporter or Reporter(total, quiet)
    scheduler = Scheduler(defs, catalog, store, out, reporter, run)
    try:
        with reporter.running():
            scheduler.run(run_id, plan, done)
    except KeyboardInterrupt as exc:
        _close_run(store, run_id, "interrupted", lock)
        raise RunInterrupted(run_id, getattr(exc, "signum", signal.SIGINT)) from None
    except BaseException:
        _close_run(store, run_id, "interrupted", lock)
        raise
    # Empty: nothing executed and nothing failed to build (a failed build is a
    # result the user must see: it is kept, and the run exits 1 for it).
    if (resume is None and not store.executions(run_id)
            and not scheduler.summary["builds_failed"]):
        lock.release()
        raise _nothing_ran(store, run_id, plan, scheduler)
    _close_run(store, run_id, "done", lock)
    s = scheduler.summary
    return RunSummary(run_id, "done", time.monotonic() - started, s["executions"], s["failed"],
                      s["builds_failed"], s["not_run"])


__all__ = ["Combo", "Interrupted", "Plan", "RunInterrupted", "RunSummary", "Scheduler",
           "Selection", "ToolMissing", "execute", "make_plan", "unavailable_reason"]
