"""Verdict rules on the Ungurean 2020 study file: figures within their
resolution (one count) tie, a tie never reproduces a strict claim, a
figure that failed its check or rests on a stand-in cannot reproduce, a
trivial claim is trivial, and a rerun that brings the study's version
replaces only the system running another version."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rtosmeter.catalog import load_catalog
from rtosmeter.definitions import Campaign, Definitions, project_root
from rtosmeter.errors import UserError
from rtosmeter.model import CaseResult, Distribution, RunView, Unit
from rtosmeter.runs import RunSummary
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


def test_figures_within_the_paper_s_own_margin_tie(study: Study) -> None:
    """Beningo's F4: "within a 1% spread" (margin = 0.01) makes 190 and 189
    one; beyond the margin the order stands."""
    f = replace(_lowest(study, "rt-thread"), margin=0.01)
    for means, verdict in (({"rt-thread": 189.0, "Keil RTX": 190.0}, TIE),
                           ({"rt-thread": 1890.0, "Keil RTX": 1900.0}, TIE),
                           ({"rt-thread": 1870.0, "Keil RTX": 1900.0}, REPRODUCED)):
        check = Judge(study, Lookup(study, _view(study, "s1-sem", means))).extreme(
            f, "s1-sem", TARGET)
        assert check.verdict == verdict, (means, check)
    # without the margin, ten counts apart are an order
    assert Judge(study, Lookup(study, _view(study, "s1-sem", {
        "rt-thread": 1890.0, "Keil RTX": 1900.0}))).extreme(
        replace(f, margin=None), "s1-sem", TARGET).verdict == REPRODUCED
    tied = Judge(study, Lookup(study, _view(study, "s1-sem", {"rt-thread": 1890.0,
                                                              "Keil RTX": 1900.0})))
    assert "within the paper's margin of 1 %" in tied.extreme(f, "s1-sem", TARGET).ours


def test_a_ratio_is_held_to_its_statistic_s_default_tolerance(study: Study) -> None:
    """No tolerance in the file: 20 % for a median, 50 % for a spread; the
    paper's own tolerance replaces it."""
    f = replace(next(f for f in study.findings if f.kind == "lowest"), kind="ratio",
                operations=("s1-sem",), system="", systems=("rt-thread", "Keil RTX"),
                value=1.0, tolerance=None, stat="median")
    assert (f.tolerance_for("median"), f.tolerance_for("jitter"),
            f.tolerance_for("score"), replace(f, tolerance=0.05).tolerance_for("median")) == \
        (0.20, 0.50, 0.10, 0.05)
    judge_ = Judge(study, Lookup(study, _view(study, "s1-sem", {"rt-thread": 123.0,
                                                                "Keil RTX": 100.0})))
    assert judge_.ratio(f, "s1-sem", TARGET).verdict == DIFFERS  # +23 % > 20 %
    assert judge_.ratio(replace(f, stat="std"), "s1-sem", TARGET).verdict == DIFFERS  # std 0/0
    assert judge_.ratio(replace(f, tolerance=0.25), "s1-sem", TARGET).verdict == REPRODUCED


def test_a_cause_a_rerun_tried_shows_its_figures_and_a_citation_explains_nothing(
        study: Study) -> None:
    f = replace(_lowest(study, "rt-thread"), cause="version", quote="",
                citation="We used the following versions of RTOSs: ... (§3)")
    lost = _view(study, "s1-sem", {"rt-thread": 60.0, "Keil RTX": 53.0})
    tried = replace(study, findings=(f,))
    verdicts = judge(tried, Lookup(tried, lost), {f.id: Lookup(tried, lost)})
    assert verdicts[0].verdict == DIFFERS
    assert verdicts[0].confirmation.startswith(
        "cause tried, not confirmed: the rerun differs (lowest: Keil RTX")
    h = headline(tried, verdicts)
    assert (h.explained, h.tried) == (0, 1)
    assert "1 unconfirmed of which 1 tried" in h.text()
    untried = judge(tried, Lookup(tried, lost), {})
    assert untried[0].confirmation == "not confirmed (no rerun)"
    quoted = replace(tried, findings=(replace(f, quote="RTX 4 hands over in the ISR (§4)"),))
    assert judge(quoted, Lookup(quoted, lost), {})[0].confirmation == "explained by the paper"


