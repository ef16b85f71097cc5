"""A board through OpenOCD (Debian's package): flash, reset, semihosting until exit.

OpenOCD writes the firmware's ":tt" output to its own stdout (its log goes to
a file with -l) and exits with the firmware's status on SYS_EXIT_EXTENDED, so
the run is a child process like a host executable's: same limits, same
"everything received is kept".
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from rtosmeter.runners.board_settings import BoardSettings

OPENOCD = "openocd"
# What OpenOCD logs when no adapter of the config's kind is attached.
NO_PROBE = re.compile(r"open failed|unable to find|No J-Link device found|Can't find a"
                      r"|no device found|LIBUSB_ERROR", re.IGNORECASE)


def openocd_command(settings: BoardSettings, elf: Path, log: Path) -> list[str]:
    cmd = [OPENOCD, "-l", str(log)]
    for cfg in settings.openocd:
        cmd += ["-f", cfg]
    if settings.uid:
        cmd += ["-c", f"adapter serial {settings.uid}"]
    return [*cmd, "-c", f"program {elf} verify", "-c", "reset halt",
            "-c", "arm semihosting enable", "-c", "resume"]


def openocd_missing() -> str:
    return "" if shutil.which(OPENOCD) else f"missing {OPENOCD}: apt-get install openocd"


def no_probe_message(settings: BoardSettings, log: str) -> str:
    line = next((ln.strip() for ln in log.splitlines() if NO_PROBE.search(ln)), "")
    which = f"probe {settings.uid} (RTOSMETER_PROBE_UID)" if settings.uid else "debug probe"
    return (f"board {settings.board}: OpenOCD finds no {which} attached "
            f"({' '.join(settings.openocd)}: {line}). Connect the board's debug USB port, "
            "check the udev rules (`rtosmeter doctor`)")
