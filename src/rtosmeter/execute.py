"""The executor: builds and executions of a plan as futures, and progress.

Builds run one after another, each with `-j N` for the compiler; runs go up
to N at a time, except those of an `exclusive` runner (host runs: real time
on a pinned CPU), which go one at a time after the last build. Every
finished build and execution goes to the recorder at once (record.py), so a
run that is killed loses nothing; a failing build or run never stops the
others. On any interruption the pools are cancelled and every child process
ended. The executor never names a runner kind (rtosmeter.runners).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

from rtosmeter import instances, runners
from rtosmeter.build import BuildResult, BuildSpec, build
from rtosmeter.catalog import Catalog
from rtosmeter.children import kill_all
from rtosmeter.definitions import Definitions, Params, Target
from rtosmeter.net.source import find_net_source
from rtosmeter.plan import Plan, PlannedBuild
from rtosmeter.progress import Progress
from rtosmeter.record import Recorder, RunJob
from rtosmeter.runners import run_once
from rtosmeter.runners.base import RunnerOptions, RunOutcome, RunRequest
from rtosmeter.sources import SourceMissing, find_source

Todo = tuple[PlannedBuild, list[str]]  # a build and the groups still to run of it


def run_job(job: RunJob, run: Callable[[RunRequest], RunOutcome] = run_once) -> RunOutcome:
    try:
        return run(RunRequest(job.executable, job.target, options=job.options))
    except Exception as exc:  # a runner bug must not stop the campaign
        return RunOutcome(b"", "error", None, f"runner failed: {exc!r}", 0.0,
                          {"runner": job.target.kind})


class Executor:
    def __init__(self, defs: Definitions, catalog: Catalog, out: Path, recorder: Recorder,
                 progress: Progress | None = None,
                 run: Callable[[RunRequest], RunOutcome] = run_once) -> None:
        self.defs, self.catalog, self.out = defs, catalog, out
        self.recorder, self.progress = recorder, progress
        self.run_request = run  # run_once, or a farm's (rtosmeter.farm)
        self.powered = False  # every execution inside a power capture: one at a time
        self.pending: dict[Future[Any], Todo | RunJob] = {}
        self.deferred: list[RunJob] = []  # exclusive runs: after the last build
        self.builds_left = 0
        self.options: dict[str, RunnerOptions | None] = {}  # per build: made once

    def _target(self, planned: PlannedBuild) -> Target:
        """The build's target at its profile's board clock."""
        profile = self.defs.profile(planned.profile)
        return self.defs.target(planned.target).at_clock(profile.board_clock)

    def _options(self, planned: PlannedBuild, plan: Plan) -> RunnerOptions | None:
        """What the build's runner takes, from the plan's measurement choices."""
        if planned.key not in self.options:
            self.options[planned.key] = runners.runner_options(self._target(planned),
                                                               plan.measure_of(planned))
        return self.options[planned.key]

    def _spec(self, planned: PlannedBuild, plan: Plan, groups: list[str]) -> BuildSpec:
        port = self.defs.port(planned.port, f"run {planned.key}")
        profile = self.defs.profile(planned.profile)
        target = self._target(planned)
        overrides = {k: Path(v) for k, v in plan.sources.items()}
        source = find_source(port, overrides, instances.split(planned.port)[1])
        net = profile.load is not None and bool(profile.load.net_state)
        options = self._options(planned, plan)
        return BuildSpec(port, target, profile,
                         Params(**planned.params), tuple(groups), source, self.out,
                         self.defs.toolchain(planned.toolchain, f"run {planned.key}"),
                         options.counter(target) if options is not None else None,
                         planned.port, tuple(runners.firmware_defines(target).items()),
                         find_net_source(port, overrides) if net else None)

    def _build(self, planned: PlannedBuild, plan: Plan, groups: list[str]) -> BuildResult | str:
        try:
            spec = self._spec(planned, plan, groups)
        except SourceMissing as exc:
            return exc.reason
        return build(spec, self.defs.root, self.catalog, plan.jobs)

    def _jobs(self, todo: Todo, plan: Plan, result: BuildResult | str) -> list[RunJob]:
        planned, groups = todo
        build_id = self.recorder.build(planned, result)
        if build_id is None or isinstance(result, str):
            return []
        target, options = self._target(planned), self._options(planned, plan)
        return [RunJob(planned, g, build_id, exe, target, options)
                for g, exe in result.executables.items() if g in groups]

    def _built(self, todo: Todo, plan: Plan, result: BuildResult | str,
               parallel: ThreadPoolExecutor, alone: ThreadPoolExecutor) -> None:
        """Submit a finished build's executions; after the last build, the
        exclusive ones, one at a time."""
        self.builds_left -= 1
        for job in self._jobs(todo, plan, result):
            if runners.is_exclusive(job.target) or self.powered:
                self.deferred.append(job)
            else:
                self.pending[parallel.submit(run_job, job, self.run_request)] = job
        if self.builds_left == 0:
            for job in self.deferred:
                self.pending[alone.submit(run_job, job, self.run_request)] = job
            self.deferred.clear()

    def run(self, plan: Plan, todo: list[Todo]) -> None:
        """Build and run `todo`; the recorder stores each as it finishes."""
        if plan.power:  # --power: the analyser's capture spans each execution
            from rtosmeter.energy.sessions import PowerSpec
            from rtosmeter.runners.powered import PowerRun

            self.run_request = PowerRun(self.run_request, PowerSpec.parse(plan.power), self.out)
            self.powered = True
        # Exclusive builds last: their runs start after the compiler is quiet.
        todo = sorted(todo, key=lambda t: runners.is_exclusive(self.defs.targets[t[0].target]))
        if self.progress is not None:
            self.progress.total(len(todo) + sum(len(g) for _, g in todo))
        builder = ThreadPoolExecutor(1, thread_name_prefix="rm-build")
        parallel = ThreadPoolExecutor(max(1, plan.jobs), thread_name_prefix="rm-run")
        alone = ThreadPoolExecutor(1, thread_name_prefix="rm-alone")
        self.builds_left = len(todo)
        for t in todo:
            self.pending[builder.submit(self._build, t[0], plan, t[1])] = t
        try:
            if todo and self.progress:
                self.progress.current(f"building {todo[0][0].key}")
            while self.pending:
                finished, _ = wait(self.pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    self._finished(fut, plan, parallel, alone)
        except BaseException:
            for pool in (builder, parallel, alone):
                pool.shutdown(wait=False, cancel_futures=True)
            kill_all()
            raise
        finally:
            for pool in (builder, parallel, alone):
                pool.shutdown(wait=True)

    def _finished(self, fut: Future[Any], plan: Plan, parallel: ThreadPoolExecutor,
                  alone: ThreadPoolExecutor) -> None:
        what = self.pending.pop(fut)
        result = fut.result()
        if isinstance(what, RunJob):
            self.recorder.execution(what, result)
        else:
            self._built(what, plan, result, parallel, alone)
        if self.progress:
            self.progress.finished(_finished_line(what, result))
            self.progress.advance()
            self.progress.current(self._describe())

    def _describe(self) -> str:
        running = [what for f, what in self.pending.items() if f.running()]
        if not running:
            return "finishing"
        what = running[0]
        if isinstance(what, RunJob):
            return f"running {what.build.key} {what.group}"
        return f"building {what[0].key}"


def _finished_line(what: Todo | RunJob, result: Any) -> str:
    """The progress line of a finished step: `ran freertos/qemu-mps2-an386/default
    lat_ipc: ok (2.1 s)`, `built ...: ok (12 s)`."""
    if isinstance(what, RunJob):
        return (f"ran {what.build.key} {what.group}: {result.status} "
                f"({result.wall_s:.1f} s)")
    if isinstance(result, str):  # the RTOS tree is missing
        return f"not built {what[0].key}: {result}"
    return f"built {what[0].key}: {result.status} ({result.seconds:.0f} s)"
