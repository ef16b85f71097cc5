"""references/*.toml and `rtosmeter validate`: the files read strictly (an
error names the file and the key), the error arithmetic on a real bare-metal
run (QEMU and the cross-compiler), a stored run reused, and a reference whose
RTOS tree is missing listed as not run with the variable to set."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import invoke

from rtosmeter.catalog import Catalog, load_catalog
from rtosmeter.definitions import Definitions, project_root
from rtosmeter.errors import UserError
from rtosmeter.references.definition import load_all, parse
from rtosmeter.references.errors import Compared, absolute_errors
from rtosmeter.store import Store

ROOT = project_root()
ARM = ROOT / "references" / "arm-exception-timing.toml"

ONE = """title = "A document"
source = "https://example.org/doc (table 1)"
port = "baremetal"
version = "1.0"
core = "cortex-m4"
board = "not stated"
flash_ws = "not stated"

[[reference]]
id = "doc.entry"
operation = "interrupt entry"
value = 12
unit = "cycles"
case = "lat.isr.entry"
series = "entry"
kind = "interrupt"
confidence = "close"
reason = "the same interval"
"""


def _defs() -> tuple[Definitions, Catalog]:
    defs = Definitions.load()
    return defs, load_catalog(defs.root)


def _load(folder: Path) -> None:
    defs, catalog = _defs()
    load_all(defs, catalog, folder)


def _write(folder: Path, text: str, name: str = "doc.toml") -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_references_load_each_with_its_source() -> None:
    defs, catalog = _defs()
    refs = load_all(defs, catalog)
    assert len(refs) >= 20
    assert len({r.id for r in refs}) == len(refs)
    for r in refs:
        assert r.source and r.reason and r.value > 0
        assert r.kind in ("call", "switch", "interrupt", "compute")


def test_a_document_key_is_inherited_and_a_reference_may_restate_it(tmp_path: Path) -> None:
    text = ONE + 'core = "cortex-m3"\n'  # the [[reference]]'s own core
    (ref,) = parse(_write(tmp_path, text))
    assert ref.core == "cortex-m3" and ref.port == "baremetal"
    assert ref.qemu_target == "qemu-mps2-an385"


@pytest.mark.parametrize(("edit", "words"), [
    (('kind = "interrupt"', 'kind = "irq"'),
     ["reference[0].kind' is 'irq'", "call, switch, interrupt"]),
    (('value = 12', 'value = "12"'), ["reference[0].value' must be a number"]),
    (('reason = "the same interval"', 'reasons = "x"'), ["unknown key 'reference[0].reasons'"]),
    (('unit = "cycles"', 'unit = "ns"'), ["reference[0].unit' is 'ns'"]),
    (('confidence = "close"', ''), ["missing key 'reference[0].confidence'"]),
    (('core = "cortex-m4"', 'core = "cortex-m33"'), ["core' is 'cortex-m33'"]),
    (('unit = "cycles"', 'unit = "us"'), ["us without a clock"]),
    (('series = "entry"', 'figure = "median"'), ["figure' is 'median'", "mean, per_iteration"]),
])
def test_a_bad_key_is_an_error_naming_the_file_and_the_key(
        tmp_path: Path, edit: tuple[str, str], words: list[str]) -> None:
    path = _write(tmp_path, ONE.replace(*edit))
    with pytest.raises(UserError) as exc:
        _load(tmp_path)
    text = exc.value.message
    assert str(path) in text
    for w in words:
        assert w in text


@pytest.mark.parametrize(("edit", "words"), [
    (('case = "lat.isr.entry"', 'case = "lat.isr.enter"'), ["'case' is 'lat.isr.enter'"]),
    (('port = "baremetal"', 'port = "vxworks"'), ["'port' is 'vxworks'"]),
    (('flash_ws = "not stated"', 'flash_ws = "not stated"\nas_board = "nucleo-l053r8"'),
     ["nucleo-l053r8 is a cortex-m0plus"]),
    (('flash_ws = "not stated"', 'flash_ws = "not stated"\nas_board = "qemu-mps2-an386"'),
     ["not a board target"]),
])
def test_a_name_that_points_nowhere_is_an_error_naming_the_reference(
        tmp_path: Path, edit: tuple[str, str], words: list[str]) -> None:
    _write(tmp_path, ONE.replace(*edit))
    with pytest.raises(UserError) as exc:
        _load(tmp_path)
    text = exc.value.message
    assert "doc.entry" in text
    for w in words:
        assert w in text


def test_an_id_given_twice_names_both_files(tmp_path: Path) -> None:
    first = _write(tmp_path, ONE, "a.toml")
    _write(tmp_path, ONE, "b.toml")
    with pytest.raises(UserError) as exc:
        _load(tmp_path)
    assert "'doc.entry' given twice" in str(exc.value) and str(first) in exc.value.message


def test_the_mean_absolute_error_per_key(tmp_path: Path) -> None:
    refs = parse(ARM)
    rows = [Compared(r, cycles=c) for r, c in zip(refs, (15, 12, 6, 24, 15), strict=True)]
    by_core = absolute_errors(rows, "core")
    # M3: entry 15/12, return 6/12 -> |0.25|, |-0.5|; M4: 12/12, 24/12 -> 0, 1
    assert by_core["cortex-m3"] == pytest.approx((37.5, 2))
    assert by_core["cortex-m4"] == pytest.approx((50.0, 2))
    assert by_core["cortex-m0plus"] == pytest.approx((0.0, 1))
    assert absolute_errors(rows, "all")["all"] == pytest.approx((35.0, 5))
    assert absolute_errors([Compared(refs[0])], "all") == {}


@pytest.mark.slow
def test_validate_runs_bare_metal_and_reuses_the_stored_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RTOSMETER_FREERTOS", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # no fetched tree either
    folder = tmp_path / "refs"
    folder.mkdir()
    shutil.copy(ARM, folder / ARM.name)
    gated = ONE.replace('port = "baremetal"', 'port = "freertos"').replace(
        "doc.entry", "doc.freertos")
    _write(folder, gated, "freertos.toml")
    per_pass = ONE.replace("doc.entry", "doc.basic").replace(
        'case = "lat.isr.entry"\nseries = "entry"', 'case = "tm.basic"\nfigure = "per_iteration"'
    ).replace('kind = "interrupt"', 'kind = "compute"')
    _write(folder, per_pass, "throughput.toml")  # test data: a figure of 12 cycles per pass
    out = tmp_path / "out"
    args = ["validate", "--references", str(folder), "--out", str(out), "--format", "json"]
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = {r["id"]: r for r in data["references"]}
    assert rows["doc.freertos"]["why"] == "not run: set RTOSMETER_FREERTOS"
    assert rows["doc.freertos"]["ratio"] is None
    entry = rows["arm.m4.entry"]
    assert entry["instructions"] > 0 and entry["cycles"] >= entry["instructions"]
    assert entry["ratio"] == pytest.approx(entry["cycles"] / 12)
    kinds = data["mae_percent"]["kind"]
    interrupts = [r["ratio"] for r in data["references"]
                  if r["ratio"] is not None and r["kind"] == "interrupt"]
    assert len(interrupts) == 5
    assert kinds["interrupt"] == pytest.approx(sum(abs(x - 1) for x in interrupts) / 5 * 100)
    basic = rows["doc.basic"]  # a throughput case's cycles per pass: the period over the count
    assert basic["cycles"] > basic["instructions"] > 1000  # a pass reads 1,024 words
    assert basic["ratio"] == pytest.approx(basic["cycles"] / 12)
    with Store.open(out / "rtosmeter.sqlite") as store:
        runs = len(store.runs())
    assert runs == 2  # instructions and cycles; no reference here names a board

    again = invoke(*args[:-2], "--format", "md")  # the stored runs answer
    assert again.exit_code == 0, again.output
    assert "| arm.m4.entry |" in again.stdout
    assert "not run: set RTOSMETER_FREERTOS" in again.stdout
    assert "Error per core" in again.stdout and "Error per kind of operation" in again.stdout
    with Store.open(out / "rtosmeter.sqlite") as store:
        assert len(store.runs()) == runs
