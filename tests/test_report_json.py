"""The JSON report (reports/json.py) against its documented schema
(docs/results-schema.json and .md), and its order: two identical runs give
the same bytes but for the run's id and times, whatever order their
executions finished in. Crafted streams in a real store, then real
firmware in QEMU (slow)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from _datahalf import craft, store_run
from conftest import invoke

from rtosmeter import qemu_plugin
from rtosmeter.analysis import load_run
from rtosmeter.history_values import run_values
from rtosmeter.reports import json as json_report
from rtosmeter.store import Store
from rtosmeter.vocabulary import CALIB_CASE, system

DOCS = Path(__file__).parents[1] / "docs"
SCHEMA = json.loads((DOCS / "results-schema.json").read_text(encoding="utf-8"))
HOST = {"runner": "host"}


def _validate(doc: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)


def _streams() -> list[bytes]:
    """One build's two firmwares (groups a and b, each with its own
    calib.overhead) and a second port's."""
    return [craft("posix", "host", 10**9, [50, 10, 10, 10], group="a",
                  latency=[("lat.sem.pass", {"take": [900, 100, 120], "give": [5, 6, 7]})]),
            craft("posix", "host", 10**9, [50, 20, 20, 20], group="b",
                  throughput={"tm.sync": [100, 101, 100]}, checks={"m_ok": (1, 1)}),
            craft("baremetal", "host", 10**9, [50, 10, 10, 10], group="b",
                  throughput={"tm.sync": [240, 250, 260]})]


def _stored(path: Path, streams: list[bytes]) -> str:
    run = store_run(path, [(s, HOST) for s in streams])
    with Store.open(path) as st:
        return json_report.render(load_run(st, run))


def _without_run(text: str) -> str:
    """The report's bytes with the run's id and times blanked."""
    text = re.sub(r'"run_id": \d+', '"run_id": 0', text)
    for key, value in (("id", r"\d+"), ("started", r'"[^"]*"'), ("finished", r'"[^"]*"')):
        text = re.sub(rf'\n    "{key}": {value},', f'\n    "{key}": null,', text, count=1)
    return text


def test_crafted_run_matches_the_schema_and_an_unknown_key_fails(tmp_path: Path) -> None:
    doc = json.loads(_stored(tmp_path / "r.sqlite", _streams()))
    _validate(doc)
    doc["results"][0]["undocumented"] = 1
    with pytest.raises(jsonschema.ValidationError, match="undocumented"):
        _validate(doc)


def _keys(schema: dict[str, Any]) -> set[str]:
    """Every property name the schema declares, at any depth."""
    found = set(schema.get("properties", {}))
    for sub in [*schema.get("properties", {}).values(), schema.get("items"),
                schema.get("additionalProperties"), *schema.get("oneOf", [])]:
        if isinstance(sub, dict):
            found |= _keys(sub)
    return found


def test_the_markdown_names_every_key_of_the_schema() -> None:
    text = (DOCS / "results-schema.md").read_text(encoding="utf-8")
    missing = sorted(k for k in _keys(SCHEMA) if f"`{k}`" not in text and f'"{k}"' not in text)
    assert not missing, f"docs/results-schema.md does not document {missing}"


def test_the_order_executions_finished_in_changes_no_byte(tmp_path: Path) -> None:
    streams = _streams()
    first = _stored(tmp_path / "one.sqlite", streams)
    second = _stored(tmp_path / "two.sqlite", streams[::-1])
    assert _without_run(first) == _without_run(second)
    # The calib.overhead one figure per system keeps (history, compare): the
    # build's last group by name (b: median 20), whichever finished first.
    for path in ("one.sqlite", "two.sqlite"):
        with Store.open(tmp_path / path) as st:
            run = st.runs()[-1].id
            calib = {c.group: c for c in load_run(st, run).cases
                     if c.case_id == CALIB_CASE and system(c) == "posix/host/default"}
            assert list(calib) == ["a", "b"]
            assert run_values(st, run)["posix/host/default"][CALIB_CASE]["median"] == 20.0


def _run_twice(out: Path, *args: str) -> list[str]:
    """The same run twice into one folder: its JSON report, then `run
    --export-json`'s file."""
    texts = []
    for i in range(2):
        export = out / f"export-{i}.json"
        res = invoke("run", "--port", "baremetal", "--target", "qemu-mps2-an386", "-j", "1",
                     "--out", str(out), "--export-json", str(export), *args)
        assert res.exit_code == 0, res.output + str(res.exception)
        texts.append(export.read_text(encoding="utf-8"))
    report = invoke("report", "--out", str(out), "--format", "json")
    assert report.exit_code == 0, report.output
    assert report.stdout == texts[1]  # the export is the report
    return texts


@pytest.mark.slow
@pytest.mark.skipif(qemu_plugin.plugin_path() is None, reason="needs the built rmcycles plugin")
def test_two_identical_real_runs_give_the_same_bytes(tmp_path: Path) -> None:
    plain = _run_twice(tmp_path / "plain", "--bench", "lat.sem.pass,tm.basic")
    low = _run_twice(tmp_path / "low", "--profile", "lowpower", "--bench", "idle.system")
    for a, b in (plain, low):
        assert a != b  # the run's id and times differ
        assert _without_run(a) == _without_run(b)
        _validate(json.loads(b))
    doc = json.loads(low[1])
    windows = {r["window"] for r in doc["idle"]}
    assert {"execution", "idle.system@1s"} <= windows
    asleep = next(r for r in doc["idle"] if r["window"] == "idle.system@1s")
    assert asleep["wakeups"] == 1 and asleep["wake_causes"] == {"timer": 1}
    assert asleep["timed"] == (asleep["time_limit"] == "")
    estimated = [r for r in doc["energy"] if r["kind"] == "estimated"]
    assert all(r["marker"] == f"estimated ({r['chip']})" for r in estimated)
    if asleep["timed"]:  # a QEMU that times sleep: the window is priced (docs/qemu.md)
        assert any(r["window"] == "idle.system@1s" and r["average_mw"] > 0 for r in estimated)


@pytest.mark.slow
@pytest.mark.skipif(qemu_plugin.plugin_path() is None, reason="needs the built rmcycles plugin")
def test_an_attributed_run_carries_its_largest_functions(tmp_path: Path) -> None:
    """run --attribute: each attributed series is in the JSON with its ten
    largest functions, which add up to no more than the samples' sum, and
    twice the same run gives the same bytes."""
    a, b = _run_twice(tmp_path, "--bench", "lat.isr.entry", "--attribute")
    assert _without_run(a) == _without_run(b)
    doc = json.loads(b)
    _validate(doc)
    assert "lat.isr.entry" in {r["case_id"] for r in doc["attribution"]}
    for r in doc["attribution"]:
        assert 0 < len(r["functions"]) <= 10
        assert sum(f["instructions"] for f in r["functions"]) <= r["total"]
        counts = [f["instructions"] for f in r["functions"]]
        assert counts == sorted(counts, reverse=True)
