"""`rtosmeter run` as a user drives it: options it must refuse, an empty run,
--profile FILE, progress, and a run stopped by SIGTERM and resumed. Real
builds, real executables and QEMU, real SQLite."""

from __future__ import annotations

import io
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import invoke
from procs import descendants, qemu_runs, still_alive
from rich.console import Console

from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import Definitions
from rtosmeter.errors import UserError
from rtosmeter.net.source import net_source_names
from rtosmeter.progress import Progress
from rtosmeter.store import Store

HAVE_QEMU = all(shutil.which(t) for t in ("qemu-system-arm", "arm-none-eabi-gcc"))


def test_unknown_source_name_lists_the_valid_ones(tmp_path: Path, root: Path) -> None:
    result = invoke("run", "--source", f"freertoss={tmp_path}", "--out", str(tmp_path / "o"))
    assert result.exit_code == 1
    ports = list(Definitions.load(root).ports.values())
    valid = sorted([p.name for p in ports if p.source] + net_source_names(ports))
    assert "freertos" in valid and "posix" not in valid  # posix needs no tree
    assert "lwip" in valid  # FreeRTOS's network stack (port.toml [net.source])
    assert result.output == (f"Error: unknown source name 'freertoss' in --source "
                             f"freertoss={tmp_path}. Valid source names: {', '.join(valid)}.\n")


def test_semicolon_in_out_is_refused_before_anything_is_built(tmp_path: Path) -> None:
    out = tmp_path / "a;b"
    result = invoke("run", "--port", "posix", "--target", "host", "--out", str(out))
    assert result.exit_code == 1
    assert "contains ';', which CMake reads as a list separator in --out" in result.output
    assert not out.exists() and sorted(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name,why", [
    ("a,b", "which splits QEMU's -plugin argument list"),
    ('a"b', "which ends a CMake string"),
    ("a\\b", "which CMake reads as an escape"),
    ("a${HOME}b", "which CMake reads as a variable reference"),
    ("a$ENV{X}", "which CMake reads as a variable reference"),
])
def test_a_path_cmake_or_qemu_would_misread_is_refused(tmp_path: Path, name: str,
                                                       why: str) -> None:
    """`,` split QEMU's -plugin arguments ("unknown argument", or an injected
    one); `"`, `\\`, `${` broke CMake with raw errors."""
    out = tmp_path / name
    result = invoke("run", "--port", "posix", "--target", "host", "--out", str(out))
    assert result.exit_code == 1
    assert f"contains {name[1]!r}, {why}" in result.output and "in --out" in result.output
    assert not out.exists() and sorted(tmp_path.iterdir()) == []


def test_a_source_linked_from_a_harmless_path_is_checked_where_it_leads(tmp_path: Path) -> None:
    """A symlinked --source carried a `;` of its target into CMake."""
    real = tmp_path / "tree;x"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    result = invoke("run", "--port", "freertos", "--source", f"freertos={tmp_path / 'link'}",
                    "--out", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert (f"the source path '{real}' contains ';', which CMake reads as a list separator "
            "in --source freertos") in result.output


@pytest.fixture
def read_only_dir(tmp_path: Path) -> Iterator[Path]:
    """A folder nobody may write: a read-only tmpfs for root (whom permissions
    do not stop), mode 0555 for anyone else."""
    path = tmp_path / "ro"
    path.mkdir()
    if os.geteuid() != 0:
        path.chmod(0o555)
        yield path
        path.chmod(0o755)
        return
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(path)],
                      capture_output=True, check=False).returncode != 0:
        pytest.skip("running as root without permission to mount a read-only tmpfs")
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True)


def test_read_only_out_is_a_clear_error(read_only_dir: Path) -> None:
    result = invoke("run", "--port", "posix", "--target", "host", "--out",
                    str(read_only_dir / "o"))
    assert result.exit_code == 1
    assert result.output.startswith("Error: cannot create the campaign folder (Read-only file "
                                    "system) in --out ") or "Permission denied" in result.output
    assert "Pass a writable folder with --out." in result.output


