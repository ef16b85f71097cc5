"""ports/zephyr/boards.cmake names Zephyr's board per rtosmeter target and
Zephyr version: 3.5/3.6 (hardware model v1, `mps2_an385`) and 3.7+ (model v2,
`mps2/an385`). Runs the real CMake function on trees that hold only the
VERSION file it reads (no Zephyr tree needed, so it runs in CI)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from rtosmeter.definitions import project_root

BOARDS = project_root() / "ports" / "zephyr" / "boards.cmake"


def board_for(tmp_path: Path, target: str, version: tuple[int, int, int]) -> tuple[int, str]:
    """(exit code, output) of rm_zephyr_board(target) on a tree of `version`."""
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.skip("cmake is not installed (scripts/install.sh installs it)")
    tree = tmp_path / f"zephyr-{'.'.join(map(str, version))}"
    tree.mkdir(exist_ok=True)
    major, minor, patch = version
    (tree / "VERSION").write_text(f"VERSION_MAJOR = {major}\nVERSION_MINOR = {minor}\n"
                                  f"PATCHLEVEL = {patch}\nVERSION_TWEAK = 0\nEXTRAVERSION =\n")
    script = tmp_path / "board.cmake"
    script.write_text(f'include("{BOARDS}")\n'
                      f'rm_zephyr_board("{target}" "{tree}")\n'
                      'message(STATUS "board=${RM_ZEPHYR_BOARD} '
                      'modules=${RM_ZEPHYR_BOARD_MODULES}")\n')
    done = subprocess.run([cmake, "-P", str(script)], capture_output=True, text=True, check=False)
    return done.returncode, " ".join((done.stdout + done.stderr).split())  # CMake wraps lines


@pytest.mark.slow
@pytest.mark.parametrize(("version", "board"), [((3, 5, 0), "mps2_an385"),
                                                ((3, 6, 0), "mps2_an385"),
                                                ((3, 7, 0), "mps2/an385"),
                                                ((4, 0, 0), "mps2/an385")])
def test_an385_board_name_follows_the_hardware_model(tmp_path: Path, version: tuple[int, int, int],
                                                     board: str) -> None:
    rc, out = board_for(tmp_path, "qemu-mps2-an385", version)
    assert rc == 0, out
    assert f"board={board} modules=cmsis" in out


@pytest.mark.slow
def test_microbit_board_and_module_in_both_models(tmp_path: Path) -> None:
    for version in ((3, 5, 0), (3, 7, 0)):
        rc, out = board_for(tmp_path, "qemu-microbit", version)
        assert rc == 0, out
        assert "board=qemu_cortex_m0 modules=cmsis;nordic" in out


@pytest.mark.slow
def test_own_boards_refused_on_model_v2_with_the_reason(tmp_path: Path) -> None:
    rc, _ = board_for(tmp_path, "qemu-mps2-an386", (3, 5, 0))
    assert rc == 0
    rc, out = board_for(tmp_path, "qemu-mps2-an386", (3, 7, 0))
    assert rc != 0
    assert "rm_mps2_an386" in out and "model v1" in out and "3.7" in out


@pytest.mark.slow
def test_unknown_target_named(tmp_path: Path) -> None:
    rc, out = board_for(tmp_path, "qemu-nowhere", (3, 5, 0))
    assert rc != 0 and "qemu-nowhere" in out and "boards.cmake" in out
