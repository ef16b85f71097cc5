"""Clocks from the firmware's own report (CFG ts_hz, cpu_hz; rtosmeter.clocks),
with real builds and real QEMU runs of an MPS2 target."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cortexm_firmware import have_toolchain

from rtosmeter.commands.report import load_view
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.store import Store

pytestmark = pytest.mark.skipif(not have_toolchain(), reason="needs arm-none-eabi-gcc and QEMU")
TARGET = "qemu-mps2-an385"


def _run(tree: Path, out: Path, unit: str = "ticks") -> tuple[
        dict[str, str], dict[str, float], list[str]]:
    """One quick lat.isr run on the CMSDK timer (or the plugin's counter):
    the runner info, each series' median, the clock warnings."""
    summary = run_campaign(RunOptions(out=out, ports=("baremetal",), targets=(TARGET,),
                                      bench="lat.isr.*", profile="quick", unit=unit,
                                      quiet=True), root=tree)
    assert summary.failed == 0 and summary.builds_failed == 0
    with Store.open(out / "rtosmeter.sqlite") as store:
        (ex,) = store.executions(summary.run_id)
    view = load_view(out, "latest")
    medians = {f"{c.case_id}/{d.series}/{d.unit.label}": d.p50
               for c in view.cases for d in c.distributions}
    return dict(ex.runner), medians, [w.text for w in view.warnings if w.kind == "clock"]


@pytest.fixture(scope="module")
def reported(root: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[
        dict[str, str], dict[str, float], list[str]]:
    return _run(root, tmp_path_factory.mktemp("clocks") / "out")


@pytest.mark.slow
def test_qemu_firmware_reports_its_clocks_and_they_agree(reported) -> None:  # type: ignore[no-untyped-def]
    runner, medians, warnings = reported
    assert (runner["ts_hz"], runner["cpu_hz"]) == ("25000000", "25000000")
    assert "clock_warning" not in runner and warnings == []
    assert medians and all("instructions (QEMU icount)" in k for k in medians)


@pytest.mark.slow
def test_under_the_plugin_only_the_core_clock_is_reported(root: Path, tmp_path: Path) -> None:
    """The rmcycles counter's rate is the build's (HELLO hz): no ts_hz to check."""
    runner, medians, warnings = _run(root, tmp_path / "out", unit="instructions")
    assert runner["cpu_hz"] == "25000000" and "ts_hz" not in runner and warnings == []
    assert all("instructions (QEMU, exact)" in k for k in medians)


@pytest.mark.slow
def test_a_target_toml_that_disagrees_is_named_and_the_report_wins(
        root: Path, tmp_path: Path, reported) -> None:  # type: ignore[no-untyped-def]
    """target.toml says 24 MHz, the firmware reads 25 MHz: the warning names
    the file, and the figures are those of the firmware's rate."""
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("bench", "ports", "profiles", "campaigns", "toolchains"):
        (tree / name).symlink_to(root / name)
    (tree / "targets").mkdir()
    for t in (root / "targets").iterdir():
        if t.name != "mps2":  # TARGET's family: copied, with TARGET's file edited
            (tree / "targets" / t.name).symlink_to(t)
    shutil.copytree(root / "targets" / "mps2", tree / "targets" / "mps2", symlinks=True)
    toml = tree / "targets" / "mps2" / TARGET / "target.toml"
    toml.write_text(toml.read_text().replace("hz = 25000000", "hz = 24000000"))
    runner, medians, warnings = _run(tree, tmp_path / "out")
    assert runner["ts_hz"] == "25000000"
    (text,) = set(warnings)
    assert f"{toml}" in text and "at 25000000 Hz" in text and "[counter] hz = 24000000" in text
    assert "cpu_hz = 24000000" in text  # both copies were edited
    assert medians == reported[1]
