"""The frame trace of the net-* loads (issue 32): IEEE 802.15.4 data frames
carrying 6LoWPAN (IPHC) compressed IPv6/UDP, as the Silva et al. 2019 study
sent them (24-byte UDP messages, 58-byte MAC frames, ports 8080/8081), which
bench/core/load.c hands to the port's virtual radio at the load's rate.

Three nodes as in the study's Fig. 2: node 1 is the device under test,
node 2 sends, node 3 is node 1's neighbour. Each state's frames:
- accept: node 2 -> node 1, to node 1's address and UDP port 8080;
- reject: node 2 -> node 3 (another node's MAC and IPv6 address): dropped
  by node 1's MAC, the earliest layer that can;
- forward: node 2 -> node 1 at the MAC, to node 3's IPv6 address: node 1
  routes it on to node 3 (its neighbour, a static route).

Addresses: EUI-64 extended MAC addresses; IPv6 in fd00::/64 (the prefix
the stacks hold as 6LoWPAN context 0). The sender's IPv6 address is derived
from its MAC address (IPHC elides it); nodes 1 and 3 are fd00::ff:fe00:N
(the 16-bit form, two bytes inline), so that a frame for node 1's MAC can
carry node 3's IPv6 address. One frame: 23 bytes of MAC header and FCS + 4
of IPHC + 7 of compressed UDP header (RFC 6282 NHC, ports and checksum
inline) + 24 bytes of payload = 58 bytes. The trace holds FRAMES frames
with consecutive sequence numbers, more than any stack's duplicate-detection
history, so that cycling it never repeats a recent (sender, sequence) pair.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from pathlib import Path

STATES = ("accept", "reject", "forward")  # the states with traffic; "idle": the stack, no frame
FRAMES = 32
PAN_ID = 0xABCD  # the network's PAN (Contiki-NG's and Zephyr's default)
CHANNEL = 26
PREFIX = bytes.fromhex("fd00000000000000")  # 6LoWPAN context 0
NODE_PORT = 8080  # node 1's UDP socket
PEER_PORT = 8081  # the senders' port
PAYLOAD_LEN = 24
FRAME_LEN = 58
HOP_LIMIT = 64


def node_mac(n: int) -> bytes:
    """Node n's EUI-64, locally administered (0x52 'R': bit 1 set)."""
    return bytes([0x52, 0x54, 0x4D, 0x00, 0x00, 0x00, 0x00, n])


def mac_ip(n: int) -> bytes:
    """fd00::IID, the IID node n's MAC address gives (RFC 4944: U/L bit flipped)."""
    mac = node_mac(n)
    return PREFIX + bytes([mac[0] ^ 0x02]) + mac[1:]


def node_ip(n: int) -> bytes:
    """fd00::ff:fe00:n, a destination's address (16-bit form, RFC 6282)."""
    return PREFIX + bytes([0, 0, 0, 0xFF, 0xFE, 0, 0, n])


def fcs(data: bytes) -> int:
    """IEEE 802.15.4 FCS: CRC-16/KERMIT (ITU-T, reflected, initial 0)."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def _udp_checksum(src: bytes, dst: bytes, udp: bytes) -> int:
    pseudo = src + dst + struct.pack(">IxxxB", len(udp), 17) + udp
    if len(pseudo) % 2:
        pseudo += b"\0"
    total = sum(struct.unpack(f">{len(pseudo) // 2}H", pseudo))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return (~total & 0xFFFF) or 0xFFFF


def payload(seq: int) -> bytes:
    """The 24-byte UDP message: a marker, the sequence number, a pattern."""
    return b"rtosmeter" + bytes([seq]) + bytes((seq + i) & 0xFF for i in range(14))


@dataclass(frozen=True)
class Route:
    """Who sends a state's frames to whom, at the MAC and at IPv6."""

    mac_dst: int
    ip_dst: int
    mac_src: int = 2
    ip_src: int = 2


ROUTES = {"accept": Route(1, 1), "reject": Route(3, 3), "forward": Route(1, 3)}


