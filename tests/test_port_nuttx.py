"""The NuttX port (ports/nuttx), built by NuttX's own make (kconfiglib's
olddefconfig, the board's defconfig + the port's fragments) against real
nuttx and nuttx-apps trees and run for real: every group on QEMU mps2-an500
(board mps2-an500:nsh; twice, to check that the streams are bit-identical
under -icount; nothing between a measured call and the closing timestamp
read in the firmware's disassembly),
and NuttX's sim as a Linux process. `lowpower` on mps2-an500: the idle
loop's up_idle (CONFIG_ARCH_IDLE_CUSTOM, the port's WFI) sleeps between the
1 kHz ticks (no tickless kernel on the mps chip).

Needs the tree in RTOSMETER_NUTTX and nuttx-apps next to it (../apps,
../nuttx-apps, <tree>-apps) or in RTOSMETER_NUTTX_APPS; CI has none: those
tests skip, saying so. The companion repository of `sources fetch nuttx`
and the build's error for a missing tree need no tree and always run.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from lowpower_idle import lowpower_idle
from rtos_ports import (
    assert_port_measures_alone,
    assert_reruns_identical,
    build_folder,
    case_passes,
    check_streams,
    need,
    run_port,
    tree_marks,
)

from rtosmeter.catalog import Catalog, load_catalog
from rtosmeter.definitions import Definitions, project_root

TREE = os.environ.get("RTOSMETER_NUTTX", "")
ROOT = project_root()
needs_tree = tree_marks("RTOSMETER_NUTTX", "sched/sched/sched.h",
                        "https://github.com/apache/nuttx --branch nuttx-13.0.0 and nuttx-apps "
                        "next to it, or run `rtosmeter sources fetch nuttx`")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(ROOT)


@pytest.fixture(scope="module")
def an500(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes]]:
    """Every group of the quick profile on mps2-an500, built once."""
    need("cmake", "ninja", "make", "arm-none-eabi-gcc", "qemu-system-arm")
    out = tmp_path_factory.mktemp("nuttx-an500")
    return out, run_port(out, "nuttx", "qemu-mps2-an500", TREE)


@needs_tree[0]
@needs_tree[1]
def test_an500_all_cases_and_deterministic(an500: tuple[Path, dict[str, bytes]],
                                           catalog: Catalog) -> None:
    out, raw = an500
    # Every case passes: tm.preemptive's counters (threads created suspended
    # stop before their entry: nxsched_suspend), irq.blocking without a
    # fault (SIGCONT ignored, so no signal trampoline) and app.sampling to
    # its end (the handler ends a step that starves every task).
    streams = check_streams(raw, catalog, "nuttx")
    case_passes(streams["tm_sched"], "tm.preemptive")
    sampling = next(c for c in streams["app_sampling"].cases if c.id == "app.sampling")
    assert sampling.status == "ok" and "max_rate_hz" in sampling.meta, sampling
    cfg = streams["tm_sched"].config
    assert cfg["kernel"].startswith("NuttX ")
    assert (cfg["board"], cfg["sched_debug"], cfg["assertions"], cfg["time_slicing"],
            cfg["tick_hz"]) == ("mps2-an500", "off", "off", "off (SCHED_FIFO)", "1000")
    case_passes(streams["tm_sched"], "tm.cooperative")
    case_passes(streams["lat_ipc"], "lat.mutex.inheritance")
    case_passes(streams["tm_interrupt"], "tm.interrupt")
    sw = {c.id: c for c in streams["signal_wait"].cases}
    for kind in ("sem", "mutex", "event", "queue"):
        assert {"s1", "s2", "s3"} <= set(sw[f"sw.{kind}"].series), kind
    assert sw["sw.fifo"].status == "unsupported"
    # Under -icount the same firmware gives the same stream, byte for byte,
    # counted in exact instructions: NuttX's link takes the plugin counter's
    # section as one more ARCHSCRIPT (targets/mps2/rm_plugin_counter.ld).
    assert build_folder(out, "nuttx", "qemu-mps2-an500").name == "quick@instructions"
    assert_reruns_identical(out, "nuttx", "qemu-mps2-an500",
                            {g: raw[g] for g in ("lat_ipc", "tm_sched")})
    # Between each measured call and the closing read (the plugin's dbg #0
    # marker): nothing.
    assert assert_port_measures_alone(build_folder(out, "nuttx", "qemu-mps2-an500")) >= 34


@needs_tree[0]
@needs_tree[1]
def test_an500_lowpower_idle_sleeps(tmp_path: Path) -> None:
    """`--profile lowpower`: up_idle's WFI sleeps between ticks; every tick
    and every sample wakes it. NuttX enters SysTick and every IRQ through
    one handler, so the plugin reads each wake-up's cause as "interrupt".
    Twice: the idle figures are identical."""
    need("cmake", "ninja", "make", "arm-none-eabi-gcc", "qemu-system-arm")
    first = lowpower_idle(tmp_path, "nuttx", "qemu-mps2-an500", TREE)
    assert lowpower_idle(tmp_path, "nuttx", "qemu-mps2-an500", TREE) == first
    idle = first["idle.system@1s"]
    assert 0.95 < idle.residency < 1.0, idle
    assert dict(idle.wake_causes) == {"interrupt": 1000} and idle.wakeups == 1000, idle
    for hz in (100, 200, 1000):
        f = first[f"idle.sampling@{hz}hz"]
        # each tick and each sample wakes it, but those that fall together
        assert 900 + hz <= f.wakeups <= 1000 + hz, f
        assert dict(f.wake_causes) == {"interrupt": f.wakeups}, f
        assert set(f.interrupts) == {"interrupt"}, f
        assert 1000 + hz <= f.interrupts["interrupt"] <= 1002 + hz, f
        assert 0.95 < f.residency < 1.0, f


@needs_tree[0]
@needs_tree[1]
def test_sim_on_the_host(tmp_path: Path, catalog: Catalog) -> None:
    """NuttX's sim (one Linux process): every group runs to the end; the
    interrupt cases say why they cannot (no software-triggered line)."""
    need("make", "gcc")
    raw = run_port(tmp_path, "nuttx", "host", TREE)
    irq = {c.id for c in catalog.cases if {"IRQ", "ISR_RESUME", "ISR_SIGNAL"} & set(c.needs)}
    withdrawn = dict.fromkeys(irq, "withdrawn at run time on the sim (rm_port_caps)")
    streams = check_streams(raw, catalog, "nuttx", withdrawn)
    cfg = streams["lat_ipc"].config
    assert cfg["board"] == "sim" and cfg["kernel_idle"].startswith("sim")
    for parsed in streams.values():
        for case in parsed.cases:
            if case.id in irq:
                assert case.status == "unsupported", case
                assert "no software-triggered interrupt" in case.reason + case.note, case


@pytest.mark.slow
def test_build_names_the_missing_tree(tmp_path: Path) -> None:
    """Configuring ports/nuttx/app without a NuttX tree stops with the
    variable and the command to use; without the board port.toml [targets]
    names (RM_NATIVE_BOARD, which the harness passes), with that."""
    need("cmake")

    def configure(*extra: str) -> str:
        proc = subprocess.run(
            ["cmake", "-S", str(ROOT / "ports" / "nuttx" / "app"), "-B", str(tmp_path / "b"),
             f"-DRM_TARGET_DIR={ROOT / 'targets' / 'host'}",
             f"-DRM_PORT_DIR={ROOT / 'ports' / 'nuttx'}",
             f"-DRM_CONFIG_DIR={tmp_path}", "-DRM_GROUPS=lat_ipc",
             f"-DRM_SOURCE_DIR={tmp_path}", *extra],
            capture_output=True, text=True, check=False)
        assert proc.returncode != 0
        return " ".join(proc.stderr.split())

    text = configure()
    assert "RM_NATIVE_BOARD is not set" in text and "port.toml [targets]" in text, text
    text = configure("-DRM_NATIVE_BOARD=sim/sim/sim")
    assert "no NuttX tree" in text and "RTOSMETER_NUTTX" in text, text


def test_companion_is_the_apps_of_the_same_release() -> None:
    """`sources fetch nuttx` clones nuttx-apps (a [source.companions] entry,
    tests/test_sources.py checks the mechanism) into <tree>/apps, one of the
    places ports/nuttx/app looks, at the tag of the NuttX tree: the two
    repositories are released together."""
    port = Definitions.load(ROOT).port("nuttx")
    assert port.source is not None
    apps = {c.name: c for c in port.source.companions}
    assert set(apps) == {"apps"} and apps["apps"].tag == port.source.tag
    assert apps["apps"].git.endswith("/apache/nuttx-apps.git")
    project = (ROOT / "ports" / "nuttx" / "app" / "CMakeLists.txt").read_text()
    assert '"${RM_SOURCE_DIR}/apps"' in project
