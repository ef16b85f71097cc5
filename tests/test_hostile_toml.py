"""Numbers and lists in TOML files that once disabled a limit, crashed the
harness or selected everything: each a clear error naming the file and key.
The real target.toml and campaign files, edited, loaded by the real code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import invoke

from rtosmeter.definitions import load_campaign, load_target
from rtosmeter.errors import UserError

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "targets" / "mps2" / "qemu-mps2-an385" / "target.toml"


def _target(tmp_path: Path, old: str, new: str) -> Path:
    text = TARGET.read_text()
    assert old in text
    path = tmp_path / "qemu-mps2-an385" / "target.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.replace(old, new))
    return path


@pytest.mark.parametrize("old,new,key,why", [
    ("wall_s = 300", "wall_s = nan", "limits.wall_s", "not a finite number"),
    ("wall_s = 300", "wall_s = inf", "limits.wall_s", "not a finite number"),
    ("wall_s = 300", "wall_s = 0", "limits.wall_s", "smaller than"),
    ("guest_s = 900", "guest_s = inf", "limits.guest_s", "not a finite number"),
    ("guest_s = 900", "guest_s = -1.5", "limits.guest_s", "smaller than"),
    ("icount_shift = 6", "icount_shift = -3", "qemu.icount_shift", "smaller than 0"),
    ("icount_shift = 6", "icount_shift = 11", "qemu.icount_shift", "larger than 10"),
    ("\nhz = 25000000", "\nhz = 0", "counter.hz", "smaller than 1"),
    ("\nhz = 25000000", "\nhz = -5", "counter.hz", "smaller than 1"),
    ("\nhz = 25000000", "\nhz = 9223372036854775807", "counter.hz", "larger than"),
    ("cpu_hz = 25000000", "cpu_hz = -25000000", "cpu_hz", "smaller than 0"),
])
def test_a_target_number_out_of_range_names_the_file_and_key(
        tmp_path: Path, old: str, new: str, key: str, why: str) -> None:
    path = _target(tmp_path, old, new)
    with pytest.raises(UserError) as info:
        load_target(path)
    text = info.value.message
    assert f"'{key}'" in text and why in text and str(path) in text, text


def test_the_real_limits_are_read(tmp_path: Path) -> None:
    t = load_target(_target(tmp_path, "wall_s = 300", "wall_s = 12.5"))
    assert (t.wall_limit_s, t.guest_limit_s, t.qemu and t.qemu.icount_shift) == (12.5, 900.0, 6)


def _campaign(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "c.toml"
    path.write_text(f'name = "c"\n[[run]]\n{body}\n')
    return path


@pytest.mark.parametrize("body,key", [
    ('ports = []\ntargets = ["host"]', "run[0].ports"),
    ('ports = ["posix"]\ntargets = []', "run[0].targets"),
])
def test_an_empty_list_of_ports_or_targets_is_an_error(tmp_path: Path, body: str,
                                                       key: str) -> None:
    """An empty list once ran everything (140 executions)."""
    path = _campaign(tmp_path, body)
    with pytest.raises(UserError, match=re.escape(f"'{key}' is empty in {path}")):
        load_campaign(path)
    result = invoke("run", "--out", str(tmp_path / "o"), "--campaign", str(path))
    assert result.exit_code == 1 and f"'{key}' is empty" in result.stderr
    assert not (tmp_path / "o" / "rtosmeter.sqlite").exists() or "nothing" not in result.stderr


@pytest.mark.parametrize("nest", ["[" * 5000 + "]" * 5000, "{a=" * 5000 + "1" + "}" * 5000])
def test_deep_nesting_is_a_clear_error(tmp_path: Path, nest: str) -> None:
    path = _campaign(tmp_path, f'ports = ["posix"]\ntargets = ["host"]\nx = {nest}')
    with pytest.raises(UserError, match=re.escape(f"nested too deep to read) in {path}")):
        load_campaign(path)
