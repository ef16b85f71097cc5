"""Verdict rules on the Ungurean 2020 study file: a tie for first place is
shared, a tie never reproduces a strict order, and a rerun that brings the
study's version replaces only the system running another version."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rtosmeter.catalog import load_catalog
from rtosmeter.definitions import Definitions, project_root
from rtosmeter.model import CaseResult, Distribution, RunView, Unit
from rtosmeter.studies import definition, run
from rtosmeter.studies.figures import Lookup
from rtosmeter.studies.model import Study
from rtosmeter.studies.verdicts import DIFFERS, REPRODUCED, Judge

TARGET = "qemu-mps2-an386"
UNIT = Unit("instructions (QEMU icount)", 1.0, True, True)


@pytest.fixture(scope="module")
def study() -> Study:
    defs = Definitions.load(project_root())
    return definition.load("ungurean2020", defs, load_catalog(defs.root))


def _case(port: str, case_id: str, series: str, mean: float) -> CaseResult:
    d = Distribution(n=100, cold=mean, mean=mean, std=0.0, min=mean, p1=mean, p25=mean,
                     p50=mean, p75=mean, p99=mean, max=mean, jitter=0.0, series=series,
                     what="", unit=UNIT, overhead=0.0)
    return CaseResult(port, TARGET, "default", "signal_wait", case_id, "ok",
                      distributions=[d], axes={"toolchain": "gcc"})


def _view(study: Study, op_id: str, means: dict[str, float]) -> RunView:
    op = study.operation(op_id)
    cases = [_case(s.port, op.case, op.series, means[s.label])
             for s in study.systems if s.label in means]
    return RunView(1, "", "", "done", {}, {}, [], cases, [], [])


def test_a_tie_for_lowest_is_shared(study: Study) -> None:
    f = replace(next(f for f in study.findings if f.kind == "lowest"),
                operations=("s1-sem",), system="rt-thread", systems=("rt-thread", "Keil RTX"))
    view = _view(study, "s1-sem", {"rt-thread": 53.0, "Keil RTX": 53.0})
    check = Judge(study, Lookup(study, view)).extreme(f, "s1-sem", TARGET)
    assert check.verdict == REPRODUCED and "tied with Keil RTX" in check.ours
    f = replace(f, system="Keil RTX")
    assert Judge(study, Lookup(study, view)).extreme(f, "s1-sem", TARGET).verdict == REPRODUCED
    view = _view(study, "s1-sem", {"rt-thread": 54.0, "Keil RTX": 53.0})
    f = replace(f, system="rt-thread")
    assert Judge(study, Lookup(study, view)).extreme(f, "s1-sem", TARGET).verdict == DIFFERS


def test_a_tie_does_not_reproduce_a_strict_order(study: Study) -> None:
    f = replace(next(f for f in study.findings if f.kind == "lowest"), kind="less",
                operations=("s3-sem",), system="", systems=("FreeRTOS9", "FreeRTOS10"))
    tie = _view(study, "s3-sem", {"FreeRTOS9": 53.0, "FreeRTOS10": 53.0})
    check = Judge(study, Lookup(study, tie)).ordered(f, "s3-sem", TARGET)
    assert check.verdict == DIFFERS and "FreeRTOS9 = FreeRTOS10" in check.ours
    less = _view(study, "s3-sem", {"FreeRTOS9": 52.0, "FreeRTOS10": 53.0})
    assert Judge(study, Lookup(study, less)).ordered(f, "s3-sem", TARGET).verdict == REPRODUCED


def test_a_version_rerun_keeps_the_system_that_runs_its_own_version(study: Study) -> None:
    f12 = next(f for f in study.findings if f.id == "F12")
    assert f12.rerun is not None and f12.rerun.source == "freertos@V10.2.0"
    ports = {p for e in run.rerun_campaign(study, f12).entries for p in e.ports}
    assert {p for p in ports if p.startswith("freertos")} == {"freertos@V9.0.0",
                                                              "freertos@V10.2.0"}
