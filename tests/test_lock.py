"""requirements.lock against pyproject.toml: every dependency pinned, with
hashes, and install.sh installs from it (pip --require-hashes)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _name(req: str) -> str:
    return re.split(r"[<>=!~\[; ]", req, maxsplit=1)[0].lower().replace("_", "-")


def test_every_dependency_is_pinned_with_hashes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r) for r in project["dependencies"]}
    for extra in ("dev", "boards", "farm", "power"):
        wanted |= {_name(r) for r in project["optional-dependencies"][extra]}
    lock = (ROOT / "requirements.lock").read_text()
    pins = dict(re.findall(r"^([A-Za-z0-9_.\-]+)==(\S+) \\$", lock, re.MULTILINE))
    pinned = {n.lower().replace("_", "-") for n in pins}
    assert wanted - pinned == set()
    blocks = re.split(r"\n(?=[A-Za-z0-9])", lock.split("\n\n", 1)[1])
    assert all("--hash=sha256:" in b for b in blocks if "==" in b)
    assert "--find-links" not in lock  # no path of the machine that wrote it
    script = (ROOT / "scripts" / "install.sh").read_text()
    assert "pip install -q --require-hashes -r requirements.lock" in script
    assert "pip install -q --no-deps -e ." in script


def test_ppk2_api_is_pinned_apart_and_installed_without_pyserial() -> None:
    """requirements-ppk2.lock pins ppk2-api with its hash; install.sh installs
    it after the lock with --no-deps, so labgrid's pyserial-labgrid alone
    provides `serial`, and the PPK2's library imports with it."""
    lock = (ROOT / "requirements-ppk2.lock").read_text()
    pins = re.findall(r"^([A-Za-z0-9_.\-]+)==(\S+) \\$", lock, re.MULTILINE)
    assert [name for name, _ in pins] == ["ppk2-api"] and "--hash=sha256:" in lock
    script = (ROOT / "scripts" / "install.sh").read_text()
    main = script.index("--require-hashes -r requirements.lock")
    assert script.index("--no-deps --require-hashes -r requirements-ppk2.lock") > main
    main_lock = (ROOT / "requirements.lock").read_text()
    assert "\npyserial-labgrid==" in main_lock and "\npyserial==" not in main_lock
    # in this environment, made by install.sh
    from importlib.metadata import packages_distributions, version

    assert packages_distributions()["serial"] == ["pyserial-labgrid"]
    assert version("ppk2-api") == pins[0][1]
    import serial.tools.list_ports
    from ppk2_api.ppk2_api import PPK2_API

    assert callable(serial.tools.list_ports.comports) and hasattr(serial, "Serial")
    assert isinstance(PPK2_API.list_devices(), list)  # no PPK2 here: an empty list
