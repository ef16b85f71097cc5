"""The first screen (reports/document/glance.py) and the headline's rules
(answer.py): what must not move the geometric mean, and the caveats named.
Runs are real streams written by the real writer, stored in a real SQLite
store and analysed by the real analysis."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from _datahalf import craft, parse_named, store_run

from rtosmeter.analysis import load_run
from rtosmeter.model import RunView
from rtosmeter.reports import _glance_text, document
from rtosmeter.reports.document import answer as _answer
from rtosmeter.reports.document import answer_text as _words
from rtosmeter.reports.document.glance import glance
from rtosmeter.store import Store

T = "qemu-mps2-an386"
QEMU = {"runner": "qemu", "icount_shift": 6}
EXACT = {**QEMU, "plugin": "rmcycles", "mode": "instructions"}  # as PluginSpec.record
UNIT = "instructions (QEMU, exact)"
HZ = 1_000_000_000 >> 6  # the plugin's counter: one count per instruction
MISALIGNED = "M profile return from interrupt with misaligned PC is UNPREDICTABLE on v7M"


def _view(path: Path, executions: list[tuple[bytes, dict[str, str]]]) -> RunView:
    run = store_run(path, executions, footprint={"flash": 1000, "ram": 3000, "parts": {}})
    with Store.open(path) as st:
        return load_run(st, run)


@pytest.fixture(scope="module")
def view(tmp_path_factory: pytest.TempPathFactory) -> RunView:
    """a wins tm.sync 2x (its counts one apart, as exact emulation gives
    them); b measures tm.memory with a stand-in pool (and wins it 10x);
    lat.jitter's deviation is 0-3 instructions for a, 300 for b. On main
    (545c5ba) this ranks b fastest at 2.24x and puts b at 24.8x a's latency."""
    a = craft("a", T, HZ, [9, 2, 2], unit=UNIT, period_ms=100,
              throughput={"tm.sync": [150, 151, 149], "tm.memory": [100] * 3},
              latency=[("lat.sem.pass", {"take": [90] + [40] * 200}),
                       ("lat.jitter.periodic", {"deviation": [0] + [3] * 200})])
    b = craft("b", T, HZ, [9, 2, 2], unit=UNIT, period_ms=100,
              throughput={"tm.sync": [75] * 3, "tm.memory": [1000] * 3},
              latency=[("lat.sem.pass", {"take": [90] + [80] * 200}),
                       ("lat.jitter.periodic", {"deviation": [0] + [302] * 200})],
              cfg={"stand_in.POOL": "a queue of free blocks"})
    guest = {**EXACT, "guest_errors": "38", "guest_error_kinds": json.dumps({MISALIGNED: 38})}
    floor = craft("baremetal", T, HZ, [9, 2, 2], unit=UNIT, period_ms=100,
                  throughput={"tm.sync": [300] * 3})
    return _view(tmp_path_factory.mktemp("glance") / "r.sqlite",
                 [(a, EXACT), (b, guest), (floor, EXACT)])


def test_stand_in_cases_out_of_the_mean_and_shown_beside(view: RunView) -> None:
    (a,) = _answer.answers(view)
    tput = next(r for r in a.rankings if r.family == "throughput")
    assert tput.cases == ["tm.sync"] and list(tput.stand_in) == ["tm.memory"]
    (lead,) = tput.leads
    assert lead.ratio == pytest.approx(2.0)  # tm.sync alone: b's 10x stand-in is not in it
    assert lead.with_stand_ins == pytest.approx(math.sqrt(2.0 * 0.1))  # shown beside
    said = _words.ranking_sentence(tput, a.labels)
    assert "† Not in the mean: tm.memory (a stand-in; with it: b 0.45x)" in said


def test_near_zero_medians_out_of_the_ratios(view: RunView) -> None:
    (a,) = _answer.answers(view)
    lat = next(r for r in a.rankings if r.family == "latency")
    # 3 against 300 instructions: a 100x "ratio" of the counter's last digits
    assert lat.near_zero == ["lat.jitter.periodic · deviation"]
    assert lat.cases == ["lat.sem.pass · take"]
    assert lat.leads[0].high[0] < 3
    assert "series with a median under 10 counts" in _words.ranking_sentence(lat, a.labels)


