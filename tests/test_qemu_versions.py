"""Every QEMU a user has (docs/qemu.md): which QEMU a run uses, the plugin
build for its API, what a refused plugin says, and the same figures on two
QEMU versions.

The cross-version test runs the real bare-metal campaign on the system's
QEMU and on a second one (RTOSMETER_QEMU_SECOND: scripts/test.sh sets it to
QEMU 10.0.2 from scripts/second-qemu.sh) into one store, and compares every
execution's stream, plugin counts and idle figures.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from conftest import invoke as cli

from rtosmeter import qemu_binary
from rtosmeter.store import Store

SECOND_ENV = "RTOSMETER_QEMU_SECOND"


def fw_tools() -> bool:
    return bool(shutil.which("arm-none-eabi-gcc")) and qemu_binary.default().found
TARGETS = "qemu-mps2-an385,qemu-mps2-an386,qemu-mps2-an500,qemu-microbit"


def invoke(*args: str) -> tuple[int, str]:
    res = cli(*args)
    return res.exit_code, res.output + (str(res.exception) if res.exception else "")


def fake_version(tmp_path: Path, line: str) -> str:
    """A program that answers --version as a QEMU build would (the version
    parser is what is under test; nothing is emulated)."""
    path = tmp_path / "qemu-version-answer"
    path.write_text(f"#!/bin/sh\necho '{line}'\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.mark.parametrize(("line", "release", "api", "clock"), [
    ("QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)", (7, 2), 1, "guard72"),
    ("QEMU emulator version 8.2.2 (Debian 1:8.2.2+ds-0ubuntu1)", (8, 2), 1, "none"),
    ("QEMU emulator version 9.2.1", (9, 2), 2, "none"),
    ("QEMU emulator version 10.0.2 (Debian 1:10.0.2+ds-2+deb13u1~bpo12+1)", (10, 0), 2, "none"),
    ("QEMU emulator version 10.1.0", (10, 1), 2, "discon"),
    ("QEMU emulator version 11.1.3 (Debian 1:11.1.3+ds-2~bpo13+1)", (11, 1), 3, "discon"),
    ("QEMU emulator version 6.2.0", (6, 2), 0, "none"),
])
def test_the_version_chooses_the_plugin_api_and_the_idle_clock(
        tmp_path: Path, line: str, release: tuple[int, int], api: int, clock: str) -> None:
    q = qemu_binary.Qemu(fake_version(tmp_path, line))
    assert (q.release, q.api, q.idle_clock) == (release, api, clock)
    if api:
        build = qemu_binary.PLUGIN_DIR / "build" / f"rmcycles-api{api}.so"
        assert q.plugin() == (build if build.is_file() else None)
    else:
        assert q.plugin() is None and "older than 7.2" in q.plugin_missing()


def test_the_option_beats_the_environment_which_beats_the_campaign(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(qemu_binary.ENV, "/env/qemu")
    assert qemu_binary.chosen("/opt/qemu", "/campaign/qemu") == "/opt/qemu"
    assert qemu_binary.chosen(None, "/campaign/qemu") == "/env/qemu"
    monkeypatch.delenv(qemu_binary.ENV)
    assert qemu_binary.chosen(None, "/campaign/qemu") == "/campaign/qemu"
    assert qemu_binary.chosen() == "qemu-system-arm"


@pytest.mark.parametrize(("version", "late"), [
    ("7.2.22", True), ("8.2.2", True), ("9.2.2", True), ("9.2.3", False), ("10.0.2", False),
    ("11.1.3", False)])
def test_which_qemus_wake_late_and_what_their_idle_figures_say(version: str,
                                                               late: bool) -> None:
    assert qemu_binary.wakes_late(version) is late
    reason = qemu_binary.untimed_reason(version)
    assert reason.startswith(f"not exact on QEMU {'.'.join(version.split('.')[:2])}: ")
    assert ("one period late" in reason) is late


def test_qemus_own_line_is_found_and_answered() -> None:
    stderr = ("qemu-system-arm: failed to initialize module: ui-opengl.so\n"
              "qemu-system-arm: Could not load plugin /p/rmcycles-api1.so: /p/rmcycles-api1.so: "
              "undefined symbol: qemu_plugin_register_vcpu_insn_exec_inline\n")
    line = qemu_binary.plugin_error(stderr)
    assert line.startswith("qemu-system-arm: Could not load plugin") and "undefined" in line
    assert "make -C plugins/qemu" in qemu_binary.plugin_fix(line)
    assert qemu_binary.plugin_error("qemu: fatal: Lockup\n") == ""


def _other_build(qemu: qemu_binary.Qemu) -> Path:
    return qemu_binary.PLUGIN_DIR / "build" / f"rmcycles-api{1 if qemu.api > 1 else 2}.so"


needs_plugin = pytest.mark.skipif(
    qemu_binary.default().plugin() is None,
    reason="needs QEMU 7.2 or later and the built plugin (make -C plugins/qemu)")


@pytest.mark.slow
@needs_plugin
def test_a_plugin_qemu_refuses_fails_every_execution_with_qemus_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The build of the other API: QEMU refuses it at load; each execution's
    error quotes QEMU, the summary says it once with the fix, and doctor
    says the same before any run."""
    qemu = qemu_binary.default()
    other = _other_build(qemu)
    if not other.is_file():
        pytest.skip(f"{other} is not built")
    monkeypatch.setenv(qemu_binary.PLUGIN_ENV, str(other))
    out = tmp_path / "out"
    code, text = invoke("run", "--port", "baremetal", "--target", "qemu-mps2-an386",
                        "--bench", "lat.sem.*,irq.latency", "--out", str(out))
    assert code == 1, text
    summary = [ln for ln in text.splitlines() if "execution(s): " in ln]
    assert len(summary) == 1 and "Could not load plugin" in summary[0], text
    assert "Fix: the plugin build does not match this QEMU's plugin API" in summary[0]
    assert text.count("undefined symbol") == 2, text  # the first warning and the summary
    assert "stream ends without BYE" not in text  # a consequence, not news
    with Store.open(out / "rtosmeter.sqlite") as st:
        errors = [e.error for e in st.executions(st.runs()[0].id)]
    assert errors and all("Could not load plugin" in e and qemu.version in e for e in errors)
    code, text = invoke("doctor")
    assert "does not start: qemu-system-arm: Could not load plugin" in text, text


