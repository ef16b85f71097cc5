"""The HTML report, opened in real headless Chromium (Debian's /usr/bin/chromium).

Runs are made from streams recorded on real host runs (tests/data), stored
through the real Store: once as `posix` and once under a second port name,
so the report has two ports to set side by side; and a mixed run: the host
streams plus the recorded bare-metal QEMU streams (twice, as the bare-metal
floor and as a second port), with combinations stored as not run here and a
failed build.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _datahalf import craft
from _datahalf import store_run as store_crafted

from rtosmeter import analysis, sample_units, vocabulary
from rtosmeter.definitions import Definitions
from rtosmeter.model import RunView
from rtosmeter.protocol import parse_stream
from rtosmeter.reports import document, html, markdown
from rtosmeter.reports.document.cells import fmt
from rtosmeter.reports.document.listing import ISR_NOTE
from rtosmeter.store import Store

DATA = Path(__file__).parent / "data"
ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
EVIL_PORT = "<script>window.__xss=1;alert(1)</script>"
EVIL_CASE = '"><img src=x onerror="window.__xss=2">'
EVIL_CONFIG = "<b onmouseover=alert(3)>-O2</b>"


def streams() -> list[Path]:
    found = sorted(DATA.glob("posix-host-*.rmstream"))
    assert found, "tests/data/posix-host-*.rmstream: the recorded host streams are missing"
    return found


def store_run(store: Store, ports: list[str], *, rename_case: tuple[str, str] | None = None,
              config: dict[str, str] | None = None) -> int:
    """One run holding every recorded stream once per port name."""
    run = store.create_run({"campaign": "test"}, {"machine": "test host"}, "0.1.0")
    for port in ports:
        build = store.add_build(run, port, "host", "default",
                                {"opt_flags": "-O2", **(config or {}), "port": port})
        for path in streams():
            data = path.read_bytes()
            parsed = parse_stream(data)
            for case in parsed.cases:
                if rename_case and case.id == rename_case[0]:
                    case.id = rename_case[1]
            store.add_execution(run, build, parsed.header["group"], status="ok",
                                runner={"runner": "host"}, stream=data, parsed=parsed)
    store.finish_run(run)
    return run


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is required (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def open_page(browser: Any, path: Path) -> tuple[Any, list[str], list[str]]:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    dialogs: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def on_dialog(d: Any) -> None:
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", on_dialog)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    assert requests == [path.as_uri()], f"the page fetched something: {requests}"
    return page, errors, dialogs


@pytest.mark.slow
def test_report_two_ports_in_chromium(tmp_path: Path, browser: Any) -> None:
    with Store.open(tmp_path / "rtosmeter.sqlite") as store:
        run = store_run(store, ["posix", "posix-copy"], config={"tick_hz": "1000"})
        view = analysis.load_run(store, run)
    path = html.write(view, tmp_path / "report.html")
    text = path.read_text()
    assert "http://" not in text.replace("http://www.w3.org", "")
    assert "https://" not in text

    page, errors, dialogs = open_page(browser, path)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-html.png"), full_page=True)
    assert errors == [] and dialogs == []

    # Every chart drawn: an inline SVG with a size and drawn shapes.
    charts = page.query_selector_all("figure.chart svg")
    expected = len(document.build(view).page.charts)
    assert len(charts) == expected and expected >= 3
    for svg in charts:
        box = svg.bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 50
        assert len(svg.query_selector_all("path")) > 5

    # Every case of the run is on the page, as a section or a table row.
    body = page.inner_text("body")
    for case in {c.case_id for c in view.cases}:
        assert case in body, case
    latency = {c.case_id for c in view.cases if vocabulary.family(c) == "latency"
               and c.case_id != vocabulary.CALIB_CASE}
    nobody = {cid for cid in latency if all(c.status == "unsupported" for c in view.cases
                                            if c.case_id == cid)}
    shown = {e.get_attribute("data-case") for e in page.query_selector_all("[data-case]")}
    # the host has no periodic timer: no irq.max_rate rate; a case no port
    # supports is one line, not a section
    assert latency - nobody == shown and nobody
    line = page.inner_text("#latency")
    assert all(f"{cid} (" in line for cid in nobody)
    assert "calib.overhead" in page.inner_text("#latency")
    rate = next(c for c in view.cases if c.case_id == "irq.max_rate")
    assert rate.status == "unsupported"
    assert rate.reason in page.inner_text("#interrupts")
    # Unsupported cases say so, with the reason.
    unsupported = [c for c in view.cases if c.status == "unsupported"]
    everything = page.text_content("body")  # folded cases too
    for c in unsupported:
        assert c.reason in everything
    # Units with their origin on the axes and tables; host runs are not "µs".
    assert "ns (host clock)" in body
    assert "µs" not in text
    # Both ports side by side in the configuration.
    heads = page.text_content("#configuration thead")  # folded: text_content
    assert "posix" in heads and "posix-copy" in heads


@pytest.mark.slow
def test_names_from_the_run_are_escaped(tmp_path: Path, browser: Any) -> None:
    with Store.open(tmp_path / "rtosmeter.sqlite") as store:
        victim = parse_stream(streams()[0].read_bytes()).cases[-1].id
        run = store_run(store, ["posix", EVIL_PORT], rename_case=(victim, EVIL_CASE),
                        config={"flags": EVIL_CONFIG})
        view = analysis.load_run(store, run)
    path = html.write(view, tmp_path / "evil.html")
    page, errors, dialogs = open_page(browser, path)
    page.hover("body")
    assert dialogs == []
    assert page.evaluate("window.__xss") is None
    # one script, the page's own filters; nothing from the run became one
    assert [s.get_attribute("id") for s in page.query_selector_all("script")] == ["rm-ui"]
    assert page.query_selector_all("img") == []
    assert page.query_selector_all("b[onmouseover]") == []
    body = page.text_content("body")  # the configuration is folded
    for text in (EVIL_PORT, EVIL_CASE, EVIL_CONFIG):
        assert text in body
    assert errors == []


@pytest.mark.slow
def test_report_is_reproducible(tmp_path: Path) -> None:
    with Store.open(tmp_path / "rtosmeter.sqlite") as store:
        run = store_run(store, ["posix"])
        view = analysis.load_run(store, run)
    assert html.render(view) == html.render(view)


@pytest.mark.skipif(shutil.which("true") is None, reason="no shell tools")
def test_registered_as_a_format() -> None:
    from rtosmeter import reports

    assert reports.get_format("html").SUFFIX == ".html"


@pytest.mark.slow
def test_markdown_with_chart_files(tmp_path: Path) -> None:
    with Store.open(tmp_path / "rtosmeter.sqlite") as store:
        run = store_run(store, ["posix", "posix-copy"])
        view = analysis.load_run(store, run)
    md = markdown.write(view, tmp_path / "md")
    text = md.read_text()
    links = [line[line.index("](") + 2:-1] for line in text.splitlines()
             if line.startswith("![")]
    assert len(links) == len(document.build(view).page.charts)
    for link in links:
        svg = (md.parent / link).read_text()
        assert svg.startswith("<?xml") and "<path" in svg
    # written again: the run's chart folder holds exactly the charts linked
    stale = md.parent / f"charts/run-{run}/c-stale.svg"
    stale.write_text("<svg/>")
    markdown.write(view, tmp_path / "md")
    assert not stale.exists()
    assert len(list(stale.parent.glob("*.svg"))) == len(links)


# ---- a mixed run: host + QEMU, not run here, a failed build -------------------

QEMU = "qemu-mps2-an386"
NOT_RUN = [("threadx", QEMU, "unsupported", "RTOS source tree for threadx not found: give "
            "--source threadx=PATH"),
           ("zephyr", "host", "skipped", "host: missing west")]


def qemu_streams() -> list[Path]:
    """The recorded bare-metal streams of the default profile."""
    found = [p for p in sorted(DATA.glob(f"baremetal-{QEMU}-*.rmstream"))
             if parse_stream(p.read_bytes()).header["profile"] == "default"]
    assert found, f"tests/data/baremetal-{QEMU}-*.rmstream: the recorded QEMU streams are missing"
    return found


def store_mixed(store: Store) -> int:
    target = Definitions.load().target(QEMU)
    assert target.qemu is not None
    qemu_runner = {"runner": "qemu", "icount_shift": str(target.qemu.icount_shift),
                   "unit": target.counter.unit}
    run = store.create_run({"campaign": "mixed"}, {"machine": "test host"}, "0.1.0")
    host = {"runner": "host"}
    # The host's tm.basic once more as the bare-metal floor of the host, for
    # the calibration check (on QEMU, bare metal runs tm.basic itself, timed
    # by the periodic timer, and "copy" repeats its streams).
    for port, tgt, paths, runner in (("posix", "host", streams(), host),
                                     ("baremetal", "host", [DATA / "posix-host-tm_basic.rmstream"],
                                      host),
                                     ("baremetal", QEMU, qemu_streams(), qemu_runner),
                                     ("copy", QEMU, qemu_streams(), qemu_runner)):
        build = store.add_build(run, port, tgt, "default", {"opt_flags": "-O2"})
        for path in paths:
            data = path.read_bytes()
            parsed = parse_stream(data)
            store.add_execution(run, build, parsed.header["group"], status="ok",
                                runner=runner, stream=data, parsed=parsed)
    for port, tgt, status, reason in NOT_RUN:
        store.add_build(run, port, tgt, "default", {}, status=status, error=reason)
    store.add_build(run, "freertos", QEMU, "default", {}, status="failed",
                    error="cmake failed: no FreeRTOSConfig.h")
    store.finish_run(run)
    return run


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[RunView, Path]:
    out = tmp_path_factory.mktemp("mixed")
    with Store.open(out / "rtosmeter.sqlite") as store:
        view = analysis.load_run(store, store_mixed(store))
    return view, html.write(view, out / "report.html")


def _rows(page: Any, selector: str) -> list[tuple[str, list[str]]]:
    """(row label, cell texts) of the tables under `selector`."""
    out = []
    for tr in page.query_selector_all(f"{selector} tbody tr"):
        th = tr.query_selector("th")
        if th is not None:
            out.append((th.inner_text().strip(), [td.inner_text().strip()
                                                  for td in tr.query_selector_all("td")]))
    return out


@pytest.mark.slow
def test_mixed_run_in_chromium(mixed: tuple[RunView, Path], browser: Any) -> None:
    view, path = mixed
    page, errors, dialogs = open_page(browser, path)
    page.screenshot(path=str(ARTIFACTS / "report-html-mixed.png"), full_page=True)
    assert errors == [] and dialogs == []

    # Not run here: its own block with the reasons, not in the errors, no column.
    block = page.inner_text("#not-run-here")
    for port, tgt, status, reason in NOT_RUN:
        assert f"{port}/{tgt}/default ({status}): {reason}" in block
    errors_text = page.inner_text("#errors")
    assert "cmake failed: no FreeRTOSConfig.h" in errors_text
    assert "threadx" not in errors_text and "zephyr" not in errors_text
    legend = page.inner_text(".legend")
    assert "threadx" not in legend and "zephyr" not in legend and "copy" in legend

    # Throughput is Thread-Metric only; irq.max_rate has its own section.
    tm_rows = {label for label, _ in _rows(page, "#throughput")}
    assert tm_rows and all(label.startswith("tm.") for label in tm_rows)
    assert {c.case_id for c in view.cases if c.case_id.startswith("tm.")} == tm_rows

    # The throughput period, from the stream: ms, kernel ticks and tick rate.
    hello = parse_stream((DATA / "posix-host-tm_basic.rmstream").read_bytes()).header
    ms, ticks, hz = (int(hello[k]) for k in ("tm_period_ms", "tm_period", "tick_hz"))
    host_caption = page.inner_text("[id='c-tp-host'] + .scroll caption, "
                                   "[id='c-tp-host'] ~ .scroll caption")
    assert f"per measurement period of {ms} ms ({ticks} kernel ticks at {hz:,} Hz)" \
        in host_caption

    # Interrupt responsiveness: the rate from META and its inverse in the unit.
    rate = next(c for c in view.cases if c.case_id == "irq.max_rate" and c.port == "baremetal")
    assert rate.status == "ok"
    unit = sample_units.unit_for({"hz": "25000000"}, {"runner": "qemu", "icount_shift": "6"})
    irq = dict(_rows(page, "#interrupts"))  # only the QEMU target has a rate
    hz_row = next(v for k, v in irq.items() if k.startswith("highest rate"))
    assert hz_row[0] == f"{int(rate.meta['max_rate_hz']):,}"
    inverse = next(v for k, v in irq.items() if k.startswith("its inverse"))
    period = int(rate.meta["max_rate_period_ticks"])
    shown, ticks_text = inverse[0].split(maxsplit=1)
    assert float(shown.replace(",", "")) == pytest.approx(period * unit.per_tick, rel=5e-3)
    assert ticks_text == f"{period:,} ticks"
    assert next(k for k in irq if k.startswith("its inverse")).endswith(unit.label)
    assert "irq.max_rate" not in page.inner_text("#throughput")

    # tm.basic against bare metal, per target: the floor, and 0 % for the port
    # whose stream is the floor's (posix on the host, copy on QEMU).
    calib_rows = [v for k, v in _rows(page, "#checks") if k == "tm.basic"]
    assert calib_rows == [["within 1 % of bare metal", "the floor", "+0.00 % vs bare metal"]] * 2
    heads = page.inner_text("#checks thead")
    assert heads.index("baremetal") < heads.index("posix")


@pytest.mark.slow
def test_lifecycle_layouts_as_a_matrix(mixed: tuple[RunView, Path], browser: Any) -> None:
    """~105 lat.thread.lifecycle series: the calls alone in the chart, every
    layout as a call x threads by gap table of medians, the full statistics
    folded."""
    view, path = mixed
    case = next(c for c in view.cases
                if c.case_id == "lat.thread.lifecycle" and c.port == "posix")
    by_name = {d.series: d for d in case.distributions}
    assert len(by_name) > 100
    layout = re.compile(r"^(\w+)@(\d+)(?:/g(\d+))?$")
    calls = [n for n in by_name if "@" not in n]
    threads = sorted({int(m[2]) for n in by_name if (m := layout.match(n))})
    gaps = sorted({int(m[3] or 1) for n in by_name if (m := layout.match(n))})

    page, errors, _ = open_page(browser, path)
    assert errors == []
    section = page.query_selector("[id='c-lat.thread.lifecycle']")
    assert section is not None and not section.get_attribute("open")  # folded: one line
    section.query_selector("summary").click()
    svg = section.query_selector("figure.chart svg")
    assert svg is not None and "@" not in svg.text_content()
    assert "create" in svg.text_content()
    (matrix,) = section.query_selector_all("table.matrix")
    heads = [th.inner_text() for th in matrix.query_selector_all("thead th.gap")]
    assert heads == [f"gap {g}" for g in gaps]
    rows = {tr.query_selector("th").inner_text(): [td.inner_text() for td in
                                                   tr.query_selector_all("td")]
            for tr in matrix.query_selector_all("tbody tr")}
    assert len(rows) == len(calls) * (1 + len(threads))
    for call in calls:
        assert rows[f"{call} · alone"] == [fmt(by_name[call].p50)]
        for n in threads:
            want = []
            for g in gaps:
                d = by_name[f"{call}@{n}" if g == 1 else f"{call}@{n}/g{g}"]
                clamped = case.meta.get(f"clamped@{n}/g{g}", "0")
                want.append(fmt(d.p50) + ("†" if int(clamped) > 0 else ""))
            assert rows[f"{call} · {n} others"] == want
    # The 105 rows of statistics are there, folded.
    details = section.query_selector("details.stats")
    assert details is not None and not details.get_attribute("open")
    assert len(details.query_selector_all("tbody tr")) == len(by_name)
    assert not details.query_selector("table").is_visible()


@pytest.mark.slow
def test_a_failed_check_keeps_its_count(tmp_path: Path) -> None:
    """A throughput case whose property check fails (e.g. a scheduler that is
    not round-robin fair) shows its count, marked ✗, not just "failed"."""
    path = DATA / "posix-host-tm_sched.rmstream"
    data = path.read_bytes()
    parsed = parse_stream(data)
    coop = next(c for c in parsed.cases if c.id == "tm.cooperative")
    coop.checks = [dataclasses.replace(ch, ok=False, got=2) for ch in coop.checks]
    with Store.open(tmp_path / "s.sqlite") as store:
        run = store.create_run({"campaign": "test"}, {"machine": "test host"}, "0.1.0")
        build = store.add_build(run, "posix", "host", "default", {"opt_flags": "-O2"})
        store.add_execution(run, build, "tm_sched", status="ok", runner={"runner": "host"},
                            stream=data, parsed=parsed)
        store.finish_run(run)
        view = analysis.load_run(store, run)
    result = next(c for c in view.cases if c.case_id == "tm.cooperative")
    assert result.status == "failed" and result.score
    page = html.render(view)
    assert f"✗ {fmt(result.score)}" in page


@pytest.mark.slow
def test_names_differing_in_unsafe_characters_get_their_own_charts(tmp_path: Path,
                                                                     browser: Any) -> None:
    """`lat.x<y` and `lat.x>y` map to one file-name-safe stem: each keeps
    its own chart file and HTML id all the same."""
    data = craft("posix", "host", 10**9, [5, 1, 1],
                 latency=[("lat.x<y", {"s": [9, 1, 2]}), ("lat.x>y", {"s": [9, 30, 40]})])
    run = store_crafted(tmp_path / "r.sqlite", [(data, {"runner": "host"})])
    with Store.open(tmp_path / "r.sqlite") as st:
        report = document.build(analysis.load_run(st, run))
    md = markdown.write(report, tmp_path / "md")
    folder = f"charts/run-{run}"
    assert len(list((tmp_path / "md" / folder).glob("c-lat.x-y*.svg"))) == 2
    assert md.read_text().count(f"]({folder}/c-lat.x-y") == 2
    page, errors, _ = open_page(browser, html.write(report, tmp_path / "r.html"))
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids)), ids
    assert errors == []


@pytest.mark.slow
def test_emulated_is_what_the_unit_says_not_the_target_name(tmp_path: Path) -> None:
    """A QEMU run on a target whose name lacks "qemu" is emulated; a host run
    on a target named like one is not: the analysis' unit decides."""
    qemu = craft("baremetal", "mps2-renamed", 25_000_000, [9, 6, 6],
                 latency=[("lat.isr.entry", {"entry": [90, 40, 41]})])
    host = craft("posix", "qemu-lookalike", 10**9, [9, 6, 6],
                 latency=[("lat.isr.entry", {"entry": [90, 40, 41]})])
    run = store_crafted(tmp_path / "r.sqlite", [(qemu, {"runner": "qemu", "icount_shift": 6}),
                                                (host, {"runner": "host"})])
    with Store.open(tmp_path / "r.sqlite") as st:
        report = document.build(analysis.load_run(st, run))
    assert {c.key[1]: c.emulated for c in report.page.columns} == {"mps2-renamed": True,
                                                              "qemu-lookalike": False}
    assert any(n.startswith("Emulated targets run under QEMU") for n in report.page.notices)
    assert ISR_NOTE in report.page.latency[0].notes


