"""Terminal table, Markdown, CSV and JSON reports of a real stored run
(crafted streams, real store, real analysis)."""

from __future__ import annotations

import csv
import io
import json
import re
import statistics
from pathlib import Path

import pytest
from _datahalf import craft, store_run

from rtosmeter.analysis import load_run
from rtosmeter.errors import UserError
from rtosmeter.model import RunView
from rtosmeter.reports import FORMATS, get_format, markdown, table
from rtosmeter.reports import csv as csv_report
from rtosmeter.reports import json as json_report

HOST = {"runner": "host"}
QEMU = {"runner": "qemu", "icount_shift": 6}
SCHEMA_DOC = Path(__file__).parents[1] / "docs" / "results-schema.md"
LAT = [900, 100, 120, 110, 130]  # cold first


@pytest.fixture(scope="module")
def view(tmp_path_factory: pytest.TempPathFactory) -> RunView:
    path = tmp_path_factory.mktemp("rep") / "r.sqlite"
    a = craft("posix", "host", 10**9, [50, 10, 10, 10],
              latency=[("lat.sem.pass", {"take": LAT, "give": [5, 6, 7]})],
              throughput={"tm.sync": [100, 100, 100]},
              unsupported={"lat.notify.s1": "POSIX has no task notification"})
    b = craft("baremetal", "host", 10**9, [50, 10, 10, 10],
              throughput={"tm.sync": [240, 250, 260]},
              latency=[("lat.mutex.inheritance", {"lock": [1, 2, 3]})],
              checks={"m_did_not_run": (1, 0)})
    c = craft("freertos", "qemu-mps2-an386", 25_000_000, [8, 8, 8],
              latency=[("lat.isr.entry", {"entry": [40, 48, 48]})])
    run = store_run(path, [(a, HOST), (b, HOST), (c, QEMU)],
                    footprint={"flash": 12345, "ram": 678, "parts": {"kernel": [100, 10]}})
    from rtosmeter.store import Store
    with Store.open(path) as st:
        return load_run(st, run)


def test_formats_found_by_name() -> None:
    assert {"table", "markdown", "csv", "json"} <= set(FORMATS)
    assert FORMATS["csv"] is csv_report
    with pytest.raises(UserError, match=r"unknown report format .xls..*Use one of: csv"):
        get_format("xls")


def test_table(view: RunView) -> None:
    text = table.render(view)
    assert text.startswith(f"rtosmeter run {view.run_id} (done)")
    assert "Throughput on host: mean count per period" in text
    assert "40.0 % / 1.00x" in text and "100.0 % / 2.50x" in text
    assert "Latency in ns (host clock)" in text
    assert "Latency in instructions (QEMU icount)" in text
    assert "exception entry and exit cost no virtual time" in text
    row = next(ln for ln in text.splitlines() if "lat.sem.pass" in ln and "take" in ln)
    warm = [v - 10 for v in LAT[1:]]  # overhead: median of warm calib = 10
    assert f"{statistics.fmean(warm):g}" in row  # mean 105
    assert "POSIX has no task notification" in text
    assert "FAILED" in text and "m_did_not_run" in text
    assert "12,345" in text  # footprint
    over = next(ln for ln in text.splitlines() if "calib" not in ln and "posix/host" in ln
                and "ns (host clock)" in ln)
    assert over.split("│")[5].strip() == "10"  # the median subtracted


def test_markdown(view: RunView) -> None:
    md = markdown.render(view)
    assert md.startswith(f"# rtosmeter run {view.run_id}")
    blocks = re.findall(r"^## (.+)\n\n((?:\|.*\|\n)+)", md, re.M)
    titles = [t for t, _ in blocks]
    assert "Latency in ns (host clock) (overhead subtracted; lower is better)" in titles
    assert "Unsupported" in titles and "Checks" in titles
    for _, body in blocks:
        lines = body.splitlines()
        assert re.fullmatch(r"\|( (:---|---:) \|)+", lines[1])
        widths = {ln.count(" | ") for ln in lines}
        assert len(widths) == 1, lines  # every row has the header's columns


