"""Contiki-NG's own network stack under the net-* loads, built and run for
real on QEMU MPS2-AN386 (ports/contiki/net_radio.c, bench/core/load.c): the
stack's counts after every case equal what the trace sent, per state
(delivered to the UDP socket, dropped below IPv6 by the MAC, forwarded to
the neighbour); a case whose process never yields (tm.basic's loop) starves
the stack and is a failed check, not a figure; two runs are identical."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from _datahalf import parse_named

from rtosmeter import net_trace, runners
from rtosmeter.build import BuildSpec, build
from rtosmeter.catalog import load_catalog
from rtosmeter.definitions import Definitions
from rtosmeter.footprint import footprint
from rtosmeter.runners import run_once
from rtosmeter.runners.base import RunRequest
from rtosmeter.sources import find_source

pytestmark = [pytest.mark.slow, pytest.mark.rtos]
TARGET = "qemu-mps2-an386"
GROUPS = ("tm_basic", "tm_sched")


def _build(root: Path, tmp_path: Path, load: str) -> dict[str, Path]:
    defs = Definitions.load(root)
    port, target = defs.port("contiki"), defs.target(TARGET)
    assert port.source is not None
    tree = os.environ.get(port.source.env, "")
    if not tree or not (Path(tree) / port.source.probe).is_file():
        pytest.skip(f"{port.source.env} is not set to a Contiki-NG tree "
                    "(source /work/trees/trees.env, or `rtosmeter sources fetch contiki`)")
    for tool in ("cmake", "make", "arm-none-eabi-gcc", "qemu-system-arm"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is required: run scripts/install.sh")
    profile = defs.profile(f"quick+{load}")
    spec = BuildSpec(port, target, profile, profile.params_for(target.kind), GROUPS,
                     find_source(port, {}), tmp_path, defs.toolchain("gcc"),
                     runner_defines=tuple(runners.firmware_defines(target).items()))
    result = build(spec, root, load_catalog(root), jobs=1)
    assert result.status == "ok", result.error
    state = load.removeprefix("net-")
    assert result.config["net_trace"] == f"{state}:{net_trace.digest(state)}"
    return result.executables


@pytest.mark.parametrize("state", [*net_trace.STATES, "idle"])
def test_the_stack_s_counts_equal_the_trace(root: Path, tmp_path: Path, state: str) -> None:
    exes = _build(root, tmp_path, f"net-{state}")
    target = Definitions.load(root).target(TARGET)
    stream = run_once(RunRequest(exes["tm_sched"], target)).stream
    cases = {c.id: c for c in parse_named(stream).cases}
    for case_id in ("tm.cooperative", "tm.preemptive"):
        case = cases[case_id]
        assert case.status == "ok", case
        m = {k: int(v) for k, v in case.meta.items() if k.startswith("net.") and k != "net.trace"}
        sent = m["net.sent"]
        assert (sent == 0) == (state == "idle"), m  # net-idle: the stack up, no frame
        assert m["net.read"] == sent and m["net.overrun"] == 0, m
        assert case.meta["net.trace"] == f"{state}:{net_trace.digest(state)}"
        assert case.meta["load.profile"] == ("net-idle" if state == "idle" else f"net-{state}:230")
        want = {"accept": (sent, sent, 0), "reject": (0, 0, 0), "forward": (sent, 0, sent),
                "idle": (0, 0, 0)}[state]
        assert (m["net.ip_in"], m["net.delivered"], m["net.forwarded"]) == want, m
        if state == "reject":  # dropped by CSMA: not for this node's MAC address
            assert m["net.dropped_below_ip"] == sent, m
    # the footprint holds the stack apart (port.toml net_objects): IPv6, 6LoWPAN, CSMA
    port = Definitions.load(root).port("contiki")
    fp = footprint(exes["tm_sched"], reservations=port.reservations)
    assert fp.parts["network"][0] > 20_000 and fp.parts["network"][1] > 4_000, fp.parts
    assert sum(f for f, _ in fp.parts.values()) == fp.flash
    if state == "accept":  # the same firmware again: the same stream, byte for byte
        assert run_once(RunRequest(exes["tm_sched"], target)).stream == stream
        # tm.basic's loop never returns to the process scheduler: the stack
        # starves, the radio overruns, and the check fails the case.
        basic = {c.id: c for c in parse_named(
            run_once(RunRequest(exes["tm_basic"], target)).stream).cases}["tm.basic"]
        assert basic.status == "failed" and "disagree with the trace" in basic.reason
        assert int(basic.meta["net.overrun"]) > 0
