"""config.py: the user's and the project's configuration files, and the
search path for ports, targets and boards outside the repository."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from _datahalf import craft, store_run
from conftest import invoke

from rtosmeter.analysis import load_run
from rtosmeter.store import Store


@pytest.fixture
def user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty XDG config folder and a working folder without rtosmeter.toml."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    path = tmp_path / "xdg" / "rtosmeter" / "config.toml"
    path.parent.mkdir(parents=True)
    return path


def _own_port(folder: Path, root: Path, name: str) -> Path:
    """A copy of the posix port under another name, in `folder`/ports/."""
    port = folder / "ports" / name
    shutil.copytree(root / "ports" / "posix", port)
    toml = port / "port.toml"
    toml.write_text(toml.read_text().replace('name = "posix"', f'name = "{name}"'))
    return port


@pytest.mark.slow
def test_port_outside_the_tree_builds_and_runs(tmp_path: Path, root: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """RTOSMETER_PATH: a port in the user's folder is listed, built and run
    like one of the tree's (real CMake build, real host run, real store)."""
    _own_port(tmp_path / "mine", root, "myposix")
    monkeypatch.setenv("RTOSMETER_PATH", str(tmp_path / "mine"))
    assert "myposix" in invoke("list").output
    out = tmp_path / "o"
    result = invoke("run", "--port", "myposix", "--target", "host", "--bench", "tm.basic",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    with Store.open(out / "rtosmeter.sqlite") as st:
        view = load_run(st, 1)
    basic = next(c for c in view.cases if c.case_id == "tm.basic")
    assert (basic.port, basic.status) == ("myposix", "ok") and basic.score


def test_a_name_defined_twice_names_both_files(tmp_path: Path, root: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    mine = _own_port(tmp_path / "mine", root, "posix")
    monkeypatch.setenv("RTOSMETER_PATH", str(tmp_path / "mine"))
    result = invoke("list")
    assert result.exit_code == 1
    assert result.output.startswith(
        f"Error: 'posix' is defined twice, also in {root / 'ports/posix/port.toml'} "
        f"in {mine / 'port.toml'}. Rename one of them"), result.output
    monkeypatch.setenv("RTOSMETER_PATH", str(tmp_path / "absent"))
    missing = invoke("list")
    assert missing.output.startswith(f"Error: no folder {tmp_path / 'absent'} in "
                                     "$RTOSMETER_PATH."), missing.output


@pytest.mark.slow
def test_defaults_from_user_and_project_files(user_config: Path, tmp_path: Path) -> None:
    out = str(tmp_path / "out")
    store_run(tmp_path / "out" / "rtosmeter.sqlite",
              [(craft("posix", "host", 10**9, [50, 10, 10, 10],
                      throughput={"tm.sync": [100, 101, 100]}), {"runner": "host"})])
    user_config.write_text(f'[defaults.report]\nformat = "csv"\nout = "{out}"\n')
    csv = invoke("report")
    assert csv.exit_code == 0 and csv.output.startswith("run_id,port,"), csv.output
    Path("rtosmeter.toml").write_text('[defaults.report]\nformat = "json"\n')  # project's
    doc = json.loads(invoke("report").output)
    assert doc["schema"] == "rtosmeter-results"
    assert invoke("report", "--format", "md").output.startswith("# rtosmeter run")  # flag wins
    doctor = invoke("doctor").output
    assert f"config   {user_config}" in doctor
    assert f"default  report --format json  (from {Path.cwd() / 'rtosmeter.toml'})" in doctor


@pytest.mark.slow
def test_sources_remembered(user_config: Path, tmp_path: Path,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RTOSMETER_FREERTOS", raising=False)  # it would come first
    tree = tmp_path / "FreeRTOS-Kernel"
    tree.mkdir()
    (tree / "tasks.c").write_text("/* enough for the probe */\n")
    user_config.write_text(f'[sources]\nfreertos = "{tree}"\n')
    listing = invoke("sources", "list")
    assert listing.exit_code == 0, listing.output
    assert f"freertos: {tree}" in listing.output and f"{user_config} [sources]" in listing.output
    assert f"source   freertos = {tree}  (from {user_config})" in invoke("doctor").output


@pytest.mark.parametrize(("text", "message"), [
    ("colour = true\n", "Error: unknown key 'colour' in {file}:1."),
    ("[defaults.run]\njobz = 1\n",
     "Error: unknown option 'jobz' of `rtosmeter run` in {file} ([defaults.run]). Use one of:"),
    ("[defaults.nosuch]\nx = 1\n", "Error: unknown command 'nosuch' in {file} ([defaults.nosuch])"),
    ('[sources]\nfreertoss = "/x"\n',
     "Error: unknown port with a source tree 'freertoss' in {file} ([sources]). Valid"),
])
def test_unknown_keys_are_errors_naming_the_file(user_config: Path, text: str,
                                                 message: str) -> None:
    user_config.write_text(text)
    result = invoke("list")
    assert result.exit_code == 1
    assert result.output.startswith(message.format(file=user_config)), result.output


@pytest.mark.slow
def test_search_path_from_the_project_file(tmp_path: Path, root: Path, user_config: Path
                                           ) -> None:
    """`path` in rtosmeter.toml, relative to the file: its ports are listed and
    doctor says where the folder came from."""
    _own_port(Path.cwd() / "rtos-work", root, "myposix")
    Path("rtosmeter.toml").write_text('path = ["rtos-work"]\n')
    assert "myposix" in invoke("list").output
    assert (f"path     {Path.cwd() / 'rtos-work'}  (from {Path.cwd() / 'rtosmeter.toml'} "
            "(key 'path'))") in invoke("doctor").output
