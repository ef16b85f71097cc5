"""Our figures of a study read from a run view (studies/figures.py): every
statistic the format names, a rate from a case's META. The view is built
here from results as the analysis hands them over; the lookup is the real one."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtosmeter.model import CaseResult, Distribution, RunView, Unit
from rtosmeter.studies import definition
from rtosmeter.studies.figures import Lookup

TINY = Path(__file__).parent / "data" / "studies" / "tiny2000" / "study.toml"
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
                                            ("min", 100.0), ("max", 101.0)])
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
