"""docs/studies.md stays true to the code: its example is read by the strict
loader (so every key it shows is one the code reads), every field the code
reads is in it, and each vocabulary is listed whole."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from rtosmeter.studies import definition, model

DOC = Path(__file__).parents[1] / "docs" / "studies.md"
# Study fields that are not keys of their own in the file
NOT_KEYS = {"file", "params"}
ARRAYS = {"systems": "system", "targets": "target", "operations": "operation",
          "figures": "figure", "findings": "finding", "tables": "table"}


def example(tmp_path: Path) -> Path:
    block = re.search(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert block, "docs/studies.md has no ```toml example"
    path = tmp_path / "example2024" / "study.toml"
    path.parent.mkdir()
    path.write_text(block.group(1), encoding="utf-8")
    return path


def test_the_example_loads(tmp_path: Path) -> None:
    study = definition.parse(example(tmp_path))
    assert study.name == "example2024" and study.findings[0].rerun is not None
    assert study.params == {"qemu": {"tm_period_ms": 100}}


@pytest.mark.parametrize("record", [model.Study, model.System, model.StudyTarget, model.Matrix,
                                    model.Operation, model.Figure, model.Finding, model.Table])
def test_every_field_is_in_the_example(tmp_path: Path, record: type) -> None:
    text = example(tmp_path).read_text(encoding="utf-8")
    for f in dataclasses.fields(record):
        if f.name in NOT_KEYS:
            continue
        key = ARRAYS.get(f.name, f.name)
        assert re.search(rf"^(\[\[{key}\]\]|\[{key}\]|{key} =)", text, re.M), \
            f"{record.__name__}.{f.name} is not documented as '{key}'"


def test_rerun_keys_and_vocabularies_are_listed() -> None:
    text = DOC.read_text(encoding="utf-8")
    names = [f.name for f in dataclasses.fields(model.Rerun)]
    words = [*names, *model.STATS, *model.KINDS, *model.CAUSES, *model.TABLE_AXES,
             *[u for u in model.TABLE_UNITS], *[m for m in model.MARK_ALONG]]
    missing = [w for w in words if w not in text]
    assert not missing, f"docs/studies.md does not name {missing}"
    for group in (model.STATS, model.KINDS, model.CAUSES):
        listed = [w for w in group if f"`{w}`" in text]
        assert listed == list(group), f"docs/studies.md lists {listed} of {group}"
