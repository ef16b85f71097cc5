"""Terminal table, Markdown, CSV and JSON reports of a real stored run
(crafted streams, real store, real analysis)."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import statistics
from pathlib import Path

import pytest
from _datahalf import craft, parse_named, store_run

from rtosmeter import reports
from rtosmeter.analysis import load_run
from rtosmeter.definitions import Definitions
from rtosmeter.errors import UserError
from rtosmeter.model import Distribution, RunView
from rtosmeter.protocol import StreamWriter, parse_stream
from rtosmeter.reports import choices, document, get_format, markdown, names, table
from rtosmeter.reports import csv as csv_report
from rtosmeter.reports import json as json_report
from rtosmeter.reports.document.cells import fmt, marked
from rtosmeter.reports.document.statistics import STAT_HEADERS
from rtosmeter.scores import normalise_throughput
from rtosmeter.store import Store
from rtosmeter.vocabulary import family

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
    with Store.open(path) as st:
        return load_run(st, run)


def test_formats_found_by_name() -> None:
    # no helper module, and not the document package: load is a view of it
    assert set(names()) == {"table", "markdown", "csv", "json", "html"}
    assert get_format("csv") is csv_report
    assert get_format("md") is markdown  # an alias
    assert {"md", "html"} <= set(choices())
    with pytest.raises(UserError, match=r"unknown report format .xls..*Use one of: csv"):
        get_format("xls")


def _row(text: str, *needles: str) -> list[str]:
    """The cells of the first table row (or header) holding every needle."""
    line = next(ln for ln in text.splitlines() if all(n in ln for n in needles))
    return [c.strip() for c in re.split("[│┃]", line)[1:-1]]


def _dist(view: RunView, port: str, case_id: str, series: str) -> Distribution:
    case = next(c for c in view.cases if c.port == port and c.case_id == case_id)
    return next(d for d in case.distributions if d.series == series)


def test_table(view: RunView) -> None:
    text = table.render(view)
    assert text.startswith(f"rtosmeter run {view.run_id} (done)")
    assert "Throughput on host: mean count per period of 100 ticks" in text
    # side by side: one column per port, bare metal (the floor) first
    assert _row(text, "┃ case", "baremetal", "posix") == ["case", "baremetal", "posix"]
    # the secondary figure bracketed, so cells stay apart; 240..260 drifts: ⚠
    assert _row(text, "│ tm.sync") == ["tm.sync", "250 ⚠ (100.0 % · 2.50x)",
                                         "100 (40.0 % · 1.00x)"]
    assert "counts per period drift by 8.0 % (240 to 260)" in text
    assert "Latency on host in ns (host clock): median, p99" in text
    assert "Latency on qemu-mps2-an386 in instructions (QEMU icount)" in text
    assert "exception entry and exit cost no virtual time" in text
    warm = [v - 10 for v in LAT[1:]]  # overhead: median of warm calib = 10
    d = _dist(view, "posix", "lat.sem.pass", "take")
    sem = next(c for c in view.cases if c.port == "posix" and c.case_id == "lat.sem.pass")
    assert d.p50 == statistics.median(warm)
    # bare metal did not run lat.sem.pass: an empty cell, not a number
    assert _row(text, "lat.sem.pass", "take") == ["lat.sem.pass", "take", "",
                                                  f"{marked(fmt(d.p50), sem)} (p99 {fmt(d.p99)})"]
    inh = _row(text, "lat.mutex.inheritance", "m did not run")
    assert inh == ["lat.mutex.inheritance", "m did not run", "✗ no (got 1, want 0)", ""]
    lock = _row(text, "lat.mutex.inheritance", "lock")
    assert lock[2].startswith("✗ ")  # a failed case keeps its figure, flagged
    assert _row(text, "posix/host/default", "POSIX has no task notification")[2] == \
        "lat.notify.s1"
    assert _row(text, "│ g ", "RAM") == ["g", "12,345 (RAM 678)", "12,345 (RAM 678)"]
    assert _row(text, "│ g ", "p99")[2].startswith("10 (p99")  # posix overhead median
    assert "Not run here" not in text and "Errors" not in text


def test_markdown(view: RunView) -> None:
    md = markdown.render(view)
    assert md.startswith(f"# rtosmeter run {view.run_id}")
    blocks = re.findall(r"^## (.+)\n\n((?:\|.*\|\n)+)", md, re.M)
    titles = [t for t, _ in blocks]
    assert ("Latency on host in ns (host clock): median, p99 in small text (overhead "
            "subtracted; lower is better)") in titles
    assert "Checks on host (properties the cases verify; ✗ = failed)" in titles
    assert any(t.startswith("Unsupported cases") for t in titles)
    assert any(t.startswith("Statistics on host in ns (host clock)") for t in titles)
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
    assert doc["schema"] == "rtosmeter-results" and doc["version"] == 2
    assert doc["run"]["host"]["os"] == "Linux" and doc["run"]["campaign"] == {"name": "test"}
    assert {b["port"] for b in doc["builds"]} == {"posix", "baremetal", "freertos"}
    builds = {b["port"]: b for b in doc["builds"]}
    assert builds["posix"]["config"]["compiler"] == "gcc 12.2"
    assert builds["freertos"]["runner"]["unit"] == "instructions (QEMU icount)"
    n_csv = len(list(csv.DictReader(io.StringIO(csv_report.render(view)))))
    assert len(doc["results"]) == n_csv
    assert set(doc["results"][0]) == set(schema_columns())
    uns = next(r for r in doc["results"] if r["status"] == "unsupported")
    assert uns["mean"] is None  # no NaN in JSON
    assert any(c["name"] == "m_did_not_run" and c["ok"] is False for c in doc["checks"])
    assert doc["footprints"][0]["flash"] == 12345


DATA = Path(__file__).parent / "data"
REAL = sorted(DATA.glob("posix-host-*.rmstream"))
QEMU_STREAMS = sorted(DATA.glob("baremetal-qemu-mps2-an386-*.rmstream"))
SNAPSHOT = DATA / "report-baremetal-qemu-mps2-an386.md"


@pytest.mark.slow
def test_reports_of_recorded_real_streams(tmp_path: Path) -> None:
    assert REAL, "tests/data/posix-host-*.rmstream: the recorded host streams are missing"
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
    assert {r["unit"] for r in rows if r["family"] == "latency" and r["status"] == "ok"} == {
        "ns (host clock)"}
    assert {r["case_id"] for r in rows if r["family"] == "throughput"} == {
        c.case_id for c in view.cases if c.case_id.startswith("tm.")}
    text = table.render(view)
    assert "Latency on host in ns (host clock)" in text and "Measurement overhead" in text
    assert json.loads(json_report.render(view))["results"]
    assert markdown.render(view).count("\n## ") >= 3


def test_lifecycle_compact_in_terminal_full_in_markdown(tmp_path: Path) -> None:
    """~125 lifecycle series: the terminal keeps each call alone, at the most
    threads (gap 1) and at the largest gap; Markdown keeps them all."""
    data = (DATA / "posix-host-lat_lifecycle.rmstream").read_bytes()
    run = store_run(tmp_path / "r.sqlite", [(data, HOST)])
    with Store.open(tmp_path / "r.sqlite") as st:
        view = load_run(st, run)
    case = next(c for c in view.cases if c.case_id == "lat.thread.lifecycle")
    names = [d.series for d in case.distributions]
    assert len(names) > 100
    text = table.render(view)
    shown = {r[1] for ln in text.splitlines() if "lat.thread.lifecycle" in ln and "│" in ln
             for r in [[c.strip() for c in ln.split("│")[1:-1]]]
             if r[0] == "lat.thread.lifecycle"}
    top = max(int(n.split("@")[1].split("/")[0]) for n in names if "@" in n)
    gap = max(int(n.split("/g")[1]) for n in names if "/g" in n)
    calls = [n for n in names if "@" not in n]
    assert shown == {f"{c}{suffix}" for c in calls for suffix in ("", f"@{top}",
                                                                   f"@{top}/g{gap}")}
    assert f"{len(names) - len(shown)} other layouts are in the Markdown" in text
    md = markdown.render(view)
    for name in names:
        assert f"| lat.thread.lifecycle | {name} |" in md


# ---- recorded QEMU streams (deterministic: byte-identical on every run) -------


def store_qemu(path: Path) -> int:
    """Every recorded bare-metal QEMU stream, one build per profile, with the
    runner information the QEMU runner records (icount shift of the target)."""
    target = Definitions.load().target("qemu-mps2-an386")
    assert target.qemu is not None
    runner = {"runner": "qemu", "icount_shift": str(target.qemu.icount_shift),
              "unit": target.counter.unit}
    with Store.open(path) as st:
        run = st.create_run({"name": "test"}, {"machine": "x86_64", "os": "Linux"}, "0.1.0")
        builds: dict[str, int] = {}
        for stream in QEMU_STREAMS:
            data = stream.read_bytes()
            parsed = parse_named(data)
            profile = parsed.header["profile"]
            if profile not in builds:
                builds[profile] = st.add_build(run, "baremetal", "qemu-mps2-an386", profile,
                                               {"opt_flags": "-O2"})
            st.add_execution(run, builds[profile], parsed.header["group"], status="ok",
                             exit_code=0, runner=runner, stream=data, parsed=parsed)
        st.finish_run(run)
    return run


@pytest.fixture(scope="module")
def qemu_view(tmp_path_factory: pytest.TempPathFactory) -> RunView:
    assert QEMU_STREAMS, "tests/data/baremetal-qemu-mps2-an386-*.rmstream are missing"
    path = tmp_path_factory.mktemp("qemu") / "r.sqlite"
    run = store_qemu(path)
    with Store.open(path) as st:
        return load_run(st, run)


def _stable(md: str) -> str:
    """The report without what changes from one store to the next (run times)."""
    return re.sub(r"^# rtosmeter run \d+ .*$", "# rtosmeter run N", md, count=1, flags=re.M)


@pytest.mark.slow
def test_qemu_units_everywhere(qemu_view: RunView) -> None:
    units = {d.unit.label for c in qemu_view.cases for d in c.distributions}
    assert units == {"instructions (QEMU icount)"}
    outputs = [table.render(qemu_view), markdown.render(qemu_view),
               csv_report.render(qemu_view), json_report.render(qemu_view)]
    for out in outputs:
        assert "µs" not in out and "ns (host clock)" not in out
    assert "Latency on qemu-mps2-an386 in instructions (QEMU icount)" in outputs[0]


def test_qemu_side_by_side(qemu_view: RunView) -> None:
    """Two profiles of one port on one target: two columns of the same table,
    each cell the analysis' median and p99 of that system."""
    text = table.render(qemu_view)
    assert _row(text, "┃ case", "series") == ["case", "series", "baremetal/default",
                                                 "baremetal/quick"]
    for series_case in ("irq.latency", "lat.isr.entry"):
        cells = []
        for profile in ("default", "quick"):
            case = next(c for c in qemu_view.cases if c.case_id == series_case
                        and c.profile == profile)
            d = case.distributions[0]
            cells.append(f"{marked(fmt(d.p50), case)} (p99 {fmt(d.p99)})")
        assert _row(text, f"│ {series_case} ")[2:] == cells


