"""`run`'s machine outputs for CI (issue 33): --export-json/md/csv and
--junit written at run time, and one plain progress line per finished build
and execution when stderr is no terminal (a CI log). A real posix build."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from rtosmeter.cli import cli
from rtosmeter.progress import Progress


@pytest.mark.slow
def test_run_writes_its_exports_and_progress_lines(tmp_path: Path) -> None:
    out = tmp_path / "out"
    paths = {k: tmp_path / "ci" / f"result.{k}" for k in ("json", "md", "csv", "xml")}
    result = CliRunner().invoke(cli, [
        "run", "--port", "posix", "--bench", "lat.sem.*", "--out", str(out), "-j", "1",
        "--export-json", str(paths["json"]), "--export-md", str(paths["md"]),
        "--export-csv", str(paths["csv"]), "--junit", str(paths["xml"])])
    assert result.exit_code == 0, result.output
    # Before: no line at all until the run ended (the bar is off off a terminal).
    lines = [line for line in result.stderr.splitlines() if line.startswith("[")]
    assert lines[0].startswith("[1/") and " built posix/host/default: ok (" in lines[0]
    assert any(" ran posix/host/default " in line and ": ok (" in line for line in lines)
    assert lines[-1].startswith(f"[{len(lines)}/{len(lines)} ")

    doc = json.loads(paths["json"].read_text())
    assert doc["schema"] == "rtosmeter-results" and doc["results"]
    assert "lat.sem.pass" in paths["md"].read_text()
    rows = list(csv.DictReader(paths["csv"].open()))
    assert any(r.get("case_id") == "lat.sem.pass" for r in rows), rows[:1]
    suite = ET.parse(paths["xml"]).getroot().find("testsuite")
    assert suite is not None and suite.get("name") == "rtosmeter.run"
    names = {c.get("name") for c in suite.iter("testcase")}
    assert "posix/host/default lat.sem.pass" in names
    assert suite.get("failures") == "0"
    for path in paths.values():
        assert f"Report: {path}" in result.stdout


def test_progress_lines_are_not_wrapped_off_a_terminal() -> None:
    """A CI log gets whole lines: a note was cut at the console's 80 columns."""
    text = "threadx/qemu-mps2-an386/default not run here, unsupported: " + "x" * 120
    sink = io.StringIO()
    progress = Progress(2, None, Console(file=sink, width=80))
    assert progress.lines  # pytest's stderr is no terminal
    progress.note(text)
    progress.finished("built p/t/default: ok (1 s)")
    assert sink.getvalue().splitlines() == [f"note: {text}",
                                            "[1/2 0 s] built p/t/default: ok (1 s)"]
