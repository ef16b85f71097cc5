"""`history`: runs listed from the real store; a case charted across runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rtosmeter import history
from rtosmeter.commands.common import STORE_NAME
from rtosmeter.commands.history import history as history_command
from rtosmeter.protocol import parse_stream
from rtosmeter.store import Store

DATA = Path(__file__).parent / "data"


def _fill(store: Store, runs: int, qemu: bool = False) -> None:
    """`runs` runs of the recorded posix/host streams; with `qemu`, also the
    recorded baremetal/qemu-mps2-an386 ones (another target, another unit)."""
    systems = [("posix", "host", "posix-host-*.rmstream", "host")] + qemu * [
        ("baremetal", "qemu-mps2-an386", "baremetal-qemu-mps2-an386-[!q]*.rmstream", "qemu")]
    for _ in range(runs):
        run = store.create_run({"campaign": "nightly"}, {}, "0.1.0")
        for port, target, pattern, runner in systems:
            paths = sorted(DATA.glob(pattern))
            assert paths
            build = store.add_build(run, port, target, "default",
                                    {"rtos_version": "glibc 2.36",
                                     "rtos_commit": "abcdef123456"} if port == "posix" else {})
            for p in paths:
                data = p.read_bytes()
                parsed = parse_stream(data)
                store.add_execution(run, build, parsed.header["group"], status="ok",
                                    runner={"runner": runner}, stream=data, parsed=parsed)
        store.finish_run(run)


@pytest.mark.slow
def test_list_and_chart(tmp_path: Path) -> None:
    with Store.open(tmp_path / STORE_NAME) as store:
        _fill(store, 3)
        runs = history.list_runs(store)
        assert [r.id for r in runs] == [1, 2, 3]
        assert runs[0].campaign == "nightly" and runs[0].ports == ["posix"]
        assert runs[0].sources == ["posix glibc 2.36 (abcdef1234)"]
        h = history.case_history(store, "lat.sem.pass")
    assert list(h.panels) == [("host", "ns (host clock)")]
    assert all(len(points) == 3 for points in h.panels["host", "ns (host clock)"].values())

    result = CliRunner().invoke(history_command, ["--out", str(tmp_path), "--case",
                                                  "lat.sem.pass"])
    assert result.exit_code == 0, result.output
    assert "nightly" in result.output and "glibc 2.36" in result.output
    svg = (tmp_path / "history-lat.sem.pass.svg").read_text()
    assert svg.startswith("<?xml") and "lat.sem.pass" in svg and "<path" in svg

    as_json = CliRunner().invoke(history_command, ["--out", str(tmp_path), "--format", "json",
                                                   "--case", "lat.sem.pass"])
    assert as_json.exit_code == 0, as_json.output
    doc = json.loads(as_json.stdout)
    assert [r["id"] for r in doc["runs"]] == [1, 2, 3]
    assert doc["runs"][0]["sources"] == ["posix glibc 2.36 (abcdef1234)"]
    assert doc["chart"] == str(tmp_path / "history-lat.sem.pass.svg")

    png = tmp_path / "tm.png"
    result = CliRunner().invoke(history_command, ["--out", str(tmp_path), "--case", "tm.sync",
                                                  "--chart", str(png)])
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_targets_and_units_get_panels_of_their_own(tmp_path: Path) -> None:
    """Host nanoseconds and QEMU timer ticks (or counts per period of two
    targets) on one axis would flatten one of them: a panel per target and unit."""
    with Store.open(tmp_path / STORE_NAME) as store:
        _fill(store, 2, qemu=True)
        latency = history.case_history(store, "lat.isr.entry")
        throughput = history.case_history(store, "tm.basic")
    assert sorted(t for t, _ in latency.panels) == ["host", "qemu-mps2-an386"]
    assert len(latency.units) == 2 and "ns (host clock)" in latency.units
    assert sorted(throughput.panels) == [("host", history.THROUGHPUT_UNIT),
                                         ("qemu-mps2-an386", history.THROUGHPUT_UNIT)]
    for panel in (*latency.panels.values(), *throughput.panels.values()):
        assert [len(points) for points in panel.values()] == [2]
    svg = history.chart(throughput)
    assert "tm.basic on host" in svg and "tm.basic on qemu-mps2-an386" in svg
    assert svg.count('<g id="axes_') == 2


def test_unknown_case_is_a_user_error(tmp_path: Path) -> None:
    with Store.open(tmp_path / STORE_NAME) as store:
        _fill(store, 1)
    result = CliRunner().invoke(history_command, ["--out", str(tmp_path), "--case", "nope"])
    assert result.exit_code != 0
    assert "no stored run has case 'nope'" in str(result.exception)