def test_qemu_interrupt_responsiveness(qemu_view: RunView) -> None:
    text = table.render(qemu_view)
    rate = next(c for c in qemu_view.cases if c.case_id == "irq.max_rate"
                and c.profile == "default")
    assert rate.status == "ok" and family(rate) == "other"
    assert not any(n.case_id == "irq.max_rate" for n in normalise_throughput(qemu_view.cases))
    hz, period = int(rate.meta["max_rate_hz"]), int(rate.meta["max_rate_period_ticks"])
    unit = next(c for c in qemu_view.cases if c.case_id == "calib.overhead"
                            and c.profile == "default").distributions[0].unit
    assert unit.per_tick == pytest.approx(0.625)  # 40 ns a tick, 64 ns an instruction
    lower = "≥ " if rate.meta["loss_found"] == "0" else ""
    assert "Interrupt responsiveness on qemu-mps2-an386" in text
    assert _row(text, "highest rate with no lost event")[1].startswith(f"{lower}{fmt(hz)}")
    inverse = [f"its inverse: worst-case response in {unit.label}"]
    for profile in ("default", "quick"):  # one column per profile, each its own figure
        ticks = int(next(c for c in qemu_view.cases if c.case_id == "irq.max_rate"
                         and c.profile == profile).meta["max_rate_period_ticks"])
        inverse.append(f"{fmt(ticks * unit.per_tick)} ({fmt(ticks)} ticks)")
    assert _row(text, "its inverse") == inverse
    assert period == int(inverse[1].split()[1].strip("("))
    # irq.max_rate is not Thread-Metric: never a row of the throughput table
    # (which holds bare metal's tm.basic, timed by the periodic timer).
    blocks = re.findall(r"^## Throughput on .*\n\n((?:\|.*\|\n)+)", markdown.render(qemu_view),
                        re.M)
    assert blocks and all("| tm.basic |" in b and "irq.max_rate" not in b for b in blocks)


