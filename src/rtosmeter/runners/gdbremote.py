"""pyOCD's debug-context calls served over the GDB remote protocol.

pyOCD's semihosting agent asks a debug context for memory and core
registers; `GdbContext` answers those calls from any GDB server: QEMU's
gdbstub (`-gdb tcp:HOST:PORT -S`), `pyocd gdbserver` or OpenOCD on a lab
host, a J-Link GDB server. A real core halts on `bkpt 0xab` and sets
DFSR.BKPT; QEMU's gdbstub does not halt on it (the core escalates it to a
fault), so the adapter sets a hardware breakpoint at every `bkpt 0xab` of
the firmware and reports DFSR.BKPT when the core stops on one, as halting
debug would. The protocol is the small subset the loop needs: c, m, M, g,
G, Z1, with acknowledgements.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

DFSR = 0xE000ED30
DFSR_BKPT = 0x2
SEMIHOST_BKPT = b"\xab\xbe"  # bkpt 0xab, little-endian Thumb
REGISTERS = {**{f"r{i}": i for i in range(13)}, "sp": 13, "lr": 14, "pc": 15}
_STOP = re.compile(rb"^[ST]([0-9a-fA-F]{2})")


class GdbError(OSError):
    """The GDB server went away or refused a request."""


def semihost_sites(elf: Path) -> list[int]:
    """Addresses of every `bkpt 0xab` in the firmware's code."""
    from elftools.elf.constants import SH_FLAGS  # pyelftools: not for `list`
    from elftools.elf.elffile import ELFFile

    sites: list[int] = []
    with elf.open("rb") as f:
        for section in ELFFile(f).iter_sections():
            code = section["sh_flags"] & SH_FLAGS.SHF_EXECINSTR
            if not code or section["sh_type"] == "SHT_NOBITS":
                continue
            data, base = section.data(), section["sh_addr"]
            sites += [base + i for i in range(0, len(data) - 1, 2)
                      if data[i:i + 2] == SEMIHOST_BKPT]
    return sites


class GdbRemote:
    """One connection to a GDB server (packets, checksums, acknowledgements)."""

    def __init__(self, host: str, port: int, timeout_s: float = 5.0) -> None:
        self.address = f"{host}:{port}"
        until = time.monotonic() + timeout_s
        while True:  # a server just started may not listen yet
            try:
                self.sock = socket.create_connection((host, port), timeout=timeout_s)
                break
            except ConnectionRefusedError as exc:
                if time.monotonic() >= until:
                    raise GdbError(f"no GDB server at {self.address} "
                                   f"({exc.strerror or exc})") from exc
                time.sleep(0.1)
            except OSError as exc:
                raise GdbError(f"no GDB server at {self.address} ({exc.strerror or exc})") from exc
        # Small request/reply packets: without this, Nagle's algorithm and delayed
        # acknowledgements add ~40 ms to every one.
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def close(self) -> None:
        self.sock.close()

    def send(self, payload: bytes) -> None:
        self.sock.sendall(b"$%s#%02x" % (payload, sum(payload) & 0xFF))

    def receive(self, timeout_s: float | None = 10.0) -> bytes | None:
        """The next packet's payload; None when none came within `timeout_s`."""
        self.sock.settimeout(timeout_s)
        while True:
            start = self.buf.find(b"$")
            end = self.buf.find(b"#", start)
            if start >= 0 and end >= 0 and len(self.buf) >= end + 3:
                payload, self.buf = self.buf[start + 1:end], self.buf[end + 3:]
                self.sock.sendall(b"+")
                return payload
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return None
            if not chunk:
                raise GdbError(f"the GDB server at {self.address} closed the connection")
            self.buf += chunk

    def request(self, payload: bytes) -> bytes:
        self.send(payload)
        reply = self.receive()
        if reply is None:
            raise GdbError(f"the GDB server at {self.address} did not answer {payload[:20]!r}")
        if reply.startswith(b"E") and len(reply) == 3:
            raise GdbError(f"the GDB server at {self.address} refused {payload[:20]!r}: "
                           f"{reply.decode()}")
        return reply


    def monitor(self, command: str) -> str:
        """A server command (gdb's `monitor`): its console output; GdbError
        when the server refuses it."""
        self.send(b"qRcmd," + command.encode().hex().encode())
        output = ""
        while True:
            reply = self.receive()
            if reply is None:
                raise GdbError(f"the GDB server at {self.address} did not answer "
                               f"'monitor {command}'")
            if reply.startswith(b"O") and reply != b"OK":
                output += bytes.fromhex(reply[1:].decode()).decode(errors="replace")
                continue
            if reply != b"OK":
                raise GdbError(f"the GDB server at {self.address} refused 'monitor {command}'"
                               f" ({reply.decode(errors='replace') or 'not supported'})"
                               + (f": {output.strip()}" if output.strip() else ""))
            return output


