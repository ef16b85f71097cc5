"""rtosmeter.attribution's pure parts on hand-made data: a series meets the
group of its intervals by count, sum and hash (the epoch telling apart two
cases with the same samples); a diff names the functions that changed; the
port's category rules are read strictly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rtosmeter.attribution.breakdown import Breakdown, FunctionCost
from rtosmeter.attribution.categories import MEASUREMENT, category, rules
from rtosmeter.attribution.diff import sentence
from rtosmeter.attribution.match import Attribution, Group, match, samples_hash
from rtosmeter.attribution.stacks import folded, speedscope
from rtosmeter.errors import UserError
from rtosmeter.reports import render
from rtosmeter.reports.document.explain import sheet


def _group(epoch: int, samples: list[int], open_site: int = 0x100) -> Group:
    arr = np.array(samples, dtype=np.uint32)
    return Group(epoch, open_site, open_site + 8, len(samples), int(arr.sum()), 0,
                 samples_hash(arr), {"f": (int(arr.sum()), 0, len(samples))})


def test_a_series_meets_the_group_of_its_own_samples_and_case() -> None:
    same = [55, 55, 55]
    att = Attribution("instructions", (_group(1, [2, 2, 2]), _group(2, same, 0x200),
                                       _group(3, same, 0x300), _group(3, [9, 1])))
    got = match(att, [("calib.overhead", [("overhead", np.array([2, 2, 2], np.uint32))]),
                      ("a", [("give", np.array(same, np.uint32))]),
                      ("b", [("give", np.array(same, np.uint32)),
                             ("span", np.array([10], np.uint32))])])
    assert [(m.case_id, m.series, m.group.open if m.group else None) for m in got] == [
        ("calib.overhead", "overhead", 0x100), ("a", "give", 0x200), ("b", "give", 0x300),
        ("b", "span", None)]
    assert "span" in got[3].reason
    # the order of the samples counts, not only their sum
    swapped = match(att, [("x", []), ("y", []), ("b", [("s", np.array([1, 9], np.uint32))])])
    assert swapped[0].group is None


def _bd(port: str, funcs: dict[str, int], samples: int = 2) -> Breakdown:
    fs = tuple(FunctionCost(n, v * samples, None, samples) for n, v in funcs.items())
    total = sum(f.instructions for f in fs)
    return Breakdown(1, f"{port}/qemu-mps2-an386/default", port, "lat.sem.nocs", "give",
                     samples, total, "instructions", 2.0, fs)


def test_the_diff_names_the_function_that_changed() -> None:
    a = _bd("freertos", {"xQueueGenericSend": 22, "prvCopyDataToQueue": 10, "run_sem_nocs": 7})
    b = _bd("freertos", {"xQueueGenericSend": 25, "prvCopyDataToQueue": 10, "run_sem_nocs": 7})
    assert sentence("lat.sem.nocs give", a, b) == (
        "lat.sem.nocs give +3: xQueueGenericSend +3 (prvCopyDataToQueue, run_sem_nocs "
        "unchanged)")
    c = _bd("freertos", {"xQueueGenericSend": 22, "vNew": 1.5, "run_sem_nocs": 7})
    assert sentence("g", a, c) == ("g -8.5: prvCopyDataToQueue -10 (gone), vNew +1.5 (new) "
                                   "(xQueueGenericSend, run_sem_nocs unchanged)")


def test_outputs_sum_to_the_samples() -> None:
    b = _bd("freertos", {"xQueueGenericSend": 22, "run_sem_nocs": 7})
    text = render(sheet([b], "t"), "table")
    assert "xQueueGenericSend" in text and "= the samples' sum, exactly" in text
    assert folded([b]).splitlines() == [
        "freertos/qemu-mps2-an386/default;lat.sem.nocs.give;xQueueGenericSend 44",
        "freertos/qemu-mps2-an386/default;lat.sem.nocs.give;run_sem_nocs 14"]
    doc = speedscope([b], "t")
    assert doc["profiles"][0]["weights"] == [44, 14]
    assert [doc["shared"]["frames"][i]["name"] for i in doc["profiles"][0]["samples"][0]] == [
        "lat.sem.nocs give", "xQueueGenericSend"]


def test_category_rules(tmp_path: Path) -> None:
    (tmp_path / "k").mkdir()
    (tmp_path / "k" / "attribution.toml").write_text(
        '[categories]\n"critical section" = ["vPort*Critical"]\nlists = ["vList*", "uxList*"]\n')
    r = rules(tmp_path, "k@V1")
    assert category("vPortEnterCritical", r) == "critical section"
    assert category("uxListRemove", r) == "lists"
    assert category("run_sem_nocs", r) == MEASUREMENT
    assert category("xQueueGenericSend", r) == "other"
    view = render(sheet([_bd("k", {"vPortEnterCritical": 9, "run_sem_nocs": 7})], "t",
                        ports_dir=tmp_path), "table")
    assert "critical section" in view and "9.00" in view
    (tmp_path / "k" / "attribution.toml").write_text('[categories]\n"locks" = ["x"]\n')
    with pytest.raises(UserError, match="unknown category 'locks'"):
        rules(tmp_path, "k")
    # a misspelt table is named, a file that is not UTF-8 too (not an internal error)
    (tmp_path / "k" / "attribution.toml").write_text('[categorys]\nlists = ["vList*"]\n')
    with pytest.raises(UserError, match="unknown key or table 'categorys'"):
        rules(tmp_path, "k")
    (tmp_path / "k" / "attribution.toml").write_bytes(b'[categories]\nlists = ["\xff"]\n')
    with pytest.raises(UserError, match="not UTF-8"):
        rules(tmp_path, "k")
