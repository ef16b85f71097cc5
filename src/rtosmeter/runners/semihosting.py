"""Serve a halted core's semihosting calls with pyOCD's own agent, until the firmware exits.

pyOCD's SemihostAgent handles SYS_OPEN/SYS_WRITE but not SYS_EXIT nor
SYS_EXIT_EXTENDED (pyOCD issue #1521): `ExitingAgent` adds both and records
the status, which ends the loop. The console keeps the stream in memory up to
the cap. The loop works on any debug context pyOCD's agent accepts: a pyOCD
target's, or `gdbremote.GdbContext` (a GDB server such as QEMU's gdbstub).
Each SYS_WRITE halts the core while the host reads the bytes: figures are
unaffected (timestamps are taken on the core), only the wall time grows. A
firmware built for RTT (rtt.py) writes its stream to RAM instead, and the
loop reads it while the core runs; semihosting then serves only the exit.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from pyocd.debug.semihost import SemihostAgent, SemihostingRequests, SemihostIOHandler

from rtosmeter.energy.arrivals import Arrivals
from rtosmeter.runners.rtt import RttStream

ADP_STOPPED_APPLICATION_EXIT = 0x20026
RTT_POLL_S = 0.005  # between reads of an RTT up-buffer: it holds 1 KiB, the firmware waits


class StreamConsole(SemihostIOHandler):  # type: ignore[misc]
    """The firmware's stdout and stderr (":tt"), kept in memory up to `cap` bytes."""

    def __init__(self, cap: int, arrivals: Arrivals | None = None) -> None:
        super().__init__()
        self.cap = cap
        self.arrivals = arrivals
        self.data = bytearray()
        self.overflow = False

    def open(self, fnptr: int, fnlen: int, mode: str) -> int:
        fd, _ = self._std_open(fnptr, fnlen, mode)
        return fd if isinstance(fd, int) else -1  # no host files for a benchmark

    def write(self, fd: int, ptr: int, length: int) -> int:
        assert self.agent is not None
        self.take(bytes(self.agent.get_data(ptr, length)))
        return 0  # bytes not written

    def take(self, chunk: bytes) -> None:
        """Keep `chunk` (a semihosting write, an RTT read) up to the cap."""
        room = self.cap - len(self.data)
        self.data += chunk[:max(room, 0)]
        self.overflow = self.overflow or len(chunk) > room
        if self.arrivals is not None and chunk:
            self.arrivals.note(len(self.data))


class ExitingAgent(SemihostAgent):  # type: ignore[misc]
    """pyOCD's agent plus the two exit calls: the status ends the run."""

    exit_status: int | None = None

    def _exit(self, args: int) -> int:
        self.exit_status = 0 if args == ADP_STOPPED_APPLICATION_EXIT else 1
        return 0

    def _exit_extended(self, args: int) -> int:
        reason, status = self._get_args(args, 2)
        self.exit_status = status if reason == ADP_STOPPED_APPLICATION_EXIT else (status or 1)
        return 0

    _REQUEST_MAP: ClassVar[dict[int, Callable[[Any, int], int]]] = {
        **SemihostAgent._REQUEST_MAP,
                    SemihostingRequests.SYS_EXIT: _exit,
                    SemihostingRequests.SYS_EXIT_EXTENDED: _exit_extended}


class Core(Protocol):
    """What the loop needs besides the debug context: run, learn of a halt,
    and pause for memory reads where the debugger cannot read a running core."""

    def resume(self) -> None: ...

    def wait_halt(self, timeout_s: float) -> bool: ...

    def pc(self) -> int: ...

    def paused(self) -> AbstractContextManager[None]: ...


@dataclass
class Served:
    stream: bytes
    exit_status: int | None
    ended: str  # exit | overflow | timeout | halt (stopped, not for semihosting)
    calls: int  # semihosting requests served
    pc: int = 0  # where the core stopped when it halted for something else


def serve(core: Core, context: Any, cap: int, wall_s: float,
          stop: Callable[[], bool] = lambda: False, rtt: RttStream | None = None,
          arrivals: Arrivals | None = None) -> Served:
    """Resume the core and answer its semihosting requests until it exits,
    halts for another reason, overflows the cap or runs past `wall_s`; with
    `rtt`, the stream is read from the RTT up-buffer every RTT_POLL_S and at
    every halt (the exit included, so nothing written before it is lost)."""
    console = StreamConsole(cap, arrivals)
    agent = ExitingAgent(context, io_handler=console, console=console)
    deadline = time.monotonic() + wall_s
    calls = 0
    if rtt is not None:
        rtt.forget_previous_run()
    core.resume()
    try:
        while True:
            wait = 0.5 if rtt is None else RTT_POLL_S
            if not core.wait_halt(min(wait, max(deadline - time.monotonic(), 0.0))):
                if rtt is not None:
                    with core.paused():
                        console.take(rtt.read())
                    if console.overflow:
                        return Served(bytes(console.data), None, "overflow", calls)
                if time.monotonic() >= deadline or stop():
                    return Served(bytes(console.data), None, "timeout", calls)
                continue
            if rtt is not None:
                console.take(rtt.read())
            if not agent.check_and_handle_semihost_request():
                return Served(bytes(console.data), None, "halt", calls, core.pc())
            calls += 1
            if agent.exit_status is not None:
                return Served(bytes(console.data), agent.exit_status, "exit", calls)
            if console.overflow:
                return Served(bytes(console.data), None, "overflow", calls)
            core.resume()
    finally:
        agent.cleanup()
