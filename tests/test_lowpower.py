"""The lowpower profile end to end on bare metal (no RTOS tree needed):
`rtosmeter run --profile lowpower --bench 'idle.*'` builds the idle group
with RM_IDLE_KERNEL, runs it in QEMU with the rmcycles plugin, stores the
idle figures (rtosmeter.idle) and reports them; the default profile's idle
spins and never sleeps. Real arm-none-eabi-gcc, QEMU, SQLite.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import invoke

from rtosmeter import qemu_plugin
from rtosmeter.idle import read_idle
from rtosmeter.store import Store


@pytest.mark.slow
@pytest.mark.skipif(qemu_plugin.plugin_path() is None, reason="needs the built rmcycles plugin")
def test_bare_metal_sleeps_in_lowpower_and_spins_in_default(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for profile in ("lowpower", "default"):
        res = invoke("run", "--port", "baremetal", "--target", "qemu-mps2-an386",
                     "--profile", profile, "--bench", "idle.*", "-j", "1", "--out", str(out))
        assert res.exit_code == 0, res.output + str(res.exception)
    with Store.open(out / "rtosmeter.sqlite") as st:
        figures = {}
        for run in st.runs():
            (build,) = st.builds(run.id)
            # the plugin's raw summary goes to the idle table, not the runner's record
            assert all("plugin_idle" not in e.runner for e in st.executions(run.id))
            for windows in read_idle(st, run.id).values():
                figures[build.profile] = {f.window: f for f in windows}
    low, spin = figures["lowpower"]["idle.system@1s"], figures["default"]["idle.system@1s"]
    # One second asleep but the few instructions that start the timer and
    # take its interrupt; woken once, by the timer.
    assert 999_000_000 < low.asleep_ns <= low.window_ns < 1_001_000_000
    assert low.wakeups == 1 and dict(low.wake_causes) == {"timer": 1}
    assert low.instructions_awake < 200
    # default: the same second spun awake, the timer's interrupt taken awake.
    assert spin.asleep_ns == 0 and spin.wakeups == 0
    assert dict(spin.interrupts) == {"timer": 1}
    assert 999_000_000 < spin.window_ns < 1_001_000_000
    # The sampling application's floor: one wake-up per sample, by the timer.
    for hz in (100, 200, 1000):
        low = figures["lowpower"][f"idle.sampling@{hz}hz"]
        assert low.wakeups == hz and dict(low.wake_causes) == {"timer": hz}
        assert 0.99 < low.residency < 1.0
        assert figures["default"][f"idle.sampling@{hz}hz"].residency == 0.0
    report = invoke("report", "--out", str(out), "--format", "markdown")
    assert report.exit_code == 0, report.output
    assert "## Idle: sleep residency and wake-ups" in report.output
    line = next(ln for ln in report.output.splitlines()
                if ln.startswith("| baremetal/qemu-mps2-an386/default | 1s"))
    assert "| 0 | 0 | - | 1 |" in line
