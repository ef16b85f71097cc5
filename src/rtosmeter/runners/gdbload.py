"""Load a firmware through a GDB server, reset the core, leave it halted.

The plain `gdb` probe (a J-Link GDB server, `pyocd gdbserver`, OpenOCD's
port 3333, QEMU's gdbstub) has no programming API of its own: the ELF's
loadable segments go over the GDB remote protocol, as `gdb`'s `load` sends
them. A server that describes its memory (qXfer:memory-map:read) gets the
segments that fall in flash through vFlashErase/vFlashWrite/vFlashDone;
everything else is written with X (binary) where the server has it, else M
(hex). The reset is the server's own monitor command (`[board] gdb_reset`,
"reset halt" by default: OpenOCD, pyOCD and J-Link), so the core starts
from the vector table just written, as after a power-on.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from rtosmeter.runners.gdbremote import GdbError, GdbRemote

_PACKET_SIZE = re.compile(rb"PacketSize=([0-9a-fA-F]+)")
_ESCAPED = b"#$}*"


@dataclass(frozen=True)
class Segment:
    addr: int  # load (physical) address: where flash holds .data's image
    data: bytes


@dataclass(frozen=True)
class FlashRegion:
    start: int
    length: int
    block: int

    def holds(self, seg: Segment) -> bool:
        return self.start <= seg.addr and seg.addr + len(seg.data) <= self.start + self.length


def segments(elf: Path) -> list[Segment]:
    """The ELF's PT_LOAD contents at their load addresses (.bss is not sent)."""
    from elftools.elf.elffile import ELFFile  # pyelftools: not for `list`

    with elf.open("rb") as f:
        out = [Segment(seg["p_paddr"], seg.data()[:seg["p_filesz"]])
               for seg in ELFFile(f).iter_segments()
               if seg["p_type"] == "PT_LOAD" and seg["p_filesz"] > 0]
    if not out:
        raise GdbError(f"{elf} has no loadable segment")
    return out


def escape(data: bytes) -> bytes:
    """Binary packet data: #, $, } and * are sent as } then the byte xor 0x20."""
    out = bytearray()
    for b in data:
        if b in _ESCAPED:
            out += bytes((0x7D, b ^ 0x20))
        else:
            out.append(b)
    return bytes(out)


def flash_map(remote: GdbRemote, supported: bytes) -> list[FlashRegion]:
    if b"qXfer:memory-map:read+" not in supported:
        return []
    xml = b""
    while True:  # "m" more follows, "l" last part
        reply = remote.request(b"qXfer:memory-map:read::%x,fff" % len(xml))
        xml += reply[1:]
        if reply[:1] != b"m":
            break
    regions = []
    for mem in ET.fromstring(xml.decode()).iter("memory"):
        if mem.get("type") == "flash":
            block = next((int(p.text or "0", 0) for p in mem.iter("property")
                          if p.get("name") == "blocksize"), 0)
            regions.append(FlashRegion(int(mem.get("start", "0"), 0),
                                       int(mem.get("length", "0"), 0), block))
    return regions


def _write_flash(remote: GdbRemote, region: FlashRegion, segs: list[Segment],
                 chunk: int) -> None:
    block = max(region.block, 1)
    for seg in segs:
        start = seg.addr - (seg.addr - region.start) % block
        end = seg.addr + len(seg.data)
        end += -(end - region.start) % block
        remote.request(b"vFlashErase:%x,%x" % (start, end - start))
    for seg in segs:
        for at in range(0, len(seg.data), chunk):
            remote.request(b"vFlashWrite:%x:" % (seg.addr + at)
                           + escape(seg.data[at:at + chunk]))
    remote.request(b"vFlashDone")


def _write_ram(remote: GdbRemote, seg: Segment, chunk: int, binary: bool) -> None:
    for at in range(0, len(seg.data), chunk):
        part = seg.data[at:at + chunk]
        if binary:
            remote.request(b"X%x,%x:" % (seg.addr + at, len(part)) + escape(part))
        else:
            remote.request(b"M%x,%x:%s" % (seg.addr + at, len(part), part.hex().encode()))


def load(remote: GdbRemote, elf: Path) -> int:
    """Write the ELF's segments into the target; returns the bytes sent."""
    segs = segments(elf)
    supported = remote.request(b"qSupported:multiprocess+")
    size = _PACKET_SIZE.search(supported)
    packet = int(size.group(1), 16) if size else 400
    regions = flash_map(remote, supported)
    # X answered "" (unsupported) or OK to a zero-length write at the first segment.
    binary = remote.request(b"X%x,0:" % segs[0].addr) == b"OK"
    # Room for the command and the address: a binary byte may take two.
    chunk = max((packet - 32) // 2, 16)
    for region in regions:
        mine = [s for s in segs if region.holds(s)]
        if mine:
            _write_flash(remote, region, mine, chunk)
    ram = [s for s in segs if not any(r.holds(s) for r in regions)]
    for seg in ram:
        _write_ram(remote, seg, chunk, binary)
    return sum(len(s.data) for s in segs)
