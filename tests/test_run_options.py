"""Small frictions of `run` (issue 33): `--profile default,vendor`, a
campaign's profiles kept under `--port`, and a misspelt campaign key named
with its file and line. The real planner and loader; nothing is built."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rtosmeter.catalog import load_catalog
from rtosmeter.cli import cli
from rtosmeter.definitions import Definitions
from rtosmeter.definitions.campaigns import load_campaign
from rtosmeter.errors import UserError
from rtosmeter.plan import Selection, make_plan

TWO_PROFILES = """name = "two"
profiles = ["default", "vendor"]

[[run]]
ports = ["baremetal"]
targets = ["qemu-mps2-an386"]
"""


def _keys(root: Path, sel: Selection, campaign: Path | None = None) -> set[tuple[str, str, str]]:
    defs = Definitions.load(root)
    plan = make_plan(defs, load_catalog(root), defs.campaign(str(campaign) if campaign
                                                             else None), sel)
    return {(b.port, b.target, b.profile) for b in plan.builds}


def test_profile_takes_a_list(root: Path) -> None:
    """Before: "unknown profile 'default,vendor'" (exit 1)."""
    keys = _keys(root, Selection(ports=("posix",), profile="default, vendor"))
    assert keys == {("posix", "host", "default"), ("posix", "host", "vendor")}


def test_campaign_profiles_stay_under_port(root: Path, tmp_path: Path) -> None:
    """Before: `--campaign two --port posix` planned posix in `default` only."""
    path = tmp_path / "two.toml"
    path.write_text(TWO_PROFILES)
    assert _keys(root, Selection(ports=("posix",)), path) == {
        ("posix", "host", "default"), ("posix", "host", "vendor")}
    assert _keys(root, Selection(ports=("posix",), targets=("host",)), path) == {
        ("posix", "host", "default"), ("posix", "host", "vendor")}
    assert _keys(root, Selection(ports=("posix",), profile="quick"), path) == {
        ("posix", "host", "quick")}


def test_a_misspelt_campaign_key_is_named_with_its_line(tmp_path: Path) -> None:
    """Before: "missing key 'run[0].ports'" without the key that was written."""
    path = tmp_path / "typo.toml"
    path.write_text(TWO_PROFILES.replace('ports = ["baremetal"]', 'port = ["baremetal"]'))
    result = CliRunner().invoke(cli, ["run", "--campaign", str(path), "--out",
                                      str(tmp_path / "out")])
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: unknown key 'run[0].port' (missing key "
                                    f"'run[0].ports') in {path}:5. Did you mean ports = "), \
        result.output
    with pytest.raises(UserError, match=r"run\[0\]\.port"):
        load_campaign(path)
