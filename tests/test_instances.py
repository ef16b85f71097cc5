"""Version instances (instances.py): `port@label` names, their trees, their
place in the plan and in the reports' column order."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from rtosmeter import instances, reports
from rtosmeter.catalog import load_catalog
from rtosmeter.commands.report import load_view
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import Definitions, Port, SourceSpec
from rtosmeter.errors import UserError
from rtosmeter.plan import Selection, make_plan
from rtosmeter.sources import SourceMissing, fetch, find_source


def kernel_tree(where: Path, version: str) -> Path:
    """A folder laid out as a FreeRTOS-Kernel tree reporting `version`."""
    (where / "include").mkdir(parents=True)
    (where / "tasks.c").write_text("/* kernel */\n")
    (where / "include" / "task.h").write_text(
        f'#define tskKERNEL_VERSION_NUMBER "{version}"\n')
    return where


def fr_port(subdirs: tuple[str, ...] = (), git: str = "") -> Port:
    spec = SourceSpec(env="RTOSMETER_TESTRTOS", probe="tasks.c", version_file="include/task.h",
                      version_regex=r'tskKERNEL_VERSION_NUMBER\s+"([^"]+)"', git=git,
                      subdirs=subdirs)
    return Port("testrtos", "", ("host",), (), {}, spec, Path("/nonexistent"),
                Path("/nonexistent/port.toml"))


def test_names_split_join_and_refuse_a_bad_label() -> None:
    assert instances.split("freertos@V9.0.0") == ("freertos", "V9.0.0")
    assert instances.split("freertos") == ("freertos", "")
    assert instances.join("freertos", "V9.0.0") == "freertos@V9.0.0"
    assert instances.join("freertos", "") == "freertos"
    for bad in ("freertos@", "freertos@../x", "freertos@a/b", "freertos@V1@V2"):
        with pytest.raises(UserError, match="malformed version label"):
            instances.split(bad)


def test_a_plain_port_runs_as_the_instances_given_trees() -> None:
    sources = {"freertos@V9.0.0": 1, "freertos@V11.1.0": 2, "threadx": 3}
    assert instances.expand(("freertos", "threadx", "posix"), sources) == (
        "freertos@V9.0.0", "freertos@V11.1.0", "threadx", "posix")
    # the plain tree too, when it is given as well
    assert instances.expand(("freertos",), {**sources, "freertos": 4}) == (
        "freertos", "freertos@V9.0.0", "freertos@V11.1.0")
    # a name that is already an instance stays as it is
    assert instances.expand(("freertos@V10.4.6",), sources) == ("freertos@V10.4.6",)
    # an instance named beside the plain port: both run (the plain one from its own tree)
    assert instances.expand(("freertos@V9.0.0", "freertos", "threadx"), sources) == (
        "freertos@V9.0.0", "freertos", "threadx")


def test_versions_sort_as_versions_not_text() -> None:
    names = ["freertos@V11.1.0", "freertos@V9.0.0", "freertos@V10.4.6", "freertos"]
    assert sorted(names, key=instances.sort_key) == [
        "freertos", "freertos@V9.0.0", "freertos@V10.4.6", "freertos@V11.1.0"]


def test_instance_tree_from_source_option_and_label_checked(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    v9 = kernel_tree(tmp_path / "v9", "V9.0.0")
    v11 = kernel_tree(tmp_path / "v11", "V11.1.0+")
    monkeypatch.setenv("RTOSMETER_TESTRTOS", str(v11))  # the plain tree only
    tree = find_source(fr_port(), {"testrtos@V9.0.0": v9}, "V9.0.0")
    assert tree is not None and tree.path == v9.resolve() and tree.version == "V9.0.0"
    assert tree.origin == "--source testrtos@V9.0.0"
    plain = find_source(fr_port(), {"testrtos@V9.0.0": v9})
    assert plain is not None and plain.path == v11.resolve()
    # a development snapshot ("V11.1.0+") is that version
    assert find_source(fr_port(), {"testrtos@v11.1.0": v11}, "v11.1.0") is not None
    # the environment variable never stands in for a labelled tree
    with pytest.raises(SourceMissing, match=r"--source testrtos@V10\.4\.6=PATH"):
        find_source(fr_port(), {}, "V10.4.6")
    # a label that reads as a version must be the tree's
    with pytest.raises(UserError, match=r"is testrtos V11\.1\.0\+, not V9\.0\.0") as err:
        find_source(fr_port(), {"testrtos@V9.0.0": v11}, "V9.0.0")
    assert "testrtos@V11.1.0" in err.value.fix
    # a free-form label names any tree
    mine = find_source(fr_port(), {"testrtos@patched": v11}, "patched")
    assert mine is not None and mine.version == "V11.1.0+"


def test_fetched_instance_found_in_cache_subfolder(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`sources fetch testrtos@V9.0.0` clones the tag into the cache, where
    the kernel of old releases sits in a subfolder (port.toml `subdirs`)."""
    upstream = tmp_path / "upstream"
    kernel_tree(upstream / "FreeRTOS" / "Source", "V9.0.0")
    for args in (["init", "-q"], ["add", "."],
                 ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "v9"],
                 ["tag", "V9.0.0"]):
        subprocess.run(["git", *args], cwd=upstream, check=True, capture_output=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RTOSMETER_TESTRTOS", raising=False)
    port = fr_port(("FreeRTOS/Source",), str(upstream))
    fetched = fetch(port, "V9.0.0")
    assert fetched.path.parts[-2:] == ("FreeRTOS", "Source")
    found = find_source(port, {}, "V9.0.0")
    assert found is not None and found.path == fetched.path and found.origin == "cache"
    with pytest.raises(SourceMissing):
        find_source(fr_port(), {}, "V9.0.0")  # no subdirs: not a tree


@pytest.mark.slow
def test_plan_has_one_system_per_version(root: Path) -> None:
    defs = Definitions.load(root)
    catalog = load_catalog(root)
    sources = {"freertos@V9.0.0": Path("/a"), "freertos@V10.4.6": Path("/b")}
    plan = make_plan(defs, catalog, defs.campaign(None), Selection(
        ports=("freertos",), targets=("qemu-mps2-an386",), sources=sources,
        unit="ticks"))
    assert [c.key for c in plan.builds] == ["freertos@V9.0.0/qemu-mps2-an386/default",
                                            "freertos@V10.4.6/qemu-mps2-an386/default"]
    assert plan.sources == {k: str(v) for k, v in sources.items()}
    # named directly, and checked like any port name
    plan = make_plan(defs, catalog, defs.campaign(None), Selection(
        ports=("freertos@V9.0.0",), targets=("qemu-microbit",), unit="ticks"))
    assert [c.port for c in plan.builds] == ["freertos@V9.0.0"]
    with pytest.raises(UserError, match="no versions"):
        defs.port("baremetal@V1")
    with pytest.raises(UserError, match="unknown port 'nosuch'"):
        defs.port("nosuch@V1")


def versioned_bare_metal(folder: Path, root: Path) -> None:
    """A port on the search path (RTOSMETER_PATH) that is bare metal with a
    source tree: versions of it build with no RTOS at all."""
    port = folder / "ports" / "verrtos"
    port.mkdir(parents=True)
    toml = (root / "ports" / "baremetal" / "port.toml").read_text()
    (port / "port.toml").write_text(
        toml.replace('name = "baremetal"', 'name = "verrtos"')
        + '\n[source]\nenv = "RTOSMETER_VERRTOS"\nprobe = "VERSION"\n'
          'version_file = "VERSION"\nversion_regex = \'([0-9.]+)\'\n')
    (port / "port.cmake").write_text(
        f'include("{root / "ports" / "baremetal" / "port.cmake"}")  # no kernel to build\n')


@pytest.mark.slow
def test_versions_beside_other_ports(root: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Two versions of a port beside another port in one run: every step
    after the build (toolchain limits, the footprint's reservations, the
    store, the report) finds an instance's port, with no RTOS tree needed."""
    if shutil.which("arm-none-eabi-gcc") is None or shutil.which("qemu-system-arm") is None:
        pytest.fail("arm-none-eabi-gcc and qemu-system-arm are required: run scripts/install.sh")
    versioned_bare_metal(tmp_path / "extra", root)
    monkeypatch.setenv("RTOSMETER_PATH", str(tmp_path / "extra"))
    trees = {}
    for version in ("1.0", "2.0"):
        trees[f"verrtos@{version}"] = tmp_path / f"tree-{version}"
        trees[f"verrtos@{version}"].mkdir()
        (trees[f"verrtos@{version}"] / "VERSION").write_text(f"{version}\n")
    out = tmp_path / "out"
    summary = run_campaign(RunOptions(
        out=out, ports=("verrtos", "baremetal"), targets=("qemu-mps2-an386",),
        bench="irq.latency", profile="quick", sources=dict(trees), jobs=1, quiet=True))
    assert (summary.failed, summary.builds_failed) == (0, 0)
    view = load_view(out, str(summary.run_id))
    builds = {b.port: b for b in view.builds}
    assert set(builds) == {"verrtos@1.0", "verrtos@2.0", "baremetal"}
    assert [builds[f"verrtos@{v}"].config["rtos_version"] for v in ("1.0", "2.0")] == [
        "1.0", "2.0"]
    assert {f.port for f in view.footprints} == set(builds)
    assert {(c.port, c.status) for c in view.cases if c.case_id == "irq.latency"} == {
        (p, "ok") for p in builds}
    header = next(line for line in reports.render(view, "markdown").splitlines()
                  if line.startswith("| case |"))
    assert header.index("verrtos@1.0") < header.index("verrtos@2.0")