def test_one_count_of_drift_under_exact_emulation_is_no_warning(view: RunView,
                                                               tmp_path: Path) -> None:
    # a's tm.sync counts 149..151 under the exact counter (1.3 % apart): no warning
    assert not [w for w in view.warnings if w.kind == "drift"]
    # the same counts from a noisy clock (the host) are a 1 % drift
    host = craft("h", "host", 1_000_000_000, [9, 2, 2], period_ms=100,
                 throughput={"tm.sync": [150, 151, 148]})
    noisy = _view(tmp_path / "h.sqlite", [(host, {"runner": "host"})])
    (drift,) = [w for w in noisy.warnings if w.kind == "drift"]
    assert "148 to 151" in drift.text


def test_guest_errors_named_not_counted(view: RunView) -> None:
    (a,) = _answer.answers(view)
    g = glance(view, a)
    (named,) = [c for c in g.caveats if "guest error" in c]
    assert named == f'⚠ QEMU guest error "{MISALIGNED}": b/default, 38 per execution (1 execution).'
    assert ("Not in the ratios: † stand-in cases (throughput: tm.memory); latency series with "
            "a median under 10 counts (1 in default).") in g.caveats
    bar = next(b for b in g.blocks["throughput"][0].bars if b.label == "b")
    assert bar.marks == "†⚠"  # the stand-in and the guest errors, at the bar


def test_the_glance_bars_the_floor_and_a_sentence_per_family(view: RunView) -> None:
    (a,) = _answer.answers(view)
    g = glance(view, a)
    assert g.families == ["throughput", "latency", "flash", "ram"]
    (tput,) = g.blocks["throughput"]
    assert [b.label for b in tput.bars] == ["a", "b"]
    assert tput.bars[1].ratio == pytest.approx(2.0, rel=0.01)
    assert tput.floor == pytest.approx(0.5, rel=0.01)  # bare metal: 300 against 150
    assert g.sentence("throughput").endswith("b takes 2.00x; bare metal, the floor: 0.50x.")
    lines = _glance_text.lines(g)
    assert lines[0] == f"The answer on {T}. Emulated under QEMU -icount: counts of " \
        "instructions or virtual-clock ticks, exact and repeatable, not times."
    assert lines[1].split() == ["x", "best", "(min-max)", "throughput", "latency", "Flash", "RAM"]
    assert len(lines) <= 25
    assert "bare metal (floor)  0.50x" in "\n".join(lines)


def test_profiles_apart_and_against_each_other(tmp_path: Path) -> None:
    """Two ports in two profiles: each profile ranked alone, and each port
    against itself in the other profile, as a configuration effect."""
    runs = []
    for port, fast in (("p", 200), ("q", 100)):
        for profile, scale in (("default", 1), ("vendor", 2)):
            runs.append((craft(port, T, HZ, [9, 2, 2], unit=UNIT, period_ms=100,
                               throughput={"tm.sync": [fast // scale] * 3}, profile=profile),
                         EXACT))
    path = tmp_path / "r.sqlite"
    with Store.open(path) as st:
        run = st.create_run({"name": "t"}, {"machine": "x"}, "0.1.0")
        for data, runner in runs:
            parsed = parse_named(data)
            b = st.add_build(run, parsed.header["port"], T, parsed.header["profile"], {})
            st.add_execution(run, b, "g", status="ok", exit_code=0, wall_s=0.1, runner=runner,
                             stream=data, parsed=parsed)
        st.finish_run(run)
        view = load_run(st, run)
    (g,) = document.build(view).glances
    assert [b.profile for b in g.blocks["throughput"]] == ["default", "vendor"]
    assert g.sentence("throughput").endswith("p is best in default and vendor; q takes "
                                             "2.00x / 2.00x.")
    (across,) = g.across
    assert across.line == ("Throughput, vendor against default (a configuration effect, not a "
                           "ranking): p 2.00x, q 2.00x.")
