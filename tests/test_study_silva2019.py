"""studies/silva2019: every published figure of Tables II-IV is the seed's
number, read back from the paper's text (the study's `seed` file, not in the repository), so that no
transcription slip survives an edit of the study file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rtosmeter.loads import profile_name
from rtosmeter.model import CaseResult, RunView
from rtosmeter.studies import definition
from rtosmeter.studies.figures import Lookup
from rtosmeter.studies.model import Figure

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT.parent / "shared" / "seeds" / "002_3f4abbfe9d61d676.txt"
PAPER_NAME = {"Contiki-NG": "Contiki", "RIOT": "RIOT", "Zephyr": "Zephyr"}
# The paper's network states are each OS's own stack under the frame trace
# at the paper's 230 packets per second (Sec. IV-A): our net-* loads.
PAPER_STATE = {"net-idle": "idle", "net-accept:230": "accept", "net-reject:230": "reject",
               "net-forward:230": "forward"}

pytestmark = pytest.mark.skipif(not SEED.is_file(), reason=f"the seed text is not at {SEED}")


def _between(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end, text.index(start))]


def _number(cell: str) -> float:
    """A cell as printed: '252 568', '-6.52%', '44,652' (decimal comma)."""
    return float(re.sub(r"[\s%]", "", cell).replace(",", "."))


def _table_ii(seed: str) -> dict[tuple[str, str], list[str]]:
    """(paper's OS name, state) -> the row's cells T1..T8, PD."""
    rows: dict[tuple[str, str], list[str]] = {}
    system = ""
    for line in _between(seed, "TABLE II", "occurs in T4").splitlines():
        m = re.match(r"^(Contiki|RIOT|Zephyr)?\t(Idle|Accept|Reject|Forward)\t(.*)$", line)
        if m:
            system = m.group(1) or system
            rows[(system, m.group(2).lower())] = m.group(3).split("\t")
    return rows


def _rows(seed: str, title: str, end: str) -> dict[str, list[str]]:
    """A two-column table's rows by OS name (Tables III and IV)."""
    out = {}
    for line in _between(seed, title, end).splitlines()[1:]:
        cells = line.split("\t")
        if len(cells) == 3 and cells[0] in PAPER_NAME:  # Tables III, IV say "Contiki-NG"
            out[cells[0]] = cells[1:]
    return out


@pytest.fixture(scope="module")
def figures() -> list[Figure]:
    return list(definition.parse(definition.study_path("silva2019", ROOT)).figures)


def test_table_ii_counts_and_degradations_are_the_seeds(figures: list[Figure]) -> None:
    rows = _table_ii(SEED.read_text(encoding="utf-8"))
    assert len(rows) == 12  # 3 OSes x 4 network states
    checked = 0
    for f in figures:
        column = 8 if f.operation == "PD" else int(f.operation[1:]) - 1 \
            if re.fullmatch(r"T[1-8]", f.operation) else None
        if column is None:
            continue
        assert f.value == _number(rows[(PAPER_NAME[f.system], PAPER_STATE[f.state])][column]), f
        checked += 1
    assert checked == 12 * 8 + 9  # every count, and PD for the nine loaded rows


def test_tables_iii_and_iv_are_the_seeds(figures: list[Figure]) -> None:
    seed = SEED.read_text(encoding="utf-8")
    memory = _rows(seed, "TABLE III", "for one test case")
    power = _rows(seed, "TABLE IV", "## V. CLOSING")
    by_key = {(f.operation, f.system, f.stat, f.state): f.value for f in figures}
    for system in PAPER_NAME:
        ram, flash = (_number(c) for c in memory[system])
        assert (by_key[("footprint", system, "ram", "net-idle")],
                by_key[("footprint", system, "flash", "net-idle")]) == (ram, flash)
        idle, active = (_number(c) for c in power[system])
        assert (by_key[("power", system, "power", "net-idle")],
                by_key[("power", system, "power", "net-accept:230")]) == (idle, active)


def test_every_state_is_the_stack_at_the_papers_rate() -> None:
    """Every figure, finding and table is read under a net-* load (the OS's
    own stack), never a synthetic load or the stack-less idle."""
    study = definition.parse(definition.study_path("silva2019", ROOT))
    assert study.matrix.loads == ("idle", *PAPER_STATE)  # idle: always built (loads.with_idle)
    used = {f.state for f in study.figures}
    used |= {s for f in study.findings if f.kind != "untestable"
             for s in (f.from_state, f.to_state) if s}
    used |= {s for t in study.tables for s in t.states}
    assert used == set(PAPER_STATE)
    assert len(study.figures) == 120


def _t1(load: str, count: int) -> CaseResult:
    return CaseResult("riot", "qemu-mps2-an386",
                      profile_name("silva2019-as-shipped", load, "test"),
                      "tm_basic", "tm.basic", "ok", counts={"total": [count]},
                      axes={"toolchain": "gcc"})


def test_a_states_change_is_against_the_stack_up_with_no_traffic() -> None:
    """Table II's change is the traffic alone: net-accept against net-idle,
    not against the firmware without the stack (idle)."""
    study = definition.parse(definition.study_path("silva2019", ROOT))
    view = RunView(1, "", "", "finished", {}, {}, [],
                   [_t1("idle", 2000), _t1("net-idle", 1000), _t1("net-accept:230", 900)],
                   [], [])
    lookup = Lookup(study, view)
    riot = study.system("RIOT")
    accept = lookup.get("T1", riot, "qemu-mps2-an386", "percent_change", "net-accept:230")
    assert accept.value == pytest.approx(-10.0)
    # the stack's own cost, if a figure asked for it, is against idle
    stack = lookup.get("T1", riot, "qemu-mps2-an386", "percent_change", "net-idle")
    assert stack.value == pytest.approx(-50.0)