@pytest.mark.slow
def test_an_empty_run_is_not_stored_and_latest_stays(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RTOSMETER_THREADX", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # no cached trees
    out = tmp_path / "o"
    first = invoke("run", "--port", "posix", "--target", "host", "--bench", "irq.latency",
                   "--profile", "quick", "--out", str(out))
    assert first.exit_code == 0, first.output
    empty = invoke("run", "--port", "threadx", "--target", "host", "--out", str(out))
    assert empty.exit_code == 1
    assert "Error: nothing ran (threadx/host/default unsupported: " in empty.output
    assert "nothing was stored" in empty.output
    with Store.open(out / "rtosmeter.sqlite") as st:
        assert [r.id for r in st.runs()] == [1] and st.resolve_run("latest") == 1
        assert len(st.builds(1)) == 1


@pytest.mark.slow
def test_profile_file_is_accepted_and_reloaded_by_resume(tmp_path: Path, root: Path) -> None:
    text = (root / "profiles" / "quick.toml").read_text().replace('name = "quick"',
                                                                  'name = "mine"')
    profile = tmp_path / "mine.toml"
    profile.write_text(text)
    out = tmp_path / "o"
    result = invoke("run", "--port", "posix", "--target", "host", "--bench", "irq.latency",
                    "--profile", str(profile), "--out", str(out))
    assert result.exit_code == 0, result.output
    with Store.open(out / "rtosmeter.sqlite") as st:
        (build,) = st.builds(1)
        assert build.profile == "mine"
        assert st.run(1).campaign["profile_file"] == str(profile)
        for table in ("stream_chunks", "series", "counts", "checks", "cases", "executions"):
            st.conn.execute(f"DELETE FROM {table}")
        st.conn.execute("UPDATE runs SET status = 'interrupted'")
    # A resume in another session finds the profile again from the stored plan.
    summary = run_campaign(RunOptions(out=out, resume="1", quiet=True), root=root)
    assert summary.status == "done" and summary.executions == 1


def test_resume_refuses_a_run_that_is_still_live(tmp_path: Path, root: Path) -> None:
    out = tmp_path / "o"
    with Store.open(out / "rtosmeter.sqlite") as st:
        run = st.create_run({"builds": []}, {}, "t")
        lock = st.lock_run(run)
    try:
        with pytest.raises(UserError, match=f"run {run} is still running \\(process "
                                            f"{os.getpid()}\\)"):
            run_campaign(RunOptions(out=out, resume=str(run), quiet=True), root=root)
    finally:
        lock.release()


def _progress(monkeypatch: pytest.MonkeyPatch, no_color: bool) -> str:
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=100,
                      no_color=no_color, color_system="standard")
    rep = Progress(4, quiet=False, console=console)
    assert rep.bar is not None
    with rep.running():
        rep.current("building posix/host/default")
        rep.advance()
        rep.bar.refresh()
    return buf.getvalue()


def test_progress_has_an_eta_and_is_plain_under_no_color(
        monkeypatch: pytest.MonkeyPatch) -> None:
    coloured = _progress(monkeypatch, no_color=False)
    plain = _progress(monkeypatch, no_color=True)
    for text in (coloured, plain):
        assert "building posix/host/default" in text and "1/4" in text and "eta" in text
    colour = re.compile(r"\x1b\[(\d+;)*(3\d|9\d|1)m")  # a foreground colour or bold
    assert colour.search(coloured) and not colour.search(plain)


