"""Names and figures from a hostile or degenerate run in the HTML and
Markdown reports: no bidi override or ESC on the page, one HTML id and chart
file per name, no "nan %". Crafted streams, a real store, the real reports."""

from __future__ import annotations

import re
from pathlib import Path

from _datahalf import craft, store_run

from rtosmeter import analysis
from rtosmeter.reports import document, html, markdown
from rtosmeter.store import Store
from rtosmeter.textsafe import chart_name

HOST = {"runner": "host"}


def _report(tmp_path: Path, *streams: bytes) -> document.Document:
    run = store_run(tmp_path / "r.sqlite", [(s, HOST) for s in streams])
    with Store.open(tmp_path / "r.sqlite") as st:
        return document.build(analysis.load_run(st, run))


def test_bidi_overrides_and_esc_never_reach_the_page(tmp_path: Path) -> None:
    """`tm.basic\u202eevil` rendered reversed; ESC went through raw."""
    data = craft("posix\u202e", "host", 10**9, [5, 1, 1],
                 latency=[("lat.basic\u202eevil\x1b[31m", {"s\u2066": [9, 1, 2]})],
                 unsupported={"lat.x\u200f": "reason \x1b]8;;http://x\x07link\u202e"})
    page = html.render(_report(tmp_path, data))
    for bad in ("\u202e", "\u2066", "\u200f", "\x1b", "\x07"):
        assert bad not in page, repr(bad)
    assert "lat.basicevil[31m" in page


def test_names_that_map_to_one_stem_get_their_own_ids_and_charts(tmp_path: Path) -> None:
    """`lat.x<y` becomes `lat.x-y-<hash>`; a case named that literally took
    the same HTML id and chart file."""
    twin = chart_name("lat.x<y")
    assert twin.startswith("lat.x-y-")
    data = craft("posix", "host", 10**9, [5, 1, 1],
                 latency=[("lat.x<y", {"s": [9, 1, 2]}), (twin, {"s": [9, 30, 40]})])
    report = _report(tmp_path, data)
    page = html.render(report)
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    markdown.write(report, tmp_path / "md")
    charts = [p.name for p in (tmp_path / "md").rglob("*.svg") if "lat.x-y" in p.name]
    assert len(charts) == 2, charts


def test_every_score_zero_prints_no_nan(tmp_path: Path) -> None:
    """The best score 0: "nan % · nanx" in Markdown."""
    a = craft("posix", "host", 10**9, [5, 1, 1], throughput={"tm.sync": [0, 0, 0]})
    b = craft("baremetal", "host", 10**9, [5, 1, 1], throughput={"tm.sync": [0, 0, 0]})
    report = _report(tmp_path, a, b)
    for text in (markdown.render(report), markdown.render(report, "thread-metric"),
                 html.render(report)):
        assert not re.search(r"\bnan\b", text, re.IGNORECASE), \
            [ln for ln in text.splitlines() if re.search(r"\bnan\b", ln, re.I)][:3]
