"""What every runner takes and returns, and the small protocol it implements.

A runner is one module in this package (or an entry point in the group
`rtosmeter.runners`) named after the target kind it runs (`kind = "qemu"` in
target.toml -> rtosmeter/runners/qemu.py), exposing `RUNNER`, a class with:

- `available() -> str`: "" when it can run here, else what is missing and how
  to install it;
- `prepare(request)`: take one execution's request;
- `run() -> RunOutcome`: run it, keeping everything received.

and the class attribute `exclusive`: True when its executions measure real
time, so the scheduler runs them one at a time after every build.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Protocol

from rtosmeter.definitions import Target
from rtosmeter.qemu_plugin import PluginSpec

# What one execution may write before it is stopped: far above a real stream
# (a full host group with 4,096 samples per series is ~300 kB), far below
# what would strain the harness's memory or the store.
STREAM_CAP = 64 << 20


@dataclass(frozen=True)
class RunRequest:
    executable: Path
    target: Target  # its kind picks the runner; limits and machine come from it
    icount: bool = True  # False: QEMU runs host-timed (noisy, labelled so)
    stream_cap: int = STREAM_CAP  # bytes of stream kept; more stops the execution
    plugin: PluginSpec | None = None  # QEMU: count with the rmcycles plugin (plugins/qemu)


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
