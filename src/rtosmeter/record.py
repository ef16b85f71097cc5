"""The recorder: what was built and what ran -> one record each in the store.

Each execution's stream is parsed here, once: the parse gives the
execution's status and is stored with it, its cases kept as --bench chose
(calib.* always). A build that cannot be had (RTOS tree missing, a
toolchain the RTOS's code rejects, said in port.toml) and a combination the
plan skipped are stored with their reason, counted apart from failures.
"""

from __future__ import annotations

import fnmatch
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from rtosmeter.attribution.record import record as record_attribution
from rtosmeter.build import BuildResult, compiler_errors
from rtosmeter.catalog import Catalog
from rtosmeter.clocks import clock_info
from rtosmeter.definitions import Definitions, Target
from rtosmeter.errors import UserError
from rtosmeter.footprint import Reservations
from rtosmeter.footprint import footprint as elf_footprint
from rtosmeter.idle import plugin as idle_plugin
from rtosmeter.idle.stored import write_idle
from rtosmeter.plan import PlannedBuild
from rtosmeter.progress import Progress
from rtosmeter.protocol import ParsedStream, name_missing, parse_stream
from rtosmeter.qemu_binary import PLUGIN_FAILED
from rtosmeter.runners.base import RunnerOptions, RunOutcome
from rtosmeter.store import Store

ALWAYS_KEPT = ("calib.*",)  # cases kept whatever --bench says (overhead subtraction)


@dataclass
class RunJob:
    """One execution: one group's executable of a stored build."""

    build: PlannedBuild
    group: str
    build_id: int
    executable: Path
    target: Target
    options: RunnerOptions | None = None  # its runner's (rtosmeter.runners.runner_options)


@dataclass
class ExecutionRecord:
    """One execution as the store keeps it (Store.add_execution)."""

    status: str  # ok | failed | error
    error: str
    outcome: RunOutcome
    runner: dict[str, str]
    footprint: dict[str, Any]
    parsed: ParsedStream
    # every case the firmware ran, --bench or not: the idle windows are
    # numbered in the order all its cases opened them (idle.plugin.window_names)
    ran: ParsedStream


@dataclass
class Tally:
    """What the run's summary line counts."""

    builds_failed: int = 0
    executions: int = 0
    failed: int = 0
    not_run: int = 0
    not_run_reasons: list[str] = field(default_factory=list)


def _footprint(elf: Path, reservations: Reservations | None) -> dict[str, Any]:
    """Flash/RAM split of a firmware (rtosmeter.footprint), stored with its
    execution; `declared` says whether its port named its stacks and heaps
    (port.toml [footprint]), without which they stay in their parts."""
    try:
        data = asdict(elf_footprint(elf, reservations=reservations))
    except Exception as exc:  # footprint is extra information, not the run
        return {"error": f"{type(exc).__name__}: {exc}"}
    data.pop("symbols", None)  # per-symbol sizes stay in the map file next to the ELF
    data["declared"] = reservations is not None and reservations.declared
    return data


def kept_cases(parsed: ParsedStream, bench: str) -> ParsedStream:
    """The cases --bench asked for, and calib.* (the overhead subtracted)."""
    if bench in ("", "*"):
        return parsed
    globs = [g.strip() for g in bench.split(",") if g.strip()] + list(ALWAYS_KEPT)
    kept = [c for c in parsed.cases if any(fnmatch.fnmatchcase(c.id, g) for g in globs)]
    return replace(parsed, cases=kept)


CLOCK_FAILED = "rtosmeter: board clock set-up failed:"  # targets/common/cortex-m/clock_fail.c


def execution_status(outcome: RunOutcome, parsed: ParsedStream, job: RunJob
                     ) -> tuple[str, str]:
    """(status, error) of one execution from its outcome and its stream."""
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
    # a board whose clock set-up gave up before main said which flag (clock_fail.c)
    problems += [line for line in parsed.noise if line.startswith(CLOCK_FAILED)][:1]
    if parsed.errors:
        problems.append("stream: " + "; ".join(str(e) for e in parsed.errors[:5]))
    elif not parsed.complete:
        problems.append("stream ended without BYE")
    return ("ok", "") if not problems else ("failed", " | ".join(problems))


def runner_info(job: RunJob, outcome: RunOutcome, parsed: ParsedStream) -> dict[str, str]:
    """What the run records about its counter: the target's, or the one its
    runner gave the firmware (unit and rate as the firmware's HELLO says)."""
    # the idle summary goes to the idle table, not the runner info
    info = {k: v for k, v in outcome.info.items() if k != idle_plugin.PLUGIN_KEY}
    info.setdefault("runner", job.target.kind)
    own = job.options.counter(job.target) if job.options is not None else None
    if own is None:
        counter = job.target.counter
        info.update(unit=counter.unit, counter=counter.name, hz=str(counter.hz))
    else:
        hello = parsed.header
        info.update(unit=own.counter.unit, counter=own.counter.name,
                    hz=str(hello.get("hz", "")) if hello else "")
    info.update(clock_info(job.target, parsed.config, own is not None))
    return info


