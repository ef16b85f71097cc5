"""The net-* loads' frame trace (rtosmeter.net.trace), parsed back with an
independent decoder, scapy's dot15d4 and sixlowpan layers: every frame is a
valid 58-byte IEEE 802.15.4 data frame (FCS checked) whose 6LoWPAN IPHC
payload decompresses to the IPv6/UDP datagram each state needs."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest
import scapy.layers.dot15d4 as scapy_dot15d4
import scapy.layers.sixlowpan as scapy_sixlowpan
from scapy.config import conf
from scapy.layers.inet import UDP
from scapy.layers.inet6 import ICMPv6ND_RA, ICMPv6NDOptPrefixInfo, IPv6, in6_chksum

from rtosmeter import loads
from rtosmeter.build import BuildSpec, cmake_configure_command
from rtosmeter.catalog import load_caps
from rtosmeter.definitions import Definitions
from rtosmeter.definitions.ports import load_port
from rtosmeter.errors import UserError
from rtosmeter.net import trace as net_trace
from rtosmeter.net.source import find_net_source
from rtosmeter.net.support import net_unsupported

NODE = {n: str(ipaddress.IPv6Address(net_trace.node_ip(n))) for n in (1, 3)}
SENDER = str(ipaddress.IPv6Address(net_trace.mac_ip(2)))
EXPECTED = {"accept": (1, 1), "reject": (3, 3), "forward": (1, 3)}  # (MAC dst, IPv6 dst)


def _context0(mac: int) -> str:
    iid = (mac ^ (0x02 << 56)).to_bytes(8, "big")
    return str(ipaddress.IPv6Address(bytes.fromhex("fd00000000000000") + iid))


def _decode(raw: bytes) -> object:
    conf.dot15d4_protocol = "sixlowpan"
    return scapy_dot15d4.Dot15d4FCS(raw)


@pytest.mark.parametrize("state", net_trace.STATES)
def test_every_frame_decodes_to_the_state_s_udp_datagram(state: str) -> None:
    frames = net_trace.frames(state)
    assert len(frames) == net_trace.FRAMES
    mac_dst, ip_dst = EXPECTED[state]
    for seq, raw in enumerate(frames):
        assert len(raw) == net_trace.FRAME_LEN == 58
        pkt = _decode(raw)
        assert pkt.compute_fcs(raw[:-2]) == raw[-2:]  # scapy's own FCS
        assert pkt.fcf_frametype == 1 and pkt.fcf_ackreq == 1 and pkt.seqnum == seq
        data = pkt[scapy_dot15d4.Dot15d4Data]
        assert data.dest_panid == net_trace.PAN_ID
        assert data.dest_addr == int.from_bytes(net_trace.node_mac(mac_dst), "big")
        assert data.src_addr == int.from_bytes(net_trace.node_mac(2), "big")
        iphc = pkt[scapy_sixlowpan.LoWPAN_IPHC]
        # scapy leaves stateful (context) compression undone: context 0 is
        # fd00::/64; SAM=11 takes the IID from the MAC source, DAM=10 is
        # 0000:00ff:fe00:XXXX with XXXX inline (RFC 6282 3.1.1)
        assert (iphc.cid, iphc.sac, iphc.sam, iphc.m, iphc.dac, iphc.dam) == (0, 1, 3, 0, 1, 2)
        src = _context0(data.src_addr)
        tail = ipaddress.IPv6Address(iphc.dst).packed[14:]  # scapy: the 16 inline bits
        dst = str(ipaddress.IPv6Address(bytes.fromhex("fd00000000000000000000fffe00") + tail))
        assert (src, dst) == (SENDER, NODE[ip_dst])
        ip = pkt[IPv6]
        assert (ip.hlim, ip.nh) == (64, 17)
        udp = pkt[UDP]
        assert (udp.sport, udp.dport, udp.len) == (8081, 8080, 8 + 24)
        body = bytes(udp.payload)
        assert body == net_trace.payload(seq) and len(body) == 24
        # the UDP checksum over the decompressed IPv6 pseudo-header
        pseudo = IPv6(src=src, dst=dst, nh=17)
        assert in6_chksum(17, pseudo, bytes(udp)[:6] + b"\0\0" + body) == udp.chksum


@pytest.mark.parametrize("state", net_trace.STATES)
def test_each_datagram_is_the_frame_s_ipv6_packet_uncompressed(state: str) -> None:
    """datagram(): what a stack without 6LoWPAN is fed (NetX Duo): scapy's
    IPv6 parse of it equals the frame's decompressed addresses, ports,
    payload and checksum."""
    _, ip_dst = EXPECTED[state]
    for seq, raw in enumerate(net_trace.frames(state)):
        gram = net_trace.datagram(state, seq)
        assert len(gram) == net_trace.DATAGRAM_LEN == 72
        ip = IPv6(gram)
        assert (ip.version, ip.tc, ip.fl, ip.plen, ip.nh, ip.hlim) == (6, 0, 0, 32, 17, 64)
        assert (ip.src, ip.dst) == (SENDER, NODE[ip_dst])
        udp = _decode(raw)[UDP]
        assert (ip[UDP].sport, ip[UDP].dport, ip[UDP].chksum) == (udp.sport, udp.dport, udp.chksum)
        assert bytes(ip[UDP].payload) == net_trace.payload(seq)
        # scapy recomputes the checksum over the uncompressed packet: the same
        assert IPv6(bytes(IPv6(gram[:40]) / UDP(gram[40:48]) / gram[48:]))[UDP].chksum \
            == udp.chksum


def test_c_header_holds_the_trace_and_its_digest() -> None:
    text = net_trace.c_header("forward")
    first = net_trace.frames("forward")[0]
    assert ",".join(f"0x{b:02x}" for b in first) in text
    assert f'RM_NET_TRACE_SHA "{net_trace.digest("forward")}"' in text
    gram = net_trace.datagram("forward", 0)
    assert "#define RM_NET_DATAGRAM_INIT {\\\n    {" + ",".join(f"0x{b:02x}" for b in gram) \
        in text
    assert net_trace.digest("accept") != net_trace.digest("reject")
    with pytest.raises(ValueError):
        net_trace.frames("drop")


def test_net_loads_parse_name_and_define_the_stack() -> None:
    load = loads.parse("net-accept", "--load")
    assert load == loads.Load("net-accept", 230) and load.name == "net-accept:230"
    assert load.net_state == "accept" and load.defines()["RM_LOAD_NET"] == "1"
    assert load.defines()["RM_LOAD_KIND"] == "RM_LOAD_KIND_NET_ACCEPT"
    assert loads.parse("net-forward:100", "--load") == loads.Load("net-forward", 100)
    assert loads.profile_name("default", "net-reject", "--load") == "default+net-reject:230"
    assert "RM_LOAD_NET" not in loads.Load("accept", 2000, 64).defines()
    idle = loads.parse("net-idle", "--load")
    assert idle == loads.Load("net-idle") and idle.name == "net-idle" and idle.net_state == "idle"
    assert "RM_NET_TRACE_INIT" not in net_trace.c_header("idle")
    assert "#define RM_NET_FRAMES 0u" in net_trace.c_header("idle")
    for bad in ("net-accept:1:2", "net-accept:0", "net-drop", "net-idle:230"):
        with pytest.raises(UserError):
            loads.parse(bad, "--load")


def test_write_header_writes_and_removes_it(tmp_path: Path) -> None:
    config = net_trace.write_header(tmp_path, "reject")
    assert config["net_trace"] == f"reject:{net_trace.digest('reject')}"
    assert (tmp_path / net_trace.HEADER).read_text() == net_trace.c_header("reject")
    assert net_trace.write_header(tmp_path, "") == {}
    assert not (tmp_path / net_trace.HEADER).exists()


def test_a_port_without_the_stack_is_unsupported_under_a_net_load(root: Path) -> None:
    defs = Definitions.load(root)
    loaded = defs.profile("default+net-accept:230")
    mps2 = defs.target("qemu-mps2-an386")
    why = net_unsupported(defs.port("ucos3"), mps2, loaded, {})
    assert "ucos3 under net-accept:230" in why and "virtual 802.15.4 radio" in why
    assert "port.toml" in why
    assert net_unsupported(defs.port("contiki"), mps2, loaded, {}) == ""
    assert net_unsupported(defs.port("ucos3"), mps2, defs.profile("default+accept"), {}) == ""
    assert net_unsupported(defs.port("ucos3"), mps2, defs.profile("default"), {}) == ""
    # Zephyr has the stack on the MPS2 targets only ([net] targets)
    zephyr = defs.port("zephyr")
    assert net_unsupported(zephyr, mps2, loaded, {}) == ""
    for target in ("qemu-microbit", "host"):
        why = net_unsupported(zephyr, defs.target(target), loaded, {})
        assert f"zephyr under net-accept:230: its network stack runs on mps2 only, not {target}" \
            in why and "[net] targets" in why
        assert net_unsupported(zephyr, defs.target(target), defs.profile("default"), {}) == ""


def test_freertos_s_lwip_is_planned_on_mps2_with_its_tree_only(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """FreeRTOS's network stack is lwIP from its own tree (port.toml [net]):
    without it, or off MPS2, a net-* build is unsupported with the reason;
    Contiki-NG's native platform has no virtual radio either."""
    defs = Definitions.load(root)
    freertos, loaded = defs.port("freertos"), defs.profile("default+net-forward:230")
    mps2, host = defs.target("qemu-mps2-an386"), defs.target("host")
    monkeypatch.delenv("RTOSMETER_LWIP", raising=False)
    why = net_unsupported(freertos, mps2, loaded, {})
    assert why.startswith("freertos under net-forward:230: freertos's network stack lwip")
    assert "--source lwip=PATH" in why and "RTOSMETER_LWIP" in why and "[net.source]" in why
    assert net_unsupported(freertos, mps2, defs.profile("default"), {}) == ""  # no net load
    tree = tmp_path / "lwip"
    (tree / "src" / "netif").mkdir(parents=True)
    (tree / "src" / "netif" / "lowpan6.c").write_text("")
    assert net_unsupported(freertos, mps2, loaded, {"lwip": tree}) == ""
    monkeypatch.setenv("RTOSMETER_LWIP", str(tree))
    assert net_unsupported(freertos, mps2, loaded, {}) == ""
    assert net_unsupported(freertos, host, loaded, {}) == (
        f"freertos under net-forward:230: its network stack runs on mps2 only, not host "
        f"({freertos.file} [net] targets)")
    contiki = defs.port("contiki")
    assert "runs on mps2 only, not host" in net_unsupported(contiki, host, loaded, {})
    with pytest.raises(UserError, match=r"has no src/netif/lowpan6\.c"):
        net_unsupported(freertos, mps2, loaded, {"lwip": tmp_path})


