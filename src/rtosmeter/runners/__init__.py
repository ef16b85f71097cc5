"""Runners: run one built executable or firmware and capture its stream.

A runner is found by the target's kind: an entry point of that name in the
group `rtosmeter.runners`, else the module `rtosmeter.runners.<kind>`; either
gives a class implementing `base.Runner`. Adding a runner is adding one
module (or one installed package); nothing else names the kinds.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import sys
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from rtosmeter.definitions import Target
from rtosmeter.errors import UserError
from rtosmeter.measure import Unit
from rtosmeter.runners.base import Measure, Runner, RunnerOptions, RunOutcome, RunRequest

GROUP = "rtosmeter.runners"


def runner_class(kind: str) -> type[Runner] | None:
    """The runner class for a target kind, or None when there is none."""
    if (ep := _entry_points(tuple(sys.path)).get(kind)) is not None:
        cls: type[Runner] = ep.load()
        return cls
    if importlib.util.find_spec(f"rtosmeter.runners.{kind}") is None:
        return None
    module = importlib.import_module(f"rtosmeter.runners.{kind}")
    found: type[Runner] = module.RUNNER
    return found


@functools.cache
def _entry_points(path: tuple[str, ...]) -> dict[str, EntryPoint]:
    """The group's entry points by name, read once per `sys.path` (reading
    every installed package's metadata is most of `rtosmeter list`'s time)."""
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=GROUP):
        found.setdefault(ep.name, ep)  # the first, as entry_points(name=) gives
    return found


def _missing(target: Target) -> str:
    return (f"no runner for {target.kind} targets: add src/rtosmeter/runners/{target.kind}.py "
            f"or an entry point in the group {GROUP}")


def unavailable(target: Target, measure: Measure | None = None) -> str:
    """Why this target's executions cannot run here ("" when they can), as
    the plan's `measure` runs them (a runner's `available_with`, else its
    `available`)."""
    cls = runner_class(target.kind)
    if cls is None:
        return _missing(target)
    hook = getattr(cls, "available_with", None)
    if hook is not None and measure is not None:
        why: str = hook(measure)
        return why
    return cls().available()


def is_exclusive(target: Target) -> bool:
    """Whether the target's executions must run alone, after every build."""
    cls = runner_class(target.kind)
    return bool(cls and cls.exclusive)


def _hook(target: Target, name: str) -> Any:
    """A runner's optional static method (base.py), or None."""
    return getattr(runner_class(target.kind), name, None)


def resolve_unit(target: Target, requested: str | None, measure: Measure, where: str) -> Unit:
    """What executions on `target` count, for `--unit requested` (None: the
    default); a runner without units of its own counts with the target's
    counter whatever is asked."""
    hook = _hook(target, "resolve_unit")
    if hook is None:
        return Unit.TICKS
    unit: Unit = hook(requested, target, measure, where)
    return unit


def runner_options(target: Target, measure: Measure) -> RunnerOptions | None:
    """The options the target's runner makes of the plan's `measure`."""
    hook = _hook(target, "options_for")
    if hook is None:
        return None
    options: RunnerOptions = hook(measure, target)
    return options


def firmware_defines(target: Target) -> dict[str, str]:
    """rm_build_config.h entries the firmware needs to talk to its runner."""
    hook = _hook(target, "firmware_defines")
    return {} if hook is None else dict(hook(target))


def runner_for(target: Target) -> Runner:
    cls = runner_class(target.kind)
    if cls is None:
        raise UserError(_missing(target), f"target {target.name}",
                        f"Use a target with a runner, or fix kind in {target.file}")
    return cls()


def run_once(request: RunRequest) -> RunOutcome:
    """Prepare and run one execution with the runner of its target."""
    runner = runner_for(request.target)
    runner.prepare(request)
    return runner.run()


__all__ = [
    "RunOutcome",
    "RunRequest",
    "Runner",
    "RunnerOptions",
    "firmware_defines",
    "is_exclusive",
    "resolve_unit",
    "run_once",
    "runner_for",
    "runner_options",
    "unavailable",
]
