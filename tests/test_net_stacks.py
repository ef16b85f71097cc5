"""Each RTOS's own network stack under the net-* loads, built and run for
real on QEMU MPS2-AN386 (ports/<port>/net_radio.c, bench/core/load.c):
Contiki-NG (CSMA, sicslowpan, uIP), RIOT (GNRC), Zephyr (its IEEE 802.15.4
L2, 6LoWPAN, IPv6 and a UDP socket), FreeRTOS + lwIP (lowpan6, its FreeRTOS
sys_arch; RTOSMETER_LWIP), RTX5 + lwIP (the same radio, bench/net/lwip, on
our CMSIS-RTOS2 sys_arch) and ThreadX + NetX Duo (an adaptation: no 6LoWPAN
in NetX Duo, the trace's datagrams uncompressed, ports/threadx/net_netxduo.c;
no IPv6 forwarding; RTOSMETER_NETXDUO). The stack's counts after
every case equal what the trace sent, per state (delivered to the UDP
socket, dropped below IPv6, forwarded to the neighbour); the footprint holds
the stack apart; two runs are identical. On Contiki-NG a case whose process
never yields (tm.basic's loop) starves the stack: a failed check, not a
figure. On FreeRTOS every frame wakes lwIP's tcpip thread above
tm.cooperative's five equal-priority threads; when it blocks, FreeRTOS runs
the next of them, not the one it preempted (taskSELECT_HIGHEST_PRIORITY_TASK
moves the ready list's index on), so their counts drift apart and
Thread-Metric's own check may fail the case under traffic (the reporter's
wake-ups alone do it in the `default` profile's unloaded build too): such a
case must have failed that check alone."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from _datahalf import parse_named

from rtosmeter import runners
from rtosmeter.build import BuildSpec, build
from rtosmeter.catalog import load_catalog
from rtosmeter.definitions import Definitions
from rtosmeter.footprint import footprint
from rtosmeter.net import trace as net_trace
from rtosmeter.net.source import NetSourceMissing, find_net_source
from rtosmeter.runners import run_once
from rtosmeter.runners.base import RunRequest
from rtosmeter.sources import find_source

pytestmark = [pytest.mark.slow, pytest.mark.rtos]
TARGET = "qemu-mps2-an386"
GROUPS = {"contiki": ("tm_basic", "tm_sched"), "riot": ("tm_sched",), "zephyr": ("tm_sched",),
          "freertos": ("tm_sched",), "rtx5": ("tm_sched",), "threadx": ("tm_sched",)}
CASES = [(port, state) for port in GROUPS for state in (*net_trace.STATES, "idle")
         if port != "riot" or state != "idle"
         if (port, state) != ("threadx", "forward")]


def _build(root: Path, tmp_path: Path, port_name: str, load: str,
           groups: tuple[str, ...] = ()) -> dict[str, Path]:
    defs = Definitions.load(root)
    port, target = defs.port(port_name), defs.target(TARGET)
    assert port.source is not None
    tree = os.environ.get(port.source.env, "")
    if not tree or not (Path(tree) / port.source.probe).is_file():
        pytest.skip(f"{port.source.env} is not set to a {port_name} tree "
                    f"(source /work/trees/trees.env, or `rtosmeter sources fetch {port_name}`)")
    for tool in ("cmake", "make", "arm-none-eabi-gcc", "qemu-system-arm"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is required: run scripts/install.sh")
    try:  # a stack of its own tree: lwIP, NetX Duo (port.toml [net.source])
        net_source = find_net_source(port, {})
    except NetSourceMissing as exc:
        pytest.skip(exc.reason)
    profile = defs.profile(f"quick+{load}")
    spec = BuildSpec(port, target, profile, profile.params_for(target.kind),
                     groups or GROUPS[port_name],
                     find_source(port, {}), tmp_path, defs.toolchain("gcc"),
                     runner_defines=tuple(runners.firmware_defines(target).items()),
                     net_source=net_source)
    result = build(spec, root, load_catalog(root), jobs=1)
    assert result.status == "ok", result.error
    state = load.removeprefix("net-")
    assert result.config["net_trace"] == f"{state}:{net_trace.digest(state, port.net_iphc_cid)}"
    if net_source is not None:  # the stack's tree is recorded like the kernel's
        assert result.config["net_source"] == str(net_source.path)
        assert port.net is not None and result.config["net_stack"] == port.net.stack
        assert result.config["net_version"]
    return result.executables


@pytest.mark.parametrize(("port_name", "state"), CASES)
def test_the_stack_s_counts_equal_the_trace(root: Path, tmp_path: Path, port_name: str,
                                            state: str) -> None:
    exes = _build(root, tmp_path, port_name, f"net-{state}")
    target = Definitions.load(root).target(TARGET)
    port = Definitions.load(root).port(port_name)
    cid = port.net_iphc_cid  # Zephyr: the CID-byte trace
    stream = run_once(RunRequest(exes["tm_sched"], target)).stream
    parsed = parse_named(stream)
    cases = {c.id: c for c in parsed.cases}
    for case_id in ("tm.cooperative", "tm.preemptive"):
        case = cases[case_id]
        if port_name == "freertos" and case_id == "tm.cooperative" and case.status != "ok":
            failed = [c.name for c in case.checks if not c.ok]
            assert case.status == "failed" and failed == ["counters_within_1_of_mean"], case
            continue  # the round robin skipped by a preempting thread (above): no counts
        assert case.status == "ok", case
        m = {k: int(v) for k, v in case.meta.items() if k.startswith("net.") and k != "net.trace"}
        sent = m["net.sent"]
        assert (sent == 0) == (state == "idle"), m  # net-idle: the stack up, no frame
        assert m["net.read"] == sent and m["net.overrun"] == 0, m
        assert case.meta["net.trace"] == f"{state}:{net_trace.digest(state, cid)}"
        assert case.meta["load.profile"] == ("net-idle" if state == "idle" else f"net-{state}:230")
        want = {"accept": (sent, sent, 0), "reject": (0, 0, 0), "forward": (sent, 0, sent),
                "idle": (0, 0, 0)}[state]
        if port_name == "threadx" and state == "reject":  # no MAC: reaches NetX Duo's IPv6
            want = (sent, 0, 0)
        assert (m["net.ip_in"], m["net.delivered"], m["net.forwarded"]) == want, m
        if state == "reject" and port_name == "threadx":  # no MAC: NetX Duo's IPv6 drops it
            assert m["net.dropped_in_ip"] == sent and m["net.dropped_below_ip"] == 0, m
        elif state == "reject":  # not for this MAC address: CSMA / the radio / Zephyr L2 filter
            assert m["net.dropped_below_ip"] == sent, m
        if port_name == "threadx" and state != "idle":  # the adaptation is said (CFG)
            assert parsed.config["stand_in.NET"].startswith("adapted: no 6LoWPAN in NetX Duo")
        if port.net is not None and port.net.stack == "lwip":  # lwIP's own counters agree
            own = {k: int(v) for k, v in case.meta.items() if k.startswith(("lwip.", "radio."))}
            assert own == {"lwip.ip6.recv": m["net.ip_in"], "lwip.udp.recv": m["net.delivered"],
                           "lwip.ip6.fw": m["net.forwarded"], "lwip.ip6.drop": 0,
                           "lwip.lowpan6.discards": 0,
                           "radio.filtered": m["net.dropped_below_ip"]}, own
    # the footprint holds the stack apart (port.toml net_objects): IPv6, 6LoWPAN, MAC
    fp = footprint(exes["tm_sched"], reservations=port.reservations)
    assert fp.parts["network"][0] > 20_000 and fp.parts["network"][1] > 4_000, fp.parts
    assert sum(f for f, _ in fp.parts.values()) == fp.flash
    if state == "accept":  # the same firmware again: the same stream, byte for byte
        assert run_once(RunRequest(exes["tm_sched"], target)).stream == stream
    if state == "accept" and port_name == "contiki":
        # tm.basic's loop never returns to the process scheduler: the stack
        # starves, the radio overruns, and the check fails the case.
        basic = {c.id: c for c in parse_named(
            run_once(RunRequest(exes["tm_basic"], target)).stream).cases}["tm.basic"]
        assert basic.status == "failed" and "disagree with the trace" in basic.reason
        assert int(basic.meta["net.overrun"]) > 0


@pytest.mark.parametrize("port_name", ["riot", "zephyr"])
def test_a_runner_that_never_blocks_breathes_and_the_stack_is_served(
        root: Path, tmp_path: Path, port_name: str) -> None:
    """lat.thread.lifecycle's runner times calls back to back, and its other
    ready threads spin above RIOT's GNRC: under traffic it breathes between
    samples with them held (rm_load_breathe), so every frame is served and
    the case is a figure, not a failed count."""
    exes = _build(root, tmp_path, port_name, "net-accept", ("lat_lifecycle",))
    target = Definitions.load(root).target(TARGET)
    case = {c.id: c for c in parse_named(run_once(RunRequest(
        exes["lat_lifecycle"], target)).stream).cases}["lat.thread.lifecycle"]
    assert case.status == "ok", case
    m = {k: int(v) for k, v in case.meta.items() if k.startswith("net.") and k != "net.trace"}
    assert m["net.sent"] > 30 and m["net.delivered"] == m["net.sent"], m
    assert m["net.overrun"] == 0 and "create@20/g5" in case.series, m
