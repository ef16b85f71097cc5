"""A run's lifecycle: open it (new, or resumed with its stored plan), let the
executor build and run what is not stored yet, close it.

The plan comes from the planner (plan.py), the futures are the executor's
(execute.py), the records the recorder's (record.py). `--resume` skips the
groups already stored; a run interrupted by a signal is stored as
interrupted, its children ended; an empty run is not kept.
"""

from __future__ import annotations

import os
import platform
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rtosmeter import __version__
from rtosmeter.catalog import Catalog
from rtosmeter.definitions import Definitions, load_profile
from rtosmeter.errors import UserError
from rtosmeter.execute import Executor, Todo
from rtosmeter.model import FAIL_MARK, WARN_MARK
from rtosmeter.plan import Plan
from rtosmeter.progress import Progress
from rtosmeter.record import Recorder, Tally
from rtosmeter.runners import run_once
from rtosmeter.runners.base import RunOutcome, RunRequest
from rtosmeter.store import RunLock, Store, StoreError

Done = set[tuple[str, str, str, str, str]]  # Store.done_groups: what --resume skips


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

    def line(self, findings: int, warnings: int = 0) -> str:
        """"Run 3 done in 24 s: 24 executions, 0 failed, 0 builds failed, 2 not run
        here, 1 case with a failed check." """
        line = (f"Run {self.run_id} {self.status} in {self.seconds:.0f} s: "
                f"{self.executions} executions, {self.failed} failed, "
                f"{self.builds_failed} builds failed, {self.not_run} not run here")
        if findings:
            line += (f", {findings} case{'s' if findings != 1 else ''} failed "
                     f"(findings, marked {FAIL_MARK}; not a tool failure)")
        if warnings:  # QEMU guest errors, outliers...: listed in the Warnings table above
            line += (f", {warnings} warning{'s' if warnings != 1 else ''} ({WARN_MARK}, "
                     "see Warnings)")
        return line + "."


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
              ) -> tuple[int, Plan, Done, RunLock]:
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


def _nothing_ran(store: Store, run_id: int, plan: Plan, tally: Tally) -> UserError:
    """An empty run is not kept: `latest` stays the run before it."""
    store.delete_run(run_id)
    reasons = "; ".join(tally.not_run_reasons) or "the campaign selects no benchmark group"
    return UserError(f"nothing ran ({reasons})", f"campaign {plan.campaign}",
                     "Give missing RTOS trees with --source NAME=PATH, or choose ports and "
                     "targets that run here (`rtosmeter list`); nothing was stored")


def _todo(plan: Plan, done: Done, recorder: Recorder) -> list[Todo]:
    """What to build and run: the planned builds less their stored groups;
    the skipped ones are stored with their reason."""
    todo: list[Todo] = []
    for planned in plan.builds:
        if planned.skip_status:
            recorder.skip(planned, planned.skip_status, planned.skip_reason)
            continue
        groups = [g for g in planned.groups if (*planned.done_key, g) not in done]
        if groups:
            todo.append((planned, groups))
    return todo


def execute(defs: Definitions, catalog: Catalog, store: Store, out: Path, plan: Plan | None,
            resume: int | None = None, quiet: bool | None = None,
            progress: Progress | None = None,
            run: Callable[[RunRequest], RunOutcome] = run_once) -> RunSummary:
    """Run a plan (or resume a stored run, whose plan is reused) into the store;
    `run` runs one execution (a farm's, to run elsewhere). One run at a
    time builds and runs in one campaign folder (Store.lock_out)."""
    out_lock = store.lock_out()
    try:
        return _execute(defs, catalog, store, out, plan, resume, quiet, progress, run)
    finally:
        out_lock.release(unlink=False)  # unlinked, a waiting opener could lock a lost file


def _execute(defs: Definitions, catalog: Catalog, store: Store, out: Path, plan: Plan | None,
             resume: int | None, quiet: bool | None, progress: Progress | None,
             run: Callable[[RunRequest], RunOutcome]) -> RunSummary:
    started = time.monotonic()
    run_id, plan, done, lock = _open_run(defs, store, plan, resume)
    progress = progress or Progress(sum(len(b.groups) + 1 for b in plan.builds), quiet)
    recorder = Recorder(defs, catalog, store, run_id, progress,
                        plan.align if plan.power else "")
    try:
        with progress.running():
            Executor(defs, catalog, out, recorder, progress, run).run(
                plan, _todo(plan, done, recorder))
    except KeyboardInterrupt as exc:
        _close_run(store, run_id, "interrupted", lock)
        raise RunInterrupted(run_id, getattr(exc, "signum", signal.SIGINT)) from None
    except UserError:
        # A configuration error (a bad --source tree...) before anything ran is
        # not an interrupted run: keeping it would shift latest~1.
        if resume is None and not store.executions(run_id):
            lock.release()
            store.delete_run(run_id)
        else:
            _close_run(store, run_id, "interrupted", lock)
        raise
    except BaseException:
        _close_run(store, run_id, "interrupted", lock)
        raise
    tally = recorder.tally
    # Empty: nothing executed and nothing failed to build (a failed build is a
    # result the user must see: it is kept, and the run exits 1 for it).
    if resume is None and not store.executions(run_id) and not tally.builds_failed:
        lock.release()
        raise _nothing_ran(store, run_id, plan, tally)
    _close_run(store, run_id, "done", lock)
    return RunSummary(run_id, "done", time.monotonic() - started, tally.executions,
                      tally.failed, tally.builds_failed, tally.not_run)
