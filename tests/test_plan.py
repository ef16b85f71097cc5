"""The planner (plan.py) on the real definitions: every rule of where a port
runs is judged in check_support, and a plan stored before PlannedBuild and
measure.Unit had their names still resumes. Nothing is built here."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtosmeter.catalog import load_catalog
from rtosmeter.definitions import Definitions
from rtosmeter.measure import Unit
from rtosmeter.plan import Plan, PlannedBuild, Selection, candidates, check_support, make_plan


def test_check_support_judges_archs_and_the_ports_targets(root: Path) -> None:
    defs = Definitions.load(root)
    gcc = defs.toolchains["gcc"]
    posix, freertos = defs.ports["posix"], defs.ports["freertos"]
    qemu, host, l053 = (defs.targets[t] for t in ("qemu-mps2-an386", "host", "nucleo-l053r8"))
    assert check_support(posix, host, gcc).reason == ""
    arch = check_support(posix, qemu, gcc)
    assert arch.reason == ("port posix does not run on qemu-mps2-an386, a armv7e-m "
                           "(its archs: host)")
    declared = check_support(freertos, l053, gcc).reason
    assert "8 KiB of RAM" in declared and "ports/freertos/port.toml [targets.nucleo-l053r8]" \
        in declared


def test_candidates_name_every_asked_pair(root: Path) -> None:
    """--port and --target together: every pair, the unsupported ones too
    (the plan says why); the command line's pairs are never optional."""
    defs = Definitions.load(root)
    cands = candidates(defs, defs.campaign(None),
                       Selection(ports=("baremetal", "posix"),
                                 targets=("qemu-mps2-an386", "host")))
    assert [(c.port, c.target) for c in cands] == [
        ("baremetal", "qemu-mps2-an386"), ("baremetal", "host"),
        ("posix", "qemu-mps2-an386"), ("posix", "host")]
    assert not any(c.optional for c in cands)
    assert {c.toolchains for c in cands} == {("gcc",)}


@pytest.mark.slow  # plans with the installed toolchains (it asks arm-none-eabi-gcc)
def test_a_plan_round_trips_and_an_older_stored_plan_still_loads(root: Path) -> None:
    defs = Definitions.load(root)
    plan = make_plan(defs, load_catalog(root), defs.campaign(None),
                     Selection(ports=("baremetal",), targets=("qemu-mps2-an386", "host"),
                               unit="ticks"))
    again = Plan.from_json(plan.as_json())
    assert again == plan
    assert [b.unit for b in again.builds] == [Unit.TICKS, Unit.TICKS]
    # before: the builds were "combos", and the target's own counter was ""
    old = plan.as_json()
    old["combos"] = old.pop("builds")
    for b in old["combos"]:
        b["unit"] = ""
    assert Plan.from_json(old).builds == plan.builds
    assert PlannedBuild("p", "t", "default", "*", [], {}, unit="cycles").unit is Unit.CYCLES
