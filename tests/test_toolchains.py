"""Toolchains side by side (toolchains/, rtosmeter.axes): bare metal on
qemu-mps2-an386 built with gcc and with clang in one real run, then what
each build recorded, the Clang firmware's ABI and determinism, the report's
columns and footprints per toolchain, and compare matching each toolchain
with itself."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from rtosmeter import analysis, compare, reports, vocabulary
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import Definitions
from rtosmeter.qemu_plugin import spec_for
from rtosmeter.reports.document.records import records
from rtosmeter.runners import run_once
from rtosmeter.runners.base import RunRequest
from rtosmeter.runners.qemu import QemuOptions
from rtosmeter.store import Store

TARGET = "qemu-mps2-an386"
TOOLS = ("arm-none-eabi-gcc", "clang", "ld.lld", "cmake", "ninja", "qemu-system-arm")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        pytest.fail(f"missing {', '.join(missing)}: run scripts/install.sh")
    out = tmp_path_factory.mktemp("toolchains")
    summary = run_campaign(RunOptions(out=out, ports=("baremetal",), targets=(TARGET,),
                                      bench="tm.basic,lat.isr.*", profile="quick",
                                      toolchains=("gcc", "clang"), quiet=True))
    assert summary.failed == 0 and summary.builds_failed == 0
    return out, summary.run_id


def _builds(out: Path, run_id: int) -> dict[str, dict[str, str]]:
    with Store.open(out / "rtosmeter.sqlite") as store:
        return {b.axes["toolchain"]: b.config for b in store.builds(run_id)}


@pytest.mark.slow
def test_each_build_records_its_toolchain(run: tuple[Path, int]) -> None:
    builds = _builds(*run)
    assert set(builds) == {"gcc", "clang"}
    gcc, clang = builds["gcc"], builds["clang"]
    assert gcc["compiler"].endswith("arm-none-eabi-gcc") and clang["compiler"].endswith("clang")
    assert clang["compiler_short"] in clang["compiler_version"] != gcc["compiler_version"]
    # the same intent, each compiler's flags for it
    assert gcc["opt"] == clang["opt"] == "speed" and clang["opt_flags"] == "-O2"
    # Clang's builds: RTOS assembly through GNU as, the link through ld.lld
    assert clang["assembler_program"].endswith("arm-none-eabi-gcc")
    assert "ld.lld" in clang["linker"] and "GNU ld" in gcc["linker"]
    assert "+clang" in clang["build_dir"] and "+clang" not in gcc["build_dir"]


def _elf(out: Path, run_id: int, toolchain: str, group: str) -> Path:
    with Store.open(out / "rtosmeter.sqlite") as store:
        builds = {b.id: b.axes["toolchain"] for b in store.builds(run_id)}
        return next(Path(e.elf) for e in store.executions(run_id)
                    if builds[e.build_id] == toolchain and e.group == group)


@pytest.mark.slow
def test_clang_firmware_matches_newlibs_abi_and_was_linked_by_lld(
        run: tuple[Path, int]) -> None:
    """-fshort-enums: the enum size of arm-none-eabi's newlib and libgcc
    (toolchains/clang/arm-none-eabi.cmake). ld.lld does not check it, nor
    keep it in the ELF: the objects say."""
    elf = _elf(*run, "clang", "tm_basic")
    comment = subprocess.run(["arm-none-eabi-readelf", "-p", ".comment", str(elf)],
                             capture_output=True, text=True, check=True).stdout
    assert "clang version" in comment and "LLD" in comment
    objects = sorted(elf.parent.glob("CMakeFiles/rm_core.dir/**/*.obj"))
    assert objects
    for obj in objects:
        attrs = subprocess.run(["arm-none-eabi-readelf", "-A", str(obj)], capture_output=True,
                               text=True, check=True).stdout
        assert "Tag_ABI_enum_size: small" in attrs, obj


@pytest.mark.slow
def test_clang_firmware_is_deterministic(run: tuple[Path, int]) -> None:
    """Run again, the Clang firmware writes the stream it stored, bit for bit."""
    out, run_id = run
    target = Definitions.load().target(TARGET)
    with Store.open(out / "rtosmeter.sqlite") as store:
        builds = {b.id: b.axes["toolchain"] for b in store.builds(run_id)}
        ex = next(e for e in store.executions(run_id)
                  if builds[e.build_id] == "clang" and e.group == "lat_isr")
        stored = store.stream(ex.id)
    assert target.qemu is not None
    # counted as it was: with the rmcycles plugin in the mode the run used, or the timer
    plugin = spec_for(ex.runner["mode"], target.cpu, target.qemu.machine, TARGET) \
        if "plugin" in ex.runner else None
    again = run_once(RunRequest(Path(ex.elf), target, options=QemuOptions(plugin=plugin)))
    assert again.stream == stored and b"BYE" in stored


@pytest.mark.slow
def test_report_sets_toolchains_side_by_side(run: tuple[Path, int]) -> None:
    """One column per toolchain, the compiler and its version at the number;
    footprints per toolchain; the CSV names each record's toolchain."""
    out, run_id = run
    with Store.open(out / "rtosmeter.sqlite") as store:
        view = analysis.load_run(store, run_id)
    builds = _builds(out, run_id)
    table = reports.render(view, "md")
    for tc in ("gcc", "clang"):
        assert f"baremetal/{tc} {builds[tc]['compiler_short']}" in table
    fps = {(f.group, f.axes["toolchain"]): f for f in view.footprints}
    for tc in ("gcc", "clang"):
        fp = fps[("tm_basic", tc)]
        assert fp.flash > 0 and fp.parts["benchmark"][0] > 0 and fp.parts["libc"][0] > 0
    assert fps[("tm_basic", "gcc")].flash != fps[("tm_basic", "clang")].flash
    assert {r["toolchain"] for r in records(view)} == {"gcc", "clang"}
    assert {vocabulary.system(c) for c in view.cases} == {
        f"baremetal/{TARGET}/quick", f"baremetal/{TARGET}/quick+clang"}


