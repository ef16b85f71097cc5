"""Attribution on real firmware in real QEMU (rtosmeter run --attribute):
it never changes a stored figure, every attributed series' functions sum to
its samples exactly, and `compare` names the function a planted one-line
change in a kernel copy made dearer."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from conftest import invoke
from cortexm_firmware import have_toolchain

from rtosmeter import qemu_binary
from rtosmeter.store import Store

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not have_toolchain(), reason="needs arm-none-eabi-gcc, QEMU")]

TARGET = "qemu-mps2-an386"


def _run(out: Path, *args: str, attribute: bool = False) -> None:
    result = invoke("run", "--target", TARGET, "-j", "1", "--out", str(out), *args,
                    *(["--attribute"] if attribute else []))
    assert result.exit_code == 0, result.output
    assert not any(k.startswith("RTOSMETER_ATTRIB") for k in os.environ)  # it rides in the plan


def _figures(out: Path) -> dict[tuple[str, str, str], tuple[bytes, ...]]:
    """Every stored sample and count, by (group, case, series)."""
    with sqlite3.connect(out / "rtosmeter.sqlite") as conn:
        rows = conn.execute(
            "SELECT e.grp, c.case_id, s.name, s.samples FROM series s JOIN cases c ON "
            "c.id = s.case_row JOIN executions e ON e.id = c.execution_id").fetchall()
        counts = conn.execute(
            "SELECT e.grp, c.case_id, k.name || ':' || k.period, k.value FROM counts k JOIN "
            "cases c ON c.id = k.case_row JOIN executions e ON e.id = c.execution_id").fetchall()
    out_: dict[tuple[str, str, str], tuple[bytes, ...]] = {}
    for g, c, n, blob in rows:
        out_[(g, c, n)] = (bytes(blob),)
    for g, c, n, v in counts:
        out_[(g, c, "count " + n)] = (str(v).encode(),)
    return out_


def _sums(out: Path) -> list[tuple[str, str, int, int]]:
    """(case, series, samples' sum, attributed sum) of every attributed series."""
    with sqlite3.connect(out / "rtosmeter.sqlite") as conn:
        rows = conn.execute(
            "SELECT c.case_id, s.name, s.samples, sum(a.instructions) FROM attribution a "
            "JOIN series s ON s.id = a.series_id JOIN cases c ON c.id = s.case_row "
            "GROUP BY a.series_id").fetchall()
    return [(c, n, int(np.frombuffer(bytes(b), "<u4").astype("u8").sum()), int(total))
            for c, n, b, total in rows]


def test_attribution_changes_no_stored_figure(tmp_path: Path) -> None:
    """The default campaign's bare-metal groups (interrupt cases: intervals
    that end in a handler) with attribution off and on: the same samples and
    counts byte for byte, and each attributed series sums to its samples."""
    _run(tmp_path / "off", "--port", "baremetal")
    _run(tmp_path / "on", "--port", "baremetal", attribute=True)
    off, on = _figures(tmp_path / "off"), _figures(tmp_path / "on")
    assert off and off == on
    sums = _sums(tmp_path / "on")
    assert len(sums) >= 3
    assert all(s == a for _, _, s, a in sums), sums
    # the report's latency sections link to their cases' per-function pages
    pages = sorted((tmp_path / "on" / "explain-1").glob("*.html"))
    assert "run_calibration" in (pages[0].parent / "c-calib.overhead.html").read_text()
    report = (tmp_path / "on" / "report-1.html").read_text(encoding="utf-8")
    linked = [p for p in pages if f'href="explain-1/{p.name}"' in report]
    assert linked, [p.name for p in pages]
    assert not (tmp_path / "off" / "explain-1").exists()
    out = invoke("explain", "latest", "calib.overhead", "--out", str(tmp_path / "on"))
    assert out.exit_code == 0 and "= the samples' sum, exactly" in out.output
    _explain_in_every_format(tmp_path / "on")
    missing = invoke("explain", "latest", "calib.overhead", "--out", str(tmp_path / "off"))
    assert missing.exit_code != 0 and "--attribute" in missing.output


@pytest.mark.rtos
def test_compare_names_the_function_a_planted_change_made_dearer(tmp_path: Path) -> None:
    tree = os.environ.get("RTOSMETER_FREERTOS")
    if not tree:
        pytest.skip("set RTOSMETER_FREERTOS to a FreeRTOS-Kernel tree")
    planted = tmp_path / "freertos-planted"
    shutil.copytree(tree, planted, symlinks=True)
    queue = planted / "queue.c"
    text = queue.read_text(encoding="utf-8")
    anchor = "BaseType_t xQueueGenericSend( QueueHandle_t xQueue,"
    start = text.index(anchor)
    at = text.index("taskENTER_CRITICAL();", start) + len("taskENTER_CRITICAL();")
    queue.write_text(text[:at] + " { static volatile uint32_t ulPlanted; ulPlanted++; }"
                     + text[at:], encoding="utf-8")
    out = tmp_path / "out"
    _run(out, "--port", "freertos", "--bench", "lat.sem.nocs", attribute=True)
    _run(out, "--port", "freertos", "--bench", "lat.sem.nocs", "--source",
         f"freertos={planted}", attribute=True)
    result = invoke("compare", "1", "2", "--out", str(out), "--threshold", "1")
    assert result.exit_code == 2, result.output
    gate = result.stderr.splitlines()
    assert any("xQueueGenericSend +" in ln for ln in gate), result.stderr
    why = [ln for ln in result.output.splitlines() if "lat.sem.nocs give" in ln
           and "xQueueGenericSend +" in ln]
    assert why, result.output
    assert "prvCopyDataToQueue" in why[-1] and "unchanged" in why[-1]
    assert all(s == a for _, _, s, a in _sums(out))


@pytest.mark.parametrize(("args", "message"), [
    (["funcs={map}"], "attribution needs both funcs=<map> and attrib=<out>"),
    (["funcs={bad}", "attrib={out}"], "is malformed"),
    (["funcs={missing}", "attrib={out}"], "cannot read the function map"),
])
def test_the_plugin_refuses_bad_attribution_arguments(tmp_path: Path, args: list[str],
                                                      message: str) -> None:
    import subprocess

    from rtosmeter import qemu_plugin

    so = qemu_plugin.plugin_path()
    assert so is not None
    good, bad = tmp_path / "f.map", tmp_path / "bad.map"
    good.write_text("rmattrib-map 1\nepoch 0x0\n0x10 0x20\n")
    bad.write_text("rmattrib-map 1\nepoch 0x0\n0x20 0x10\n")  # ends before it starts
    values = {"map": good, "bad": bad, "missing": tmp_path / "none.map",
              "out": tmp_path / "a.txt"}
    plugin = ",".join([str(so), "mode=instructions", *(a.format(**values) for a in args)])
    proc = subprocess.run([qemu_binary.chosen(), "-M", "mps2-an386", "-nographic", "-monitor",
                           "none", "-serial", "null", "-plugin", plugin, "-kernel",
                           str(tmp_path / "none.elf")], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode != 0 and message in proc.stderr, proc.stderr


def _explain_in_every_format(out: Path) -> None:
    """explain's five formats are the report's format modules rendering the
    breakdown's document (reports/document/explain.py)."""
    from rtosmeter import reports
    from rtosmeter.attribution.breakdown import breakdowns
    from rtosmeter.reports.document.explain import sheet

    with Store.open(out / "rtosmeter.sqlite") as store:
        doc = sheet(breakdowns(store, 1, "calib.overhead"), "run 1: calib.overhead")
    for fmt in ("md", "csv", "json", "html"):
        result = invoke("explain", "1", "calib.overhead", "--out", str(out), "--format", fmt)
        assert result.exit_code == 0
        assert result.stdout.rstrip("\n") == reports.render(doc, fmt).rstrip("\n"), fmt
    data = json.loads(reports.render(doc, "json"))
    assert data["schema"] == "rtosmeter-explain" and data["breakdowns"][0]["functions"]
    assert "<svg" in reports.render(doc, "html")  # the icicle chart
    assert invoke("explain", "1", "calib.overhead", "--out", str(out),
                  "--format", "folded").stdout.count(";") >= 2
