"""Builds with the real CMake + gcc: config header, recorded config, failures."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from rtosmeter.build import BuildSpec, build, check_tools, config_header, tm_method
from rtosmeter.catalog import load_catalog
from rtosmeter.definitions import Definitions
from rtosmeter.errors import ToolMissing

BROKEN_CASE = ('#error deliberately broken group\n'
               'RM_CASE(zz, "zz.broken", 0, run_zz, NULL);\n')


def broken_tree(tmp: Path, root: Path) -> Path:
    """A tree with the real ports/targets and a copy of bench/ plus a group that fails."""
    tree = tmp / "tree"
    tree.mkdir()
    shutil.copytree(root / "bench", tree / "bench")
    (tree / "bench" / "cases" / "zz_broken.c").write_text(BROKEN_CASE)
    for name in ("ports", "targets", "profiles", "campaigns", "toolchains"):
        if (root / name).exists():
            (tree / name).symlink_to(root / name)
    return tree


def spec_for(defs: Definitions, out: Path, groups: tuple[str, ...], profile: str = "quick",
             port: str = "posix", target: str = "host", toolchain: str = "gcc") -> BuildSpec:
    t = defs.targets[target]
    return BuildSpec(defs.ports[port], t, defs.profiles[profile],
                     defs.profiles[profile].params_for(t.kind), groups, None, out,
                     defs.toolchains[toolchain])


@pytest.mark.slow
def test_header_caps_agree_with_the_c_enum(root: Path, tmp_path: Path) -> None:
    """Compile the generated header against port.h: RM_PORT_CAPS is the OR of the caps."""
    defs = Definitions.load(root)
    catalog = load_catalog(root)
    spec = spec_for(defs, tmp_path, ("irq",), profile="default")
    header = config_header(spec, catalog)
    (tmp_path / "rm_build_config.h").write_text(header)
    expr = " | ".join(f"RM_CAP_{c}" for c in spec.port.caps)
    (tmp_path / "t.c").write_text(
        '#include "rm_build_config.h"\n#include "rtosmeter/port.h"\n'
        f"_Static_assert(RM_PORT_CAPS == ({expr}), \"caps\");\n"
        f"_Static_assert(RM_SAMPLES == {spec.params.samples}u, \"samples\");\n"
        f"_Static_assert(RM_TS_HZ == {spec.target.counter.hz}u, \"hz\");\n"
        "#ifdef RM_NO_WFI\n#error host builds may idle\n#endif\n"
        "const char *names[] = {RM_PORT_NAME, RM_TARGET_NAME, RM_PROFILE, RM_TS_NAME,\n"
        "                       RM_TS_UNIT};\n"
        "unsigned p[] = {RM_BATCH, RM_TM_PERIOD_MS, RM_TM_PERIODS};\n")
    proc = subprocess.run(["gcc", "-std=c11", "-Wall", "-Werror", "-c", "t.c", "-I.",
                           f"-I{root / 'bench' / 'include'}", "-o", "t.o"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    qemu = defs.targets.get("qemu-mps2-an386")
    if qemu is not None:
        assert "#define RM_NO_WFI 1" in config_header(replace(spec, target=qemu), catalog)


@pytest.mark.slow
def test_real_build_records_what_was_built(root: Path, tmp_path: Path) -> None:
    defs = Definitions.load(root)
    catalog = load_catalog(root)
    result = build(spec_for(defs, tmp_path, ("irq",)), root, catalog, jobs=2)
    assert result.status == "ok", result.error
    exe = result.executables["irq"]
    assert exe == tmp_path / "build/posix/host/quick/rm_irq" and exe.is_file()
    cfg = result.config
    assert cfg["compiler_version"].startswith(("gcc", "cc"))
    assert len(cfg["source_hash"]) == 16 and cfg["opt_flags"] == "-O2"
    assert cfg["compiler"].endswith("gcc") and cfg["samples"] == "256"
    assert cfg["toolchain"] == "gcc" and cfg["opt"] == "speed"
    assert cfg["compiler_short"] and cfg["compiler_short"] in cfg["compiler_version"]
    assert (tmp_path / "build/posix/host/quick/config/rm_build_config.h").is_file()
    assert result.log is not None and "cmake --build" in result.log.read_text()


@pytest.mark.slow
def test_a_copied_out_folder_builds_where_it_is(root: Path, tmp_path: Path) -> None:
    """A campaign folder copied elsewhere keeps CMake caches naming the old
    folder, which CMake refuses: the build forgets them and configures anew."""
    defs = Definitions.load(root)
    catalog = load_catalog(root)
    first = build(spec_for(defs, tmp_path / "a", ("irq",)), root, catalog, jobs=2)
    assert first.status == "ok", first.error
    shutil.copytree(tmp_path / "a", tmp_path / "b", symlinks=True)
    again = build(spec_for(defs, tmp_path / "b", ("irq",)), root, catalog, jobs=2)
    assert again.status == "ok", again.error
    cache = (tmp_path / "b/build/posix/host/quick/CMakeCache.txt").read_text()
    assert f"CMAKE_CACHEFILE_DIR:INTERNAL={tmp_path / 'b'}" in cache


@pytest.mark.slow
def test_a_broken_group_does_not_stop_the_others(root: Path, tmp_path: Path) -> None:
    tree = broken_tree(tmp_path, root)
    defs = Definitions.load(tree)
    catalog = load_catalog(tree)
    out = tmp_path / "out"
    result = build(spec_for(defs, out, ("irq", "zz_broken")), tree, catalog, jobs=2)
    assert result.status == "failed"
    assert set(result.executables) == {"irq"}
    assert set(result.failed_groups) == {"zz_broken"}
    assert "deliberately broken group" in result.error
    assert str(out / "build/posix/host/quick") in result.error
    assert f"Full log: {result.log}" in result.error


def test_missing_toolchain_names_the_package(root: Path) -> None:
    defs = Definitions.load(root)
    gcc = defs.toolchains["gcc"]
    tc = replace(gcc, uses={"host": replace(gcc.uses["host"], needs=("nosuch-cc",))},
                 packages={"nosuch-cc": "nosuch-compiler"})
    with pytest.raises(ToolMissing) as err:
        check_tools(defs.targets["host"], tc, "target host")
    assert "nosuch-cc not found in target host" in str(err.value)
    assert "apt-get install nosuch-compiler" in str(err.value)


def test_a_toolchain_without_the_targets_prefix_needs_nothing_here(root: Path) -> None:
    """make_plan reports such a combination unsupported; the tools check stays quiet."""
    defs = Definitions.load(root)
    target = replace(defs.targets["host"], toolchain="nosuch-none-eabi")
    assert defs.toolchains["gcc"].use_for(target) is None


def test_tm_method_says_the_layer_and_a_short_emulated_period(root: Path, tmp_path: Path) -> None:
    """The stored build says how tm.* was measured (docs/measuring.md): through
    Thread-Metric's porting layer always; a period shorter than Thread-Metric's
    30 s only on an emulated target, with the reason."""
    defs = Definitions.load(root)
    qemu = tm_method(spec_for(defs, tmp_path, ("tm_ipc",), "default", "freertos",
                              "qemu-mps2-an386"))
    assert "tm_porting_layer.c" in qemu["tm_porting_layer"]
    assert qemu["tm_period_note"].startswith("100 ms periods, shorter than Thread-Metric's 30 s")
    assert "-icount" in qemu["tm_period_note"]
    host = tm_method(spec_for(defs, tmp_path, ("tm_ipc",), "default"))
    assert set(host) == {"tm_porting_layer"}