def schema_columns() -> list[str]:
    text = SCHEMA_DOC.read_text()
    cols: list[str] = []
    for cell in re.findall(r"^\| (`[^|]+`) \|", text, re.M):
        cols += re.findall(r"`([a-z0-9_]+)`", cell)
    return cols


def test_csv_matches_documented_schema(view: RunView) -> None:
    rows = list(csv.DictReader(io.StringIO(csv_report.render(view))))
    assert list(rows[0]) == schema_columns()
    take = next(r for r in rows if r["case_id"] == "lat.sem.pass" and r["series"] == "take")
    warm = [v - 10 for v in LAT[1:]]
    assert take["unit"] == "ns (host clock)" and take["deterministic"] == "0"
    assert float(take["mean"]) == statistics.fmean(warm)
    assert float(take["std"]) == pytest.approx(statistics.stdev(warm))
    assert float(take["cold"]) == LAT[0] - 10 and take["overhead"] == "10.0"
    assert take["n"] == "4" and take["family"] == "latency"
    uns = next(r for r in rows if r["case_id"] == "lat.notify.s1")
    assert (uns["status"], uns["reason"], uns["series"]) == (
        "unsupported", "POSIX has no task notification", "")
    sync = {r["port"]: r for r in rows if r["case_id"] == "tm.sync"}
    assert float(sync["baremetal"]["score"]) == 250.0
    assert float(sync["posix"]["percent_of_best"]) == 40.0
    assert float(sync["baremetal"]["multiple_of_slowest"]) == 2.5
    isr = next(r for r in rows if r["case_id"] == "lat.isr.entry")
    assert isr["unit"] == "instructions (QEMU icount)" and isr["deterministic"] == "1"
    assert float(isr["mean"]) == (48 - 8) * 0.625
    inh = next(r for r in rows if r["case_id"] == "lat.mutex.inheritance")
    assert inh["status"] == "failed" and inh["checks_failed"] == "1"


def test_json(view: RunView) -> None:
    doc = json.loads(json_report.render(view))
    assert doc["schema"] == "rtosmeter-results" and doc["version"] == 1
    assert doc["run"]["host"]["os"] == "Linux" and doc["run"]["campaign"] == {"name": "test"}
    assert {b["port"] for b in doc["builds"]} == {"posix", "baremetal", "freertos"}
    assert doc["builds"][0]["config"]["compiler"] == "gcc 12.2"
    assert doc["builds"][2]["runner"]["unit"] == "instructions (QEMU icount)"
    n_csv = len(list(csv.DictReader(io.StringIO(csv_report.render(view)))))
    assert len(doc["results"]) == n_csv
    assert set(doc["results"][0]) == set(schema_columns())
    uns = next(r for r in doc["results"] if r["status"] == "unsupported")
    assert uns["mean"] is None  # no NaN in JSON
    assert any(c["name"] == "m_did_not_run" and c["ok"] is False for c in doc["checks"])
    assert doc["footprints"][0]["flash"] == 12345


REAL = sorted((Path(__file__).parent / "data").glob("*.rmstream"))


@pytest.mark.skipif(not REAL, reason="no recorded streams (*.rmstream) in tests/data")
def test_reports_of_recorded_real_streams(tmp_path: Path) -> None:
    from rtosmeter.protocol import parse_stream
    from rtosmeter.store import Store

    streams = [p.read_bytes() for p in REAL]
    run = store_run(tmp_path / "r.sqlite", [(d, HOST) for d in streams])
    with Store.open(tmp_path / "r.sqlite") as st:
        view = load_run(st, run)
    expected = 0
    for data in streams:
        for case in parse_stream(data).cases:
            expected += max(1, len(case.series) + len({c.name for c in case.counts}))
    rows = list(csv.DictReader(io.StringIO(csv_report.render(view))))
    assert len(rows) == expected
    assert {r["unit"] for r in rows if r["family"] == "latency"} == {"ns (host clock)"}
    text = table.render(view)
    assert "Latency in ns (host clock)" in text and "Measurement overhead" in text
    assert json.loads(json_report.render(view))["results"]
    assert markdown.render(view).count("\n## ") >= 3