def test_the_lwip_tree_reaches_cmake_and_the_build_configuration(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A net-* build of FreeRTOS passes lwIP's tree as RM_NET_SOURCE_DIR
    (bench/net/lwip/lwip.cmake) and its version is read from init.h."""
    tree = tmp_path / "lwip"
    (tree / "src" / "netif").mkdir(parents=True)
    (tree / "src" / "netif" / "lowpan6.c").write_text("")
    (tree / "src" / "include" / "lwip").mkdir(parents=True)
    (tree / "src" / "include" / "lwip" / "init.h").write_text(
        "#define LWIP_VERSION_MAJOR      2\n#define LWIP_VERSION_MINOR      2\n"
        "#define LWIP_VERSION_REVISION   1\n")
    defs = Definitions.load(root)
    port = defs.port("freertos")
    source = find_net_source(port, {"lwip": tree})
    assert source is not None and source.version == "2.2.1" and source.origin == "--source lwip"
    assert find_net_source(defs.port("contiki"), {}) is None  # Contiki-NG's own stack
    target, profile = defs.target("qemu-mps2-an386"), defs.profile("quick+net-accept")
    spec = BuildSpec(port, target, profile, profile.params_for(target.kind), ("tm_sched",),
                     None, tmp_path, defs.toolchain("gcc"), net_source=source)
    cmd = cmake_configure_command(spec, root, tmp_path)
    assert f"-DRM_NET_SOURCE_DIR={tree.resolve()}" in cmd



def test_the_cid_trace_is_the_same_datagrams_with_the_context_byte() -> None:
    """The trace of a port declaring [net] iphc_cid (Zephyr): CID=1 and one
    SCI/DCI byte naming context 0, otherwise the same frames."""
    mac_header = 23 - 2  # before the IPHC (the FCS is at the end)
    for state in net_trace.STATES:
        for seq, (plain, cid) in enumerate(zip(net_trace.frames(state),
                                                net_trace.frames(state, cid=True), strict=True)):
            assert len(cid) == net_trace.FRAME_LEN + 1
            iphc = _decode(cid)[scapy_sixlowpan.LoWPAN_IPHC]
            assert (iphc.cid, iphc.sci, iphc.dci, iphc.sac, iphc.dac) == (1, 0, 0, 1, 1)
            assert cid[mac_header + 1] == plain[mac_header + 1] | 0x80, seq
            assert cid[:mac_header + 1] + bytes([plain[mac_header + 1]]) + cid[mac_header + 3:-2] \
                == plain[:-2]
        assert net_trace.digest(state, cid=True) != net_trace.digest(state)
    assert "#define RM_NET_FRAME_LEN 59u" in net_trace.c_header("idle", cid=True)
    assert net_trace.write_header(Path("/nonexistent"), "", cid=True) == {}


def test_the_router_advertisement_carries_context_0_and_the_prefix(tmp_path: Path) -> None:
    raw = net_trace.router_advertisement()
    pkt = _decode(raw)
    assert pkt.compute_fcs(raw[:-2]) == raw[-2:]
    assert pkt.fcf_frametype == 1 and pkt.fcf_ackreq == 0
    data = pkt[scapy_dot15d4.Dot15d4Data]
    assert (data.dest_panid, data.dest_addr) == (net_trace.PAN_ID, 0xFFFF)  # broadcast
    assert data.src_addr == int.from_bytes(net_trace.node_mac(3), "big")
    ip = pkt[IPv6]
    assert (ip.hlim, ip.nh, ip.dst) == (255, 58, "ff02::1")
    ra = pkt[ICMPv6ND_RA]
    assert ra.routerlifetime == 0  # not a default router
    pio = pkt[ICMPv6NDOptPrefixInfo]
    assert (pio.prefix, pio.prefixlen, pio.L, pio.A) == ("fd00::", 64, 1, 0)
    # the 6CO (RFC 6775 4.2), which scapy leaves raw: length 2, /64, C=1, CID 0
    icmp = bytes(ra)
    sixco = icmp[16 + 32:16 + 48]
    assert sixco == bytes([34, 2, 64, 0x10, 0, 0, 0xFF, 0xFF]) + net_trace.PREFIX
    # the checksum over the pseudo-header of node 3's link-local source
    src = "fe80::" + str(ipaddress.IPv6Address(net_trace.mac_ip(3))).removeprefix("fd00::")
    assert in6_chksum(58, IPv6(src=src, dst="ff02::1", nh=58),
                      icmp[:2] + b"\0\0" + icmp[4:]) == ra.cksum
    config = net_trace.write_header(tmp_path, "idle")
    assert config["net_ra"] == net_trace.ra_digest()
    assert "RM_NET_RA_INIT" in (tmp_path / net_trace.HEADER).read_text()


def test_an_unknown_network_state_in_net_unsupported_is_refused(tmp_path: Path, root: Path) -> None:
    text = (root / "ports/zephyr/port.toml").read_text()
    bad = text.replace("iphc_cid = true\n",
                       "iphc_cid = true\nunsupported = { route = \"why\" }\n", 1)
    assert bad != text
    port_dir = tmp_path / "zephyr"
    (port_dir / "app").mkdir(parents=True)
    (port_dir / "app/CMakeLists.txt").write_text("")
    (port_dir / "port.toml").write_text(bad)
    with pytest.raises(UserError, match=r"unknown network state 'route'.*net\.unsupported"):
        load_port(port_dir / "port.toml", load_caps(root))


def test_a_stack_outside_the_rtos_tree_is_needed_and_its_missing_states_said(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ThreadX's NET is NetX Duo (port.toml [net]): without its tree
    the net loads are unsupported naming it, and net-forward always is
    (NetX Duo's IPv6 forwards nothing)."""
    defs = Definitions.load(root)
    threadx, mps2 = defs.port("threadx"), defs.target("qemu-mps2-an386")
    accept, forward = (defs.profile(f"default+net-{s}:230") for s in ("accept", "forward"))
    (tmp_path / "common" / "inc").mkdir(parents=True)
    (tmp_path / "common" / "inc" / "nx_api.h").write_text("/* a NetX Duo tree */\n")
    monkeypatch.setenv("RTOSMETER_NETXDUO", str(tmp_path))
    assert net_unsupported(threadx, mps2, accept, {}) == ""
    why = net_unsupported(threadx, mps2, forward, {})
    assert "threadx under net-forward:230" in why and "IPv6 forwards nothing" in why
    monkeypatch.delenv("RTOSMETER_NETXDUO")
    why = net_unsupported(threadx, mps2, accept, {})
    assert "--source netxduo=PATH or set RTOSMETER_NETXDUO" in why and "port.toml" in why
    # a synthetic load needs no stack
    assert net_unsupported(threadx, mps2, defs.profile("default+accept"), {}) == ""
