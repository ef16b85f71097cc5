"""The host runner on real executables: exit codes, signals, hangs."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

import pytest

from rtosmeter.definitions import Definitions, project_root
from rtosmeter.runners import run_once
from rtosmeter.runners.base import RunOutcome, RunRequest

HOST = Definitions.load(project_root()).target("host")


def run_host(exe: Path, limit: float = 10.0, cap: int = 1 << 20) -> RunOutcome:
    return run_once(RunRequest(exe, replace(HOST, wall_limit_s=limit), stream_cap=cap))


def script(tmp: Path, name: str, body: str) -> Path:
    path = tmp / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def run(exe: Path, limit: float = 10.0) -> tuple[str, bytes, int | None, str, float]:
    out = run_host(exe, limit)
    return out.status, out.stream, out.exit_code, out.message, out.wall_s


def test_ok_keeps_stdout_and_stderr_apart(tmp_path: Path) -> None:
    exe = script(tmp_path, "ok", "printf '@RM 0 HELLO\\n'; echo noise >&2\n")
    outcome = run_host(exe)
    assert outcome.status == "ok" and outcome.exit_code == 0
    assert outcome.stream == b"@RM 0 HELLO\n"
    assert outcome.info["stderr"].strip() == "noise"
    assert outcome.info["runner"] == "host"


def test_non_zero_exit_and_fault_status(tmp_path: Path) -> None:
    status, stream, code, message, _ = run(script(tmp_path, "e", "echo part; exit 2\n"))
    assert (status, stream, code) == ("exit", b"part\n", 2)
    assert "exited with status 2" in message
    status, _, code, _, _ = run(script(tmp_path, "f", "exit 3\n"))
    assert (status, code) == ("fault", 3)


def test_signal_is_a_crash(tmp_path: Path) -> None:
    status, stream, code, message, _ = run(script(tmp_path, "c", "echo before; kill -SEGV $$\n"))
    assert status == "crash" and code is not None and code < 0
    assert stream == b"before\n"
    assert "SIGSEGV" in message


@pytest.mark.slow
def test_hang_is_killed_with_its_children_and_output_kept(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    exe = script(tmp_path, "hang",
                 f"echo started; sleep 60 & echo $! > {pidfile}; wait\n")
    started = time.monotonic()
    status, stream, _, message, wall = run(exe, limit=1.0)
    assert status == "timeout" and stream == b"started\n"
    assert "within 1 s" in message and wall < 10 and time.monotonic() - started < 10
    child = int(pidfile.read_text())
    time.sleep(0.2)
    try:
        os.kill(child, 0)
        alive = Path(f"/proc/{child}/stat").read_text().split()[2] != "Z"
    except ProcessLookupError:
        alive = False
    assert not alive, "the hung program's child survived"


@pytest.mark.slow
def test_silence_ends_a_hang_while_a_run_that_writes_goes_on(tmp_path: Path) -> None:
    """[limits] silent_s: a run quiet for 1 s is a hang, ended long before the
    wall limit; one that writes every 0.2 s for 2 s runs to its end."""
    target = replace(HOST, wall_limit_s=30.0, silent_limit_s=1.0)
    quiet = script(tmp_path, "quiet", "echo started; sleep 30\n")
    out = run_once(RunRequest(quiet, target, stream_cap=1 << 20))
    assert out.status == "timeout" and out.stream == b"started\n" and out.wall_s < 10
    assert "wrote nothing for 1 s (a hang)" in out.message and "silent_s" in out.message
    talking = script(tmp_path, "talking", "for i in 1 2 3 4 5 6 7 8 9 10; do echo $i; "
                     "sleep 0.2; done\n")
    out = run_once(RunRequest(talking, target, stream_cap=1 << 20))
    assert out.status == "ok" and out.stream.count(b"\n") == 10 and out.wall_s > 1.5


def test_missing_executable_is_an_error(tmp_path: Path) -> None:
    status, stream, code, message, _ = run(tmp_path / "nope")
    assert (status, stream, code) == ("error", b"", None)
    assert "cannot start" in message


def test_a_flood_is_stopped_at_the_cap_and_its_head_kept(tmp_path: Path) -> None:
    exe = script(tmp_path, "flood", "echo first; exec yes flood\n")
    out = run_host(exe, cap=1 << 20)
    assert out.status == "overflow" and out.exit_code is None
    assert len(out.stream) == 1 << 20 and out.stream.startswith(b"first\nflood\n")
    assert out.message.startswith("Error: flood wrote more than 1 MiB of stream")
