"""The CLI end to end: `rtosmeter run` on this host, reports, list, errors."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from conftest import SessionRun, invoke

from rtosmeter.analysis import load_run
from rtosmeter.catalog import load_catalog
from rtosmeter.errors import UserError
from rtosmeter.store import Store


@pytest.mark.slow
def test_default_run_succeeds_and_writes_reports(default_run: SessionRun) -> None:
    result = default_run.result
    assert result.exit_code == 0, result.output + repr(result.exception)
    out = default_run.out
    assert (out / "rtosmeter.sqlite").is_file()
    assert (out / "report.md").is_file() and (out / "report.html").is_file()
    assert "Run 1 done" in result.output
    assert f"Report: {out / 'report.html'}" in result.output
    # offline, the first run tried the pinned trees, and says in one line what
    # it can and cannot answer, and the one command that adds an RTOS
    lines = result.output.splitlines()
    assert lines[0].startswith("First run: fetching the pinned freertos V11.1.0 and threadx "
                               "v6.4.2_rel into ")
    (offline,) = [ln for ln in lines if ln.startswith("No freertos or threadx tree (")]
    assert "127.0.0.1" in offline  # git's own failure, not a made-up one
    assert "it cannot rank an RTOS" in offline
    assert "`rtosmeter sources fetch freertos`" in offline
    # the answer, not the tables (stderr has the progress and its notes)
    assert len(result.stdout.splitlines()) <= 25, result.stdout
    assert "No RTOS ran on qemu-mps2-an386" in result.output
    # one report per run; report.html and report.md are copies of the latest
    assert (out / "report-1.html").read_bytes() == (out / "report.html").read_bytes()
    assert (out / "report-1.md").read_text() == (out / "report.md").read_text()
    assert "](charts/run-1/" in (out / "report.md").read_text()


@pytest.mark.slow
def test_json_report_covers_every_throughput_and_latency_case(default_run: SessionRun,
                                                               root: Path) -> None:
    """Acceptance of issue 2: each case of sections 1-2 has a number or a reason."""
    result = invoke("report", "latest", "--out", str(default_run.out), "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    rows = [r for r in data["results"] if r["port"] == "posix" and r["target"] == "host"]
    wanted = [c.id for c in load_catalog(root).cases if c.prefix in ("tm", "lat")]
    assert wanted, "the catalog has no tm.* or lat.* case yet"
    missing = []
    for case_id in wanted:
        mine = [r for r in rows if r["case_id"] == case_id]
        ok = any(r["status"] == "ok" and (r["mean"] is not None or r["score"] is not None)
                 for r in mine)
        unsupported = any(r["status"] == "unsupported" and r["reason"] for r in mine)
        if not (ok or unsupported):
            missing.append((case_id, [(r["status"], r["reason"]) for r in mine]))
    assert not missing, missing


@pytest.mark.slow
def test_report_formats_and_unknown_run(default_run: SessionRun) -> None:
    out = str(default_run.out)
    md = invoke("report", "--out", out, "--format", "md")
    assert md.exit_code == 0 and "posix" in md.output
    csv = invoke("report", "1", "--out", out, "--format", "csv")
    assert csv.exit_code == 0 and csv.output.count("\n") > 2
    html = invoke("report", "--out", out, "--format", "html")
    assert html.exit_code == 0 and Path(html.output.strip()).read_text().startswith("<!")
    bad = invoke("report", "99", "--out", out)
    assert bad.exit_code == 1 and bad.output.startswith("Error: no run 99 in ")


@pytest.mark.slow
def test_markdown_with_charts_for_a_stored_run(default_run: SessionRun) -> None:
    """`report N --format md --write`: report-N.md with its charts beside it,
    every image link resolving, no stale chart of an older rendering kept."""
    out = default_run.out
    (out / "report-1.md").unlink()
    stale = out / "charts" / "run-1" / "gone.svg"
    stale.write_text("<svg/>")
    written = invoke("report", "1", "--out", str(out), "--format", "md", "--write")
    assert written.exit_code == 0, written.output
    path = Path(written.stdout.strip())
    assert path == out / "report-1.md"
    links = re.findall(r"!\[[^\]]*\]\(([^)]+\.svg)\)", path.read_text())
    assert links and all((out / link).read_text().startswith("<?xml") for link in links)
    assert not stale.exists()
    csv = invoke("report", "1", "--out", str(out), "--format", "csv", "--write")
    assert (out / "report-1.csv").read_text().startswith("run_id,"), csv.output


def test_report_without_a_store(tmp_path: Path) -> None:
    result = invoke("report", "--out", str(tmp_path / "empty"))
    assert result.exit_code == 1
    assert result.output.startswith(
        f"Error: no result store in {tmp_path / 'empty' / 'rtosmeter.sqlite'}.")


def test_broken_campaign_names_file_and_key(tmp_path: Path) -> None:
    campaign = tmp_path / "broken.toml"
    campaign.write_text('name = "b"\n[[run]]\nports = ["posix"]\ntargets = ["host"]\n'
                        'bench = "*"\nrepeat = 3\n')
    result = invoke("run", "--campaign", str(campaign), "--out", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: unknown key 'run[0].repeat' in {campaign}:6.")
    campaign.write_text('name = "b"\n[[run]]\nports = ["nosuch"]\ntargets = ["host"]\n')
    result = invoke("run", "--campaign", str(campaign), "--out", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert "Error: unknown port 'nosuch' in" in result.output
    assert str(campaign) in result.output and "Valid ports:" in result.output


def test_unknown_port_and_debug_traceback(tmp_path: Path) -> None:
    result = invoke("run", "--port", "nosuch", "--out", str(tmp_path))
    assert result.exit_code == 1
    assert result.output.startswith("Error: unknown port 'nosuch' in --port. Valid ports: ")
    assert "posix" in result.output and "Traceback" not in result.output
    debug = invoke("--debug", "run", "--port", "nosuch", "--out", str(tmp_path))
    assert isinstance(debug.exception, UserError)
    bad_source = invoke("run", "--source", "freertos", "--out", str(tmp_path))
    assert bad_source.output.startswith("Error: malformed value 'freertos' in --source.")


@pytest.mark.slow
def test_list_and_doctor_and_sources(root: Path) -> None:
    listing = invoke("list")
    assert listing.exit_code == 0, listing.output
    for case in load_catalog(root).cases:
        assert case.id in listing.output
    assert "posix" in listing.output and "host" in listing.output
    doctor = invoke("doctor")
    assert "cmake" in doctor.output and "qemu-system-arm" in doctor.output
    assert doctor.exit_code == 0, doctor.output
    # --format json: one valid document on stdout, the same facts as the tables.
    listed = json.loads(invoke("list", "--format", "json").stdout)
    assert [b["id"] for b in listed["benchmarks"]] == [c.id for c in load_catalog(root).cases]
    assert {"posix", "baremetal"} <= {p["port"] for p in listed["ports"]}
    host = next(t for t in listed["targets"] if t["target"] == "host")
    assert host["available"] == "yes"
    checked = invoke("doctor", "--format", "json")
    assert checked.exit_code == 0, checked.output
    report = json.loads(checked.stdout)
    assert report["missing_required"] == 0
    assert {c["name"] for c in report["checks"]} >= {"cmake", "qemu-system-arm"}
    sources = invoke("sources", "list")
    assert sources.exit_code == 0
    fetch = invoke("sources", "fetch", "posix")
    assert fetch.exit_code == 1
    assert fetch.output.startswith("Error: port 'posix' has no git source to fetch in ")


@pytest.mark.slow
def test_not_run_here_is_counted_and_not_a_failure(tmp_path: Path) -> None:
    """A combination that cannot run here (bare metal on the host: the port is
    not made for it) is stored and counted on the last line; the run still
    exits 0."""
    out = tmp_path / "o"
    result = invoke("run", "--port", "posix,baremetal", "--target", "host", "--bench",
                    "tm.basic", "--out", str(out))
    assert result.exit_code == 0, result.output + repr(result.exception)
    last = next(ln for ln in result.output.splitlines() if ln.startswith("Run 1 "))
    # a host's tm.basic may drift between periods: then a warning is counted too
    assert re.search(r"1 executions, 0 failed, 0 builds failed, 1 not run here"
                     r"(, \d+ warnings? \(⚠, see Warnings\))?\.", last), last
    assert "baremetal/host/default" in result.output and "Error" not in result.output


FREERTOS = Path(os.environ.get("RTOSMETER_FREERTOS", "/nonexistent"))


@pytest.mark.slow
@pytest.mark.rtos
@pytest.mark.skipif(not (FREERTOS / "tasks.c").is_file(),
                    reason="FreeRTOS-Kernel tree absent: set RTOSMETER_FREERTOS")
@pytest.mark.skipif(shutil.which("qemu-system-arm") is None
                    or shutil.which("arm-none-eabi-gcc") is None,
                    reason="qemu-system-arm or arm-none-eabi-gcc not installed")
def test_failed_check_is_a_finding_not_a_tool_failure(tmp_path: Path) -> None:
    """FreeRTOS's vendor profile (time slicing off) is not fair to tm.cooperative's
    threads: a real finding, marked ✗ and listed, with exit status 0."""
    out = tmp_path / "o"
    result = invoke("run", "--port", "freertos", "--target", "qemu-mps2-an386", "--profile",
                    "vendor", "--bench", "tm.cooperative", "--source",
                    f"freertos={FREERTOS}", "--out", str(out))
    assert result.exit_code == 0, result.output + repr(result.exception)
    with Store.open(out / "rtosmeter.sqlite") as st:
        view = load_run(st, 1)
    coop = next(c for c in view.cases if c.case_id == "tm.cooperative")
    failed = [k for k in coop.checks if not k.ok]
    assert coop.status == "failed" and failed
    lines = result.output.splitlines()
    last = next(ln for ln in lines if ln.startswith("Run 1 "))
    assert "0 failed, 0 builds failed, 0 not run here, 1 case failed (findings" in last
    finding = lines[lines.index(last) + 1]
    k = failed[0]
    assert finding == (f"  ✗ freertos/qemu-mps2-an386/vendor tm.cooperative: failed (check "
                       f"{k.name}: got {k.got}, want {k.want})")


@pytest.mark.slow
def test_usage_errors_exit_1_not_2(default_run: SessionRun) -> None:
    """Exit 2 is kept for a regression found by `compare`; click's own usage
    errors (bad option value, unknown option or command) exit 1."""
    out = str(default_run.out)
    for args in (("report", "--out", out, "--format", "xml"),
                 ("compare", "1", "1", "--out", out, "--threshold", "-5"),
                 ("report", "--no-such-option"), ("no-such-command",)):
        result = invoke(*args)
        assert result.exit_code == 1, (args, result.output)
        assert "Error:" in result.output
    assert invoke("--version").exit_code == 0 and invoke("--help").exit_code == 0


@pytest.mark.slow
def test_run_id_beyond_sqlite_is_a_clear_error(default_run: SessionRun) -> None:
    for ref in ("99999999999999999999999", "latest~" + "9" * 5000, "9" * 5000):
        result = invoke("report", ref, "--out", str(default_run.out))
        assert result.exit_code == 1, result.output
        assert result.output.startswith(f"Error: no run {ref[:12]}"), result.output
        assert "Traceback" not in result.output and len(result.output) < 300


def test_campaign_file_not_utf8_is_named(tmp_path: Path) -> None:
    campaign = tmp_path / "latin1.toml"
    campaign.write_bytes('name = "caf\xe9"\n'.encode("latin-1"))
    result = invoke("run", "--campaign", str(campaign), "--out", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: not UTF-8 text (byte 11: invalid continuation "
                                    f"byte) in {campaign}. Save the file as UTF-8"), \
        result.output
