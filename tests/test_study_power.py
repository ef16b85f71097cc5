"""Silva's Table IV gets our side: the power operation's case priced by the
STM32L475's model at the study's 80 MHz, marked estimated, with its source
in the legend; idle figures of the case, when a run has them, are priced
instead of the run power. The study file and the lookup are the real ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtosmeter.definitions import Definitions
from rtosmeter.energy.model import models_for
from rtosmeter.energy.view import ESTIMATED, EnergyFigure
from rtosmeter.idle.figures import IdleFigures
from rtosmeter.loads import profile_name
from rtosmeter.model import CaseResult, RunView
from rtosmeter.studies import definition
from rtosmeter.studies.figures import Lookup, legend
from rtosmeter.studies.power import ESTIMATE_MARK, estimated_mw

ROOT = Path(__file__).parents[1]
SILVA = ROOT / "studies" / "silva2019" / "study.toml"
TARGET = "qemu-mps2-an386"
PROFILE = "silva2019-as-shipped"  # the study's own profile: each OS as shipped


def _case(profile: str = PROFILE) -> CaseResult:
    return CaseResult("riot", TARGET, profile, "tm_preemptive", "tm.preemptive", "ok",
                      axes={"toolchain": "gcc"})


def _view(*cases: CaseResult, energy: list[EnergyFigure] | None = None) -> RunView:
    return RunView(1, "", "", "finished", {}, {}, [], list(cases), [], [], energy=energy or [])


def test_table_iv_our_side_is_the_run_power_estimate_at_the_study_clock() -> None:
    study = definition.parse(SILVA)
    riot = study.system("RIOT")
    stack, loaded = (profile_name(PROFILE, load, "test")
                     for load in ("net-idle", "net-accept:230"))
    lookup = Lookup(study, _view(_case(stack), _case(loaded)))
    ours = lookup.get("power", riot, TARGET, "power", "net-idle")
    # 100 µA/MHz at 80 MHz and 3.0 V (targets/b-l475e-iot01a/power.toml)
    assert ours.value == pytest.approx(0.100 * 80 * 3.0) and ESTIMATE_MARK in ours.marks
    assert "estimated" in ours.unit
    # Thread-Metric never sleeps: the network state changes nothing in the estimate
    change = lookup.get("power", riot, TARGET, "percent_change", "net-accept:230")
    assert change.value == pytest.approx(0.0) and change.unit == "%"
    notes = legend(study, [])
    assert any(n.startswith(f"{ESTIMATE_MARK} {TARGET}: estimated (STM32L475VG") and
               "DS10969" in n for n in notes)


def test_idle_figures_of_the_case_are_priced_instead() -> None:
    study = definition.parse(SILVA)
    defs = Definitions.load(ROOT)
    (model,) = [m for m in models_for(defs.targets[TARGET], defs.targets)
                if m.target == "b-l475e-iot01a"]
    # half the window asleep: 4 M instructions awake in 0.1 s at 80 MHz is 0.05 s
    idle = IdleFigures(100_000_000, 50_000_000, 50_000_000, 10, {"tick": 10}, 4_000_000,
                       "tm.preemptive")
    figure = EnergyFigure("riot", TARGET, PROFILE, "idle", "tm.preemptive", ESTIMATED,
                          model.chip, "", 0.1, 0.0, 0.0, idle=idle)
    ours = Lookup(study, _view(_case(), energy=[figure])).get(
        "power", study.system("RIOT"), TARGET, "power", "idle")
    run_mw, sleep_mw = 0.100 * 80 * 3.0, 0.034 * 80 * 3.0
    assert ours.value == pytest.approx((run_mw + sleep_mw) / 2)


def test_a_case_without_idle_figures_that_may_sleep_has_no_estimate() -> None:
    study = definition.parse(SILVA)
    case = CaseResult("riot", TARGET, PROFILE, "lat", "lat.suspend_resume", "ok",
                      axes={"toolchain": "gcc"})
    got = estimated_mw(study, _view(case), case)
    assert got.mw is None and "no idle figures" in got.why


def test_an_operation_prices_one_idle_window_of_its_case() -> None:
    """Marques's rates: idle.sampling's windows are named <case>@<rate>."""
    study = definition.parse(SILVA)
    case = CaseResult("riot", TARGET, "lowpower", "idle", "idle.sampling", "ok",
                      axes={"toolchain": "gcc"})
    slow = IdleFigures(1_000_000_000, 990_000_000, 10_000_000, 100, {"timer": 100}, 800_000,
                       "idle.sampling@100hz")
    fast = IdleFigures(1_000_000_000, 900_000_000, 100_000_000, 1000, {"timer": 1000},
                       8_000_000, "idle.sampling@1000hz")
    energy = [EnergyFigure("riot", TARGET, "lowpower", "idle", f.window, ESTIMATED, "", "",
                           1.0, 0.0, 0.0, idle=f) for f in (slow, fast)]
    at_100, at_1000 = (estimated_mw(study, _view(case, energy=energy), case, w).mw
                       for w in ("100hz", "1000hz"))
    sleep_mw = 0.034 * 80 * 3.0
    assert at_100 == pytest.approx(0.01 * 24.0 + 0.99 * sleep_mw)  # 10 ms awake at 80 MHz
    assert at_1000 == pytest.approx(0.1 * 24.0 + 0.9 * sleep_mw)
    missing = estimated_mw(study, _view(case, energy=energy), case, "200hz")
    assert missing.mw is None and "idle.sampling@200hz" in missing.why


def test_marques_has_no_published_power_yet_its_estimates_are_explained() -> None:
    """Fig. 6.8 is a chart: no figure, but a table of our estimates, so a legend."""
    marques = definition.parse(ROOT / "studies" / "marques2021" / "study.toml")
    assert not [f for f in marques.figures if f.stat == "power"]
    assert any(n.startswith(f"{ESTIMATE_MARK} {TARGET}: estimated (nRF52840") and
               "at 64 MHz" in n for n in legend(marques, []))


TINY = ROOT / "tests" / "data" / "studies" / "tiny2000" / "study.toml"


def _tiny_with_op_profile(tmp_path: Path, profiles: str) -> Path:
    text = TINY.read_text(encoding="utf-8").replace('profiles = ["default"]', profiles)
    text = text.replace('case = "tm.basic"\n', 'case = "tm.basic"\nprofile = "quick"\n', 1)
    path = tmp_path / "tiny2000" / "study.toml"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_an_operation_reads_its_case_in_its_own_profile(tmp_path: Path) -> None:
    from rtosmeter.catalog import load_catalog
    from rtosmeter.errors import UserError
    from rtosmeter.studies.checks import check

    defs = Definitions.load(ROOT)
    study = definition.parse(_tiny_with_op_profile(tmp_path, 'profiles = ["default", "quick"]'))
    check(study, defs, load_catalog(defs.root))
    cases = [CaseResult("baremetal", TARGET, p, "tm_basic", "tm.basic", "ok",
                        axes={"toolchain": "gcc"}, counts={"total": [n]})
             for p, n in (("default", 100), ("quick", 30))]
    assert Lookup(study, _view(*cases)).get("basic", study.system("Long"), TARGET,
                                            "score").value == 30
    bad = definition.parse(_tiny_with_op_profile(tmp_path / "b", 'profiles = ["default"]'))
    with pytest.raises(UserError, match="profile 'quick' is not in the matrix"):
        check(bad, defs, load_catalog(defs.root))
