"""The HTML report, opened in real headless Chromium (Debian's /usr/bin/chromium).

Runs are made from streams recorded on real host runs (tests/data), stored
through the real Store: once as `posix` and once under a second port name,
so the report has two ports to set side by side.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rtosmeter import analysis
from rtosmeter.protocol import parse_stream
from rtosmeter.reports import html
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
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    assert requests == [path.as_uri()], f"the page fetched something: {requests}"
    return page, errors, dialogs


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
    expected = len(html.prepare(view).all_charts)
    assert len(charts) == expected and expected >= 3
    for svg in charts:
        box = svg.bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 50
        assert len(svg.query_selector_all("path")) > 5

    # Every case of the run is on the page, as a section or a table row.
    body = page.inner_text("body")
    for case in {c.case_id for c in view.cases}:
        assert case in body, case
    latency = {c.case_id for c in view.cases if analysis.family(c) != "throughput"}
    shown = {e.get_attribute("data-case") for e in page.query_selector_all("[data-case]")}
    assert latency == shown
    # Unsupported cases say so, with the reason.
    unsupported = [c for c in view.cases if c.status == "unsupported"]
    for c in unsupported:
        assert c.reason in body
    # Units with their origin on the axes and tables; host runs are not "µs".
    assert "ns (host clock)" in body
    assert "µs" not in text
    # Both ports side by side in the configuration.
    heads = page.inner_text("#configuration thead")
    assert "posix" in heads and "posix-copy" in heads


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
    assert page.query_selector_all("script") == []
    assert page.query_selector_all("img") == []
    assert page.query_selector_all("b[onmouseover]") == []
    body = page.inner_text("body")
    for text in (EVIL_PORT, EVIL_CASE, EVIL_CONFIG):
        assert text in body
    assert errors == []


def test_report_is_reproducible(tmp_path: Path) -> None:
    with Store.open(tmp_path / "rtosmeter.sqlite") as store:
        run = store_run(store, ["posix"])
        view = analysis.load_run(store, run)
    assert html.render(view) == html.render(view)


@pytest.mark.skipif(shutil.which("true") is None, reason="no shell tools")
def test_registered_as_a_format() -> None:
    from rtosmeter import reports

    assert reports.get_format("html").SUFFIX == ".html"


def test_markdown_with_chart_files(tmp_path: Path) -> None:
    with Store.open(tmp_path / "rtosmeter.sqlite") as store:
        run = store_run(store, ["posix", "posix-copy"])
        view = analysis.load_run(store, run)
    md = html.write_markdown(view, tmp_path / "md")
    text = md.read_text()
    links = [line[line.index("](") + 2:-1] for line in text.splitlines()
             if line.startswith("![")]
    assert len(links) == len(html.prepare(view).all_charts)
    for link in links:
        svg = (md.parent / link).read_text()
        assert svg.startswith("<?xml") and "<path" in svg