def make_record(job: RunJob, outcome: RunOutcome, cap_names: dict[int, str],
                reservations: Reservations | None = None) -> ExecutionRecord:
    """One execution's record; its stream parsed once. `reservations`: the
    stacks, heaps and object slots its port declares (port.toml [footprint])."""
    ran = parse_stream(outcome.stream)
    parsed = kept_cases(ran, job.build.bench)
    name_missing(parsed, cap_names)
    status, error = execution_status(outcome, parsed, job)
    # A footprint is a firmware's flash/RAM: cross-compiled images only.
    footprint = _footprint(job.executable, reservations) if job.target.toolchain else {}
    return ExecutionRecord(status, error, outcome, runner_info(job, outcome, parsed), footprint,
                           parsed, ran)


class Recorder:
    """Stores what the executor reports, into one run of the store."""

    def __init__(self, defs: Definitions, catalog: Catalog, store: Store, run_id: int,
                 progress: Progress | None = None, align: str = "") -> None:
        self.defs, self.store, self.run_id, self.progress = defs, store, run_id, progress
        self.cap_names = {cap.bit: name for name, cap in catalog.caps.items()}
        self.tally = Tally()
        self.align = align  # run --power: --align's choice (rtosmeter.runners.powered)
        self.said: set[str] = set()  # errors every execution repeats, said once in full

    def _energy(self, job: RunJob, execution_id: int, outcome: RunOutcome,
                rec: ExecutionRecord) -> None:
        """Align the execution's capture and store its energy per case; a
        capture that does not fit is an error of the run (the trace is kept)."""
        from rtosmeter.runners.powered import record as record_energy

        try:
            note = record_energy(self.store, execution_id, outcome.info, outcome.stream,
                                 rec.ran, rec.parsed, job.target, self.align)
        except UserError as exc:
            self.tally.failed += 1
            if self.progress:
                self.progress.warn(f"{job.build.key} group {job.group}: energy not stored: "
                                   f"{exc.message} (trace {outcome.info['power_trace']})")
            return
        if self.progress:
            self.progress.note(f"{job.build.key} group {job.group}: {note}")

    def skip(self, build: PlannedBuild, status: str, reason: str) -> None:
        """A combination that is not built here: stored with the reason,
        counted apart from failures (it is not an error of what ran)."""
        self.store.add_build(self.run_id, build.port, build.target, build.profile,
                             {"groups": ",".join(build.groups)}, status=status, error=reason,
                             axes=build.axes)
        self.tally.not_run += 1
        self.tally.not_run_reasons.append(f"{build.key} {status}: {reason}")
        if self.progress:
            self.progress.note(f"{build.key} not run here, {status}: {reason}")

    def build(self, build: PlannedBuild, result: BuildResult | str) -> int | None:
        """The build's row (None: not built here, stored as a skip); its
        groups that did not build are stored as errors."""
        if isinstance(result, str):  # RTOS source missing
            self.skip(build, "unsupported", result)
            return None
        limit = self.defs.port(build.port).toolchain_limit(build.toolchain,  # an instance's too
                                                           self.defs.targets[build.target])
        if result.status != "ok" and limit is not None:  # the RTOS's code, said in port.toml
            errors = compiler_errors(result) or [result.error.splitlines()[0]]
            self.skip(build, "unsupported",
                      f"{limit.why}. {result.config.get('compiler', build.toolchain)}: "
                      + " | ".join(errors) + f" (log: {result.log})")
            return None
        build_id = self.store.add_build(self.run_id, build.port, build.target, build.profile,
                                        result.config, status=result.status, error=result.error,
                                        axes=build.axes)
        if result.status != "ok":
            self.tally.builds_failed += 1
            if self.progress:
                self.progress.warn(result.error)
        for group, reason in result.failed_groups.items():
            self.store.add_execution(self.run_id, build_id, group, status="error",
                                     error=f"build failed: {reason}")
        return build_id

    def execution(self, job: RunJob, outcome: RunOutcome) -> None:
        rec = make_record(job, outcome, self.cap_names,
                          self.defs.port(job.build.port).reservations)
        if rec.runner.get("clock_warning") and self.progress:
            self.progress.note(f"{job.build.key}: warning: {rec.runner['clock_warning']}")
        execution_id = self.store.add_execution(
            self.run_id, job.build_id, job.group, status=rec.status, error=rec.error,
            exit_code=outcome.exit_code, wall_s=outcome.wall_s, runner=rec.runner,
            stream=outcome.stream, footprint=rec.footprint, elf=str(job.executable),
            parsed=rec.parsed)
        if rec.runner.get("attribution"):
            for note in record_attribution(self.store, execution_id, rec.ran,
                                            Path(rec.runner["attribution"])):
                if self.progress:
                    self.progress.note(f"{job.build.key} group {job.group}: {note}")
        for figures in idle_plugin.from_plugin(outcome.info, rec.ran):
            write_idle(self.store, execution_id, figures)
        if self.align and "power_trace" in outcome.info:  # run --power (rtosmeter.energy)
            self._energy(job, execution_id, outcome, rec)
        self.tally.executions += 1
        if rec.status != "ok":
            self.tally.failed += 1
            if self.progress:
                self.progress.warn(f"{job.build.key} group {job.group}: {self._once(rec.error)}")

    def _once(self, error: str) -> str:
        """A refused QEMU plugin fails every execution alike: in full the first
        time, then by reference."""
        if PLUGIN_FAILED not in error:
            return error
        if error in self.said:
            return f"{PLUGIN_FAILED} (as above)"
        self.said.add(error)
        return error

