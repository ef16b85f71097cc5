"""compare renders through the report's formats (reports/): the real CLI on
a real store (test_compare's recorded streams, one port slowed) in each of
table, md, csv, json and html gives what that format module makes of the
comparison's document; former format names still work, and help shows the
five. (study report: test_study_run.py; explain: test_attribution_run.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_compare import store_run

from rtosmeter import reports
from rtosmeter.cli import cli
from rtosmeter.commands.common import STORE_NAME
from rtosmeter.compare import compare_runs
from rtosmeter.reports.document.comparison import sheet
from rtosmeter.store import Store


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("paths")
    with Store.open(out / STORE_NAME) as store:
        store_run(store)
        store_run(store, slow=1.5)
    return out


def _compare(out: Path, fmt: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["compare", "1", "2", "--out", str(out), "--format", fmt])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.slow
def test_compare_in_every_format_is_the_reports_rendering(out: Path) -> None:
    with Store.open(out / STORE_NAME) as store:
        doc = sheet(compare_runs(store, 1, 2, 10.0, 0.01))
    assert reports.FORMATS == ("table", "md", "csv", "json", "html")
    for fmt in ("md", "csv", "html"):
        code, stdout, _ = _compare(out, fmt)
        assert code == 2, stdout  # the slowed port regresses: the gate fails in every format
        assert stdout.rstrip("\n") == reports.render(doc, fmt).rstrip("\n"), fmt
    assert "| **REGRESSION** |" in reports.render(doc, "md")
    assert 'class="failed">REGRESSION</th>' in reports.render(doc, "html")
    code, stdout, stderr = _compare(out, "json")
    data = json.loads(stdout)  # JSON alone on stdout, the gate on stderr
    assert code == 2 and "gate failed" in stderr
    assert data["schema"] == "rtosmeter-compare" and data["regressions"] >= 2
    assert data["sections"] == json.loads(reports.render(doc, "json"))["sections"]
    assert [c["text"] for c in data["sections"][0]["rows"][0][:1]] == ["REGRESSION"]
    code, stdout, _ = _compare(out, "table")
    assert code == 2 and stdout.startswith(doc.lead[0][:40])
    assert doc.sections[0].title[:60] in stdout.replace("\n", "")


@pytest.mark.slow
def test_former_format_names_are_hidden_aliases(out: Path) -> None:
    assert _compare(out, "markdown")[1] == _compare(out, "md")[1]
    assert _compare(out, "text")[1] == _compare(out, "table")[1]
    help_text = CliRunner().invoke(cli, ["compare", "--help"]).output
    assert "[table|md|csv|json|html]" in help_text and "markdown" not in help_text


def test_a_format_a_command_cannot_give_names_the_ones_it_gives(out: Path) -> None:
    result = CliRunner().invoke(cli, ["history", "--out", str(out), "--format", "html"])
    assert result.exit_code == 1
    assert "has no html format" in result.output and "Use one of: table, json" in result.output
    bad = CliRunner().invoke(cli, ["compare", "1", "2", "--out", str(out), "--format", "xls"])
    assert bad.exit_code == 1 and "table, md, csv, json, html" in bad.output
