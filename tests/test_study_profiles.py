"""A study's own profile, from its folder: the paper's stated kernel options
(Beningo 2024 App. B's ThreadX settings) as compile definitions of that
port's firmware, and the kernel configuration it runs (Silva 2019: each OS
as shipped, the `vendor` configuration)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from rtos_ports import build_folder, need, run_port

from rtosmeter.build import BuildSpec, cmake_configure_command
from rtosmeter.definitions import Definitions, project_root
from rtosmeter.elf_symbols import symbol_address
from rtosmeter.errors import UserError

ROOT = project_root()
APPB = ("TX_NOT_INTERRUPTABLE", "TX_INLINE_THREAD_RESUME_SUSPEND", "TX_REACTIVATE_INLINE",
        "TX_DISABLE_REDUNDANT_CLEARING")


def _configure(defs: Definitions, port: str, profile: str) -> list[str]:
    p = defs.profile(profile)
    t = defs.targets["qemu-mps2-an386"]
    spec = BuildSpec(defs.ports[port], t, p, p.params_for(t.kind), ("tm_sched",), None,
                     Path("/tmp/unused"), defs.toolchains["gcc"])
    return cmake_configure_command(spec, ROOT, Path("/tmp/c"))


def test_a_study_s_profiles_come_from_its_folder_and_reach_the_build() -> None:
    defs = Definitions.load(ROOT)
    appb = defs.profile("beningo2024-appb")
    assert appb.file == ROOT / "studies/beningo2024/profiles/beningo2024-appb.toml"
    assert appb.defines == {"threadx": APPB} and appb.kernel == "default"
    threadx = _configure(defs, "threadx", "beningo2024-appb")
    assert f"-DRM_KERNEL_DEFINES={';'.join(APPB)}" in threadx
    assert "-DRM_PROFILE=default" in threadx
    # another port in the same profile takes none of ThreadX's options
    assert "-DRM_KERNEL_DEFINES=" in _configure(defs, "freertos", "beningo2024-appb")
    shipped = _configure(defs, "freertos", "silva2019-as-shipped+net-idle")
    assert "-DRM_PROFILE=vendor" in shipped  # a loaded study profile keeps its kernel


@pytest.mark.parametrize(("text", "what"), [
    ('kernel = "turbo"\n', "unknown kernel configuration 'turbo'"),
    ('[defines]\nnosuch = ["A"]\n', "unknown port 'nosuch'"),
    ('[defines]\nzephyr = ["A"]\n', "builds with its own build system"),
    ('[defines]\nthreadx = ["1BAD"]\n', "'1BAD' is not a compile definition"),
])
def test_a_broken_study_profile_names_its_file_and_key(tmp_path: Path, text: str,
                                                       what: str) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "__pycache__", "*.sqlite", "tests", "docs"))
    path = tree / "studies/beningo2024/profiles/broken.toml"
    path.write_text(f'name = "broken"\nopt = "speed"\n{text}', encoding="utf-8")
    with pytest.raises(UserError) as err:
        Definitions.load(tree)
    assert what in str(err.value) and str(path) in str(err.value), str(err.value)


@pytest.mark.rtos
@pytest.mark.skipif(not os.environ.get("RTOSMETER_THREADX"),
                    reason="RTOSMETER_THREADX is not set to an RTOS tree")
def test_app_b_s_options_build_threadx_s_non_interruptable_paths(tmp_path: Path) -> None:
    """With TX_NOT_INTERRUPTABLE ThreadX resumes threads through its
    _tx_thread_system_ni_resume; the default build has no such function."""
    need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    tree = os.environ["RTOSMETER_THREADX"]
    for profile, has_ni in (("beningo2024-appb", True), ("default", False)):
        streams = run_port(tmp_path, "threadx", "qemu-mps2-an386", tree, profile=profile,
                           bench="tm.cooperative")
        assert b"tm.cooperative" in streams["tm_sched"]
        elf = build_folder(tmp_path, "threadx", "qemu-mps2-an386", profile) / "rm_tm_sched.elf"
        assert (symbol_address(elf, "_tx_thread_system_ni_resume") is not None) == has_ni
