"""Idle windows keep their names when --bench keeps only some of a group's
cases: the firmware still runs every case of its group, each opening its
windows, so the names come from all the cases it ran (record.make_record),
not the kept ones. A real bare-metal build run in QEMU with the plugin."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import invoke

from rtosmeter import qemu_plugin
from rtosmeter.idle.stored import read_idle
from rtosmeter.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cortexm_firmware as fw

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not fw.have_toolchain() or qemu_plugin.plugin_path() is None,
    reason="needs arm-none-eabi-gcc, cmake, ninja, qemu-system-arm and the built plugin")]


def test_windows_of_cases_left_out_by_bench_keep_their_names(tmp_path: Path) -> None:
    # bare metal runs idle.system (one window, "1s") though --bench left it out,
    # and idle.sampling (one window per rate)
    result = invoke("run", "--port", "baremetal", "--target", "qemu-mps2-an386", "--profile",
                    "lowpower", "--bench", "idle.sampling", "-j", "1", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    with Store.open(tmp_path / "rtosmeter.sqlite") as st:
        (windows,) = read_idle(st, st.runs()[0].id).values()
    assert [w.window for w in windows] == [
        "execution", "idle.sampling@1000hz", "idle.sampling@100hz", "idle.sampling@200hz",
        "idle.system@1s"]
    second = next(w for w in windows if w.window == "idle.system@1s")
    assert second.wakeups == 1
    assert second.residency > 0.999 if second.timed else second.residency is None
