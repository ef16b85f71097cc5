"""Compare two slices of one run: two profiles, versions, ports or targets.

`compare` matches figures by system (port, target, profile) and case. To set
two profiles (or versions, ports, targets) of one run against each other,
each slice is taken out of the run and the compared coordinate is replaced,
in both, by one label (`default→vendor`): the figures then meet under the
same key and go through the very statistics and verdicts of two runs
(compare.compare), so `--by` and two runs cannot disagree. A version is the
label of a port instance (`freertos@V9.0.0`, instances.py): its slice keeps
the instances with that label, whatever the port.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from rtosmeter import instances
from rtosmeter.errors import UserError

if TYPE_CHECKING:  # numpy and scipy: not for `compare --help`, which reads DIMENSIONS
    from rtosmeter.compare import Comparison, Key, RunSamples, Samples, System
    from rtosmeter.model import BuildInfo, CaseResult
    from rtosmeter.store import Store

DIMENSIONS = ("profile", "version", "port", "target")
Located = TypeVar("Located", "CaseResult", "BuildInfo")


def value_of(by: str, system: System) -> str:
    """The coordinate `by` of a system."""
    port, target, profile, _ = system
    if by == "version":
        return instances.split(port, "--by version")[1]
    return {"port": port, "target": target, "profile": profile}[by]


def _relabel(by: str, merged: str) -> Callable[[System], System]:
    def relabel(system: System) -> System:
        port, target, profile, axes = system  # the toolchain axis stays apart
        if by == "version":
            return instances.join(instances.split(port)[0], merged), target, profile, axes
        if by == "port":
            return merged, target, profile, axes
        if by == "target":
            return port, merged, profile, axes
        return port, target, merged, axes
    return relabel


def _slice(rs: RunSamples, by: str, value: str, relabel: Callable[[System], System]
           ) -> RunSamples:
    from rtosmeter.compare import RunSamples, system_of

    def keep(system: System) -> bool:
        return value_of(by, system) == value

    def new(obj: Located, system: System) -> Located:
        port, target, profile, _ = relabel(system)
        return dataclasses.replace(obj, port=port, target=target, profile=profile)

    view = rs.view
    cases = [new(c, s) for c in view.cases if keep(s := system_of(c))]
    builds = [new(b, s) for b in view.builds if keep(s := system_of(b))]
    samples: dict[Key, Samples] = {}
    units: dict[Key, str] = {}
    for key, values in rs.samples.items():
        if keep(key[:4]):
            new_key: Key = (*relabel(key[:4]), key[4], key[5])
            samples[new_key], units[new_key] = values, rs.units[key]
    deterministic = {relabel(s): d for s, d in rs.deterministic.items() if keep(s)}
    return RunSamples(dataclasses.replace(view, cases=cases, builds=builds), samples, units,
                      deterministic)


def split(rs: RunSamples, by: str, a: str, b: str) -> tuple[RunSamples, RunSamples]:
    """The slices `by`=`a` and `by`=`b` of one run, relabelled to meet."""
    if by not in DIMENSIONS:
        raise UserError(f"cannot compare by '{by}'", "--by",
                        f"Compare by one of {', '.join(DIMENSIONS)}")
    if a == b:
        raise UserError(f"--by {by} names '{a}' twice", "--by",
                        f"Name two different {by}s of run {rs.view.run_id}")
    from rtosmeter.compare import system_of

    present = sorted({value_of(by, system_of(c)) for c in rs.view.cases})
    for value in (a, b):
        if value not in present:
            raise UserError(
                f"run {rs.view.run_id} has no {by} '{value}'", "--by",
                f"Name {by}s the run holds: {', '.join(v or '(none)' for v in present)}")
    relabel = _relabel(by, f"{a}→{b}")
    return _slice(rs, by, a, relabel), _slice(rs, by, b, relabel)


def compare_within(store: Store, run: int, by: str, a: str, b: str, threshold: float,
                   alpha: float, exact_threshold: float = 0.0) -> Comparison:
    """Within run `run`, `by`=`b` against `by`=`a` (B against A, as for two runs)."""
    from rtosmeter import compare as comparing

    slice_a, slice_b = split(comparing.load_samples(store, run), by, a, b)
    return comparing.compare(slice_a, slice_b, threshold, alpha,
                             (f"run {run} {by} {a}", f"run {run} {by} {b}"), exact_threshold)
