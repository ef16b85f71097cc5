"""Load profiles (rtosmeter.loads, bench/core/load.c, reports/document/load.py), built
and run for real: bare metal on QEMU MPS2-AN386 idle and under the irq,
reject and accept loads, POSIX on the host under tasks:2. The assertions are
properties of what the firmware measured: a loaded count below the idle one
by the load's share, the load's own counts, the case code unchanged by the
load, and the report's percentages computed from the stored counts."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from _datahalf import parse_named

from rtosmeter import reports, runners
from rtosmeter.build import BuildSpec, build, config_header
from rtosmeter.catalog import load_catalog
from rtosmeter.commands.report import load_view
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import Definitions, load_campaign
from rtosmeter.errors import UserError
from rtosmeter.loads import Load, parse, profile_name, split
from rtosmeter.model import CaseResult, RunView
from rtosmeter.runners import run_once
from rtosmeter.runners.base import RunRequest
from rtosmeter.sources import find_source

TARGET = "qemu-mps2-an386"


def test_parse_fills_defaults_and_names_canonically() -> None:
    assert parse("idle", "--load") is None
    assert parse("irq:2000:50", "--load") == Load("irq", 2000, 50)
    assert parse("tasks:3", "--load") == Load("tasks", 0, 8, 3)
    assert parse("accept", "--load") == Load("accept", 2000, 64)
    assert parse("forward:500", "--load") == Load("forward", 500, 64)
    assert profile_name("default", "reject", "--load") == "default+reject:2000:64"
    assert profile_name("quick", "idle", "--load") == "quick"
    assert split("default+tasks:3:8") == ("default", "tasks:3:8")
    assert split("vendor") == ("vendor", "idle")


@pytest.mark.parametrize("spec", ["irq:2000", "irq:0:5", "tasks:9", "tasks:x", "accept:1:2:3",
                                  "storm", "idle:1"])
def test_bad_load_names_the_option_and_the_syntax(spec: str) -> None:
    with pytest.raises(UserError) as err:
        parse(spec, "--load")
    assert err.value.where == "--load"
    assert "irq:<hz>:<work>" in err.value.fix


def test_loaded_profile_and_its_config_header(root: Path) -> None:
    defs = Definitions.load(root)
    catalog = load_catalog(root)
    loaded = defs.profile("default+irq:2000:50")
    assert loaded.load == Load("irq", 2000, 50)
    assert loaded.opt == defs.profile("default").opt == "speed"
    with pytest.raises(UserError, match="profile"):
        defs.profile("nosuch+irq:2000:50")
    port, target = defs.port("baremetal"), defs.target(TARGET)
    params = defs.profile("default").params_for("qemu")

    def header(profile: str) -> str:
        spec = BuildSpec(port, target, defs.profile(profile), params, ("tm_basic",), None,
                         Path("/tmp/x"), defs.toolchains["gcc"])
        return config_header(spec, catalog)

    text = header("default+irq:2000:50")
    assert "#define RM_LOAD_KIND RM_LOAD_KIND_IRQ" in text
    assert "#define RM_LOAD_HZ 2000u" in text and '#define RM_LOAD_NAME "irq:2000:50"' in text
    assert "RM_LOAD" not in header("default")  # idle: no load code at all


def test_campaign_loads_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('name = "c"\nloads = ["idle", "irq:5"]\n'
                    '[[run]]\nports = ["baremetal"]\ntargets = ["qemu-mps2-an386"]\n')
    with pytest.raises(UserError) as err:
        load_campaign(path)
    assert str(path) in err.value.where and "key 'loads'" in err.value.where


def _need(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is required: run scripts/install.sh")


@pytest.fixture(scope="module")
def baremetal_loaded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RunView]:
    """tm.basic on bare metal, idle and under three loads, profile quick."""
    _need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    out = tmp_path_factory.mktemp("loads")
    summary = run_campaign(RunOptions(out=out, ports=("baremetal",), targets=(TARGET,),
                                      bench="tm.basic", profile="quick", jobs=2, quiet=True,
                                      loads=("idle", "irq:2000:50", "reject", "accept")))
    assert summary.failed == 0 and summary.builds_failed == 0
    return out, load_view(out, str(summary.run_id))


def _case(view: RunView, profile: str) -> CaseResult:
    return next(c for c in view.cases if c.case_id == "tm.basic" and c.profile == profile)


@pytest.mark.slow
def test_baremetal_under_load(baremetal_loaded: tuple[Path, RunView]) -> None:
    _, view = baremetal_loaded
    idle, irq = _case(view, "quick"), _case(view, "quick+irq:2000:50")
    reject = _case(view, "quick+reject:2000:64")
    assert idle.score and irq.score and reject.score
    assert "load.profile" not in idle.meta
    assert irq.meta["load.profile"] == "irq:2000:50"
    # 2000 interrupts a second over the run's periods, give or take one
    periods_s = 2 * 0.020
    assert abs(int(irq.meta["load.irqs"]) - 2000 * periods_s) < 2000 * periods_s
    assert irq.score < reject.score <= idle.score  # 50 units of work cost more than a check
    accept = _case(view, "quick+accept:2000:64")
    assert accept.status == "unsupported"
    assert "the load profile accept:2000:64 needs them" in accept.reason


@pytest.mark.slow
def test_load_report_is_the_change_against_idle(baremetal_loaded: tuple[Path, RunView]) -> None:
    _, view = baremetal_loaded
    idle, irq = _case(view, "quick"), _case(view, "quick+irq:2000:50")
    assert idle.score and irq.score
    text = reports.render(view, "md", "load")
    want = f"{(irq.score - idle.score) / idle.score * 100:+.1f} %"
    row = next(line for line in text.splitlines() if line.startswith("| tm.basic | baremetal"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    header = next(line for line in text.splitlines() if line.startswith("| case | port"))
    loads = [c.strip() for c in header.strip("|").split("|")][2:]
    assert cells[2 + loads.index("irq:2000:50")].startswith(want)
    assert "unsupported" in cells[2 + loads.index("accept:2000:64")]


def _case_code(elf: Path, functions: tuple[str, ...]) -> list[str]:
    """The instructions of some functions, without addresses or literal
    pools (the load's code and data move them, not the instructions)."""
    dump = subprocess.run(["arm-none-eabi-objdump", "-d", "--no-show-raw-insn", str(elf)],
                          capture_output=True, text=True, check=True).stdout
    out: list[str] = []
    for fn in functions:
        body = dump.split(f"<{fn}>:\n", 1)[1].split("\n\n", 1)[0]
        for line in body.splitlines():
            insn = line.split(":", 1)[1].strip() if ":" in line else ""
            if insn and not insn.startswith(".word"):
                insn = re.sub(r"\s*@.*$", "", insn)  # the literal's address
                out.append(re.sub(r"\b[0-9a-f]+ <", "<", insn))  # a branch target's
    return out


@pytest.mark.slow
def test_case_code_is_the_same_under_load(baremetal_loaded: tuple[Path, RunView]) -> None:
    """The load is the only difference: the measured loop and the case around
    it are the same instructions idle and loaded."""
    out, _ = baremetal_loaded
    builds = out / "build" / "baremetal" / TARGET
    idle = next(builds.glob("quick@*")) / "rm_tm_basic.elf"
    loaded = next(builds.glob("quick+irq-2000-50@*")) / "rm_tm_basic.elf"
    fns = ("basic_loop",)
    assert _case_code(idle, fns) == _case_code(loaded, fns)
    assert len(_case_code(idle, fns)) > 5


@pytest.mark.slow
def test_posix_under_tasks(tmp_path: Path) -> None:
    _need("cmake", "ninja", "gcc")
    summary = run_campaign(RunOptions(out=tmp_path, ports=("posix",), targets=("host",),
                                      bench="tm.sync", profile="quick", jobs=1, quiet=True,
                                      loads=("tasks:2",)))
    assert summary.failed == 0
    view = load_view(tmp_path, str(summary.run_id))
    # --load tasks:2 alone: the idle build runs too, for the load view
    idle, case = sorted((c for c in view.cases if c.case_id == "tm.sync"),
                        key=lambda c: c.profile)
    assert (idle.profile, case.profile) == ("quick", "quick+tasks:2:8")
    assert idle.status == case.status
    if case.status == "unsupported":  # no SCHED_FIFO here: the port withdrew THREAD
        assert "THREAD" in case.reason
        return
    assert case.status == "ok" and case.meta["load.profile"] == "tasks:2:8"
    assert int(case.meta["load.rounds"]) > 0


def test_plan_builds_each_load_and_merges_entries(root: Path, tmp_path: Path) -> None:
    """Each load is a build; two entries naming one build add up their cases."""
    from rtosmeter.plan import Selection, make_plan

    path = tmp_path / "c.toml"
    path.write_text('name = "c"\n'
                    '[[run]]\nports = ["posix"]\ntargets = ["host"]\nbench = "tm.*"\n'
                    'loads = ["idle", "tasks:2"]\n'
                    '[[run]]\nports = ["posix"]\ntargets = ["host"]\nbench = "app.*"\n')
    defs = Definitions.load(root)
    catalog = load_catalog(root)
    plan = make_plan(defs, catalog, load_campaign(path), Selection())
    builds = {c.profile: c for c in plan.builds}
    assert set(builds) == {"default", "default+tasks:2:8"}
    assert builds["default"].bench == "tm.*,app.*"
    assert "app_sampling" in builds["default"].groups
    assert "app_sampling" not in builds["default+tasks:2:8"].groups
    # --load replaces the campaign's loads; idle stays (the loads' reference)
    plan = make_plan(defs, catalog, load_campaign(path), Selection(loads=("reject",)))
    assert {c.profile for c in plan.builds} == {"default", "default+reject:2000:64"}


def test_a_run_with_loads_always_builds_idle(root: Path, tmp_path: Path) -> None:
    """Each load is read as its change against the case idle: `--load accept`
    alone, or a campaign naming loads only, still plans the idle build first,
    with the same cases; idle named too is one build."""
    from rtosmeter.plan import Selection, make_plan

    defs = Definitions.load(root)
    catalog = load_catalog(root)
    path = tmp_path / "c.toml"
    path.write_text('name = "c"\n[[run]]\nports = ["posix"]\ntargets = ["host"]\n'
                    'bench = "tm.basic"\nloads = ["irq:2000:50"]\n')
    campaign = load_campaign(path)
    for loads, want in ((("accept",), ["default", "default+accept:2000:64"]),
                        (("accept", "idle"), ["default+accept:2000:64", "default"]),
                        (("idle", "accept:2000:64", "accept"), ["default",
                                                               "default+accept:2000:64"]),
                        ((), ["default", "default+irq:2000:50"])):
        plan = make_plan(defs, catalog, campaign, Selection(loads=loads))
        assert [b.profile for b in plan.builds] == want, loads
        assert [b.groups for b in plan.builds] == [["tm_basic"]] * 2
    # the load's spelling is still checked first, naming the option
    with pytest.raises(UserError, match="unknown load profile 'storm'") as err:
        make_plan(defs, catalog, campaign, Selection(loads=("storm",)))
    assert err.value.where == "--load"


def test_bad_load_option_is_a_user_error(tmp_path: Path) -> None:
    from conftest import invoke

    result = invoke("run", "--port", "posix", "--target", "host", "--load", "storm",
                    "--out", str(tmp_path))
    assert result.exit_code == 1
    assert "unknown load profile 'storm' in --load" in result.output


# The ports built by their RTOS's own tools (port.toml `cmake_project`), each
# on a target with the load timer where it has one.
OWN_BUILD = {"zephyr": TARGET, "riot": TARGET, "contiki": TARGET,
             "nuttx": "qemu-mps2-an500", "mynewt": "host"}


@pytest.mark.slow
@pytest.mark.rtos
@pytest.mark.parametrize("port_name", sorted(OWN_BUILD))
def test_own_build_port_links_and_runs_a_loaded_firmware(root: Path, tmp_path: Path,
                                                         port_name: str) -> None:
    """bench/core/load.c is in every own-build port's application: tm.basic
    under accept links, and the runner either runs it under the load or
    withdraws it naming what the load needs."""
    stream = _loaded_run(root, tmp_path, port_name, OWN_BUILD[port_name], "accept", "tm_basic")
    (case,) = [c for c in parse_named(stream).cases if c.id == "tm.basic"]
    if case.status == "unsupported":
        assert "the load profile accept:2000:64" in case.reason, case.reason
    else:
        assert case.status == "ok", case
        assert case.meta["load.profile"] == "accept:2000:64"
        assert int(case.meta["load.received"]) > 0


@pytest.mark.slow
@pytest.mark.rtos
def test_a_port_s_own_case_body_runs_under_the_load(root: Path, tmp_path: Path) -> None:
    """Contiki-NG's Thread-Metric processes are the port's own bodies
    (rm_port_case_body): a loaded firmware runs them under its load too, so
    their counts are loaded figures with the load's META, not idle ones."""
    stream = _loaded_run(root, tmp_path, "contiki", TARGET, "reject", "tm_sched")
    case = next(c for c in parse_named(stream).cases if c.id == "tm.cooperative")
    assert case.status == "ok", case
    assert case.meta["load.profile"].startswith("reject")
    assert int(case.meta["load.irqs"]) > 0  # reject drops each packet in the interrupt


def _loaded_run(root: Path, tmp_path: Path, port_name: str, target_name: str, load: str,
                group: str) -> bytes:
    """The stream of one group of a port's firmware built under a load (quick
    profile); skips naming the variable when the port's tree is not set."""
    defs = Definitions.load(root)
    port, target = defs.port(port_name), defs.target(target_name)
    assert port.cmake_project and port.source is not None and port.supports(target)
    tree = os.environ.get(port.source.env, "")
    if not tree or not (Path(tree) / port.source.probe).is_file():
        pytest.skip(f"{port.source.env} is not set to a {port_name} tree "
                    "(source /work/trees/trees.env, or `rtosmeter sources fetch`)")
    _need("cmake", "ninja", "gcc", "arm-none-eabi-gcc", "qemu-system-arm")
    profile = defs.profile(f"quick+{load}")
    spec = BuildSpec(port, target, profile, profile.params_for(target.kind), (group,),
                     find_source(port, {}), tmp_path, defs.toolchain("gcc"),
                     runner_defines=tuple(runners.firmware_defines(target).items()))
    result = build(spec, root, load_catalog(root), jobs=1)
    assert result.status == "ok", result.error
    return run_once(RunRequest(result.executables[group], target)).stream
