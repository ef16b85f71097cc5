"""Our figures of a study read from a run view (studies/figures.py): every
statistic the format names, a rate from a case's META. The view is built
here from results as the analysis hands them over; the lookup is the real one."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rtosmeter.loads import profile_name
from rtosmeter.model import CaseResult, Distribution, RunView, Unit
from rtosmeter.studies import definition
from rtosmeter.studies.figures import Lookup
from rtosmeter.studies.verdicts import DIFFERS, REPRODUCED, Judge

ROOT = Path(__file__).parents[1]
TINY = ROOT / "tests" / "data" / "studies" / "tiny2000" / "study.toml"
INSTR = Unit("instructions (QEMU icount)", 1.0, True, emulated=True)
TARGET = "qemu-mps2-an386"


def _dist(series: str, base: float) -> Distribution:
    return Distribution(n=100, cold=base * 2, mean=base + 0.5, std=1.0, min=base, p1=base + 0.1,
                        p25=base + 0.25, p50=base + 0.5, p75=base + 0.75, p99=base + 0.99,
                        max=base + 1, jitter=1.0, series=series, what=series, unit=INSTR,
                        overhead=0.0)


def _case(case_id: str, profile: str = "default", **kw: object) -> CaseResult:
    return CaseResult("baremetal", TARGET, profile, "g", case_id, "ok",
                      axes={"toolchain": "gcc"}, **kw)  # type: ignore[arg-type]


def _view(*cases: CaseResult) -> RunView:
    return RunView(1, "", "", "finished", {}, {}, [], list(cases), [], [])


@pytest.mark.parametrize(("stat", "want"), [("mean", 100.5), ("median", 100.5), ("p1", 100.1),
                                            ("p25", 100.25), ("p75", 100.75), ("p99", 100.99),
                                            ("min", 100.0), ("max", 101.0), ("jitter", 1.0)])
def test_every_series_statistic_is_read(stat: str, want: float) -> None:
    study = definition.parse(TINY)
    view = _view(_case("lat.isr.entry", distributions=[_dist("entry", 100.0)]))
    ours = Lookup(study, view).get("entry", study.system("Long"), TARGET, stat)
    assert ours.ok and ours.value == pytest.approx(want), ours


def test_a_rate_is_the_cases_meta_and_says_when_it_is_missing() -> None:
    study = definition.parse(TINY)
    lookup = Lookup(study, _view(_case("lat.isr.entry", meta={"max_rate_hz": "41666"})))
    ours = lookup.get("entry", study.system("Long"), TARGET, "rate")
    assert ours.value == 41666.0 and "Hz" in ours.unit
    none = Lookup(study, _view(_case("lat.isr.entry"))).get("entry", study.system("Long"),
                                                              TARGET, "rate")
    assert not none.ok and "max_rate_hz" in none.why


PER_SYSTEM = '''series = "entry"
per_system = { Short = { case = "lat.isr.return", series = "return", reason = "its own object" } }
'''


def _tiny_per_system(tmp_path: Path, per_system: str = PER_SYSTEM) -> Path:
    text = TINY.read_text(encoding="utf-8")
    text = text.replace('bench = "tm.basic,lat.isr.entry"',
                        'bench = "tm.basic,lat.isr.entry,lat.isr.return"')
    text = text.replace('series = "entry"\n', per_system, 1)
    path = tmp_path / "tiny2000" / "study.toml"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    return path


def test_one_operation_reads_another_case_on_one_system(tmp_path: Path) -> None:
    from rtosmeter.catalog import load_catalog
    from rtosmeter.definitions import Definitions
    from rtosmeter.studies.checks import check
    from rtosmeter.studies.report import operations_section
    from rtosmeter.studies.run import rerun_campaign

    defs = Definitions.load(ROOT)
    study = definition.parse(_tiny_per_system(tmp_path))
    check(study, defs, load_catalog(defs.root))
    view = _view(_case("lat.isr.entry", distributions=[_dist("entry", 100.0)]),
                 _case("lat.isr.entry", "quick", distributions=[_dist("entry", 7.0)]),
                 _case("lat.isr.return", "quick", distributions=[_dist("return", 50.0)]))
    lookup = Lookup(study, view)
    assert lookup.get("entry", study.system("Long"), TARGET, "min").value == 100.0
    assert lookup.get("entry", study.system("Short"), TARGET, "min").value == 50.0
    rows = [[str(c) for c in r] for r in operations_section(study).rows]
    assert any("on Short" in r[1] and r[2] == "lat.isr.return" and "its own object" in r[4]
               for r in rows), rows
    assert study.operation("entry").cases == ("lat.isr.entry", "lat.isr.return")
    f3 = next(f for f in study.findings if f.rerun)
    f3 = replace(f3, operations=("entry",))
    assert {e.bench for e in rerun_campaign(study, f3).entries} == {
        "lat.isr.entry,lat.isr.return"}


@pytest.mark.parametrize(("per_system", "key", "what"), [
    (PER_SYSTEM.replace("Short =", "Nobody ="), "per_system.Nobody", "unknown system"),
    (PER_SYSTEM.replace('"return", reason', '"retur", reason'), "per_system.Short.series",
     "no series 'retur'"),
    (PER_SYSTEM.replace("lat.isr.return", "lat.isr.to_task"), "per_system.Short.case",
     "not in matrix.bench"),
    (PER_SYSTEM.replace(', reason = "its own object"', ""), "per_system.Short.reason",
     "missing key"),
])
def test_a_per_system_case_is_checked(tmp_path: Path, per_system: str, key: str,
                                      what: str) -> None:
    from rtosmeter.catalog import load_catalog
    from rtosmeter.definitions import Definitions
    from rtosmeter.errors import UserError
    from rtosmeter.studies.checks import check

    defs = Definitions.load(ROOT)
    with pytest.raises(UserError) as err:
        check(definition.parse(_tiny_per_system(tmp_path, PER_SYSTEM.replace(
            PER_SYSTEM, per_system))), defs, load_catalog(defs.root))
    assert key in str(err.value) and what in str(err.value), str(err.value)


ACROSS = '''
[[finding]]
id = "X1"
text = "Short's return is quicker than Long's entry"
source = "invented"
kind = "less"
left = { system = "Short", operation = "entry" }
right = { system = "Long", operation = "entry", stat = "max" }

[[finding]]
id = "X2"
text = "Long's entry is three times Short's return"
source = "invented"
kind = "ratio"
left = { system = "Long", operation = "entry" }
right = { system = "Short", operation = "entry" }
value = 3.0

[[finding]]
id = "X3"
text = "Closed's entry beats Long's"
source = "invented"
kind = "less"
left = { system = "Closed", operation = "entry" }
right = { system = "Long", operation = "entry" }
'''


def test_findings_across_operations(tmp_path: Path) -> None:
    from rtosmeter.catalog import load_catalog
    from rtosmeter.definitions import Definitions
    from rtosmeter.studies.checks import check
    from rtosmeter.studies.verdicts import DIFFERS, REPRODUCED, UNTESTABLE, judge

    path = _tiny_per_system(tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + ACROSS, encoding="utf-8")
    defs = Definitions.load(ROOT)
    study = definition.parse(path)
    check(study, defs, load_catalog(defs.root))
    view = _view(_case("lat.isr.entry", distributions=[_dist("entry", 100.0)]),
                 _case("lat.isr.return", "quick", distributions=[_dist("return", 50.0)]))
    got = {v.finding.id: v for v in judge(study, Lookup(study, view), {})}
    assert got["X1"].verdict == REPRODUCED, got["X1"]
    assert got["X1"].paper == "Short entry < Long entry (max)"
    assert got["X1"].ours == "Short entry§ < Long entry (max) (left/right = 0.50)"
    assert got["X2"].verdict == DIFFERS and got["X2"].error == pytest.approx(100.5 / 50.5 / 3 - 1)
    assert got["X3"].verdict == UNTESTABLE and "commercial" in got["X3"].ours
    assert study.findings[-1].operations == ("entry",)
    # judged in its from_state: nothing stored under accept, so untestable
    x1 = replace(next(f for f in study.findings if f.id == "X1"), from_state="accept")
    assert Judge(study, Lookup(study, view)).across(x1, TARGET).verdict == UNTESTABLE


@pytest.mark.parametrize(("old", "new", "key"), [
    ('left = { system = "Short"', 'left = { system = "Tall"', "X1.left.system"),
    ('operation = "entry", stat = "max"', 'operation = "exit", stat = "max"',
     "right.operation"),
    ('right = { system = "Short", operation = "entry" }\n', "", "left"),
    ("value = 3.0\n", "", "value"),
])
def test_an_operand_is_checked(tmp_path: Path, old: str, new: str, key: str) -> None:
    from rtosmeter.catalog import load_catalog
    from rtosmeter.definitions import Definitions
    from rtosmeter.errors import UserError
    from rtosmeter.studies.checks import check

    path = _tiny_per_system(tmp_path)
    assert old in ACROSS
    path.write_text(path.read_text(encoding="utf-8") + ACROSS.replace(old, new, 1), "utf-8")
    defs = Definitions.load(ROOT)
    with pytest.raises(UserError) as err:
        check(definition.parse(path), defs, load_catalog(defs.root))
    assert key.split(".")[-1] in str(err.value) and str(path) in str(err.value), str(err.value)


def test_marks_at_one_number_appear_once_each() -> None:
    from rtosmeter.studies.figures import one_each

    assert one_each("§", "§†", "†") == "§†"
    assert one_each("", "") == ""


def test_thread_metric_periods_are_named_only_for_a_study_with_tm_cases() -> None:
    from rtosmeter.model import BuildInfo
    from rtosmeter.studies.report import _our_conditions

    build = BuildInfo("baremetal", TARGET, "default", "ok", "",
                      {"unit": "instructions", "tm_period_ms": "100", "tm_periods": "3"}, {})
    view = RunView(1, "", "", "finished", {}, {}, [build], [], [], [])
    tiny = definition.parse(TINY)
    belleza = definition.parse(ROOT / "studies" / "belleza2018" / "study.toml")
    assert _our_conditions(tiny, view)["measurement"] == \
        "instructions; Thread-Metric periods of 100 ms x 3"
    assert _our_conditions(belleza, view)["measurement"] == "instructions"


def _loaded_view() -> RunView:
    loaded = profile_name("default", "accept", "test")
    return _view(_case("tm.basic", counts={"total": [200, 200]}),
                 _case("tm.basic", loaded, counts={"total": [150, 150]}))


def test_a_percent_change_is_the_state_against_idle() -> None:
    study = definition.parse(TINY)
    ours = Lookup(study, _loaded_view()).get("basic", study.system("Long"), TARGET,
                                             "percent_change", "accept")
    assert ours.value == pytest.approx(-25.0) and ours.unit == "%"
    none = Lookup(study, _view(_case("tm.basic", counts={"total": [200]}))).get(
        "basic", study.system("Long"), TARGET, "percent_change", "accept")
    assert not none.ok and none.why


def test_a_change_may_claim_its_direction_only_and_a_finding_its_state() -> None:
    study = definition.parse(TINY)
    judge = Judge(study, Lookup(study, _loaded_view()))
    down = replace(study.findings[0], kind="change", operations=("basic",), system="Long",
                   systems=(), value=None, from_state="idle", to_state="accept",
                   direction="down")
    check = judge.change(down, "basic", TARGET)
    assert check.verdict == REPRODUCED and "-25.0 %" in check.ours and check.error is None
    assert judge.change(replace(down, direction="up"), "basic", TARGET).verdict == DIFFERS
    # any other kind is judged in its from_state: here the loaded count
    vals = judge.values(replace(down, kind="lowest"), "basic", [study.system("Long")], TARGET)
    assert vals["Long"].value == 200.0
    vals = judge.values(replace(down, kind="lowest", from_state="accept"), "basic",
                        [study.system("Long")], TARGET)
    assert vals["Long"].value == 150.0


def test_a_change_from_zero_or_no_change_has_no_direction_but_its_own() -> None:
    study = definition.parse(TINY)
    loaded = profile_name("default", "accept", "test")
    up = replace(study.findings[0], kind="change", operations=("entry",), system="Long",
                 systems=(), value=None, from_state="idle", to_state="accept", direction="up")

    def judged(before: float, after: float) -> str:
        view = _view(_case("lat.isr.entry", distributions=[_dist("entry", before)]),
                     _case("lat.isr.entry", loaded, distributions=[_dist("entry", after)]))
        check = Judge(study, Lookup(study, view)).change(replace(up, stat="min"), "entry",
                                                         TARGET)
        assert "nan" not in check.ours
        return check.verdict

    assert judged(0.0, 8.0) == REPRODUCED  # 0 -> 8 rises, though no % says by how much
    assert judged(0.0, 0.0) == DIFFERS  # nothing changed: not "up"
    assert judged(10.0, 10.0) == DIFFERS


def test_a_table_marks_every_cell_of_a_tie() -> None:
    from rtosmeter.studies.tables import _marked

    table = replace(definition.parse(TINY).tables[0], mark="lowest", mark_along="column")
    values = {("a", "x"): 65.4, ("b", "x"): 65.4, ("c", "x"): 70.0}
    assert _marked(table, values, ["a", "b", "c"], ["x"]) == {("a", "x"), ("b", "x")}