@pytest.mark.slow
def test_stand_in_marked_beside_the_count(tmp_path: Path) -> None:
    """The HTML throughput table marks a count that rests on a stand-in and
    says under the table what was measured instead."""
    data = craft("freertos", "qemu-mps2-an386", 25_000_000, [2, 2, 2],
                 throughput={"tm.memory": [15625] * 3},
                 cfg={"stand_in.POOL": "queue of free block pointers"}, period_ms=100)
    run = store_crafted(tmp_path / "r.sqlite", [(data, {"runner": "qemu", "icount_shift": 6})])
    with Store.open(tmp_path / "r.sqlite") as st:
        page = html.render(analysis.load_run(st, run))
    assert "15,625 †" in page and "100/it" in page
    assert "POOL measured as queue of free block pointers" in page


def test_a_series_without_samples_has_no_chart(tmp_path: Path) -> None:
    """A case that failed before its first sample (Mynewt's
    lat.thread.lifecycle) leaves a series of its cold sample alone: the page
    still renders, with the other series' chart, instead of stopping on NaN
    axis limits."""
    data = craft("mynewt", "host", 10**9, [30, 30, 30],
                 latency=[("lat.sem.nocs", {"give": [700, 701, 702]}),
                          ("lat.pool", {"acquire": [705]})])
    run = store_crafted(tmp_path / "r.sqlite", [(data, {"runner": "host"})])
    with Store.open(tmp_path / "r.sqlite") as st:
        page = html.render(analysis.load_run(st, run))
    assert "lat.pool" in page and "<svg" in page


