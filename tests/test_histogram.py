"""`rtosmeter histogram` (issue 33): bins and tail percentiles of real
stored series, p99.9 and p99.99 only where the sample count supports them."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
from _datahalf import craft, store_run
from click.testing import CliRunner

from rtosmeter import distribution
from rtosmeter.cli import cli
from rtosmeter.commands.common import STORE_NAME

QEMU = {"runner": "qemu", "icount_shift": "0"}


def test_exact_series_get_one_bin_per_value_and_supported_tails(tmp_path: Path) -> None:
    samples = [530] * 1500 + [531] * 499 + [600]  # 1,999 warm after the cold one
    data = craft("p", "qemu-mps2-an386", 1_000_000_000, [0] * 50,
                 [("lat.x", {"x": samples})], unit="instructions")
    store_run(tmp_path / STORE_NAME, [(data, QEMU)])
    result = CliRunner().invoke(cli, ["histogram", "--out", str(tmp_path), "--format", "json",
                                      "--case", "lat.*"])
    assert result.exit_code == 0, result.output
    (series,) = json.loads(result.output)["series"]
    assert series["n"] == 1999 and series["unit"] == "instructions (QEMU icount)"
    bins = {b["low"]: b["count"] for b in series["bins"] if b["count"]}
    assert bins == {530.0: 1499, 531.0: 499, 600.0: 1}
    assert len(series["bins"]) == 600 - 530 + 1  # one per value, empty ones kept
    assert series["tail"]["p99.9"] is not None and series["tail"]["p99.99"] is None
    assert series["tail_rule"]["p99.99"] == "needs >= 10,000 samples (has 1,999)"
    table = CliRunner().invoke(cli, ["histogram", "--out", str(tmp_path)])
    rows = [r for r in csv.DictReader(io.StringIO(table.output)) if r["case_id"] == "lat.x"]
    assert rows[0]["bin_low"] == "530.0" and rows[0]["count"] == "1499"
    assert rows[0]["p99.99"] == "" and float(rows[0]["p99.9"]) > 530


def test_noisy_series_are_binned_within_the_limit() -> None:
    values = np.random.default_rng(3).normal(1000, 50, 20_000)
    d = distribution.of_series("s", "c", "x", "ns", values, max_bins=40)
    assert 1 < len(d.bins) <= 40 and sum(b.count for b in d.bins) == 20_000
    assert all(v is not None for v in d.tail.values())  # 20,000 samples: every tail
    assert d.tail["p99.99"] is not None and d.tail["p99.99"] > d.tail["p99.9"]  # type: ignore[operator]


def test_an_unknown_case_is_named(tmp_path: Path) -> None:
    data = craft("p", "host", 1_000_000_000, [0] * 5, [("lat.x", {"x": [5] * 10})])
    store_run(tmp_path / STORE_NAME, [(data, {"runner": "host"})])
    result = CliRunner().invoke(cli, ["histogram", "--out", str(tmp_path), "--case", "tm.*"])
    assert result.exit_code == 1 and "no latency series of a case matching 'tm.*'" in \
        result.output
