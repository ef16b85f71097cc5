"""The Zephyr board of each target: port.toml [targets] names it (with its
modules), the planner passes it (RM_NATIVE_BOARD, RM_NATIVE_DIR) and
ports/zephyr/board.cmake names it for the tree's Zephyr version: 3.5/3.6
(hardware model v1, `mps2_an385`) and 3.7+ (model v2, `mps2/an385`), where
the mps2 family's own boards (model v1) are refused with the reason. Runs
the real CMake function on trees that hold only the VERSION file it reads
(no Zephyr tree needed, so it runs in CI)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from rtosmeter.build import BuildSpec, cmake_configure_command
from rtosmeter.definitions import Definitions, project_root

ROOT = project_root()
BOARD = ROOT / "ports" / "zephyr" / "board.cmake"


def board_for(tmp_path: Path, target: str, version: tuple[int, int, int]) -> tuple[int, str]:
    """(exit code, output) of rm_zephyr_board on what port.toml [targets]
    says for `target`, on a tree of `version`."""
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.skip("cmake is not installed (scripts/install.sh installs it)")
    defs = Definitions.load(ROOT)
    port, tg = defs.port("zephyr"), defs.target(target)
    entry = port.entry(tg)
    assert entry is not None, target
    native = tg.native_dir("zephyr") or ""
    tree = tmp_path / f"zephyr-{'.'.join(map(str, version))}"
    tree.mkdir(exist_ok=True)
    major, minor, patch = version
    (tree / "VERSION").write_text(f"VERSION_MAJOR = {major}\nVERSION_MINOR = {minor}\n"
                                  f"PATCHLEVEL = {patch}\nVERSION_TWEAK = 0\nEXTRAVERSION =\n")
    script = tmp_path / "board.cmake"
    script.write_text(f'include("{BOARD}")\n'
                      f'rm_zephyr_board("{entry.board}" "{native}" "{tree}")\n'
                      f'message(STATUS "board=${{RM_ZEPHYR_BOARD}} '
                      f'modules={";".join(entry.modules)}")\n')
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


def test_own_boards_live_with_their_family() -> None:
    """The an386/an500 boards and their SoC are the mps2 family's: the
    harness passes that folder as RM_NATIVE_DIR (BOARD_ROOT, SOC_ROOT)."""
    defs = Definitions.load(ROOT)
    for name, board in (("qemu-mps2-an386", "rm_mps2_an386"), ("qemu-mps2-an500", "rm_mps2_an500")):
        native = defs.target(name).native_dir("zephyr")
        assert native == ROOT / "targets" / "mps2" / "native" / "zephyr"
        assert (native / "boards" / "arm" / board / f"{board}.dts").is_file()
        assert (native / "soc" / "arm" / "rm_mps2" / "soc.h").is_file()
    assert defs.target("qemu-microbit").native_dir("zephyr") is None


def test_unknown_target_is_unsupported_at_plan_time() -> None:
    """A target port.toml names no board for is never configured: the reason
    names the file, and the CMake project holds no list of targets."""
    defs = Definitions.load(ROOT)
    why = defs.port("zephyr").unsupported_reason(defs.target("stm32f407"))
    assert "stm32f407" in why and "ports/zephyr/port.toml [targets]" in why
    cmake = (ROOT / "ports" / "zephyr" / "app" / "CMakeLists.txt").read_text()
    assert "qemu-mps2" not in cmake and "stm32f407" not in cmake


def test_configure_command_carries_the_board() -> None:
    """What CMake consumes: the board, modules and family folder of port.toml."""
    defs = Definitions.load(ROOT)
    target = defs.target("qemu-mps2-an386")
    spec = BuildSpec(defs.port("zephyr"), target, defs.profile("quick"),
                     defs.profile("quick").params_for(target.kind), ("lat_isr",), None,
                     Path("/nonexistent"), defs.toolchain("gcc"))
    cmd = cmake_configure_command(spec, ROOT, Path("/nonexistent"))
    assert "-DRM_NATIVE_BOARD=rm_mps2_an386" in cmd and "-DRM_NATIVE_MODULES=cmsis" in cmd
    assert f"-DRM_NATIVE_DIR={ROOT}/targets/mps2/native/zephyr" in cmd