# ---- navigable at every width ------------------------------------------------------

OVERFLOW_JS = """() => {
  const vw = document.documentElement.clientWidth, out = [];
  for (const e of document.querySelectorAll('main *, nav *, header *')) {
    if (e.closest('svg') !== e && e.closest('svg')) continue;  // the svg clips its own
    let s = e.parentElement, boxed = false;
    while (s) { const o = getComputedStyle(s).overflowX;
      if (o === 'auto' || o === 'scroll') { boxed = true; break; } s = s.parentElement; }
    const r = e.getBoundingClientRect();
    if (!boxed && r.width > 0 && r.right > vw + 1) out.push(e.tagName + ' ' + e.className);
  }
  return {scroll: document.documentElement.scrollWidth, vw, out: out.slice(0, 5)};
}"""


@pytest.mark.parametrize("width", [420, 1400, 2560])
@pytest.mark.slow
def test_layout_fits_every_width(mixed: tuple[RunView, Path], browser: Any, width: int) -> None:
    """Nothing sticks out of the page (wide tables scroll in their box), ids
    are unique, and the answer (a picture and a sentence) is on the first
    screen."""
    _, path = mixed
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(path.as_uri())
    page.screenshot(path=str(ARTIFACTS / f"report-html-{width}.png"))
    fit = page.evaluate(OVERFLOW_JS)
    assert fit["scroll"] <= width and fit["out"] == [], fit
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids))
    # the first screen: "not times", a family's sentence and its chart
    emulated = page.query_selector("#answer p.emulated")
    assert emulated is not None and "not times" in emulated.inner_text()
    figure = page.query_selector("#answer figure.family")
    assert figure is not None and figure.is_visible()
    assert "is best" in figure.query_selector("figcaption").inner_text()
    for element in (emulated, figure.query_selector("figcaption"), figure.query_selector("svg")):
        box = element.bounding_box()
        assert box is not None and box["y"] < 900 and box["x"] + box["width"] <= width


