"""A board through pyOCD's Python API: flash, reset, serve semihosting until exit.

pyOCD drives CMSIS-DAP, ST-Link and J-Link probes (J-Link through SEGGER's
library). The chip is `[board] pyocd_target`; a chip that pyOCD does not know
built in needs its CMSIS pack (`pack`, or `pyocd pack install <part>` once on
the board's host).
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from rtosmeter.energy.arrivals import Arrivals
from rtosmeter.errors import UserError
from rtosmeter.runners.board_settings import BoardSettings
from rtosmeter.runners.rtt import RttStream, rtt_address
from rtosmeter.runners.semihosting import Served, serve


def pyocd_version() -> str:
    try:
        from pyocd import __version__
    except ImportError:
        return ""
    return str(__version__)


class PyocdCore:
    """semihosting.Core over a pyOCD target."""

    def __init__(self, target: Any) -> None:
        from pyocd.core.target import Target

        self.target = target
        self.halted = Target.State.HALTED

    def resume(self) -> None:
        self.target.resume()

    def wait_halt(self, timeout_s: float) -> bool:
        until = time.monotonic() + timeout_s
        while self.target.get_state() != self.halted:
            if time.monotonic() >= until:
                return False
            time.sleep(0.0005)
        return True

    def pc(self) -> int:
        return int(self.target.read_core_register("pc"))

    def paused(self) -> AbstractContextManager[None]:
        return nullcontext()  # a probe reads memory while the core runs


def no_probe_message(settings: BoardSettings, found: list[str]) -> str:
    if not found:
        which = f"probe {settings.uid} (RTOSMETER_PROBE_UID)" if settings.uid else "debug probe"
        return (f"board {settings.board}: pyOCD finds no {which} attached (pyOCD target "
                f"{settings.pyocd_target}). Connect the board's debug USB port, check "
                "`pyocd list` and the udev rules (`rtosmeter doctor`)")
    return (f"board {settings.board}: {len(found)} debug probes attached ({', '.join(found)}); "
            "set RTOSMETER_PROBE_UID to the one wired to this board")


def run_pyocd(settings: BoardSettings, elf: Path, cap: int, wall_s: float,
              arrivals: Arrivals | None = None) -> Served:
    """Flash `elf`, reset, and serve the run; UserError when no single probe is there."""
    from pyocd.core.helpers import ConnectHelper
    from pyocd.flash.file_programmer import FileProgrammer

    probes = ConnectHelper.get_all_connected_probes(
        blocking=False, unique_id=settings.uid or None, print_wait_message=False)
    if len(probes) != 1:
        raise UserError(no_probe_message(settings, [p.unique_id for p in probes]),
                        f"board {settings.board}", "Attach the board, or run another target")
    options: dict[str, Any] = {"target_override": settings.pyocd_target}
    if settings.pack:
        options["pack"] = [settings.pack]
    session = ConnectHelper.session_with_chosen_probe(
        blocking=False, unique_id=probes[0].unique_id, options=options)
    if session is None:
        raise UserError(no_probe_message(settings, []), f"board {settings.board}",
                        "Attach the board, or run another target")
    with session:
        target = session.target
        FileProgrammer(session).program(str(elf))
        target.reset_and_halt()
        address = rtt_address(elf)
        rtt = RttStream(target, address) if address is not None else None
        return serve(PyocdCore(target), target.get_target_context(), cap, wall_s, rtt=rtt,
                     arrivals=arrivals)
