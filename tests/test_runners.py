"""Runner discovery: a runner is a module in rtosmeter/runners or an installed
entry point, found by the target's kind; nothing else names the kinds."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from rtosmeter.definitions import Definitions, project_root
from rtosmeter.errors import UserError
from rtosmeter.runners import is_exclusive, run_once, runner_class, runner_for, unavailable
from rtosmeter.runners.base import RunRequest

DEFS = Definitions.load(project_root())
STREAM = Path(__file__).parent / "data" / "posix-host-irq.rmstream"

REPLAY = f'''
from rtosmeter.runners.base import RunOutcome


class ReplayRunner:
    """Returns a recorded stream: a runner of a kind rtosmeter does not ship."""

    name = "replay"
    exclusive = True

    def available(self):
        return ""

    def prepare(self, request):
        self.request = request

    def run(self):
        data = open({str(STREAM)!r}, "rb").read()
        return RunOutcome(data, "ok", 0, "", 0.0, {{"runner": self.name,
                                                  "exe": str(self.request.executable)}})
'''


@pytest.fixture
def installed_replay_runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A package installed the way pip leaves one: a module and a dist-info
    folder whose entry_points.txt names it in the group rtosmeter.runners."""
    (tmp_path / "replay_runner.py").write_text(REPLAY)
    info = tmp_path / "replay_runner-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: replay-runner\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[rtosmeter.runners]\nreplay = replay_runner:ReplayRunner\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "replay_runner", raising=False)


def test_an_installed_entry_point_runs_a_new_kind(installed_replay_runner: None,
                                                  tmp_path: Path) -> None:
    target = replace(DEFS.target("host"), name="replay-box", kind="replay")
    assert unavailable(target) == ""
    assert is_exclusive(target)
    out = run_once(RunRequest(tmp_path / "fw.elf", target))
    assert out.status == "ok" and out.stream == STREAM.read_bytes()
    assert out.info == {"runner": "replay", "exe": str(tmp_path / "fw.elf")}


def test_the_shipped_runners_are_modules_of_the_package() -> None:
    qemu, host = runner_class("qemu"), runner_class("host")
    assert qemu is not None and qemu.__module__ == "rtosmeter.runners.qemu"
    assert host is not None and host.__module__ == "rtosmeter.runners.host"
    assert (qemu.exclusive, host.exclusive) == (False, True)


def test_a_kind_without_a_runner_says_how_to_add_one() -> None:
    target = replace(DEFS.target("host"), name="rig-x", kind="rig")
    assert unavailable(target) == ("no runner for rig targets: add "
                                   "src/rtosmeter/runners/rig.py or an entry point in the "
                                   "group rtosmeter.runners")
    with pytest.raises(UserError, match=r"in target rig-x\. Use a target with a runner"):
        runner_for(target)
