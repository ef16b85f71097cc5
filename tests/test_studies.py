"""The study files (studies/*/study.toml): each loads and passes its
cross-checks; a broken one fails with an error naming the file and key."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import invoke

from rtosmeter.catalog import load_catalog
from rtosmeter.definitions import Definitions
from rtosmeter.errors import UserError
from rtosmeter.studies import definition
from rtosmeter.studies.checks import check

ROOT = Path(__file__).parents[1]
BENINGO = ROOT / "studies" / "beningo2024" / "study.toml"


@pytest.fixture(scope="module")
def defs() -> Definitions:
    return Definitions.load(ROOT)


@pytest.mark.parametrize("name", definition.names(ROOT))
def test_every_study_file_is_valid(name: str, defs: Definitions) -> None:
    study = definition.load(name, defs, load_catalog(defs.root))
    assert study.name == name and study.findings
    # a study without figures says why where its report shows it
    assert study.figures or "No published figure" in study.summary


def test_study_list_shows_each_study_as_json() -> None:
    import json

    rows = json.loads(invoke("study", "list", "--format", "json").output)
    assert {r["name"] for r in rows} == set(definition.names(ROOT))
    beningo = next(r for r in rows if r["name"] == "beningo2024")
    assert beningo["year"] == 2024 and "PX5" in beningo["systems"]


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    """beningo2024's file with one edit, in a folder of the same name."""
    text = BENINGO.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "beningo2024" / "study.toml"
    path.parent.mkdir()
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


F6 = 'systems = ["FreeRTOS", "Zephyr"]\nvalue = 2.6\n'  # finding[5]
BROKEN = [
    ('stat = "normalised"', 'stat = "normalised"\nvalu = 1', "figure[0].valu", "unknown key"),
    ('system = "ThreadX"\nstat', 'system = "VxWorks"\nstat', "figure[0].system",
     "unknown system 'VxWorks'"),
    ('case = "tm.basic"', 'case = "tm.basics"', "operation[0].case", "unknown case"),
    ('kind = "untestable"', 'kind = "guess"', "finding[6].kind", "unknown kind 'guess'"),
    (F6, F6 + 'cause = "luck"\n', "finding[5].cause", "unknown cause"),
    (F6, F6 + 'rerun = { unit = "cycles", profile = "vendor" }\n',
     "finding[5].rerun", "one of source, unit, profile, toolchain"),
    (F6, F6 + 'rerun = { source = "riot@2024.01" }\n',
     "finding[5].rerun.source", None),
    ('reason = "Thread-Metric\'s basic', 'series = "nosuch"\nreason = "Thread-Metric\'s basic',
     "operation[0].series", "no series 'nosuch'"),
    ('port = "threadx"', 'port = "threadz"', "system[0].port", "unknown port"),
    ('study_port = "threadx@6.1.1"', 'study_port = "freertos@V10.2.0"',
     "system[0].study_port", "not an instance of port 'threadx'"),
    (F6, F6 + 'margin = 1.5\n', "finding[5].margin", "margin 1.5 is not a fraction"),
    (F6, F6 + 'tolerance = 0\n', "finding[5].tolerance", "tolerance 0 is not a fraction"),
    (F6, F6 + 'tolerance = inf\n', "finding[5].tolerance", "tolerance inf is not a fraction"),
    (F6, F6.replace("value = 2.6", "value = nan"), "finding[5].value", "nan is not a figure"),
    (F6, F6.replace("value = 2.6", "value = 5e-324"), "finding[5].value",
     "5e-324 is not a figure"),
    (F6, F6.replace("value = 2.6", "value = 0"), "finding[5].value", "a ratio of 0"),
    ('id = "F6"', 'id = "F6\\n  F7 reproduced"', "finding[5]", "is not an id"),
    ('name = "qemu-mps2-an386"', 'name = "qemu-nowhere"', "target[0].name", "unknown target"),
    ('year = 2024', 'year = "2024"', "year", "must be an integer"),
]


@pytest.mark.parametrize(("old", "new", "key", "what"), BROKEN)
def test_a_broken_study_names_its_file_and_key(tmp_path: Path, defs: Definitions, old: str,
                                               new: str, key: str, what: str | None) -> None:
    path = _broken(tmp_path, old, new)
    with pytest.raises(UserError) as err:
        check(definition.parse(path), defs, load_catalog(defs.root))
    message = str(err.value)
    assert str(path) in message and f"'{key}'" in message, message
    assert what is None or what in message, message


def test_an_unknown_study_lists_the_valid_ones() -> None:
    with pytest.raises(UserError, match=r"Valid studies: .*beningo2024"):
        definition.study_path("nosuch", ROOT)


def test_the_matrix_and_a_rerun_as_campaigns(defs: Definitions) -> None:
    from rtosmeter.studies import run

    study = definition.load("beningo2024", defs, load_catalog(defs.root))
    main = run.main_campaign(study)
    assert main.name == "study:beningo2024"
    ports = {(e.ports, e.profiles) for e in main.entries}
    # PX5 has no port; ThreadX with App. B's options (the study's own profile);
    # Zephyr runs twice, tuned (default) and as shipped (vendor)
    assert ports == {(("threadx",), ("beningo2024-appb",)), (("freertos",), ("default",)),
                     (("zephyr",), ("default",)), (("zephyr",), ("vendor",))}
    assert all(e.optional and "idle" in e.loads for e in main.entries)
    f14 = next(f for f in study.findings if f.id == "F14")
    again = run.rerun_campaign(study, f14)
    assert again.name == "study:beningo2024:rerun:F14"
    assert {e.ports for e in again.entries} == {("freertos@V10.4.6",), ("zephyr",)}
    assert {e.bench for e in again.entries} == {"tm.message"}
    # a labelled tree reaches only the campaign that names the instance
    trees = {"freertos@V10.4.6": Path("/v10"), "threadx": Path("/tx")}
    assert run.sources_for(main, trees) == {"threadx": Path("/tx")}
    assert run.sources_for(again, trees) == trees