def test_the_study_s_own_version_runs_whenever_its_tree_is_given(study: Study) -> None:
    """FreeRTOS10's study_port is V10.2.0: with its tree the matrix runs it
    (no §) and F12's version rerun is not needed; without, V10.4.6 (§) and
    the rerun."""
    ten = study.system("FreeRTOS10")
    assert (ten.port, ten.study_port) == ("freertos@V10.4.6", "freertos@V10.2.0")
    f12 = next(f for f in study.findings if f.id == "F12")
    without = run.with_study_versions(study, lambda port: False)
    assert without == study and run.rerun_needed(without, f12)
    given = run.with_study_versions(study, lambda port: port == "freertos@V10.2.0")
    ports = {p for e in run.main_campaign(given).entries for p in e.ports}
    assert {p for p in ports if p.startswith("freertos")} == {"freertos@V9.0.0",
                                                              "freertos@V10.2.0"}
    assert given.system("FreeRTOS10").nearest == "" and not run.rerun_needed(given, f12)
    ran: list[str] = []

    def execute(camp: Campaign) -> RunSummary:
        ran.append(camp.name)
        raise UserError("no tree", "here", "")

    outcomes = {o.name: o for o in run.run_study(given, execute)}
    assert "study:ungurean2020:rerun:F12" not in ran
    assert outcomes["study:ungurean2020:rerun:F12"].summary.startswith(
        "not run: the matrix already runs freertos@V10.2.0")
    # the report reads the version the stored matrix ran
    assert run.as_run(study, {"freertos@V10.2.0"}) == given
    assert run.as_run(study, {"freertos@V10.4.6"}) == study


def test_an_operation_of_a_unit_of_its_own_is_read_from_its_run() -> None:
    """Marques's interrupt latency holds the core's exception entry: read in
    cycles, from the study's `:unit:cycles` run, never from instructions."""
    defs = Definitions.load(project_root())
    study = definition.load("marques2021", defs, load_catalog(defs.root))
    op = study.operation("irq_latency")
    assert op.unit == "cycles"
    riot = study.system("RIOT")

    def view(value: float, unit: str) -> RunView:
        d = Distribution(n=100, cold=value, mean=value, std=0.0, min=value, p1=value,
                         p25=value, p50=value, p75=value, p99=value, max=value, jitter=0.0,
                         series="latency", what="", unit=Unit(unit, 1.0, True, True),
                         overhead=0.0)
        case = CaseResult("riot", TARGET, "default", "irq", "irq.latency", "ok",
                          distributions=[d], axes={"toolchain": "gcc"})
        return RunView(1, "", "", "done", {}, {}, [], [case], [], [])

    instructions = view(5.0, "instructions (QEMU icount)")
    alone = Lookup(study, instructions).get("irq_latency", riot, TARGET, "mean")
    assert alone.value is None and "no run of the study in cycles" in alone.why
    cycles = Lookup(study, view(31.0, "cycles (estimated)"))
    both = Lookup(study, instructions, units={"cycles": cycles})
    assert both.get("irq_latency", riot, TARGET, "mean").value == 31.0
    # the other operations stay in the matrix's run
    assert both.get("cs", riot, TARGET, "mean").why != alone.why
    names = {c.name for c in run.unit_campaigns(study)}
    assert names == {"study:marques2021:unit:cycles"}
    (camp,) = run.unit_campaigns(study)
    assert camp.unit == "cycles" and {e.bench for e in camp.entries} == {"irq.latency"}
    ran: list[str] = []

    def execute(c: Campaign) -> RunSummary:
        ran.append(c.name)
        raise UserError("no tree", "here", "")

    run.run_study(study, execute, reruns=False)
    assert ran == ["study:marques2021", "study:marques2021:unit:cycles"]
    ran.clear()
    run.run_study(study, execute, reruns=False, one_unit=True)  # --unit, --as-board
    assert ran == ["study:marques2021"]


def test_a_resumed_study_runs_what_is_left_and_another_process_stops_it(study: Study) -> None:
    """--resume: the campaigns already stored are not run again, the reruns
    still missing are; a lock held by another process is no missing tree."""
    from rtosmeter.store.lock import Busy

    ran: list[str] = []

    def execute(camp: Campaign) -> RunSummary:
        ran.append(camp.name)
        raise UserError("no tree", "here", "")

    run.run_study(study, execute, done=frozenset({"study:ungurean2020"}))
    assert ran and "study:ungurean2020" not in ran
    assert "study:ungurean2020:rerun:F12" in ran  # the reruns the interrupted study lacked

    def busy(camp: Campaign) -> RunSummary:
        raise Busy("another rtosmeter run (process 1) is building and running", "out", "")

    with pytest.raises(Busy):
        run.run_study(study, busy)