def frame(state: str, seq: int, cid: bool = False) -> bytes:
    """One complete MAC frame (FCS included) of a state. `cid`: the same
    datagram for a stack that decompresses context-based addresses only
    with IPHC's context identifier extension (CID=1 and an SCI/DCI byte
    naming context 0 for both: one byte more), where RFC 6282 implies
    context 0 without it. Zephyr 3.5 is one (its 6lo.c looks contexts up
    only through that byte; zephyrproject-rtos/zephyr#21053)."""
    r = ROUTES[state]
    # FCF: data frame, ack request, PAN ID compression, frame version 2003,
    # destination and source addressing modes 64-bit.
    fcf = 0x0001 | 0x0020 | 0x0040 | (3 << 10) | (3 << 14)
    mac = struct.pack("<HBH", fcf, seq & 0xFF, PAN_ID)
    mac += node_mac(r.mac_dst)[::-1] + node_mac(r.mac_src)[::-1]  # little-endian on air
    # IPHC (RFC 6282): 011 TF=11 NH=1 HLIM=10 (64) | CID=0 SAC=1 SAM=11 M=0 DAC=1 DAM=10,
    # then the destination's last 16 bits.
    iphc = bytes([0x7E, 0xF6, 0x00] if cid else [0x7E, 0x76]) + node_ip(r.ip_dst)[14:]
    udp = datagram(state, seq)[40:]  # the UDP header it compresses, checksum and all
    # NHC UDP 11110 C=0 P=00: both ports and the checksum inline
    nhc = bytes([0xF0]) + udp[0:4] + udp[6:8]
    psdu = mac + iphc + nhc + udp[8:]
    return psdu + struct.pack("<H", fcs(psdu))


def datagram(state: str, seq: int) -> bytes:
    """The IPv6/UDP datagram frame(state, seq) carries, uncompressed (RFC
    6282 decompression of its IPHC and NHC): for a stack with no 6LoWPAN
    layer, fed on a link of its own with no link header (an adaptation)."""
    r = ROUTES[state]
    body = payload(seq)
    src, dst = mac_ip(r.ip_src), node_ip(r.ip_dst)
    udp = struct.pack(">HHHH", PEER_PORT, NODE_PORT, 8 + len(body), 0) + body
    udp = udp[:6] + struct.pack(">H", _udp_checksum(src, dst, udp)) + udp[8:]
    # version 6, traffic class and flow label 0 (IPHC TF=11), next header UDP
    return struct.pack(">IHBB", 6 << 28, len(udp), 17, HOP_LIMIT) + src + dst + udp


DATAGRAM_LEN = 40 + 8 + PAYLOAD_LEN


def frames(state: str, cid: bool = False) -> list[bytes]:
    """The trace of a state: FRAMES frames, sequence numbers 0..FRAMES-1
    (none for idle: the stack is up, nothing arrives)."""
    if state == "idle":
        return []
    if state not in ROUTES:
        raise ValueError(f"unknown network state {state!r} (one of {', '.join(STATES)})")
    return [frame(state, seq, cid) for seq in range(FRAMES)]


def digest(state: str, cid: bool = False) -> str:
    """SHA-256 of a state's trace, recorded in the build configuration."""
    return hashlib.sha256(b"".join(frames(state, cid))).hexdigest()[:16]


def router_advertisement() -> bytes:
    """The start-up frame of a stack that learns 6LoWPAN contexts only from
    router advertisements (RFC 6775 6CO; Zephyr has no other way in): node 3
    advertises, to all nodes, fd00::/64 on-link (PIO, L=1, A=0: node 1's
    address is configured) and as context 0 (6CO, C=1), then its MAC (SLLAO).
    A broadcast 802.15.4 data frame without ack request; IPHC from fe80::
    (the IID from the MAC) to ff02::1, hop limit 255, ICMPv6 inline."""
    fcf = 0x0001 | 0x0040 | (2 << 10) | (3 << 14)  # data, PAN ID compression, short dst, long src
    mac = struct.pack("<HBHH", fcf, 0, PAN_ID, 0xFFFF) + node_mac(3)[::-1]
    src = bytes.fromhex("fe80000000000000") + mac_ip(3)[8:]
    dst = bytes.fromhex("ff020000000000000000000000000001")
    infinite = 0xFFFFFFFF
    pio = struct.pack(">BBBBII4x", 3, 4, 64, 0x80, infinite, infinite) + PREFIX + bytes(8)
    sixco = struct.pack(">BBBBHH", 34, 2, 64, 0x10, 0, 0xFFFF) + PREFIX
    sllao = bytes([1, 2]) + node_mac(3) + bytes(6)
    # RA: type 134, code 0, hop limit unspecified, no flags, not a default router
    icmp = struct.pack(">BBHBBHII", 134, 0, 0, 0, 0, 0, 0, 0) + pio + sixco + sllao
    pseudo = src + dst + struct.pack(">IxxxB", len(icmp), 58) + icmp
    total = sum(struct.unpack(f">{len(pseudo) // 2}H", pseudo))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    icmp = icmp[:2] + struct.pack(">H", ~total & 0xFFFF) + icmp[4:]
    # IPHC: 011 TF=11 NH=0 HLIM=11 | CID=0 SAC=0 SAM=11 M=1 DAC=0 DAM=11, then
    # the next header (58) and ff02::1's last byte
    psdu = mac + bytes([0x7B, 0x3B, 58, 0x01]) + icmp
    return psdu + struct.pack("<H", fcs(psdu))