@pytest.mark.slow  # the planner asks the cross-compiler its version (no build)
def test_a_board_target_is_planned_as_not_run_without_boards(tmp_path: Path,
                                                             defs: Definitions) -> None:
    """No build for a board unless --boards: its verdicts say why."""
    from rtosmeter.plan import NO_BOARD, Selection, make_plan
    from rtosmeter.studies import run

    text = (ROOT / "tests" / "data" / "studies" / "tiny2000" / "study.toml").read_text("utf-8")
    path = tmp_path / "tiny2000" / "study.toml"
    path.parent.mkdir()
    path.write_text(text + '\n[[target]]\nname = "frdm-k64f"\n', encoding="utf-8")
    catalog = load_catalog(defs.root)
    study = definition.parse(path)
    check(study, defs, catalog)
    camp = run.main_campaign(study)
    plan = make_plan(defs, catalog, camp, Selection(jobs=1, boards=False))
    board = [b for b in plan.builds if b.target == "frdm-k64f"]
    assert board and all((b.skip_status, b.skip_reason) == ("skipped", NO_BOARD) for b in board)
    assert all(not b.skip_status for b in plan.builds if b.target == "qemu-mps2-an386")
    attached = make_plan(defs, catalog, camp, Selection(jobs=1, boards=True))
    assert all(b.skip_reason != NO_BOARD for b in attached.builds)


def test_a_computed_series_is_checked_whole(tmp_path: Path, defs: Definitions) -> None:
    """"handler" is only the stem of app.sampling's "handler.<N>hz": the
    lookup would find nothing, so the checker refuses it, naming the key."""
    text = (ROOT / "studies" / "marques2021" / "study.toml").read_text(encoding="utf-8")
    assert 'series = "handler.1000hz"' in text
    path = tmp_path / "marques2021" / "study.toml"
    path.parent.mkdir()
    path.write_text(text.replace('series = "handler.1000hz"', 'series = "handler"'), "utf-8")
    study = definition.parse(path)
    index = next(i for i, o in enumerate(study.operations) if o.series == "handler")
    with pytest.raises(UserError) as err:
        check(study, defs, load_catalog(defs.root))
    message = str(err.value)
    assert f"'operation[{index}].series'" in message and str(path) in message, message
    assert "no series 'handler'" in message and "<stem>.<N>hz" in message, message


@pytest.mark.parametrize("args", [(), ("beningo2024", "--all"), ("--all", "--resume", "3")])
def test_study_run_takes_one_name_or_all(args: tuple[str, ...], tmp_path: Path) -> None:
    result = invoke("study", "run", *args, "--out", str(tmp_path))
    assert result.exit_code != 0 and ("NAME" in result.stderr or "--resume" in result.stderr), \
        result.output + result.stderr
    assert not any(tmp_path.iterdir())  # nothing ran, no store made


@pytest.mark.slow  # the planner asks the cross-compiler its version (no build)
def test_as_board_runs_the_targets_of_its_core_and_says_why_not_the_others(
        defs: Definitions) -> None:
    """ungurean2020 has an M4 and an M0 target: --as-board STM32F407 estimates
    the M4 one as on that board and stores the M0 one as not run, with the
    reason, instead of refusing the whole study."""
    from rtosmeter.board_memory import memory_of
    from rtosmeter.measure import Unit
    from rtosmeter.plan import Selection, make_plan
    from rtosmeter.studies import run

    catalog = load_catalog(defs.root)
    camp = run.main_campaign(definition.load("ungurean2020", defs, catalog))
    board = memory_of("stm32f407")
    plan = make_plan(defs, catalog, camp, Selection(jobs=1, board=board, board_core_only=True))
    m4 = [b for b in plan.builds if b.target == "qemu-mps2-an386"]
    m0 = [b for b in plan.builds if b.target == "qemu-microbit"]
    assert m4 and m0
    assert all(b.unit is Unit.CYCLES for b in m4 if not b.skip_status)
    assert any(not b.skip_status for b in m4)
    assert all(b.skip_status == "skipped" and "qemu-microbit (cortex-m0) would need a board"
               in b.skip_reason for b in m0)
    # `run --as-board` with a target of another core is still an error
    with pytest.raises(UserError, match="not on target 'qemu-microbit'"):
        make_plan(defs, catalog, camp, Selection(jobs=1, board=board))
    # one board per core: the M0 target is estimated as on the Nucleo-L053R8
    nucleo = memory_of("nucleo-l053r8")
    both = make_plan(defs, catalog, camp, Selection(jobs=1, board=board, board_core_only=True,
                                                   core_boards=(nucleo,)))
    ran = [b for b in both.builds if not b.skip_status and b.target.startswith("qemu-")]
    assert {b.target for b in ran} == {"qemu-mps2-an386", "qemu-microbit"}
    assert all(b.unit is Unit.CYCLES for b in ran)
    boards = {b.target: both.measure_of(b).board for b in ran}
    assert boards == {"qemu-mps2-an386": board, "qemu-microbit": nucleo}
    again = type(both).from_json(both.as_json())  # --resume reads the same boards
    assert {b.target: again.measure_of(b).board for b in ran} == boards


def test_as_board_takes_one_board_per_core(tmp_path: Path) -> None:
    result = invoke("study", "run", "ungurean2020", "--as-board", "stm32f407,b-l475e-iot01a",
                    "--out", str(tmp_path))
    assert result.exit_code == 1 and "two boards of one core" in result.output, result.output
    assert "stm32f407 and b-l475e-iot01a" in result.output
