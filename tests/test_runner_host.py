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