class GdbContext:
    """The debug-context calls of pyOCD's SemihostAgent, and the `Core` of the loop."""

    def __init__(self, remote: GdbRemote, sites: list[int]) -> None:
        self.remote = remote
        self.sites = set(sites)
        self.running = False
        self.stopped_at_site = False
        # Attributes pyOCD's agent reads besides the calls below.
        self.core = SimpleNamespace(find_breakpoint=lambda addr: None)
        self.session = SimpleNamespace(log_tracebacks=False, options={})
        for site in sites:
            remote.request(b"Z1,%x,2" % site)

    # -- the Core of semihosting.serve
    def resume(self) -> None:
        self.remote.send(b"c")
        self.running = True

    def wait_halt(self, timeout_s: float) -> bool:
        if not self.running:
            return True
        until = time.monotonic() + timeout_s
        while True:
            reply = self.remote.receive(max(until - time.monotonic(), 0.001))
            if reply is None:
                return False
            if _STOP.match(reply):
                break
            if reply.startswith(b"W") or reply.startswith(b"X"):
                raise GdbError(f"the target behind {self.remote.address} ended "
                               f"({reply.decode(errors='replace')})")
        self.running = False
        self.stopped_at_site = self.pc() in self.sites
        return True

    def pc(self) -> int:
        return self.read_core_register("pc")

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Stop a running core for a batch of memory reads (QEMU's gdbstub
        reads only a stopped one), then let it run on, unless it stopped on
        a semihosting call meanwhile: the loop then finds it halted."""
        if not self.running:
            yield
            return
        self.remote.sock.sendall(b"\x03")
        if not self.wait_halt(5.0):
            raise GdbError(f"the target behind {self.remote.address} did not stop on an "
                           "interrupt")
        try:
            yield
        finally:
            if not self.stopped_at_site:
                self.resume()

    # -- the debug context
    def read_memory_block8(self, addr: int, size: int) -> list[int]:
        data = b""
        while len(data) < size:  # servers cap a reply's size
            part = min(size - len(data), 1024)
            data += bytes.fromhex(self.remote.request(b"m%x,%x" % (addr + len(data), part))
                                  .decode())
        return list(data)

    def write_memory_block8(self, addr: int, data: Any) -> None:
        blob = bytes(data)
        self.remote.request(b"M%x,%x:%s" % (addr, len(blob), blob.hex().encode()))

    def read_memory_block32(self, addr: int, count: int) -> list[int]:
        raw = bytes(self.read_memory_block8(addr, count * 4))
        return [int.from_bytes(raw[i:i + 4], "little") for i in range(0, len(raw), 4)]

    def write_memory_block32(self, addr: int, words: Any) -> None:
        self.write_memory_block8(addr, b"".join(int(w).to_bytes(4, "little") for w in words))

    def read32(self, addr: int) -> int:
        if addr == DFSR:  # what halting debug would report for a stop on bkpt
            return DFSR_BKPT if self.stopped_at_site else self.read_memory_block32(addr, 1)[0]
        return self.read_memory_block32(addr, 1)[0]

    def read16(self, addr: int) -> int:
        return int.from_bytes(bytes(self.read_memory_block8(addr, 2)), "little")

    def write32(self, addr: int, value: int) -> None:
        self.write_memory_block32(addr, [value])

    # Registers go through g/G: QEMU 7.2's gdbstub answers neither p nor P for Arm.
    def read_core_register(self, name: str) -> int:
        at = REGISTERS[name] * 8
        return int.from_bytes(bytes.fromhex(self.remote.request(b"g")[at:at + 8].decode()),
                              "little")

    def write_core_register(self, name: str, value: int) -> None:
        at = REGISTERS[name] * 8
        block = bytearray(self.remote.request(b"g"))
        block[at:at + 8] = (value & 0xFFFFFFFF).to_bytes(4, "little").hex().encode()
        self.remote.request(b"G" + bytes(block))
