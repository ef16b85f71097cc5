"""What every runner takes and returns (one module per runner implements it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol


@dataclass(frozen=True)
class RunRequest:
    executable: Path
    target: str  # target name, e.g. "qemu-mps2-an386"
    machine: str = ""  # QEMU machine, e.g. "mps2-an386"
    cpu: str = ""
    icount_shift: int | None = 6  # None: host-timed QEMU run (noisy, labelled so)
    wall_limit_s: float = 120.0  # real time before the run is killed as hung
    guest_limit_s: float = 60.0  # virtual time limit under emulation
    extra_args: tuple[str, ...] = ()


@dataclass
class RunOutcome:
    """Everything received is kept, whatever happened."""

    stream: bytes
    status: str  # ok | exit (non-zero exit) | fault | timeout | crash | error
    exit_code: int | None
    message: str  # human-readable: what happened and a hint
    wall_s: float
    info: dict[str, str] = field(default_factory=dict)  # runner, command, versions, shift


class Runner(Protocol):
    name: str

    def run(self, request: RunRequest) -> RunOutcome: ...