@pytest.mark.skipif(not HAVE_QEMU, reason="needs qemu-system-arm and arm-none-eabi-gcc")
@pytest.mark.slow
def test_sigterm_during_qemu_runs_stops_them_and_prints_the_resume(tmp_path: Path) -> None:
    out = tmp_path / "o"
    cmd = [sys.executable, "-c", "from rtosmeter.cli import main; main()", "run", "--port",
           "baremetal", "--target", "qemu-mps2-an386", "--out", str(out), "-j", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: list[int] = []
    while proc.poll() is None and not seen:
        seen = qemu_runs(proc.pid)
        time.sleep(0.005)
    assert seen, "the run ended before any QEMU was seen: " + proc.communicate()[1][-2000:]
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "Interrupted (SIGTERM): run 1 is stored as interrupted" in err
    assert f"rtosmeter run --resume 1 --out {out.resolve()}" in err
    assert still_alive(seen) == []
    with Store.open(out / "rtosmeter.sqlite") as st:
        assert st.run(1).status == "interrupted"
        stored = len(st.executions(1))
    resumed = invoke("run", "--resume", "1", "--out", str(out))
    assert resumed.exit_code == 0, resumed.output
    with Store.open(out / "rtosmeter.sqlite") as st:
        execs = st.executions(1)
        assert st.run(1).status == "done" and len(execs) > stored
        assert len({e.group for e in execs}) == len(execs)  # no group twice
        assert len(st.builds(1)) == 1


@pytest.mark.slow
def test_sigterm_during_a_build_ends_the_compilers_too(tmp_path: Path) -> None:
    out = tmp_path / "o"
    cmd = [sys.executable, "-c", "from rtosmeter.cli import main; main()", "run", "--port",
           "posix", "--target", "host", "--out", str(out), "-j", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    tools: list[int] = []
    started = out / "rtosmeter.sqlite.run1.lock"  # the run is stored: its builds follow
    while proc.poll() is None and not tools:
        # not `ninja --version` nor a compiler probed while planning: the run asks
        # the tools before it starts; nor a zombie, which ps shows as "[ninja]
        # <defunct>", without its options
        tools = [p for p, args in descendants(proc.pid)
                 if ("ninja" in args or "cc1" in args) and "--version" not in args
                 and "<defunct>" not in args] if started.exists() else []
    assert tools, "the run ended before its build was seen"
    seen = [p for p, _ in descendants(proc.pid)]
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert f"rtosmeter run --resume 1 --out {out.resolve()}" in err
    assert still_alive(seen) == []


FAKE_QEMU = Path(__file__).parent / "fake_qemu"
IRQ_STREAM = Path(__file__).parent / "data" / "baremetal-qemu-mps2-an386-irq.rmstream"


@pytest.mark.skipif(shutil.which("arm-none-eabi-gcc") is None,
                    reason="needs arm-none-eabi-gcc (the firmware is built for real)")
@pytest.mark.slow
def test_a_flooding_firmware_is_stopped_at_the_cap_in_bounded_memory(tmp_path: Path) -> None:
    """The real irq stream, its second case then repeating one S record for
    ever (tests/fake_qemu): the run stops the execution at the 64 MiB cap,
    keeps the case before the flood, and the harness's peak RSS stays
    within a few times the cap (it was 4.47 GB for 200 MB of flood)."""
    from rtosmeter.runners.base import STREAM_CAP

    honest, _ = _harness_peak(tmp_path / "honest", "")
    out = tmp_path / "o"
    peak, status = _harness_peak(out, "flood")
    log = out.parent / "o.log"
    assert os.waitstatus_to_exitcode(status) == 1, log.read_text()[-3000:]
    with Store.open(out / "rtosmeter.sqlite") as st:
        (ex,) = st.executions(1)
        assert len(st.stream(ex.id)) == STREAM_CAP
        cases = {c.case_id: c for c in st.cases(1)}
    assert ex.status == "failed" and "wrote more than 64 MiB of stream" in ex.error
    assert cases["calib.overhead"].status == "ok"
    assert cases["irq.latency"].status == "incomplete"  # cut by the cap, no END
    assert "beyond the 1024 announced by HELLO" in ex.errors[0][1]  # the flood: not data
    assert len(ex.errors) <= 1002
    print(f"flood: cap {STREAM_CAP >> 20} MiB, peak RSS {peak >> 20} MiB "
          f"(the same run without the flood: {honest >> 20} MiB)")
    # Over the same run without the flood (its peak depends on the process it
    # is started from): the capped stream is held once, the store takes it a
    # MiB at a time, and the parser's records are bounded.
    assert peak < honest + 3 * STREAM_CAP, (peak, honest)


def _harness_peak(out: Path, mode: str) -> tuple[int, int]:
    """(peak RSS in bytes, wait status) of `rtosmeter run` of the irq group
    under the fake QEMU replaying the real irq stream (`mode` flood: its
    second case's S record for ever). The harness's own peak: RUSAGE_SELF at
    exit (wait4's ru_maxrss would also take the compilers it reaped)."""
    env = dict(os.environ, PATH=f"{FAKE_QEMU}:{os.environ['PATH']}",
               FAKE_QEMU_STREAM=str(IRQ_STREAM), FAKE_QEMU_MODE=mode)
    harness = ("import atexit, resource, sys; atexit.register(lambda: sys.stderr.write("
               "f'RM_PEAK_RSS_KIB={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n')); "
               "from rtosmeter.cli import main; main()")
    cmd = [sys.executable, "-c", harness, "run", "--port", "baremetal", "--target",
           "qemu-mps2-an386", "--bench", "irq.latency", "--out", str(out), "-j", "1"]
    log = out.parent / f"{out.name}.log"
    with log.open("wb") as f:
        proc = subprocess.Popen(cmd, env=env, stdout=f, stderr=subprocess.STDOUT)
        _, status, _ = os.wait4(proc.pid, 0)
    text = log.read_text(errors="replace")
    return int(text.rsplit("RM_PEAK_RSS_KIB=", 1)[1].split()[0]) << 10, status  # KiB on Linux
