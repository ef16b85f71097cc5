"""`history` (issue 33): one line per run (every run was printed on one line:
the newlines were stripped with the control characters), and --format json
with each run's figures (it had none)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from test_history import _fill

from rtosmeter.cli import cli
from rtosmeter.commands.common import STORE_NAME
from rtosmeter.store import Store


def test_history_prints_one_line_per_run_and_json_values(tmp_path: Path) -> None:
    with Store.open(tmp_path / STORE_NAME) as store:
        _fill(store, 3)
    result = CliRunner().invoke(cli, ["history", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 4, result.output  # the heading and three runs
    assert [line.split()[0] for line in lines[1:]] == ["1", "2", "3"]
    result = CliRunner().invoke(cli, ["history", "--out", str(tmp_path), "--format", "json"])
    doc = json.loads(result.output)
    values = doc["runs"][2]["values"]["posix/host/default"]
    assert values["lat.sem.pass take"]["unit"] == "ns (host clock)"
    assert values["lat.sem.pass take"]["n"] > 100 and values["lat.sem.pass take"]["median"] > 0
    assert values["tm.sync"]["unit"] == "count per period" and values["tm.sync"]["score"] > 0
    assert doc["runs"][0]["values"]["posix/host/default"] == values  # the same streams
