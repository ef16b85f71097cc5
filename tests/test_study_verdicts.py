"""Verdict rules on the Ungurean 2020 study file: figures within their
resolution (one count) tie, a tie never reproduces a strict claim, a
figure that failed its check or rests on a stand-in cannot reproduce, a
trivial claim is trivial, and a rerun that brings the study's version
replaces only the system running another version."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rtosmeter.catalog import load_catalog
from rtosmeter.definitions import Definitions, project_root
from rtosmeter.model import CaseResult, Distribution, RunView, Unit
from rtosmeter.studies import definition, run
from rtosmeter.studies.figures import Lookup
from rtosmeter.studies.model import Finding, Study
from rtosmeter.studies.verdicts import (
    DIFFERS,
    REPRODUCED,
    TIE,
    TRIVIAL,
    UNTESTABLE,
    Judge,
    headline,
    judge,
)

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


def _lowest(study: Study, system: str) -> Finding:
    return replace(next(f for f in study.findings if f.kind == "lowest"),
                   operations=("s1-sem",), system=system, systems=("rt-thread", "Keil RTX"))


def test_first_place_within_one_count_is_a_tie(study: Study) -> None:
    f = _lowest(study, "rt-thread")
    for means, verdict, text in (
            ({"rt-thread": 53.0, "Keil RTX": 53.0}, TIE, "(tied with Keil RTX)"),
            ({"rt-thread": 54.0, "Keil RTX": 53.0}, TIE,
             "(tied with Keil RTX, within one count or step)"),
            ({"rt-thread": 55.0, "Keil RTX": 53.0}, DIFFERS, "lowest: Keil RTX"),
            ({"rt-thread": 51.0, "Keil RTX": 53.0}, REPRODUCED, "(Keil RTX 2nd, +4 %)")):
        check = Judge(study, Lookup(study, _view(study, "s1-sem", means))).extreme(
            f, "s1-sem", TARGET)
        assert (check.verdict, text in check.ours.replace("§", "")) == (verdict, True), check
    # shared first place is a tie whichever of the two is claimed
    tie = _view(study, "s1-sem", {"rt-thread": 53.0, "Keil RTX": 53.0})
    assert Judge(study, Lookup(study, tie)).extreme(
        _lowest(study, "Keil RTX"), "s1-sem", TARGET).verdict == TIE


def test_a_tie_does_not_reproduce_a_strict_order(study: Study) -> None:
    f = replace(next(f for f in study.findings if f.kind == "lowest"), kind="less",
                operations=("s3-sem",), system="", systems=("FreeRTOS9", "FreeRTOS10"))
    for a, verdict, text in ((53.0, TIE, "FreeRTOS9 = FreeRTOS10"),
                             (52.0, TIE, "FreeRTOS9 = FreeRTOS10"),
                             (51.0, REPRODUCED, "FreeRTOS9 < FreeRTOS10"),
                             (55.0, DIFFERS, "FreeRTOS10 < FreeRTOS9")):
        view = _view(study, "s3-sem", {"FreeRTOS9": a, "FreeRTOS10": 53.0})
        check = Judge(study, Lookup(study, view)).ordered(f, "s3-sem", TARGET)
        assert (check.verdict, text in check.ours.replace("§", "")) == (verdict, True), check


def test_a_stand_in_cannot_reproduce(study: Study) -> None:
    """(A Thread-Metric count that failed its check keeps its number with ✗
    and meets the same rule: beningo2024's F6 in the study run.)"""
    f = _lowest(study, "rt-thread")
    view = _view(study, "s1-sem", {"rt-thread": 40.0, "Keil RTX": 53.0})
    assert Judge(study, Lookup(study, view)).check(f, TARGET).verdict == REPRODUCED
    weak = replace(view, cases=[replace(c, stand_ins={"SLEEP_UNTIL": "a ms timer"})
                                if c.port == "rtthread" else c for c in view.cases])
    check = Judge(study, Lookup(study, weak)).check(f, TARGET)
    assert check.verdict == UNTESTABLE
    assert check.ours.replace("§", "").startswith(
        "would reproduce, but a figure rests on a stand-in (†): lowest: rt-thread†")


def test_a_trivial_claim_is_never_a_reproduction(study: Study) -> None:
    f = replace(_lowest(study, "rt-thread"), trivial="the same code on every kernel")
    view = _view(study, "s1-sem", {"rt-thread": 40.0, "Keil RTX": 53.0})
    check = Judge(study, Lookup(study, view)).check(f, TARGET)
    assert check.verdict == TRIVIAL
    assert check.ours.startswith("the same code on every kernel; ours: lowest: rt-thread")
    trivial = replace(study, findings=(f,))
    h = headline(trivial, judge(trivial, Lookup(trivial, view), {}))
    assert h.reproduced == 0 and h.count[TRIVIAL] == 1
    assert h.text() == ("0 tie, 0 differ (0 cause confirmed, 0 explained, 0 unconfirmed), "
                        "1 trivial, 0 untestable")


def test_a_version_rerun_keeps_the_system_that_runs_its_own_version(study: Study) -> None:
    f12 = next(f for f in study.findings if f.id == "F12")
    assert f12.rerun is not None and f12.rerun.source == "freertos@V10.2.0"
    ports = {p for e in run.rerun_campaign(study, f12).entries for p in e.ports}
    assert {p for p in ports if p.startswith("freertos")} == {"freertos@V9.0.0",
                                                              "freertos@V10.2.0"}