def _runs(store: Path) -> list[dict[tuple[str, str, str], tuple[bytes, str]]]:
    """Per run: (port, target, group) -> (stream, the plugin's counts)."""
    out: list[dict[tuple[str, str, str], tuple[bytes, str]]] = []
    with Store.open(store) as st:
        for run in st.runs():
            builds = {b.id: b for b in st.builds(run.id)}
            found = {}
            for e in st.executions(run.id):
                counts = ",".join(f"{k}={e.runner.get(k)}" for k in (
                    "plugin_instructions", "plugin_cycles", "plugin_exception_entries"))
                b = builds[e.build_id]
                found[(b.port, b.target, e.group)] = (st.stream(e.id), counts)
            out.append(found)
    return out


def _attribution(store: Path) -> list[dict[tuple[str, ...], tuple[int, int, int]]]:
    """Per run: (target, group, case, series, function) -> (instructions, cycles, calls)."""
    with Store.open(store) as st:
        return [{(str(t), str(g), str(c), str(n), str(f)): (int(i), int(y or 0), int(k))
                 for t, g, c, n, f, i, y, k in st.conn.execute(
                     "SELECT b.target, e.grp, ca.case_id, s.name, a.function, a.instructions, "
                     "a.cycles, a.calls FROM attribution a JOIN series s ON s.id = a.series_id "
                     "JOIN cases ca ON ca.id = s.case_row JOIN executions e ON "
                     "e.id = ca.execution_id JOIN builds b ON b.id = e.build_id "
                     "WHERE e.run_id = ?", (run.id,))}
                for run in st.runs()]


