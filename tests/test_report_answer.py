"""The answer first (reports/document/answer.py): rankings over the cases every
compared system ran, the same figures in every format, warnings and heap
caveats at the numbers. Runs are real streams written by the real writer and
stored in a real SQLite store."""

from __future__ import annotations

import csv
import io
import json
import math
from html import escape as html_escape
from pathlib import Path

import pytest
from _datahalf import craft, store_run

from rtosmeter.analysis import load_run
from rtosmeter.model import RunView
from rtosmeter.qemu_binary import guest_errors
from rtosmeter.reports import _glance_text, document, html, markdown, table
from rtosmeter.reports import csv as csv_report
from rtosmeter.reports import json as json_report
from rtosmeter.reports.document import answer as _answer
from rtosmeter.reports.document import answer_text as _words
from rtosmeter.store import Store

QEMU = {"runner": "qemu", "icount_shift": 6}
T = "qemu-mps2-an386"
MISALIGNED = ("M profile return from interrupt with misaligned PC is UNPREDICTABLE on v7M")
# tm counts per period: "fast" wins tm.sync by 2x and tm.memory by 4x, loses
# tm.cooperative (0.5x); "slow" alone runs tm.message; bare metal only tm.basic.
FAST = {"tm.sync": [200] * 3, "tm.memory": [400] * 3, "tm.cooperative": [50] * 3}
SLOW = {"tm.sync": [100] * 3, "tm.memory": [100] * 3, "tm.cooperative": [100] * 3,
        "tm.message": [70] * 3}
JITTER = [15_600] * 200 + [105_324]  # one activation far late: an outlier


@pytest.fixture(scope="module")
def view(tmp_path_factory: pytest.TempPathFactory) -> RunView:
    db = tmp_path_factory.mktemp("answer") / "r.sqlite"
    fast = craft("fast", T, 25_000_000, [9, 2, 2], throughput=FAST, period_ms=100,
                 latency=[("lat.sem.pass", {"take": [90] + [40] * 200}),
                          ("lat.jitter.periodic", {"period": [0, *JITTER]})],
                 cfg={"tick_hz": "1000", "assertions": "off"})
    slow = craft("slow", T, 25_000_000, [9, 2, 2], throughput=SLOW, period_ms=100,
                 latency=[("lat.sem.pass", {"take": [90] + [120] * 200}),
                          ("lat.jitter.periodic", {"period": [0] + [15_600] * 201})],
                 cfg={"tick_hz": "100", "assertions": "on", "heap_bytes": "262144"})
    floor = craft("baremetal", T, 25_000_000, [9, 2, 2], throughput={"tm.basic": [10] * 3},
                  period_ms=100)
    guest = {**QEMU, "guest_errors": "27",
             "guest_error_kinds": json.dumps({MISALIGNED: 27})}
    # a run stored before the count: the stderr tail still says it
    old = {**QEMU, "stderr": f"{MISALIGNED}\n{MISALIGNED}\n"}
    run = store_run(db, [(fast, guest), (slow, old), (floor, QEMU)],
                    footprint={"flash": 1000, "ram": 300_000, "parts": {}})
    with Store.open(db) as st:
        return load_run(st, run)


def test_ranked_over_the_cases_every_contender_ran(view: RunView) -> None:
    (a,) = _answer.answers(view)
    assert a.systems == [f"fast/{T}/default", f"slow/{T}/default"]
    assert a.floor_only == ["baremetal"]  # the floor is not ranked by its one case
    tput = next(r for r in a.rankings if r.family == "throughput")
    assert tput.cases == ["tm.cooperative", "tm.memory", "tm.sync"]
    assert tput.left_out == 1  # tm.message: slow alone ran it
    (lead,) = tput.leads
    assert tput.leader == f"fast/{T}/default" and lead.other == f"slow/{T}/default"
    assert lead.ratio == pytest.approx(math.cbrt(2 * 4 * 0.5))  # 1.587
    assert lead.low == (0.5, "tm.cooperative") and lead.high == (4.0, "tm.memory")
    lat = next(r for r in a.rankings if r.family == "latency")
    # the period of lat.jitter.periodic follows the tick: context, not a cost
    assert lat.cases == ["lat.sem.pass · take"]
    assert lat.leads[0].ratio == pytest.approx((120 - 2) / (40 - 2))  # overhead: 2 ticks


