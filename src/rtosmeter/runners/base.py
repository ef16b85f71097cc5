"""What every runner takes and returns, and the small protocol it implements.

A runner is one module in this package (or an entry point in the group
`rtosmeter.runners`) named after the target kind it runs (`kind = "qemu"` in
target.toml -> rtosmeter/runners/qemu.py), exposing `RUNNER`, a class with:

- `available() -> str`: "" when it can run here, else what is missing and how
  to install it;
- `prepare(request)`: take one execution's request;
- `run() -> RunOutcome`: run it, keeping everything received.

and the class attribute `exclusive`: True when its executions measure real
time, so the executor runs them one at a time after every build.

A runner may also define, as static methods:

- `resolve_unit(requested, target, measure, where) -> Unit`: what
  its executions count (without it: the target's own counter, TICKS);
- `options_for(measure, target) -> RunnerOptions`: what its executions take
  beyond the executable (runners/qemu.py: -icount and the plugin), from the
  plan's measurement choices; `RunnerOptions.counter` then names the counter
  the firmware must be built to read;
- `firmware_defines(target) -> dict[str, str]`: rm_build_config.h entries
  the firmware needs to talk to it (runners/board.py: the RTT stream).

so that neither the planner, the build nor the executor names a kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Protocol

from rtosmeter.board_memory import BoardMemory
from rtosmeter.definitions import FirmwareCounter, Target
from rtosmeter.energy.arrivals import Arrivals
from rtosmeter.measure import DEFAULT_DIV, Unit

# What one execution may write before it is stopped: far above a real stream
# (a full host group with 4,096 samples per series is ~300 kB), far below
# what would strain the harness's memory or the store.
STREAM_CAP = 64 << 20


@dataclass(frozen=True)
class Measure:
    """One build's measurement choices, as the plan resolved them once: each
    runner makes of them what its kind can (runners/qemu.py: -icount and the
    rmcycles plugin; hosts and boards keep their own counter), so neither the
    planner nor the build names a runner."""

    unit: Unit = Unit.TICKS
    icount: bool = True  # False: emulated runs are host-timed (noisy, labelled so)
    ws: int = 0  # cycles: flash wait states
    div: int = DEFAULT_DIV  # cycles: SDIV/UDIV cycles
    board: BoardMemory | None = None  # cycles: estimated as on this board (--as-board)
    qemu: str = ""  # emulated runs: the QEMU binary (--qemu; rtosmeter.qemu_binary), "": default
    attribute: bool = False  # plugin runs: per-function attribution too (--attribute)


class RunnerOptions:
    """What one runner kind takes beyond the executable and its target, made
    by that runner's `options_for`; a runner given none (or another kind's)
    runs with its defaults."""

    def counter(self, target: Target) -> FirmwareCounter | None:
        """The counter the firmware must read instead of the target's (None:
        the target's own)."""
        return None


@dataclass(frozen=True)
class RunRequest:
    executable: Path
    target: Target  # its kind picks the runner; limits and machine come from it
    stream_cap: int = STREAM_CAP  # bytes of stream kept; more stops the execution
    options: RunnerOptions | None = None  # the runner's own (runners/qemu.py QemuOptions)
    arrivals: Arrivals | None = None  # note when the stream grew (a power capture's alignment)


@dataclass
class RunOutcome:
    """Everything received is kept, whatever happened."""

    stream: bytes
    status: str  # ok | exit (non-zero exit) | fault | timeout | overflow (stream cap) | crash
    #              | error
    exit_code: int | None
    message: str  # human-readable: what happened and a hint
    wall_s: float
    info: dict[str, str] = field(default_factory=dict)  # runner, command, versions, shift


def stream_cap_message(exe: Path, cap: int) -> str:
    mib = f"{cap / (1 << 20):g} MiB"
    return (f"Error: {exe.name} wrote more than {mib} of stream in {exe} and was stopped; "
            f"the first {mib} are kept. A case floods its console (samples beyond what HELLO "
            "announced, or a print in a loop): fix the case, or lower samples in the profile")


class Runner(Protocol):
    name: ClassVar[str]
    exclusive: ClassVar[bool]

    def available(self) -> str: ...

    def prepare(self, request: RunRequest) -> None: ...

    def run(self) -> RunOutcome: ...


POLL_S = 0.001  # between looks while a power capture runs: a gap of a millisecond or so


def looking(arrivals: Arrivals | None, console: Path, poll_s: float
            ) -> tuple[float, Callable[[], str]]:
    """(poll period, check) for children.watch on a console file: with
    `arrivals`, a look every POLL_S that notes the file's size."""
    if arrivals is None:
        return poll_s, lambda: ""

    def look() -> str:
        arrivals.note(console.stat().st_size)
        return ""

    return min(poll_s, POLL_S), look
