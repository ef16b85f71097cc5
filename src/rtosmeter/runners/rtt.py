"""The result stream out of a SEGGER RTT up-buffer, read with pyOCD's RTT code.

A firmware built with `[board] stream = "rtt"` (targets/common/cortex-m/rtt.c)
writes its records into the up-buffer of its `_SEGGER_RTT` control block;
the ELF's symbol says where it is, so nothing is searched. pyOCD's
`GenericRTTControlBlock` reads it through any object with pyOCD's memory
calls: a pyOCD target (reads while the core runs), or `gdbremote.GdbContext`
(the core is paused for each poll: QEMU's gdbstub reads memory only then).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rtosmeter.elf_symbols import symbol_address

RTT_SYMBOL = "_SEGGER_RTT"
RTT_ID_SIZE = 16


def rtt_address(elf: Path) -> int | None:
    """Where the firmware's RTT control block is; None when it was built without RTT."""
    return symbol_address(elf, RTT_SYMBOL)


class RttStream:
    """The up-buffer 0 of a control block at a known address."""

    def __init__(self, memory: Any, address: int) -> None:
        from pyocd.debug.rtt import GenericRTTControlBlock

        self.memory = memory
        self.address = address
        self.block = GenericRTTControlBlock(memory, address=address)
        self.channel: Any = None
        self.polls = 0
        self.bytes = 0

    def forget_previous_run(self) -> None:
        """Clear the id while the core is halted before its start: RAM keeps a
        previous run's block across a reset, which must not be read as this one's."""
        self.memory.write_memory_block8(self.address, bytes(RTT_ID_SIZE))

    def read(self) -> bytes:
        """What the firmware wrote since the last read; b"" before it set the block up."""
        from pyocd.core.exceptions import RTTError

        self.polls += 1
        if self.channel is None:
            try:
                self.block.start()
            except RTTError:  # the id is not there yet: the firmware has not written
                return b""
            self.channel = self.block.up_channels[0]
        data = bytes(self.channel.read())
        self.bytes += len(data)
        return data
