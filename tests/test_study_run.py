"""`rtosmeter study run` of a real study file on real firmware (bare metal
under QEMU: no RTOS tree needed), then its verdicts, the confirming rerun,
and the report in every format agreeing on every cell; the HTML opened in
headless Chromium."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke
from markupsafe import escape
from test_report_html import browser, open_page  # noqa: F401 (the fixture)

from rtosmeter.textsafe import markdown_safe

TINY = Path(__file__).parent / "data" / "studies" / "tiny2000"
# F1, F2 reproduced; F3 differs (its rerun confirms the cause); F4, F5 untestable
HEADLINE = ("tiny2000: 2 of 5 findings reproduced on qemu-mps2-an386 (0 tie, 1 differ (1 cause "
            "confirmed, 0 explained, 0 unconfirmed), 0 trivial, 2 untestable)")
ANSWERED = "Of the 3 testable findings, 3 are reproduced or differ by a cause a rerun confirms"


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("study")
    result = invoke("study", "run", str(TINY), "--out", str(out), "-j", "1")
    assert result.exit_code == 0, result.output + result.stderr
    assert HEADLINE in result.output and ANSWERED in result.output, result.output
    return out


def _report(out: Path, fmt: str) -> str:
    result = invoke("study", "report", str(TINY), "--out", str(out), "--format", fmt)
    assert result.exit_code == 0, result.output + result.stderr
    suffix = {"markdown": "md", "html": "html", "json": "json"}[fmt]
    written = (out / f"study-tiny2000.{suffix}").read_text(encoding="utf-8")
    if fmt != "html":  # stdout is the report alone (a JSON reader can take it)
        assert result.stdout == written, result.stdout[:200]
        assert f"study-tiny2000.{suffix}" in result.stderr
    return written


@pytest.mark.slow
def test_verdicts_on_a_real_run(ran: Path) -> None:
    data = json.loads(_report(ran, "json"))
    assert set(data["runs"]) == {"study:tiny2000", "study:tiny2000:rerun:F3"}
    v = {x["finding"]: x for x in data["verdicts"]}
    # five times the period, five times the count
    assert v["F1"]["verdict"] == "reproduced" and abs(v["F1"]["ratio_error"]) < 0.1
    assert v["F2"]["verdict"] == "reproduced" and v["F2"]["ours"].startswith("lowest: Short")
    # quick against default: differs; the rerun in one profile removes the cause
    assert v["F3"]["verdict"] == "differs" and v["F3"]["rerun"] == "reproduced"
    assert v["F3"]["confirmation"].startswith("cause confirmed")
    assert v["F4"]["verdict"] == "untestable" and "commercial" in v["F4"]["ours"]
    assert v["F5"]["verdict"] == "untestable"
    assert data["headline"] == HEADLINE
    # --all: the studies of studies/, none run in this store, and the total
    every = invoke("study", "report", "--all", "--out", str(ran)).output
    assert "beningo2024: 0 of 24 findings reproduced" in every
    assert "(not run in this store)" in every
    assert "All studies: 0 of 164 findings reproduced; of the " in every, every


@pytest.mark.slow
def test_emulated_latency_is_instructions_and_its_us_an_estimate(ran: Path) -> None:
    data = json.loads(_report(ran, "json"))
    titles = [s["title"] for s in data["sections"]]
    native = next(s for s in data["sections"] if s["title"].startswith("Interrupt entry")
                  and "our unit" in s["title"])
    assert any("instructions" in n for n in native["notes"]), native["notes"]
    assert any("estimated µs at 25 MHz" in t for t in titles), titles
    assert not any("µs" in t and "estimated" not in t for t in titles), titles


def _cells(data: dict[str, Any]) -> list[str]:
    return [c["text"] for s in data["sections"] for row in s["rows"] for c in row]


@pytest.mark.slow
def test_every_format_shows_the_same_cells(ran: Path, browser: Any) -> None:  # noqa: F811
    data = json.loads(_report(ran, "json"))
    md, page_text = _report(ran, "markdown"), _report(ran, "html")
    terminal = invoke("study", "report", str(TINY), "--out", str(ran)).output
    assert data["headline"] in md and data["headline"] in terminal
    for text in _cells(data):
        assert markdown_safe(text) in md, text
        assert str(escape(text)) in page_text, text
    page, errors, _ = open_page(browser, ran / "study-tiny2000.html")
    shown = page.locator("td, th[scope=row]").all_inner_texts()
    for text in _cells(data):
        assert any(text in s for s in shown), text
    assert page.locator("#headline").inner_text() == data["headline"]
    assert not errors


@pytest.mark.slow
def test_the_report_renders_through_the_report_formats(ran: Path) -> None:
    """Each of the five formats is the report's format module rendering the
    study's document; the JSON carries each verdict's expected and measured."""
    from rtosmeter import reports
    from rtosmeter.catalog import load_catalog
    from rtosmeter.commands.common import STORE_NAME
    from rtosmeter.definitions import Definitions
    from rtosmeter.store import Store
    from rtosmeter.studies.definition import load
    from rtosmeter.studies.report import build, sheet

    defs = Definitions.load()
    with Store.open(ran / STORE_NAME) as store:
        doc = sheet(build(load(str(TINY), defs, load_catalog(defs.root)), store))
    for fmt in ("md", "csv", "json", "html"):
        result = invoke("study", "report", str(TINY), "--out", str(ran), "--format", fmt)
        written = (ran / f"study-tiny2000{reports.get_format(fmt).SUFFIX}").read_text()
        assert written == reports.render(doc, fmt), fmt
        page = str(ran / "study-tiny2000.html")
        assert result.exit_code == 0 and result.stdout.strip() in (written.strip(), page)
    table = invoke("study", "report", str(TINY), "--out", str(ran), "--format", "table")
    assert table.stdout.startswith(HEADLINE)
    data = json.loads(reports.render(doc, "json"))
    assert data["schema"] == "rtosmeter-study"
    v = {x["finding"]: x for x in data["verdicts"]}
    assert {"finding", "expected", "measured", "verdict", "cause"} <= set(v["F3"])
    assert v["F3"]["cause"] and v["F3"]["measured"] == v["F3"]["ours"]


def test_a_report_of_a_run_that_did_not_end_says_it_is_partial(ran: Path, tmp_path: Path) -> None:
    """A study run killed mid-matrix leaves its run marked running with no
    process behind it: the report marks the headline and names the run."""
    import shutil
    import sqlite3

    copy = tmp_path / "copy"
    shutil.copytree(ran, copy)
    with sqlite3.connect(copy / "rtosmeter.sqlite") as db:  # what a SIGKILL leaves behind
        db.execute("UPDATE runs SET status = 'running' WHERE id = 1")
    out = invoke("study", "report", str(TINY), "--out", str(copy), "--format", "markdown").output
    assert "(partial: a run is not done)" in out
    assert "Run 1 of study:tiny2000 is interrupted, not done" in out
    assert "partial" not in invoke("study", "report", str(TINY), "--out", str(ran),
                                   "--format", "markdown").output


@pytest.mark.slow
def test_a_study_file_s_text_reaches_the_terminal_cleaned(tmp_path: Path) -> None:
    """Escape codes in a study's texts (a finding, its cause) never reach
    the terminal: `study run`'s first screen and summary lines are cleaned."""
    study = tmp_path / "tiny2000"
    study.mkdir()
    text = (TINY / "study.toml").read_text(encoding="utf-8")
    text = text.replace('why = "', 'why = "\\u001b[2J\\u001b]0;pwned\\u0007')
    (study / "study.toml").write_text(text, encoding="utf-8")
    result = invoke("study", "run", str(study), "--out", str(tmp_path / "out"), "-j", "1",
                    "--no-rerun")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "]0;pwned" in result.output  # the text itself is there, its codes gone
