"""The CI gate of `compare` (issue 33): what disappears fails, a system that
never ran is missing (not a method change), exact units get a count
threshold, per-statistic rules, JUnit XML; a configuration error before a
run starts leaves no run behind. Real streams, real SQLite, the real CLI."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from _datahalf import craft, parse_named, store_run
from click.testing import CliRunner
from test_compare import store_systems

from rtosmeter.cli import cli
from rtosmeter.commands.common import STORE_NAME
from rtosmeter.store import Store

QEMU = {"runner": "qemu", "icount_shift": "0"}
PATH_530 = [540] * 200  # an exact path of 530 instructions (+10 of measurement overhead)


def _compare(out: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["compare", *args, "--out", str(out)])
    return result.exit_code, result.output


def _exact(port: str, samples: list[int]) -> bytes:
    return craft(port, "qemu-mps2-an386", 1_000_000_000, [10] * 50,
                 [("lat.sem.pass", {"pass": samples})], unit="instructions")


def test_a_system_that_disappears_fails_the_gate(tmp_path: Path) -> None:
    """Run 2 lacks port `other` (its tree went missing): before, exit 0 with
    14 cases "only in run A"; now exit 2, unless --allow-missing names it."""
    with Store.open(tmp_path / STORE_NAME) as store:
        store_systems(store, {("posix", "host", "default"): 1.0,
                              ("other", "host", "default"): 1.0})
        run = store_systems(store, {("posix", "host", "default"): 1.0})
        store.add_build(run, "other", "host", "default", {"groups": "g"},
                        status="unsupported", error="no RTOS tree (set RTOSMETER_OTHER)")
    code, output = _compare(tmp_path, "1", "2")
    assert code == 2, output
    assert "other/host/default: ran" in output and "RTOSMETER_OTHER" in output
    assert "1 missing from run 2" in output
    for pattern in ("other", "other/host/*", "other/host/default"):
        code, output = _compare(tmp_path, "1", "2", "--allow-missing", pattern)
        assert code == 0, (pattern, output)
        assert "allowed" not in output or "gate failed" not in output
    # The other way round nothing disappeared: a new system is no failure.
    assert _compare(tmp_path, "2", "1")[0] == 0


def test_a_case_that_disappears_fails_the_gate(tmp_path: Path) -> None:
    a = craft("p", "host", 1_000_000_000, [10] * 50,
              [("lat.a", {"x": [100] * 100}), ("lat.b", {"x": [100] * 100})],
              unsupported={"lat.c": "no such call"})  # never ran: its absence is no loss
    b = craft("p", "host", 1_000_000_000, [10] * 50, [("lat.a", {"x": [100] * 100})])
    store_run(tmp_path / STORE_NAME, [(a, {"runner": "host"})])
    store_run(tmp_path / STORE_NAME, [(b, {"runner": "host"})])
    code, output = _compare(tmp_path, "1", "2")
    assert code == 2 and "p/host/default lat.b: in run 1, not in run 2" in output, output
    assert _compare(tmp_path, "1", "2", "--allow-missing", "lat.b")[0] == 0
    assert _compare(tmp_path, "1", "2", "--allow-missing", "lat.*,other")[0] == 0
    assert _compare(tmp_path, "1", "2", "--allow-missing", "lat.c")[0] == 2


def test_a_system_that_never_ran_is_missing_not_a_method_change(tmp_path: Path) -> None:
    """Run 2 has threadx stored as not run (no tree: a build row without a
    CFG `method`); run 3 ran it with method 3. Before: exit 1, "run 2
    measured threadx with measurement method 1 ... re-run the older campaign".
    Now the comparison runs; threadx is new in run 3, and missing 3 -> 2."""
    with Store.open(tmp_path / STORE_NAME) as store:
        for run_no in (1, 2):
            run = store.create_run({"name": "t"}, {}, "0.1.0")
            parsed = parse_named(_exact("baremetal", PATH_530))
            build = store.add_build(run, "baremetal", "qemu-mps2-an386", "default", {})
            store.add_execution(run, build, "g", status="ok", runner=QEMU,
                                stream=_exact("baremetal", PATH_530), parsed=parsed)
            if run_no == 2:
                store.add_build(run, "threadx", "qemu-mps2-an386", "default", {"groups": "g"},
                                status="unsupported", error="no RTOS tree: set RTOSMETER_THREADX")
            store.finish_run(run)
        run = store.create_run({"name": "t"}, {}, "0.1.0")
        for port in ("baremetal", "threadx"):
            parsed = parse_named(_exact(port, PATH_530))
            parsed.config["method"] = "3" if port == "threadx" else "1"
            build = store.add_build(run, port, "qemu-mps2-an386", "default", {})
            store.add_execution(run, build, "g", status="ok", runner=QEMU,
                                stream=_exact(port, PATH_530), parsed=parsed)
        store.finish_run(run)
    code, output = _compare(tmp_path, "2", "3")
    assert code == 0, output
    assert "measurement method" not in output and "re-run" not in output.lower()
    code, output = _compare(tmp_path, "3", "2")
    assert code == 2, output
    assert "threadx/qemu-mps2-an386/default: ran 2 case(s) in run 3, none in run 2 " \
           "(not run: no RTOS tree: set RTOSMETER_THREADX)" in output


def test_exact_units_get_a_count_threshold(tmp_path: Path) -> None:
    """+53 instructions on a 530-instruction path is +10 %: under the 10 %
    threshold it passed (exit 0) before. In exact instructions any change is
    real: now exit 2 unless --exact-threshold allows that many counts."""
    store_run(tmp_path / STORE_NAME, [(_exact("p", PATH_530), QEMU)])
    store_run(tmp_path / STORE_NAME, [(_exact("p", [593] * 200), QEMU)])
    store_run(tmp_path / STORE_NAME, [(_exact("p", [539] * 200), QEMU)])
    code, output = _compare(tmp_path, "1", "2", "--format", "json")
    assert code == 2, output
    doc = json.loads(output[:output.rindex("}") + 1])
    (change,) = [c for c in doc["changes"] if c["case_id"] == "lat.sem.pass"]
    assert change["verdict"] == "regression" and change["shift"] == 53
    assert (change["a"], change["b"], change["change_pct"]) == (530, 583, 10.0)
    assert doc["exact_threshold"] == 0
    assert _compare(tmp_path, "1", "2", "--exact-threshold", "53")[0] == 0
    assert _compare(tmp_path, "1", "2", "--exact-threshold", "52")[0] == 2
    assert _compare(tmp_path, "1", "3")[0] == 0  # one instruction faster: improved


def test_per_statistic_rules(tmp_path: Path) -> None:
    """--fail-on STAT:+N%: the tail grows 20 % (max), the median 0.5 %."""
    base = [1000] * 190 + [1200] * 10
    worse = [1005] * 190 + [1440] * 10
    host = {"runner": "host"}

    def stream(samples: list[int]) -> bytes:
        return craft("p", "host", 1_000_000_000, [10] * 50,
                     [("lat.x", {"x": samples})])
    store_run(tmp_path / STORE_NAME, [(stream(base), host)])
    store_run(tmp_path / STORE_NAME, [(stream(worse), host)])
    assert _compare(tmp_path, "1", "2")[0] == 0  # the median moved 0.5 %: no regression
    assert _compare(tmp_path, "1", "2", "--fail-on", "p50:+1%")[0] == 0
    code, output = _compare(tmp_path, "1", "2", "--fail-on", "p50:+1%,max:+10%")
    assert code == 2 and "max 1,190 -> 1,430, worse by +20.17%" in output, output
    assert "1 --fail-on rule(s) broken" in output
    assert _compare(tmp_path, "1", "2", "--fail-on", "p50:+4")[0] == 2  # 5 ns over 4
    code, output = _compare(tmp_path, "1", "2", "--fail-on", "p42:+1%")
    assert code == 1 and "'p42:+1%' is not a statistic and a limit" in output


def test_junit_xml_of_the_gate(tmp_path: Path) -> None:
    store_run(tmp_path / STORE_NAME, [(_exact("p", PATH_530), QEMU)])
    store_run(tmp_path / STORE_NAME, [(_exact("p", [593] * 200), QEMU)])
    path = tmp_path / "gate.xml"
    code, _ = _compare(tmp_path, "1", "2", "--fail-on", "max:+20%", "--junit", str(path))
    assert code == 2
    suite = ET.parse(path).getroot().find("testsuite")
    assert suite is not None and suite.get("name") == "rtosmeter.compare"
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    failed = {n for n, c in cases.items() if c.find("failure") is not None}
    assert failed == {"p/qemu-mps2-an386/default lat.sem.pass pass"}
    assert "p/qemu-mps2-an386/default lat.sem.pass pass max:+20%" in cases
    assert suite.get("tests") == str(len(cases)) and suite.get("failures") == "1"


@pytest.mark.slow
def test_a_configuration_error_leaves_no_run(tmp_path: Path) -> None:
    """A --source that is not the RTOS's tree stops the run before anything
    is built. Before: exit 1 and an "interrupted" run 1 that shifts
    latest~1; now exit 1 and no run stored."""
    empty = tmp_path / "empty"
    empty.mkdir()
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["run", "--port", "threadx", "--target", "qemu-mps2-an386",
                                      "--source", f"threadx={empty}", "--out", str(out),
                                      "-j", "1"])
    assert result.exit_code == 1 and "has no common/inc/tx_api.h" in result.output
    with Store.open(out / STORE_NAME) as store:
        assert store.runs() == []
    assert not any(p.name.endswith(".lock") and "run" in p.name for p in out.iterdir()), \
        os.listdir(out)


def test_a_profile_comparison_shows_effects(tmp_path: Path) -> None:
    """`compare --by profile default vendor`: before, exit 2, REGRESSION rows,
    `+inf %` first on 0 -> x, build paths as fairness notes. Now exit 0, the
    direction (higher/lower), "new (from 0)", one summary line per system
    first; `--gate` gates as between two runs."""
    def stream(jitter: list[int], period: int, spread: list[int]) -> bytes:
        return craft("p", "qemu-mps2-an386", 1_000_000_000, [10] * 50,
                     [("lat.jitter", {"dev": jitter}), ("lat.tick", {"period": [period] * 50}),
                      ("lat.even", {"x": spread})], unit="instructions")
    with Store.open(tmp_path / STORE_NAME) as store:
        run = store.create_run({"name": "t"}, {}, "0.1.0")
        for profile, data in (("default", stream([0] * 50, 1000, [100] + [100, 102] * 25)),
                              ("vendor", stream([88] * 50, 10_000, [101] * 51))):
            build = store.add_build(run, "p", "qemu-mps2-an386", profile,
                                    {"build_dir": f"/out/{profile}", "opt_flags": profile,
                                     "cmake.RM_CONFIG_DIR": f"/out/{profile}/cfg"})
            store.add_execution(run, build, "g", status="ok", runner=QEMU, stream=data,
                                parsed=parse_named(data))
        store.finish_run(run)
    code, output = _compare(tmp_path, "1", "--by", "profile", "default", "vendor")
    assert code == 0, output
    assert output.startswith("p/qemu-mps2-an386/default→vendor: 4 figures, 2 higher, 0 lower, "
                             "1 identical, 1 with the same figure from other samples"), output
    assert "REGRESSION" not in output and "inf" not in output
    assert "new (from 0)" in output and "higher" in output
    assert "build_dir" not in output and "RM_CONFIG_DIR" not in output
    assert "opt_flags differs (check fairness): default -> vendor" in output
    gated, output = _compare(tmp_path, "1", "--by", "profile", "default", "vendor", "--gate")
    assert gated == 2 and "REGRESSION" in output
    code, output = _compare(tmp_path, "1", "--by", "profile", "default", "vendor",
                            "--format", "json")
    doc = json.loads(output)
    assert code == 0 and doc["effects"] and doc["regressions"] == 0
    marks = {c["case_id"]: c["mark"] for c in doc["changes"]}
    assert marks == {"calib.overhead": "same", "lat.jitter": "higher", "lat.tick": "higher",
                     "lat.even": "changed"}  # the same mean is neither higher nor lower
