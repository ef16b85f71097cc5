"""Load profiles (docs/benchmarks.md §4): the background work a loaded
firmware runs during every case, parsed from `--load` and a campaign's
`loads`.

A loaded build is its profile plus the load: the profile called
`<profile>+<load>` (e.g. `default+irq:2000:50`), so that the store, the
reports and `compare` keep loaded figures apart from idle ones with no new
column, and reports/load.py pairs each with the same case idle. `idle` is no
load at all: the profile itself, whose firmware has no load code.
The C side is bench/core/load.c; the kinds' names are RM_LOAD_KIND_<KIND>.
The net-* kinds (net-accept, net-reject, net-forward) feed the OS's own
network stack through the port's virtual radio with the frame trace of
rtosmeter.net.trace, at the rate in packets per second of target time;
net-idle builds and brings up the same stack and sends nothing (the study's
idle state: "the network stack always initialised").
"""

from __future__ import annotations

from dataclasses import dataclass

from rtosmeter.errors import UserError
from rtosmeter.numbers import shown, whole_or_none

IDLE = "idle"
SEPARATOR = "+"  # <profile>+<load>
MAX_HZ = 1_000_000
MAX_WORK = 100_000
MAX_TASKS = 8  # RM_PRIO_MAX downwards: above every case thread, below the runner
NET_DEFAULTS = (2000, 64)  # accept/reject/forward: packets per second, work units
STACK_HZ = 230  # net-*: the Silva et al. 2019 study's packets per second
STACK_KINDS = ("net-idle", "net-accept", "net-reject", "net-forward")
NET_IDLE = STACK_KINDS[0]

SYNTAX = ("idle, irq:<hz>:<work>, tasks:<n>[:<calls>], accept[:<hz>[:<work>]], "
          "reject[:<hz>[:<work>]], forward[:<hz>[:<work>]], net-idle, net-accept[:<hz>], "
          "net-reject[:<hz>], net-forward[:<hz>]")


@dataclass(frozen=True)
class Load:
    """One load profile with every parameter filled in."""

    kind: str  # irq | tasks | accept | reject | forward | net-idle | net-accept | ...
    hz: int = 0  # interrupt rate (irq and the network-style kinds)
    work: int = 0  # rm_spin units per event, or give/take pairs per tick (tasks)
    tasks: int = 0  # tasks: how many

    @property
    def name(self) -> str:
        """The canonical spelling: the same load always has the same name."""
        if self.kind == "tasks":
            return f"tasks:{self.tasks}:{self.work}"
        if self.kind == "net-idle":
            return self.kind
        if self.kind in STACK_KINDS:
            return f"{self.kind}:{self.hz}"
        return f"{self.kind}:{self.hz}:{self.work}"

    @property
    def net_state(self) -> str:
        """accept, reject or forward for a net-* load (the trace's state), else ""."""
        return self.kind.removeprefix("net-") if self.kind in STACK_KINDS else ""

    def defines(self) -> dict[str, str]:
        """The rm_build_config.h lines load.c reads."""
        kind = self.kind.upper().replace("-", "_")
        out = {"RM_LOAD_KIND": f"RM_LOAD_KIND_{kind}",
               "RM_LOAD_NAME": f'"{self.name}"', "RM_LOAD_HZ": f"{self.hz}u",
               "RM_LOAD_WORK": f"{self.work}u", "RM_LOAD_TASKS": f"{self.tasks}u"}
        if self.net_state:  # the port's network stack and rm_net_trace.h
            out["RM_LOAD_NET"] = "1"
        return out


def _int(text: str, what: str, low: int, high: int, spec: str, where: str) -> int:
    value = whole_or_none(text, low, high)  # ASCII digits: not "+5", not Arabic-Indic
    if value is None:
        raise UserError(f"load {shown(spec)}: {what} must be a whole number from {low} to "
                        f"{high}", where, f"Load profiles: {SYNTAX}")
    return value


def parse(spec: str, where: str) -> Load | None:
    """A load from its spelling; None for idle. `where` names the option or file."""
    parts = spec.strip().split(":")
    kind, args = parts[0], parts[1:]
    if kind == IDLE and not args:
        return None
    if kind == "irq" and len(args) == 2:
        return Load("irq", _int(args[0], "the rate (Hz)", 1, MAX_HZ, spec, where),
                    _int(args[1], "the work", 0, MAX_WORK, spec, where))
    if kind == "tasks" and len(args) in (1, 2):
        calls = args[1] if len(args) == 2 else "8"
        return Load("tasks", 0, _int(calls, "the calls per tick", 1, MAX_WORK, spec, where),
                    _int(args[0], "the task count", 1, MAX_TASKS, spec, where))
    if kind in ("accept", "reject", "forward") and len(args) <= 2:
        hz, work = (args + [str(d) for d in NET_DEFAULTS][len(args):])[:2]
        return Load(kind, _int(hz, "the packet rate (Hz)", 1, MAX_HZ, spec, where),
                    _int(work, "the work", 0, MAX_WORK, spec, where))
    if kind == "net-idle" and not args:
        return Load(kind)
    if kind in STACK_KINDS[1:] and len(args) <= 1:
        hz = args[0] if args else str(STACK_HZ)
        return Load(kind, _int(hz, "the packet rate (Hz)", 1, MAX_HZ, spec, where))
    raise UserError(f"unknown load profile '{spec}'", where, f"Load profiles: {SYNTAX}")


def baseline(spec: str, where: str) -> str:
    """The load a loaded figure's change is read against: net-idle for the
    stack's traffic (the stack up, no frame: the change is the traffic
    alone, the Silva study's Table II), idle for any other load."""
    parsed = parse(spec, where)
    return NET_IDLE if parsed is not None and parsed.net_state in ("accept", "reject",
                                                                     "forward") else IDLE


def with_idle(loads: tuple[str, ...], where: str) -> tuple[str, ...]:
    """The loads of a run, with idle first unless named: a loaded figure is
    read as its change against the same case idle (the load view), so a run
    with any load also builds the idle firmware."""
    return loads if any(parse(spec, where) is None for spec in loads) else (IDLE, *loads)


def profile_name(profile: str, load: str, where: str) -> str:
    """The loaded profile's name: the profile itself for idle."""
    parsed = parse(load, where)
    return profile if parsed is None else f"{profile}{SEPARATOR}{parsed.name}"


def split(profile_name: str) -> tuple[str, str]:
    """(base profile, load name or "idle") of a stored profile name."""
    base, sep, load = profile_name.partition(SEPARATOR)
    return base, load if sep else IDLE