@pytest.mark.slow
def test_the_answer_first_and_the_same_in_every_format(view: RunView) -> None:
    (a,) = _answer.answers(view)
    headline = _words.sentences(a)[0]
    assert headline.startswith("Throughput: fast is fastest, over 3 cases every compared "
                               "system ran (1 left out): 1.59x the throughput of slow (from 0.50x "
                               "(tm.cooperative) to 4.00x (tm.memory))")
    md = markdown.render(view)
    assert md.index("## The answer on") < md.index("## Throughput on")
    text = table.render(view, width=400)
    assert text.rindex("The answer on") > text.index("Throughput on")  # the last lines
    page = html.render(view)
    assert page.index('id="answer"') < page.index('id="summary"')
    for out in (md, page):
        assert headline in out
    # the terminal ends with the first screen: a line per family, as the page's
    glance = document.build(view).glances[0]
    said = glance.sentence("throughput")
    # fast is best of tm.sync and tm.memory, slow of tm.cooperative (at 2x)
    assert said == (f"Throughput, time per Thread-Metric iteration (3 cases, x the best of "
                    f"each): fast is best ({math.cbrt(2):.2f}x); slow takes 2.00x.")
    assert text.rstrip().splitlines()[-len(_glance_text.lines(glance)):] == \
        _glance_text.lines(glance)
    assert html_escape(said) in page
    # one normalisation: the % of the best of CSV, JSON and HTML agree
    rows = list(csv.DictReader(io.StringIO(csv_report.render(view))))
    docs = json.loads(json_report.render(view))["results"]
    for cid in ("tm.sync", "tm.memory", "tm.cooperative"):
        for port in ("fast", "slow"):
            pct = next(float(r["percent_of_best"]) for r in rows
                       if r["port"] == port and r["case_id"] == cid and r["percent_of_best"])
            assert pct == next(d["percent_of_best"] for d in docs if d["port"] == port
                               and d["case_id"] == cid and d["percent_of_best"] is not None)
            for out in (md, text, page):  # the same figure in the text formats too
                assert f"{pct:.1f} % · " in out


@pytest.mark.slow
def test_warnings_counted_and_marked(view: RunView) -> None:
    kinds = {(w.system.split("/")[0], w.kind, w.case_id) for w in view.warnings}
    assert ("fast", "guest-error", "") in kinds and ("slow", "guest-error", "") in kinds
    assert ("fast", "outlier", "lat.jitter.periodic") in kinds
    guest = next(w for w in view.warnings if w.kind == "guest-error" and "fast" in w.system)
    assert f"27 guest error(s): {MISALIGNED} (x27)" in guest.text
    old = next(w for w in view.warnings if w.kind == "guest-error" and "slow" in w.system)
    assert "2 guest error(s)" in old.text
    out = next(w for w in view.warnings if w.kind == "outlier")
    # in instructions: (ticks - overhead) x 0.625 at icount shift 6 and 25 MHz
    assert f"max {(105_324 - 2) * 0.625:,.0f} is 6.8x the p99" in out.text
    text = table.render(view, width=400)
    assert "Warnings (⚠ at the figures" in text and MISALIGNED in text
    median = f"{(15_600 - 2) * 0.625:,.0f} ⚠"  # the outlier's series, marked
    for out_text in (text, markdown.render(view), html.render(view)):
        assert MISALIGNED in out_text and median in out_text


@pytest.mark.slow
def test_heap_and_settings_named_at_the_numbers(view: RunView) -> None:
    (a,) = _answer.answers(view)
    ram = dict(_words.glance_rows(a))["RAM bytes (median firmware)"]
    assert ram == ["300,000", "300,000 ‡ (37,856 without the heap)"]
    words = " ".join(_words.sentences(a))
    assert "‡ slow: the RAM figure holds a 262,144 B heap" in words
    assert "2 setting(s) differ between the compared builds: assertions (fast off / slow on); " \
        "tick_hz (fast 1000 / slow 100)." in words
    for out in (markdown.render(view), html.render(view)):
        assert "RAM 300,000 ‡" in out or "300,000 ‡" in out


def test_guest_errors_by_message() -> None:
    log = [f"{MISALIGNED}\n", "Invalid read at addr 0x4000F000, size 4\n",
           "Invalid read at addr 0x40010000, size 4\n", "R00=00000000 R01=00000001\n"]
    assert guest_errors(log) == {MISALIGNED: 1, "Invalid read at addr N, size N": 2}


@pytest.mark.slow
def test_markdown_and_html_of_one_run_write_files(view: RunView, tmp_path: Path) -> None:
    md = markdown.write(view, tmp_path)
    assert md.read_text().startswith("# rtosmeter run")
    assert (tmp_path / "charts").is_dir()


def test_a_family_split_by_units_says_why_and_what_brings_it_back(tmp_path: Path) -> None:
    """One port counted by the QEMU plugin (exact instructions), one by the
    target's timer: no latency series is in one unit for both, and the answer
    says so, naming each side and the option, instead of dropping the verdict
    without a word."""
    plugin = craft("exact", T, 1_000_000_000 >> 6, [9, 2, 2],
                   latency=[("lat.sem.pass", {"take": [90] + [40] * 200})],
                   unit="instructions (QEMU, exact)")
    timer = craft("timer", T, 25_000_000, [9, 2, 2],
                  latency=[("lat.sem.pass", {"take": [90] + [120] * 200})])
    db = tmp_path / "r.sqlite"
    counted = {**QEMU, "plugin": "rmcycles", "mode": "instructions"}  # as PluginSpec.record
    run = store_run(db, [(plugin, counted), (timer, QEMU)],
                    footprint={"flash": 1000, "ram": 3000, "parts": {}})
    with Store.open(db) as st:
        (a,) = _answer.answers(load_run(st, run))
    assert not [r for r in a.rankings if r.family == "latency"]
    (why,) = a.no_verdict
    assert "exact in instructions (QEMU, exact)" in why
    assert "timer in instructions (QEMU icount)" in why
    assert "--unit ticks" in why
    text = _words.sentences(a)
    assert why in text and "nothing to rank" not in " ".join(text)
