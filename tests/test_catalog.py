"""The catalog read from bench/cases/*.c and the capabilities from port.h."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rtosmeter.catalog import CASES_DIR, PORT_H, load_caps, load_catalog
from rtosmeter.errors import UserError


def _tree(tmp_path: Path, root: Path, cases: dict[str, str]) -> Path:
    (tmp_path / PORT_H).parent.mkdir(parents=True)
    shutil.copy(root / PORT_H, tmp_path / PORT_H)
    (tmp_path / CASES_DIR).mkdir(parents=True)
    for name, text in cases.items():
        (tmp_path / CASES_DIR / name).write_text(text)
    return tmp_path


def test_caps_match_the_x_macro_lines(root: Path) -> None:
    caps = load_caps(root)
    text = (root / PORT_H).read_text()
    expected = re.findall(r"X\((\w+), (\d+),", text)
    assert [(c.name, c.bit) for c in caps.values()] == [(n, int(b)) for n, b in expected]
    assert len({c.bit for c in caps.values()}) == len(caps)
    assert all(c.description for c in caps.values())


def test_real_catalog_groups_are_file_stems(root: Path) -> None:
    catalog = load_catalog(root)
    stems = {p.stem for p in (root / CASES_DIR).glob("*.c")}
    assert catalog.cases, "bench/cases/*.c registers no RM_CASE"
    assert set(catalog.groups) <= stems
    for case in catalog.cases:
        assert case.file.stem == case.group
        assert set(case.needs) <= set(catalog.caps)
        line = case.file.read_text().splitlines()[case.line - 1]
        assert f'"{case.id}"' in line


def test_needs_and_masks(tmp_path: Path, root: Path) -> None:
    tree = _tree(tmp_path, root, {"sem.c": (
        "/* a group */\n#define BASE (RM_CAP_THREAD | RM_CAP_PREEMPTIVE) /* two */\n"
        'RM_CASE(d, "lat.sem.macro", BASE | RM_CAP_SEM, run_d, KIND(RM_OBJ_SEM));\n'
        'RM_CASE(a, "lat.sem.nocs", RM_CAP_SEM, run_a, NULL);\n'
        '  RM_CASE(b, "lat.sem.pass", RM_CAP_SEM | RM_CAP_THREAD, run_b, &params_b);\n'
        'RM_CASE(c, "tm.basic", 0, run_c, NULL);\n')})
    catalog = load_catalog(tree)
    assert [(c.id, c.group, c.needs) for c in catalog.cases] == [
        ("lat.sem.macro", "sem", ("THREAD", "PREEMPTIVE", "SEM")),
        ("lat.sem.nocs", "sem", ("SEM",)),
        ("lat.sem.pass", "sem", ("SEM", "THREAD")),
        ("tm.basic", "sem", ()),
    ]
    assert catalog.caps_mask(["THREAD", "SEM"]) == (1 << catalog.caps["THREAD"].bit) | (
        1 << catalog.caps["SEM"].bit)
    assert [c.id for c in catalog.select("lat.sem.*")] == [
        "lat.sem.macro", "lat.sem.nocs", "lat.sem.pass"]
    assert [c.id for c in catalog.select("tm.*,lat.sem.pass")] == ["lat.sem.pass", "tm.basic"]
    assert catalog.groups_for("tm.basic") == ["sem"]
    with pytest.raises(UserError, match=r"no benchmark matches 'nothing.*' in --bench"):
        catalog.groups_for("nothing.*")


def test_malformed_line_names_file_and_line(tmp_path: Path, root: Path) -> None:
    tree = _tree(tmp_path, root, {"x.c": 'int a;\nRM_CASE(a, lat.x, 0, f, NULL);\n'})
    with pytest.raises(UserError) as err:
        load_catalog(tree)
    assert f"{tree / CASES_DIR / 'x.c'}:2" in str(err.value)
    assert "malformed RM_CASE" in str(err.value)


def test_unknown_capability_and_duplicate_id(tmp_path: Path, root: Path) -> None:
    tree = _tree(tmp_path, root, {"x.c": 'RM_CASE(a, "lat.x", RM_CAP_TELEPORT, f, NULL);\n'})
    with pytest.raises(UserError, match=r"unknown capability 'RM_CAP_TELEPORT'.*x.c:1"):
        load_catalog(tree)
    (tree / CASES_DIR / "x.c").write_text('RM_CASE(a, "lat.x", 0, f, NULL);\n')
    (tree / CASES_DIR / "y.c").write_text('RM_CASE(b, "lat.x", 0, g, NULL);\n')
    with pytest.raises(UserError, match=r"case ID 'lat.x' registered twice"):
        load_catalog(tree)
