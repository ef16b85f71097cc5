"""studies/belleza2018: the transcription against the paper's own text.

Every figure of Tables 3 and 4 must be the number printed in the seed's row
for that statistic and system, and every `quote` must be the paper's words;
the seed is the paper's text (the study's `seed` file, not in the repository)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "studies" / "belleza2018" / "study.toml"
SEEDS = ROOT.parent / "shared" / "seeds"
SYSTEMS = ["FreeRTOS", "RIOT", "µC/OS-II", "µC/OS-III", "Zephyr"]  # the tables' column order
ROW = {"mean": "mean", "std": "std", "min": "min", "p1": "1%", "p25": "25%", "median": "50%",
       "p75": "75%", "p99": "99%", "max": "max"}


def _study() -> dict[str, Any]:
    with STUDY.open("rb") as f:
        return tomllib.load(f)


def _seed() -> str:
    path = SEEDS / _study()["seed"]
    if not path.is_file():
        pytest.skip(f"the seed {path} is not here (the study's source text, outside the repo)")
    return path.read_text(encoding="utf-8")


def _table_rows(seed: str, title: str) -> dict[str, list[str]]:
    """The seed's table under `title`: first cell (lower case) -> the five values as printed."""
    block = seed.split(title, 1)[1].split("\n\n", 2)[1]
    rows = {}
    for line in block.splitlines():
        cells = line.split("\t")
        rows[cells[0].strip().lower()] = [c.strip() for c in cells[1:]]
    return rows


@pytest.mark.parametrize(("operation", "title"), [
    ("A.suspend", "Table 3 Task suspension statistics"),
    ("A.resume", "Table 4 Task resume statistics"),
])
def test_tables_3_and_4_are_transcribed_as_printed(operation: str, title: str) -> None:
    rows = _table_rows(_seed(), title)
    figures = [f for f in _study()["figure"] if f["operation"] == operation]
    assert len(figures) == len(SYSTEMS) * len(ROW)
    for f in figures:
        printed = rows[ROW[f["stat"]]][SYSTEMS.index(f["system"])]
        assert float(printed) == f["value"], (operation, f["system"], f["stat"], printed)
        assert f["unit"] == "µs" and title.split(" Task")[0] in f["source"]


def test_every_quote_is_the_papers_own_words() -> None:
    text = re.sub(r"\s+", " ", _seed())
    quoted = [f for f in _study()["finding"] if f.get("quote")]
    assert quoted
    for f in quoted:
        # a quote is one or more passages, each followed by its section; "..." elides
        for passage in re.split(r" \(§[0-9.]+\)(?:; )?| \.\.\. ", f["quote"]):
            if passage.strip():
                assert re.sub(r"\s+", " ", passage.strip()) in text, (f["id"], passage)
