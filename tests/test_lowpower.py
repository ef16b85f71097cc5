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

from rtosmeter import qemu_binary, qemu_plugin
from rtosmeter.idle.stored import read_idle
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
    qemu = qemu_binary.default()
    timed = qemu.idle_clock != "none"  # QEMU 7.2 and 10.1 on (docs/qemu.md)
    low, spin = figures["lowpower"]["idle.system@1s"], figures["default"]["idle.system@1s"]
    # Woken once, by the timer, and awake only for the few instructions that
    # start the timer and take its interrupt: counted on every QEMU.
    assert low.wakeups == 1 and dict(low.wake_causes) == {"timer": 1}
    assert low.instructions_awake < 200
    # default: the second spun awake, the timer's interrupt taken awake.
    assert spin.asleep_ns == 0 and spin.wakeups == 0 and spin.timed
    assert dict(spin.interrupts) == {"timer": 1}
    assert 999_000_000 < spin.window_ns < 1_001_000_000
    if timed:  # one second asleep but those instructions
        assert 999_000_000 < low.asleep_ns <= low.window_ns < 1_001_000_000
    else:  # no figure of time, and the reason with the version
        assert low.residency is None and low.asleep_ns == 0
        release = ".".join(qemu.version.split(".")[:2])
        assert low.time_limit.startswith(f"not exact on QEMU {release}: ")
    # The sampling application's floor: one wake-up per sample, by the timer.
    for hz in (100, 200, 1000):
        low = figures["lowpower"][f"idle.sampling@{hz}hz"]
        assert low.wakeups == hz and dict(low.wake_causes) == {"timer": hz}
        assert (0.99 < low.residency < 1.0) if low.residency is not None else not timed
        assert figures["default"][f"idle.sampling@{hz}hz"].residency == 0.0
    report = invoke("report", "--out", str(out), "--format", "markdown")
    assert report.exit_code == 0, report.output
    assert "## Idle: sleep residency and wake-ups" in report.output
    line = next(ln for ln in report.output.splitlines()
                if ln.startswith("| baremetal/qemu-mps2-an386/default | 1s"))
    assert "| 0 | 0 | - | 1 |" in line
    report = invoke("report", "1", "--out", str(out), "--format", "markdown")  # lowpower
    asleep = next(ln for ln in report.output.splitlines()
                  if ln.startswith("| baremetal/qemu-mps2-an386/lowpower | 1s"))
    assert ("n/a ‡" in asleep) != timed, asleep  # the mark at the number, and why:
    assert ("‡ not measured, not exact on QEMU" in report.output) != timed
    energy = invoke("report", "1", "--out", str(out), "--view", "energy", "--format", "markdown")
    assert ("## Energy, not estimated" in energy.output) != timed, energy.output