@pytest.mark.slow
@needs_plugin
@pytest.mark.skipif(not os.environ.get(SECOND_ENV), reason=f"set {SECOND_ENV} to a second QEMU "
                    "(scripts/second-qemu.sh fetches 10.0.2)")
@pytest.mark.parametrize("unit", ["instructions", "cycles", "ticks"])
def test_two_qemu_versions_give_the_same_streams(tmp_path: Path, unit: str) -> None:
    """Bare metal on the four machines, in one unit, on both QEMUs: every
    execution's stream (every sample the store keeps), every plugin count
    and, with the plugin, every function's attributed share is the same."""
    second = os.environ[SECOND_ENV]
    versions = {qemu_binary.default().version, qemu_binary.Qemu(second).version}
    assert len(versions) == 2, f"{SECOND_ENV} is the same QEMU as the default: {versions}"
    out = tmp_path / "out"
    bench = "lat.*,irq.*,tm.basic,sw.*"
    attribute = ["--attribute"] if unit != "ticks" else []  # the plugin's units
    for qemu in (qemu_binary.default().binary, second):
        # -j 1: the report's calib.overhead per system is one group's, picked
        # by the executions' order, which -j 2 leaves to the host (issue 48)
        code, text = invoke("run", "--port", "baremetal", "--target", TARGETS, "--unit", unit,
                            "--bench", bench, "--qemu", qemu, "--out", str(out), "-j", "1",
                            *attribute)
        assert code == 0, text
    first, other = _runs(out / "rtosmeter.sqlite")
    assert set(first) == set(other) and len(first) >= 4 * 5
    differ = [k for k in first if first[k] != other[k]]
    assert not differ, f"{len(differ)} of {len(first)} executions differ: {differ[:3]}"
    if attribute:  # every function's share of every series, to the instruction
        by_run = _attribution(out / "rtosmeter.sqlite")
        assert by_run[0] and by_run[0] == by_run[1]
    code, text = invoke("compare", "1", "2", "--out", str(out))
    assert code == 0, text
    assert "QEMU differs" in text


REPRO = Path(__file__).resolve().parent.parent / "docs" / "qemu-double-warp"


@pytest.mark.slow
@pytest.mark.skipif(not fw_tools(), reason="needs arm-none-eabi-gcc and qemu-system-arm")
def test_the_double_warp_reproducer_shows_this_qemus_behaviour(tmp_path: Path) -> None:
    """docs/qemu-double-warp/repro.c, built and run as the write-up says: a
    10 ms sleep until SysTick lasts two periods on QEMU 7.2, one elsewhere."""
    import subprocess

    elf = tmp_path / "repro.elf"
    subprocess.run(["arm-none-eabi-gcc", "-mcpu=cortex-m4", "-mthumb", "-O2", "-nostdlib",
                    "-Wall", "-Wextra", "-Werror", "-T", str(REPRO / "repro.ld"),
                    str(REPRO / "repro.c"), "-o", str(elf)], check=True)
    qemu = qemu_binary.default()
    out = subprocess.run([qemu.binary, "-M", "mps2-an386", "-nographic", "-monitor", "none",
                          "-semihosting", "-icount", "shift=6,align=off,sleep=off",
                          "-kernel", str(elf)], capture_output=True, text=True, timeout=60,
                         check=True)
    sleeps = [int(line.rsplit(" ", 1)[1]) for line in (out.stdout + out.stderr).splitlines()
              if line.startswith("sleep until the next tick")]
    periods = 2 if qemu_binary.wakes_late(qemu.version) else 1
    assert len(sleeps) == 4 and all(
        (periods - 1) * 250_000 < s <= periods * 250_000 + 100 for s in sleeps), (qemu, sleeps)
