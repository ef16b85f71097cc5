"""A board target's [board] table: which probe tool reaches the board and how.

    [board]
    probe = "pyocd"                 # pyocd (default) | openocd | gdb
    pyocd_target = "k64f"           # pyOCD's name for the chip
    pack = ""                       # pyOCD: CMSIS pack file for a chip not built in
    openocd = ["board/nxp_frdm-k64f.cfg"]   # OpenOCD -f files
    stream = "semihosting"          # or "rtt": the build writes the stream to an RTT
                                    # up-buffer (rtt.py), read by pyOCD or through gdb
    gdb = ""                        # gdb: HOST:PORT of a GDB server holding the board
    gdb_reset = "reset halt"        # gdb: the server's monitor command that resets and halts
                                    # after the load ("" = none: the server holds the core
                                    # at the firmware's start already)
    tested = false                  # whether it has run on the hardware (`list`)
    serial_baud = 115200            # its serial console's speed (`list`)

Which probe of several attached is used comes from the environment (it
differs per host, not per board): RTOSMETER_PROBE_UID (a labgrid place's
`probe_uid` tag sets `uid`, rtosmeter.farm.labgrid). RTOSMETER_PROBE
overrides the tool, and RTOSMETER_GDB_SERVER the gdb address, for one run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from rtosmeter.definitions import Target
from rtosmeter.errors import UserError
from rtosmeter.numbers import whole_or_none
from rtosmeter.toml_table import TomlTable

TOOLS = ("pyocd", "openocd", "gdb")
STREAMS = ("semihosting", "rtt")


@dataclass(frozen=True)
class BoardSettings:
    board: str  # the target's name, said in every error
    probe: str
    pyocd_target: str = ""
    pack: str = ""
    openocd: tuple[str, ...] = ()
    gdb: str = ""
    uid: str = ""  # the probe's unique ID ("" when a single probe is attached)
    gdb_reset: str = "reset halt"  # monitor command after loading through a GDB server

    def gdb_address(self) -> tuple[str, int]:
        host, _, port = self.gdb.rpartition(":")
        number = whole_or_none(port, 1, 65535)  # ASCII digits: "²".isdigit() is true
        if not host or number is None:
            raise UserError(f"gdb server '{self.gdb}' is not HOST:PORT",
                            f"board {self.board} ([board] gdb or RTOSMETER_GDB_SERVER)",
                            "Give the address of the GDB server, e.g. 127.0.0.1:3333")
        return host, number


def stream_of(target: Target) -> str:
    """How the firmware sends its stream: `[board] stream` (the build reads it)."""
    stream = str(target.board.get("stream", "semihosting"))
    if stream not in STREAMS:
        raise UserError(f"unknown stream '{stream}'", f"{target.file} (key 'board.stream')",
                        f"Use one of: {', '.join(STREAMS)}")
    return stream


def board_settings(target: Target) -> BoardSettings:
    """The target's [board] table, checked strictly, with the environment's overrides."""
    t = TomlTable(dict(target.board), target.file, "board.")
    probe = os.environ.get("RTOSMETER_PROBE") or t.text("probe", "pyocd")
    settings = BoardSettings(
        target.name, probe, t.text("pyocd_target", ""), t.text("pack", ""),
        t.strs("openocd", ()), os.environ.get("RTOSMETER_GDB_SERVER") or t.text("gdb", ""),
        os.environ.get("RTOSMETER_PROBE_UID") or t.text("uid", ""),
        t.text("gdb_reset", "reset halt"))
    stream_of(target)
    t.text("stream", "")
    t.flag("tested", False)  # definitions.board_of reads these two for `list`
    t.num("serial_baud", 0)
    t.done()
    if probe not in TOOLS:
        raise UserError(f"unknown probe tool '{probe}'", f"{target.file} (key 'board.probe')",
                        f"Use one of: {', '.join(TOOLS)}")
    needed = {"pyocd": ("pyocd_target", settings.pyocd_target),
              "openocd": ("openocd", settings.openocd), "gdb": ("gdb", settings.gdb)}[probe]
    if not needed[1]:
        raise UserError(f"board {target.name} runs through {probe} but names no "
                        f"'board.{needed[0]}'", str(target.file),
                        f"Add {needed[0]} to the [board] table")
    return settings