@pytest.mark.slow
def test_compare_matches_each_toolchain_with_itself(run: tuple[Path, int]) -> None:
    """A run against itself: every figure the same, none of gcc's against clang's."""
    out, run_id = run
    with Store.open(out / "rtosmeter.sqlite") as store:
        result = compare.compare_runs(store, run_id, run_id, 10.0, 0.01)
    assert result.changes and all(c.verdict == "same" for c in result.changes)
    assert {c.system for c in result.changes} == {
        f"baremetal/{TARGET}/quick", f"baremetal/{TARGET}/quick+clang"}


GNU_ONLY = """/* A kernel file in GNU C: a nested function, which Clang refuses. */
int rm_gnu_only(int x);
int rm_gnu_only(int x) { int twice(int y) { return 2 * y; } return twice(x); }
"""


def _gnu_port(folder: Path, root: Path, limit: bool) -> None:
    """The posix port with a GNU-C-only kernel file; with `limit`, its
    port.toml says Clang cannot build it on the host."""
    port = folder / "ports" / "gnuposix"
    shutil.copytree(root / "ports" / "posix", port)
    toml = port / "port.toml"
    text = toml.read_text().replace('name = "posix"', 'name = "gnuposix"')
    if limit:
        text += ('\n[toolchains.clang]\narchs = ["host"]\n'
                 'why = "its kernel uses GNU C nested functions"\n')
    toml.write_text(text)
    (port / "gnu_only.c").write_text(GNU_ONLY)
    with (port / "port.cmake").open("a") as f:
        f.write('target_sources(rm_port PRIVATE "${CMAKE_CURRENT_LIST_DIR}/gnu_only.c")\n')


@pytest.mark.parametrize("limit", [True, False], ids=["declared", "undeclared"])
@pytest.mark.slow
def test_a_port_clang_cannot_build_is_unsupported_with_clangs_error(
        tmp_path: Path, root: Path, monkeypatch: pytest.MonkeyPatch, limit: bool) -> None:
    """port.toml [toolchains.clang]: Clang's failure is the RTOS's, stored as
    unsupported with Clang's own error (not a failed run); undeclared, the same
    failure is a failed build, as any other."""
    if shutil.which("clang") is None:
        pytest.fail("clang is missing: run scripts/install.sh")
    _gnu_port(tmp_path / "mine", root, limit)
    monkeypatch.setenv("RTOSMETER_PATH", str(tmp_path / "mine"))
    out = tmp_path / "out"
    summary = run_campaign(RunOptions(out=out, ports=("gnuposix",), targets=("host",),
                                      bench="tm.basic", profile="quick",
                                      toolchains=("gcc", "clang"), quiet=True))
    with Store.open(out / "rtosmeter.sqlite") as store:
        builds = {b.axes["toolchain"]: b for b in store.builds(summary.run_id)}
        view = analysis.load_run(store, summary.run_id)
    assert builds["gcc"].status == "ok" and summary.executions == 1
    clang = builds["clang"]
    assert "function definition is not allowed here" in clang.error
    if limit:
        assert clang.status == "unsupported" and summary.builds_failed == 0
        assert clang.error.startswith("its kernel uses GNU C nested functions. ")
        assert analysis.not_run_here(view) == [
            ("gnuposix/host/quick+clang", "unsupported", clang.error)]
    else:
        assert clang.status == "failed" and summary.builds_failed == 1