@pytest.mark.slow
def test_filter_by_port_and_search(mixed: tuple[RunView, Path], browser: Any) -> None:
    view, path = mixed
    page, errors, _ = open_page(browser, path)
    column = next(c.label for c in document.build(view).page.columns if c.key[0] == "copy")
    cells = _column_cells(page, "#throughput", column)
    assert cells and all(td.is_visible() for td in cells)
    page.uncheck(f"#controls input[data-sys='{column}']")
    assert not any(td.is_visible() for td in cells)
    others = _column_cells(page, "#throughput", "baremetal · qemu-mps2-an386")
    assert others and all(td.is_visible() for td in others)
    page.check(f"#controls input[data-sys='{column}']")
    assert all(td.is_visible() for td in cells)

    page.fill("#rm-search", "lat.sem")
    visible = {e.get_attribute("data-case") for e in page.query_selector_all("details.case")
               if e.is_visible()}
    assert visible and all("lat.sem" in cid for cid in visible)
    assert all(e.get_attribute("open") is not None for e in page.query_selector_all(
        "details.case") if e.is_visible())  # a match opens
    tm_rows = [tr for tr in page.query_selector_all("#throughput tbody tr") if tr.is_visible()]
    assert tm_rows == []  # no tm.* case matches lat.sem
    page.fill("#rm-search", "")
    page.uncheck("#controls input[data-fam='latency']")
    assert not page.is_visible("#latency") and page.is_visible("#throughput")
    assert errors == []


def _column_cells(page: Any, section: str, label: str) -> list[Any]:
    """The cells under the header `label` in the tables of `section`."""
    out = []
    for tbl in page.query_selector_all(f"{section} table"):
        heads = [th.inner_text().strip() for th in tbl.query_selector_all("thead th")]
        if label in heads:
            i = heads.index(label)
            out += [tr.query_selector_all("th, td")[i] for tr in tbl.query_selector_all("tbody tr")]
    return out
