"""`rtosmeter publish DIR` (issue 33): a store of several runs as a static
site, opened in real headless Chromium from the file system: every run, the
studies, each case's history chart, relative links only, nothing fetched."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_history import _fill
from test_report_html import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS

from rtosmeter.cli import cli
from rtosmeter.commands.common import STORE_NAME
from rtosmeter.store import Store


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is required (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.mark.slow
def test_published_site_browses_offline(tmp_path: Path, browser: Any) -> None:
    out, site = tmp_path / "store", tmp_path / "site"
    with Store.open(out / STORE_NAME) as store:
        _fill(store, 3, qemu=True)
        empty = store.create_run({"campaign": "broken"}, {}, "0.1.0")
        store.finish_run(empty, "interrupted")
    result = CliRunner().invoke(cli, ["publish", str(site), "--out", str(out)])
    assert result.exit_code == 0, result.output
    index = site / "index.html"
    assert result.output.strip() == f"Published: {index}"
    assert sorted(p.name for p in (site / "runs").iterdir()) == [
        "run-1.html", "run-2.html", "run-3.html"]

    page = browser.new_page(viewport={"width": 1400, "height": 900})
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(index.as_uri())
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "publish-index.png"), full_page=True)
    runs = page.locator("#runs ~ div table tbody tr")
    assert runs.count() == 4  # the interrupted run with nothing is listed, without a page
    assert page.locator("a[href='runs/run-3.html']").count() == 1
    assert page.locator("a[href='runs/run-4.html']").count() == 0
    assert "not run in this store" in page.locator("#studies + ul").inner_text()
    page.click("a[href='cases/lat.sem.pass.html']")
    assert page.url.endswith("/cases/lat.sem.pass.html")
    assert page.locator("figure.chart svg").count() == 1
    page.screenshot(path=str(ARTIFACTS / "publish-case.png"), full_page=True)
    header = page.locator("thead th").all_inner_texts()
    assert header == ["system and figure", "#1", "#2", "#3"]
    row = page.locator("tr", has_text="posix/host/default lat.sem.pass take").first
    assert row.locator("td").count() == 3 and "ns (host clock)" in row.inner_text()
    page.click("a[href='../runs/run-2.html']")
    assert page.url.endswith("/runs/run-2.html") and "lat.sem.pass" in page.content()
    page.click("text=← all runs, cases and studies")
    assert page.url == index.as_uri()
    outside = [u for u in requests if not u.startswith(site.as_uri())]
    assert not outside, f"the site fetched something outside itself: {outside}"
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("link", ["site", "index", "page"])
def test_publish_writes_through_no_symlink(tmp_path: Path, link: str) -> None:
    """A site folder, its index or a page that is a symbolic link is refused,
    and what it points at is left as it was (the store, another file)."""
    out, site = tmp_path / "store", tmp_path / "site"
    with Store.open(out / STORE_NAME) as store:
        _fill(store, 1, qemu=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    if link == "site":
        (tmp_path / "elsewhere").mkdir()
        site.symlink_to(tmp_path / "elsewhere")
    else:
        (site / "runs").mkdir(parents=True)
        where = site / "index.html" if link == "index" else site / "runs" / "run-1.html"
        where.symlink_to(out / STORE_NAME if link == "index" else victim)
    store_bytes = (out / STORE_NAME).read_bytes()
    result = CliRunner().invoke(cli, ["publish", str(site), "--out", str(out)])
    assert result.exit_code == 1 and "symbolic link" in result.output, result.output
    assert victim.read_text() == "keep me\n" and (out / STORE_NAME).read_bytes() == store_bytes
    if link == "site":
        assert not any((tmp_path / "elsewhere").iterdir())


def test_a_page_is_replaced_whole(tmp_path: Path) -> None:
    """The writer replaces a page in one step and leaves no temporary file."""
    from rtosmeter.safe_write import write_text

    page = tmp_path / "site" / "runs" / "run-1.html"
    write_text(page, "old", tmp_path / "site")
    write_text(page, "new", tmp_path / "site")
    assert page.read_text() == "new" and [p.name for p in page.parent.iterdir()] == ["run-1.html"]
    assert oct(page.stat().st_mode & 0o777) == "0o644"
