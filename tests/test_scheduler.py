"""Planning, isolation of failures, and resume, with real builds and runs."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import invoke
from test_build import broken_tree

from rtosmeter import qemu_plugin
from rtosmeter.catalog import load_catalog
from rtosmeter.commands.report import load_view
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import Definitions
from rtosmeter.errors import UserError
from rtosmeter.measure import Unit
from rtosmeter.plan import Selection, make_plan
from rtosmeter.progress import Progress
from rtosmeter.runners import run_once
from rtosmeter.runners.base import RunOutcome, RunRequest
from rtosmeter.runs import RunInterrupted, execute
from rtosmeter.store import Store


def test_explicit_pairs_record_unsupported_combinations(root: Path) -> None:
    defs = Definitions.load(root)
    catalog = load_catalog(root)
    qemu = next((t for t in defs.targets.values() if t.kind == "qemu"), None)
    if qemu is None:
        pytest.skip("no qemu target defined yet")
    plan = make_plan(defs, catalog, defs.campaign(None),
                     Selection(ports=("posix",), targets=("host", qemu.name)))
    by_target = {c.target: c for c in plan.builds}
    assert by_target["host"].skip_status == ""
    assert by_target[qemu.name].skip_status == "unsupported"
    assert f"posix does not run on {qemu.name}" in by_target[qemu.name].skip_reason


def test_unavailable_targets_skip_only_when_optional(root: Path) -> None:
    defs = Definitions.load(root)
    catalog = load_catalog(root)
    campaign = defs.campaign(None)
    optional = [e for e in campaign.entries if e.optional]
    if not optional:
        pytest.skip("the default campaign has no if_available entry")
    name = optional[0].targets[0]
    gcc = defs.toolchains["gcc"]
    prefix = defs.targets[name].toolchain or "host"
    defs.toolchains["gcc"] = replace(gcc, uses={
        **gcc.uses, prefix: replace(gcc.uses[prefix], needs=("nosuch-none-eabi-gcc",))})
    plan = make_plan(defs, catalog, campaign, Selection())
    skipped = [c for c in plan.builds if c.target == name]
    assert skipped and skipped[0].skip_status == "skipped"
    assert "nosuch-none-eabi-gcc" in skipped[0].skip_reason
    assert "apt-get install" in skipped[0].skip_reason
    with pytest.raises(UserError, match=fr"target {name} cannot run here"):
        make_plan(defs, catalog, campaign, Selection(targets=(name,)))


def test_toolchains_multiply_the_combinations(root: Path) -> None:
    """--toolchain gcc,clang: each (port, target, profile) once per toolchain,
    named apart (the default's name unchanged); a target a toolchain does not
    build for is unsupported, with the reason."""
    defs = Definitions.load(root)
    catalog = load_catalog(root)
    plan = make_plan(defs, catalog, defs.campaign(None),
                     Selection(ports=("posix",), targets=("host",), toolchains=("gcc", "clang")))
    assert [c.key for c in plan.builds] == ["posix/host/default", "posix/host/default+clang"]
    assert [c.toolchain for c in plan.builds] == ["gcc", "clang"]
    clang = defs.toolchains["clang"]
    defs.toolchains["clang"] = replace(clang, uses={"arm-none-eabi": clang.uses["arm-none-eabi"]})
    (combo,) = make_plan(defs, catalog, defs.campaign(None),
                         Selection(ports=("posix",), targets=("host",), toolchains=("clang",))
                         ).builds
    assert combo.skip_status == "unsupported" and "[targets.host]" in combo.skip_reason
    with pytest.raises(UserError, match=r"unknown toolchain 'icc'.*Valid toolchains: clang, gcc"):
        make_plan(defs, catalog, defs.campaign(None), Selection(toolchains=("icc",)))


def test_bench_glob_selects_groups(root: Path) -> None:
    defs = Definitions.load(root)
    catalog = load_catalog(root)
    case = catalog.cases[0]
    plan = make_plan(defs, catalog, defs.campaign(None),
                     Selection(ports=("posix",), targets=("host",), bench=case.id))
    assert [c.groups for c in plan.builds] == [[case.group]]
    with pytest.raises(UserError, match=r"unknown port 'nosuch' in --port. Valid ports:"):
        make_plan(defs, catalog, defs.campaign(None), Selection(ports=("nosuch",)))


@pytest.mark.slow
def test_a_failing_build_never_stops_the_others(root: Path, tmp_path: Path) -> None:
    tree = broken_tree(tmp_path, root)
    out = tmp_path / "out"
    summary = run_campaign(RunOptions(out=out, ports=("posix",), targets=("host",),
                                      bench="irq.latency,zz.*", profile="quick", quiet=True),
                           root=tree)
    assert summary.builds_failed == 1
    with Store.open(out / "rtosmeter.sqlite") as store:
        execs = {e.group: e for e in store.executions(summary.run_id)}
        cases = {c.case_id: c for c in store.cases(summary.run_id)}
        run = store.run(summary.run_id)
    assert execs["irq"].status == "ok"
    assert execs["zz_broken"].status == "error" and "did not build" in execs["zz_broken"].error
    assert cases["irq.latency"].status == "ok"
    assert "irq.max_rate" not in cases  # filtered by --bench; calib is always kept
    assert "calib.overhead" in cases
    assert run.status == "done"


@pytest.mark.slow
def test_an_executable_of_another_group_fails_its_execution(root: Path, tmp_path: Path) -> None:
    """A stale executable (newt once kept the previous group's archive) runs
    another group's cases: its execution fails naming both groups instead of
    storing those cases under the wrong group. The real lat_ipc firmware runs
    in place of lat_memory's."""
    defs = Definitions.load(root)
    catalog = load_catalog(root)
    plan = make_plan(defs, catalog, defs.campaign(None),
                     Selection(ports=("posix",), targets=("host",), profile="quick",
                               bench="lat.sem.nocs,lat.heap"))

    def stale(req: RunRequest) -> RunOutcome:
        exe = req.executable.with_name("rm_lat_ipc")
        return run_once(replace(req, executable=exe))

    with Store.open(tmp_path / "rtosmeter.sqlite") as store:
        summary = execute(defs, catalog, store, tmp_path, plan, quiet=True, run=stale)
        execs = {e.group: e for e in store.executions(summary.run_id)}
    assert execs["lat_ipc"].status == "ok"
    bad = execs["lat_memory"]
    assert bad.status == "failed", bad
    assert "rm_lat_memory runs group lat_ipc, not lat_memory" in bad.error


class _InterruptAfterFirstExecution(Progress):
    """Stands in for Ctrl-C right after the first execution is stored."""

    def __init__(self, store: Store) -> None:
        super().__init__(0, quiet=True)
        self.store = store

    def advance(self, n: int = 1) -> None:
        if any(self.store.executions(r.id) for r in self.store.runs()):
            raise KeyboardInterrupt


@pytest.mark.slow
def test_resume_skips_groups_already_stored(root: Path, tmp_path: Path) -> None:
    defs = Definitions.load(root)
    catalog = load_catalog(root)
    bench = "irq.*,lat.isr.*,lat.yield"  # three groups that run in about a second each
    groups = catalog.groups_for(bench)
    assert len(groups) == 3
    plan = make_plan(defs, catalog, defs.campaign(None),
                     Selection(ports=("posix",), targets=("host",), profile="quick", bench=bench))
    with Store.open(tmp_path / "rtosmeter.sqlite") as store:
        with pytest.raises(RunInterrupted):
            execute(defs, catalog, store, tmp_path, plan,
                    progress=_InterruptAfterFirstExecution(store))
        run = store.runs()[-1]
        assert run.status == "interrupted"
        first = store.executions(run.id)
        assert len(first) == 1
    summary = run_campaign(RunOptions(out=tmp_path, resume=str(run.id), quiet=True), root=root)
    assert summary.run_id == run.id and summary.status == "done"
    with Store.open(tmp_path / "rtosmeter.sqlite") as store:
        execs = store.executions(run.id)
        assert store.run(run.id).status == "done"
        assert len(store.builds(run.id)) == 1  # resume rebuilt it: still one build row
    assert sorted(e.group for e in execs) == sorted(groups)  # each group exactly once
    assert execs[0].id == first[0].id and execs[0].group == first[0].group


# ---- the unit of emulated runs (plugins/qemu, rtosmeter.qemu_plugin) --------

def _units(root: Path, **sel: object) -> dict[str, Unit]:
    defs = Definitions.load(root)
    plan = make_plan(defs, load_catalog(root), defs.campaign(None),
                     Selection(**sel))  # type: ignore[arg-type]
    return {c.target: c.unit for c in plan.builds}


@pytest.mark.slow
def test_emulated_runs_count_instructions_unless_asked(root: Path) -> None:
    if qemu_plugin.plugin_path() is None:
        pytest.fail("the QEMU plugin is not built: run scripts/install.sh")
    pair = {"ports": ("baremetal",), "targets": ("qemu-mps2-an386", "host")}
    assert _units(root, **pair) == {"qemu-mps2-an386": Unit.INSTRUCTIONS, "host": Unit.TICKS}
    assert _units(root, unit="cycles", **pair)["qemu-mps2-an386"] is Unit.CYCLES
    assert _units(root, unit="ticks", **pair)["qemu-mps2-an386"] is Unit.TICKS
    assert _units(root, icount=False, **pair)["qemu-mps2-an386"] is Unit.TICKS
    # every core of the QEMU targets has a cycle table (rmcm-3: M0/M0+, M3/M4, M7)
    for target in ("qemu-mps2-an500", "qemu-microbit"):
        assert _units(root, ports=("baremetal",), targets=(target,), unit="cycles") == {
            target: Unit.CYCLES}
    # a port that links with its RTOS's own script counts instructions too (it
    # places the counter word through its hooks: targets/mps2/rm_plugin_counter.ld)
    for port in ("zephyr", "riot", "contiki"):
        assert _units(root, ports=(port,), targets=("qemu-mps2-an386",)) == {
            "qemu-mps2-an386": Unit.INSTRUCTIONS}
        assert _units(root, ports=(port,), targets=("qemu-mps2-an386",), unit="cycles") == {
            "qemu-mps2-an386": Unit.CYCLES}
    assert _units(root, ports=("nuttx",), targets=("qemu-mps2-an500",)) == {
        "qemu-mps2-an500": Unit.INSTRUCTIONS}
    with pytest.raises(UserError, match="20 flash wait states are out of range"):
        _units(root, unit="cycles", ws=20, **pair)
    defs = Definitions.load(root)
    plan = make_plan(defs, load_catalog(root), defs.campaign(None),
                     Selection(unit="cycles", ws=2, div=6, **pair))  # type: ignore[arg-type]
    combo = next(c for c in plan.builds if c.target == "qemu-mps2-an386")
    assert (combo.unit, combo.ws, combo.div) == (Unit.CYCLES, 2, 6)


@pytest.mark.skipif(shutil.which("qemu-system-arm") is None
                    or shutil.which("arm-none-eabi-gcc") is None,
                    reason="qemu-system-arm or arm-none-eabi-gcc not installed")
@pytest.mark.slow
def test_a_cycle_run_records_the_plugin_and_repeats_exactly(root: Path, tmp_path: Path) -> None:
    streams = []
    for out in (tmp_path / "a", tmp_path / "b"):
        summary = run_campaign(RunOptions(out=out, ports=("baremetal",),
                                          targets=("qemu-mps2-an385",), bench="lat.isr.*",
                                          unit="cycles", quiet=True), root=root)
        assert summary.failed == 0 and summary.builds_failed == 0
        with Store.open(out / "rtosmeter.sqlite") as st:
            (ex,) = st.executions(summary.run_id)
            streams.append(st.stream(ex.id))
            (build,) = st.builds(summary.run_id)
        unit = f"cycles (estimated: {qemu_plugin.MODEL}, m3, ws=0)"
        assert ex.hello["unit"] == unit and ex.hello["hz"] == "15625000"
        assert ex.runner["unit"] == unit and build.config["unit"] == unit
        assert ex.runner["plugin"] == "rmcycles" and ex.runner["mode"] == "cycles"
        assert ex.runner["cpu"] == "m3" and ex.runner["ws"] == "0" and ex.runner["div"] == "12"
        so = qemu_plugin.plugin_path()
        assert so is not None and ex.runner["plugin_sha256"] == qemu_plugin.plugin_hash(so)
        assert f"-plugin {so},mode=cycles,cpu=m3" in ex.runner["command"]
        assert int(ex.runner["plugin_cycles"]) > int(ex.runner["plugin_instructions"]) > 0
        assert build.config["build_dir"].endswith("default@cycles")
    assert streams[0] == streams[1]
    # The analysis labels the unit as the firmware declared it; µs only with
    # a named clock, and then "estimated".
    plain = {d.unit.label for c in load_view(tmp_path / "b", "latest").cases
             for d in c.distributions}
    assert plain == {unit}
    timed = {(d.unit.label, d.p50) for c in load_view(tmp_path / "b", "latest", "25MHz").cases
             for d in c.distributions if c.case_id == "lat.isr.entry"}
    cycles = {d.p50 for c in load_view(tmp_path / "b", "latest").cases
              for d in c.distributions if c.case_id == "lat.isr.entry"}
    ((label, us),) = timed
    assert label.startswith("µs (estimated at 25 MHz from cycles")
    assert us == pytest.approx(next(iter(cycles)) / 25)


@pytest.mark.slow  # `rtosmeter run` asks every tool its version for the run record
def test_a_port_without_a_board_for_the_target_is_unsupported_at_plan_time(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`rtosmeter run --port zephyr --target stm32f407`: the architecture
    matches, but port.toml [targets] names no Zephyr board for it, so the
    planner says unsupported with the reason (the file), and nothing is
    configured or built: no Zephyr tree is needed to say so."""
    monkeypatch.delenv("RTOSMETER_ZEPHYR", raising=False)
    defs = Definitions.load(root)
    (build,) = make_plan(defs, load_catalog(root), defs.campaign(None),
                         Selection(ports=("zephyr",), targets=("stm32f407",))).builds
    assert build.skip_status == "unsupported"
    assert "no board for target stm32f407" in build.skip_reason
    assert "ports/zephyr/port.toml [targets]" in build.skip_reason
    result = invoke("run", "--port", "zephyr", "--target", "stm32f407", "--out", str(tmp_path))
    said = " ".join((result.stdout + result.stderr).split())
    assert result.exit_code != 0
    assert "zephyr/stm32f407/default unsupported: port zephyr has no board for target" in said
    assert not (tmp_path / "build").exists()  # nothing configured, nothing built
