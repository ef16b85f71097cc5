"""Runners: run one built executable or firmware and capture its stream.

A runner is found by the target's kind: an entry point of that name in the
group `rtosmeter.runners`, else the module `rtosmeter.runners.<kind>`; either
gives a class implementing `base.Runner`. Adding a runner is adding one
module (or one installed package); nothing else names the kinds.
"""

from __future__ import annotations

import importlib
import importlib.util
from importlib.metadata import entry_points

from rtosmeter.definitions import Target
from rtosmeter.errors import UserError
from rtosmeter.runners.base import Runner, RunOutcome, RunRequest

GROUP = "rtosmeter.runners"


def runner_class(kind: str) -> type[Runner] | None:
    """The runner class for a target kind, or None when there is none."""
    for ep in entry_points(group=GROUP, name=kind):
        cls: type[Runner] = ep.load()
        return cls
    if importlib.util.find_spec(f"rtosmeter.runners.{kind}") is None:
        return None
    module = importlib.import_module(f"rtosmeter.runners.{kind}")
    found: type[Runner] = module.RUNNER
    return found


def _missing(target: Target) -> str:
    return (f"no runner for {target.kind} targets: add src/rtosmeter/runners/{target.kind}.py "
            f"or an entry point in the group {GROUP}")


def unavailable(target: Target) -> str:
    """Why this target's executions cannot run here ("" when they can)."""
    cls = runner_class(target.kind)
    return _missing(target) if cls is None else cls().available()


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
    "run_once",
    "runner_for",
    "unavailable",
]