def test_qemu_unsupported_grouped(qemu_view: RunView) -> None:
    text = table.render(qemu_view)
    lacking = sorted(c.case_id for c in qemu_view.cases if c.profile == "default"
                     and c.status == "unsupported" and c.reason == "port lacks THREAD")
    assert len(lacking) >= 2
    row = _row(text, "baremetal/qemu-mps2-an386/default", "port lacks THREAD ")
    assert row[2] == ", ".join(lacking)  # one line for the reason, every case on it


def test_markdown_snapshot(qemu_view: RunView) -> None:
    """The Markdown shape, pinned on deterministic QEMU streams. After an
    intended change: RTOSMETER_UPDATE_SNAPSHOTS=1 pytest tests/test_reports_text.py"""
    md = _stable(markdown.render(qemu_view))
    if os.environ.get("RTOSMETER_UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.write_text(md, encoding="utf-8")
    assert SNAPSHOT.is_file(), f"{SNAPSHOT} is missing: run with RTOSMETER_UPDATE_SNAPSHOTS=1"
    assert md == SNAPSHOT.read_text(encoding="utf-8")
    blocks = re.findall(r"^## (.+)\n\n((?:\|.*\|\n)+)", md, re.M)
    for _, body in blocks:
        lines = body.splitlines()
        assert len({ln.count(" | ") for ln in lines}) == 1, lines


# ---- failures flagged, not-run apart -------------------------------------------


def _tm_stream(port: str, counters: list[list[int]], spread: int) -> bytes:
    """A tm.cooperative whose "within 1" check failed: its count must stay."""
    w = StreamWriter()
    w.record("HELLO", dict(v=1, port=port, target="host", group="tm_sched", ts="c",
                           unit="ns", hz=10**9, samples=2, batch=1, tm_period=30,
                           tm_periods=len(counters), profile="default"))
    w.record("CFG", {"k": "tick_hz", "v": "1000"})
    w.record("CASE", {"id": "calib.overhead"})
    w.record("SERIES", {"id": 0, "name": "overhead", "what": "two reads"})
    w.samples(0, 0, [5, 5])
    w.record("END", {"id": "calib.overhead", "status": "ok"})
    w.record("CASE", {"id": "tm.cooperative"})
    for period, per_thread in enumerate(counters):
        w.record("COUNT", {"name": "total", "period": period, "value": sum(per_thread)})
    w.record("CHECK", {"name": "counters_within_1_of_mean", "ok": int(spread <= 1),
                       "got": spread, "want": 1})
    w.record("END", {"id": "tm.cooperative", "status": "ok"})
    w.record("BYE", {"cases": 2, "status": 0})
    return w.getvalue()


def test_thread_metric_relative_view(tmp_path: Path) -> None:
    """--view thread-metric: each test against the slowest (1.0x) and the best
    (100 %) system, the figures the report's table and the CSV give too."""
    slow = _tm_stream("posix", [[10, 10, 10, 10, 10]] * 3, 0)
    fast = _tm_stream("baremetal", [[25, 25, 25, 25, 25]] * 3, 0)
    failed = _tm_stream("zephyr", [[30, 10, 10, 10, 10]] * 3, 12)  # "within 1" failed
    run = store_run(tmp_path / "r.sqlite", [(slow, HOST), (fast, HOST), (failed, HOST)])
    with Store.open(tmp_path / "r.sqlite") as st:
        view = load_run(st, run)
    text = reports.render(view, "table", "thread-metric")
    assert "Thread-Metric on host: relative to the slowest system (slowest = 1.0x)" in text
    # bare metal first; a failed case keeps its count, marked, and has no ratio
    assert _row(text, "│ tm.cooperative")[1:] == ["125", "50", "✗ 70"]
    rows = [r for r in text.splitlines() if r.startswith("│ tm.cooperative")]
    assert [[c.strip() for c in r.split("│")[2:5]] for r in rows[1:]] == [
        ["2.50x", "1.00x", "✗ failed"], ["100.0 %", "40.0 %", "✗ failed"]]
    md = reports.render(view, "md", "thread-metric")
    assert "| tm.cooperative | 2.50x | 1.00x | ✗ failed |" in md
    assert "| tm.cooperative | 100.0 % | 40.0 % | ✗ failed |" in md
    # the same figures as the report's own table and the CSV
    assert _row(table.render(view), "│ tm.cooperative")[1] == "125 (100.0 % · 2.50x)"
    rec = {r["port"]: r for r in csv.DictReader(io.StringIO(csv_report.render(view)))
           if r["case_id"] == "tm.cooperative" and r["series"] == "total"}
    assert float(rec["baremetal"]["multiple_of_slowest"]) == 2.5
    assert float(rec["posix"]["percent_of_best"]) == 40.0
    with pytest.raises(UserError, match="the thread-metric view has no csv format"):
        reports.render(view, "csv", "thread-metric")
    with pytest.raises(UserError, match=r"unknown report view .x.*Use one of: report, load"):
        reports.render(view, "md", "x")


def test_views_from_the_command_line(tmp_path: Path) -> None:
    """`report --view NAME` renders a view of the stored run; `--format load`
    still works, saying it is deprecated; a view is no CSV."""
    from conftest import invoke

    from rtosmeter.commands.report import VIEWS

    assert VIEWS == document.VIEWS  # the CLI's copy (no numpy for --help)
    store_run(tmp_path / "rtosmeter.sqlite",
              [(_tm_stream("posix", [[10, 10, 10, 10, 10]] * 3, 0), HOST)])
    out = str(tmp_path)
    tm = invoke("report", "--out", out, "--view", "thread-metric")
    assert tm.exit_code == 0 and "relative to the slowest system" in tm.stdout
    load = invoke("report", "--out", out, "--view", "load", "--format", "md")
    assert load.stdout.startswith("# rtosmeter run 1 (done)") and "`--load`" in load.stdout
    old = invoke("report", "--out", out, "--format", "load")
    assert old.exit_code == 0 and old.stdout == load.stdout
    assert "--format load is deprecated: use --format md --view load" in old.stderr
    written = invoke("report", "--out", out, "--view", "load", "--format", "md", "--write")
    assert written.stdout.strip() == str(tmp_path / "report-1-load.md")
    bad = invoke("report", "--out", out, "--view", "load", "--format", "csv")
    assert bad.exit_code == 1 and "the load view has no csv format" in bad.output


def test_failed_throughput_keeps_its_count(tmp_path: Path) -> None:
    good = _tm_stream("posix", [[10, 10, 10, 10, 10]] * 3, 0)
    bad = _tm_stream("baremetal", [[30, 10, 10, 10, 10]] * 3, 12)
    run = store_run(tmp_path / "r.sqlite", [(good, HOST), (bad, HOST)])
    with Store.open(tmp_path / "r.sqlite") as st:
        view = load_run(st, run)
    text = table.render(view)
    assert "mean count per period of 30 ms (30 kernel ticks at 1,000 Hz)" in text
    coop = _row(text, "│ tm.cooperative")
    assert coop[1] == "✗ 70 (check failed: counters_within_1_of_mean)"
    assert coop[2] == "50 (100.0 % · 1.00x)"  # the failed one is not in the normalisation
    assert _row(text, "counters within 1 of mean")[2:] == ["✗ no (spread 12)",
                                                           "yes (spread 0)"]
    md = markdown.render(view)
    assert "| tm.cooperative | ✗ 70 <sub>check failed: counters_within_1_of_mean</sub> |" in md


def test_not_run_here_apart_from_errors(tmp_path: Path) -> None:
    data = craft("posix", "host", 10**9, [5, 5, 5], throughput={"tm.sync": [3, 3, 3]})
    run = store_run(tmp_path / "r.sqlite", [(data, HOST)])
    with Store.open(tmp_path / "r.sqlite") as st:
        st.add_build(run, "threadx", "qemu-mps2-an386", "default", {}, status="unsupported",
                     error="RTOS source tree for threadx not found: give --source threadx=PATH")
        st.add_build(run, "freertos", "qemu-mps2-an386", "default", {}, status="failed",
                     error="cmake failed")
        view = load_run(st, run)
    text = table.render(view)
    md = markdown.render(view)
    for out in (text, md):
        assert "Not run here (stored with the reason; not errors)" in out
        assert "not run here: RTOS source tree for threadx not found" in out
        errors = out[out.index("Errors (build failures"):]
        assert "cmake failed" in errors and "threadx" not in errors


MD_EVIL = "lat.x\n# Owned ![i](http://evil.example/i.png) |x|"
CSV_EVIL = '=HYPERLINK("http://evil.example","x")'
TERM_EVIL = "lat.\x1b]8;;http://evil.example\x07link\x1b]8;;\x07\x1b[2J"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> RunView:
    """Names from the stream crafted to inject Markdown, formulas and terminal
    escapes, through the real writer, parser, store and analysis."""
    data = craft("posix", "host", 10**9, [5, 1, 1],
                 latency=[(MD_EVIL, {"take": [9, 1, 2]}), (CSV_EVIL, {"-1+1": [9, 1, 2]}),
                          (TERM_EVIL, {"s": [9, 1, 2]})],
                 unsupported={"lat.u": "@SUM(A1:A9)"})
    path = tmp_path_factory.mktemp("hostile") / "r.sqlite"
    run = store_run(path, [(data, HOST)])
    with Store.open(path) as st:
        return load_run(st, run)


def test_markdown_neutralises_names(hostile: RunView) -> None:
    md = markdown.render(hostile)
    assert not re.search(r"^#+ Owned", md, re.M)  # no injected heading
    assert "![i](" not in md  # no remote image
    for line in md.splitlines():  # every table row keeps its columns
        if line.startswith("| lat.x"):
            assert len(re.findall(r"(?<!\\)\|", line)) == len(
                re.findall(r"(?<!\\)\|", next(ln for ln in md.splitlines()
                                              if ln.startswith("| case"))))
    assert "lat.x # Owned \\!\\[i\\](http://evil.example/i.png) \\|x\\|" in md


def test_csv_neutralises_formulas(hostile: RunView) -> None:
    rows = list(csv.reader(io.StringIO(csv_report.render(hostile))))
    cells = [cell for row in rows[1:] for cell in row]
    text = [c for c in cells if c and not re.fullmatch(r"-?[0-9.e+-]+|nan|inf", c)]
    assert not [c for c in text if c[0] in "=+-@"], text
    assert "'" + CSV_EVIL in cells and "'@SUM(A1:A9)" in cells and "'-1+1" in cells


def test_terminal_table_strips_control_characters(hostile: RunView) -> None:
    text = table.render(hostile, width=400)
    assert "\x1b" not in text and "\x07" not in text
    assert "lat.]8;;http://evil.example" in text  # the name stays readable


def test_percentiles_from_too_few_samples_are_marked(view: RunView) -> None:
    """lat.sem.pass 'take' has 4 warm samples: p1 and p99 need 100, so the
    full statistics show them dim (italic) with the note; p50 needs 2."""
    md = markdown.render(view)
    row = next(ln for ln in md.splitlines()
               if ln.startswith("| posix/host/default | lat.sem.pass | take |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    cols = dict(zip(STAT_HEADERS, cells, strict=True))
    assert cols["p99"].startswith("*") and cols["p1"].startswith("*")
    assert not cols["p50"].startswith("*") and not cols["mean"].startswith("*")
    assert "Dim: a percentile from fewer samples than it needs" in md


def test_a_new_format_is_one_module(view: RunView, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A module placed in the package is a format: listed, offered to the CLI
    and rendered, with no list edited (a helper starting with _ is not)."""
    from rtosmeter import reports

    (tmp_path / "ids.py").write_text(
        'SUFFIX = ".txt"\n\n\ndef render(view):\n'
        '    return "\\n".join(c.case_id for c in view.cases)\n')
    (tmp_path / "_helper.py").write_text("")
    monkeypatch.setattr(reports, "__path__", [*reports.__path__, str(tmp_path)])
    assert "ids" in reports.names() and "ids" in reports.choices()
    assert "_helper" not in reports.names()
    assert reports.render(view, "ids").splitlines()[0] == view.cases[0].case_id


def test_stand_ins_and_per_iteration_at_the_number(tmp_path: Path) -> None:
    """A figure that rests on a stand-in carries the mark in the table itself,
    with what was measured under the table; emulated throughput shows the
    instructions per loop iteration; CSV and JSON carry both."""
    data = craft("freertos", "qemu-mps2-an386", 25_000_000, [2, 2, 2],
                 latency=[("lat.pool", {"acquire": [90, 70, 70]})],
                 throughput={"tm.memory": [15625] * 3, "tm.sync": [31250] * 3},
                 cfg={"stand_in.POOL": "queue of free block pointers"}, period_ms=100)
    with Store.open(tmp_path / "r.sqlite") as st:
        view = load_run(st, store_run(tmp_path / "r.sqlite", [(data, QEMU)]))
    note = "† freertos/qemu-mps2-an386/default: POOL measured as queue of free block pointers"
    md = markdown.render(view)
    rows = {line.split("|")[1].strip(): line for line in md.splitlines() if line.startswith("| ")}
    assert "15,625 †" in rows["tm.memory"] and "100/it" in rows["tm.memory"]
    assert "†" not in rows["tm.sync"] and "50/it" in rows["tm.sync"]
    assert "†" in rows["lat.pool"]
    assert note in md
    assert "15,625 †" in table.render(view)
    records = list(csv.DictReader(io.StringIO(csv_report.render(view))))
    memory = next(r for r in records if r["case_id"] == "tm.memory" and r["series"] == "total")
    assert memory["stand_in"] == "POOL measured as queue of free block pointers"
    assert float(memory["per_iteration"]) == 100.0
    doc = json.loads(json_report.render(view))
    sync = next(r for r in doc["results"] if r["case_id"] == "tm.sync" and r["series"])
    assert (sync["stand_in"], sync["per_iteration"]) == ("", 50.0)