def ra_digest() -> str:
    return hashlib.sha256(router_advertisement()).hexdigest()[:16]


def _bytes_c(data: bytes) -> str:
    return "{" + ",".join(f"0x{b:02x}" for b in data) + "}"


def c_header(state: str, cid: bool = False) -> str:
    """rm_net_trace.h: the trace as a C initialiser and the network's
    parameters, read by bench/core/load.c and the ports' virtual radios."""
    trace = frames(state, cid)
    rows = ",\\\n    ".join(_bytes_c(f) for f in trace)
    grams = ",\\\n    ".join(_bytes_c(datagram(state, seq)) for seq in range(len(trace)))
    lines = [
        f"/* Generated by rtosmeter.net.trace for the {state} state: do not edit. */",
        "#ifndef RM_NET_TRACE_H",
        "#define RM_NET_TRACE_H",
        f'#define RM_NET_STATE "{state}"',
        f'#define RM_NET_TRACE_SHA "{digest(state, cid)}"',
        f"#define RM_NET_STATE_{state.upper()} 1",
        f"#define RM_NET_FRAMES {len(trace)}u",
        f"#define RM_NET_FRAME_LEN {FRAME_LEN + cid}u",
        f"#define RM_NET_PAYLOAD_LEN {PAYLOAD_LEN}u",
        f"#define RM_NET_PAN_ID 0x{PAN_ID:04x}u",
        f"#define RM_NET_CHANNEL {CHANNEL}",
        f"#define RM_NET_PORT {NODE_PORT}u",
        f"#define RM_NET_PEER_PORT {PEER_PORT}u",
        "/* EUI-64s as written (big-endian); IPv6 addresses fd00::IID. */",
        f"#define RM_NET_NODE_MAC {_bytes_c(node_mac(1))}",
        f"#define RM_NET_NEIGHBOUR_MAC {_bytes_c(node_mac(3))}",
        f"#define RM_NET_NODE_IP {_bytes_c(node_ip(1))}",
        f"#define RM_NET_SENDER_IP {_bytes_c(mac_ip(2))}",
        f"#define RM_NET_NEIGHBOUR_IP {_bytes_c(node_ip(3))}",
        *([f"#define RM_NET_TRACE_INIT {{\\\n    {rows}}}"] if trace else []),
        "/* The start-up router advertisement (router_advertisement()). */",
        f"#define RM_NET_RA_LEN {len(router_advertisement())}u",
        f"#define RM_NET_RA_INIT {_bytes_c(router_advertisement())}",
        "/* The same datagrams uncompressed (net_trace.datagram), for a stack with",
        "   no 6LoWPAN layer: row s is the datagram of the frame with sequence number s. */",
        f"#define RM_NET_DATAGRAM_LEN {DATAGRAM_LEN}u",
        *([f"#define RM_NET_DATAGRAM_INIT {{\\\n    {grams}}}"] if trace else []),
        "#endif",
        "",
    ]
    return "\n".join(lines)


HEADER = "rm_net_trace.h"


def write_header(config_dir: Path, state: str, cid: bool = False) -> dict[str, str]:
    """Writes (state) or removes ("") the build's rm_net_trace.h beside
    rm_build_config.h; the build configuration's entries for the trace."""
    path = config_dir / HEADER
    if not state:
        path.unlink(missing_ok=True)
        return {}
    text = c_header(state, cid)
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return {"net_trace": f"{state}:{digest(state, cid)}", "net_frames": str(len(frames(state))),
            "net_frame_bytes": str(FRAME_LEN + cid), "net_ra": ra_digest(),
            **({"net_iphc": "cid"} if cid else {})}
