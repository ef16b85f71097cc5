"""Shared fixtures: one real default-campaign run per test session.

The run is real (CMake + gcc build, host executables, SQLite store); it is
made once and shared, because it is the slow part of the suite.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from rtosmeter.cli import cli
from rtosmeter.definitions import project_root

ROOT = project_root()


@dataclass
class SessionRun:
    out: Path
    result: Result


def invoke(*args: str) -> Result:
    """Run the CLI in-process, keeping stdout and stderr apart."""
    return CliRunner().invoke(cli, list(args), catch_exceptions=True)


@pytest.fixture(scope="session", autouse=True)
def no_user_config(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The tests read no configuration of the machine's user (config.py)."""
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("xdg-config"))
    os.environ.pop("RTOSMETER_PATH", None)


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def default_run(tmp_path_factory: pytest.TempPathFactory) -> SessionRun:
    """`rtosmeter run --out DIR`: the default campaign, built and run for real."""
    if shutil.which("cmake") is None or shutil.which("gcc") is None:
        pytest.fail("cmake and gcc are required: run scripts/install.sh")
    out = tmp_path_factory.mktemp("campaign")
    result = invoke("run", "--out", str(out))
    return SessionRun(out, result)
