"""Shared fixtures: one real default-campaign run per test session.

The run is real (CMake + gcc build, host executables, SQLite store); it is
made once and shared, because it is the slow part of the suite.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    """The tests read no configuration of the machine's user (config.py) and
    see no terminal."""
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("xdg-config"))
    os.environ.pop("RTOSMETER_PATH", None)
    # the tables at the width of a file or pipe (reports/table.py), whatever
    # terminal or test worker runs the suite
    os.environ["COLUMNS"] = "160"


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def default_run(tmp_path_factory: pytest.TempPathFactory) -> SessionRun:
    """`rtosmeter run --out DIR`: the default campaign, built and run for real."""
    if shutil.which("cmake") is None or shutil.which("gcc") is None:
        pytest.fail("cmake and gcc are required: run scripts/install.sh")
    out = tmp_path_factory.mktemp("campaign")
    result = CliRunner().invoke(cli, ["run", "--out", str(out)], catch_exceptions=True,
                                env=offline_first_run(tmp_path_factory.mktemp("cache")))
    return SessionRun(out, result)


def offline_first_run(cache: Path) -> dict[str, str | None]:
    """A new user's machine, offline: no FreeRTOS or ThreadX tree set, an
    empty cache, and git sent to a port nothing listens on, so the first
    run's fetch (rtosmeter.first_run) fails for real, quickly."""
    return {"RTOSMETER_FREERTOS": None, "RTOSMETER_THREADX": None,
            "XDG_CACHE_HOME": str(cache), "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": "url.http://127.0.0.1:9/.insteadOf",
            "GIT_CONFIG_VALUE_0": "https://"}


# The fast lane (`pytest -m "not slow"`) must stay fast: a test that starts a
# build tool, QEMU or a browser is slow and must say so. Every test is held to
# that here, in both lanes, so a missing mark fails instead of slowing the lane.
SLOW_PROGRAMS = (
    "cmake", "ninja", "make", "gcc", "cc", "clang", "newt", "chromium", "labgrid-coordinator",
)
SLOW_PREFIXES = ("qemu-system-", "arm-none-eabi-", "chromium")
_spawned: list[str] = []


def _is_slow_program(argv0: str) -> bool:
    name = os.path.basename(argv0)
    return name in SLOW_PROGRAMS or name.startswith(SLOW_PREFIXES)


def _recording_popen_init(original: Any) -> Any:
    def init(self: subprocess.Popen[Any], args: Any, *rest: Any, **kwargs: Any) -> None:
        argv0 = args if isinstance(args, (str, bytes, os.PathLike)) else next(iter(args), "")
        argv0 = os.fsdecode(argv0).split()[0] if argv0 else ""
        asks_version = not isinstance(args, (str, bytes, os.PathLike)) and \
            list(args)[1:] == ["--version"]  # a planner asking QEMU its version is quick
        if _is_slow_program(argv0) and not asks_version:
            _spawned.append(argv0)
        original(self, args, *rest, **kwargs)

    return init


def pytest_configure(config: pytest.Config) -> None:
    subprocess.Popen.__init__ = _recording_popen_init(subprocess.Popen.__init__)  # type: ignore[method-assign]


# What scripts/test.sh runs again on the second QEMU (RTOSMETER_QEMU, docs/qemu.md):
# the plugin's counts and cycle models, idle and WFI sleep, attribution, the
# runner's outcomes and the board memory model, on bare metal and test firmware.
QEMU_MATRIX = {"test_qemu_plugin", "test_cycle_models", "test_wfi_sleep", "test_lowpower",
               "test_idle_windows_bench", "test_attribution_run", "test_runner_qemu",
               "test_board_memory", "test_qemu_versions"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "default_run" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.alone)  # scripts/test.sh: not beside other tests
        if item.get_closest_marker("rtos"):
            item.add_marker(pytest.mark.slow)
        elif item.module is not None and item.module.__name__ in QEMU_MATRIX:
            item.add_marker(pytest.mark.qemu_matrix)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    _spawned.clear()


@pytest.fixture(autouse=True)
def fast_lane_guard(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test not marked slow that started a build tool, QEMU or a browser."""
    yield
    if _spawned and not request.node.get_closest_marker("slow"):
        started = ", ".join(sorted(set(os.path.basename(p) for p in _spawned)))
        pytest.fail(f"this test started {started}: mark it @pytest.mark.slow (fast lane rule)")
