"""The FreeRTOS port (ports/freertos), built against a real FreeRTOS-Kernel
tree and run for real: on QEMU MPS2-AN386 (twice, to check that the streams
are bit-identical under -icount), on the host through FreeRTOS's POSIX port,
and in the "vendor" kernel profile through the build contract directly.

Needs the tree in RTOSMETER_FREERTOS (CI has none: the tests skip, saying so).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from rtosmeter.catalog import Catalog, load_catalog
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import project_root
from rtosmeter.protocol import ParsedStream, parse_stream
from rtosmeter.runners.base import RunRequest
from rtosmeter.runners.qemu import QemuRunner
from rtosmeter.store import Store

ROOT = project_root()
TREE = os.environ.get("RTOSMETER_FREERTOS", "")
QEMU_TARGET = "qemu-mps2-an386"
PROFILE = "quick"  # few samples: this checks the port, it does not benchmark it

pytestmark = [
    pytest.mark.rtos,
    pytest.mark.skipif(
        not TREE or not (Path(TREE) / "tasks.c").is_file(),
        reason="RTOSMETER_FREERTOS is not set to a FreeRTOS-Kernel tree "
        "(e.g. git clone https://github.com/FreeRTOS/FreeRTOS-Kernel)",
    ),
]


def _need(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is required: run scripts/install.sh")


def _run(out: Path, target: str) -> dict[str, bytes]:
    """`rtosmeter run --port freertos --target T --profile quick`: group -> stream."""
    summary = run_campaign(RunOptions(
        out=out, ports=("freertos",), targets=(target,), profile=PROFILE,
        sources={"freertos": Path(TREE)}, jobs=2, quiet=True))
    with Store.open(out / "rtosmeter.sqlite") as store:
        return {e.group: store.stream(e.id) for e in store.executions(summary.run_id)}


def _check_streams(raw: dict[str, bytes], catalog: Catalog,
                   exceptions: dict[str, str] | None = None) -> dict[str, ParsedStream]:
    """Every catalog case present. Each case of the throughput and latency
    families (tm.*, lat.*, sw.*: BENCHMARKS.md sections 1-2) is ok, with passing
    checks, or unsupported for a capability port.toml gives a reason for.
    Cases in `exceptions` (id -> why) need only be present. Returns the
    parsed streams."""
    streams = {group: parse_stream(data) for group, data in raw.items()}
    port_toml = (ROOT / "ports" / "freertos" / "port.toml").read_text()
    assert set(streams) == set(catalog.groups)
    for group, parsed in streams.items():
        assert parsed.complete and not parsed.errors and parsed.fault is None, group
        assert parsed.config["kernel"].startswith("FreeRTOS V"), parsed.config
        ids = {c.id for c in parsed.cases}
        for entry in catalog.cases:
            if entry.group == group:
                assert entry.id in ids, f"{entry.id} missing from the {group} stream"
        for pc in parsed.cases:
            if not pc.id.startswith(("tm.", "lat.", "sw.")) or pc.id in (exceptions or {}):
                continue
            if pc.status == "unsupported":
                missing = pc.reason.removeprefix("port lacks ").split(", ")
                assert all(f'{m} = "' in port_toml for m in missing), (pc.id, pc.reason)
                continue
            assert pc.status == "ok", (pc.id, pc.status, pc.reason)
            assert all(ch.ok for ch in pc.checks), (pc.id, pc.checks)
            assert pc.series or pc.counts, pc.id
    return streams


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(ROOT)


def test_qemu_all_cases_and_deterministic(tmp_path: Path, catalog: Catalog) -> None:
    _need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    first = _run(tmp_path / "a", QEMU_TARGET)
    cfg = _check_streams(first, catalog)["tm_sched"].config
    assert (cfg["freertos_port"], cfg["time_slicing"], cfg["assertions"]) == (
        "GCC_ARM_CM4F", "off", "off")
    # Under -icount the same firmware gives the same stream, byte for byte.
    build = tmp_path / "a" / "build" / "freertos" / QEMU_TARGET / PROFILE
    runner = QemuRunner()
    for group, data in first.items():
        again = runner.run(RunRequest(executable=build / f"rm_{group}.elf", target=QEMU_TARGET,
                                      machine=QEMU_TARGET.removeprefix("qemu-")))
        assert again.stream == data, f"{group}: two QEMU runs of one firmware differ"


def test_host_posix_port(tmp_path: Path, catalog: Catalog) -> None:
    _need("cmake", "ninja", "gcc")
    # FreeRTOS hands the turn of a thread that the reporter preempted before
    # it counted to the next equal-priority thread (the ready list's index has
    # moved on); on the host that window is wide, so the within-1 check of
    # tm.cooperative fails at random there. Under QEMU it is exact per build.
    host_exceptions = {"tm.cooperative": "preempted turn skipped; random on the host"}
    streams = _check_streams(_run(tmp_path, "host"), catalog, host_exceptions)
    assert streams["tm_sched"].config["freertos_port"] == "GCC_POSIX"


def _write_config(path: Path, target: str, profile: str) -> None:
    path.mkdir(parents=True, exist_ok=True)
    (path / "rm_build_config.h").write_text("\n".join([
        '#define RM_PORT_NAME "freertos"',
        f'#define RM_TARGET_NAME "{target}"',
        f'#define RM_PROFILE "{profile}"',
        "#define RM_PORT_CAPS (RM_CAP_THREAD | RM_CAP_SUSPEND | RM_CAP_PREEMPTIVE)",
        '#define RM_TS_NAME "CMSDK timer1"',
        '#define RM_TS_UNIT "timer ticks"',
        "#define RM_TS_HZ 25000000u",
        "#define RM_SAMPLES 64u",
        "#define RM_BATCH 64u",
        "#define RM_TM_PERIOD_TICKS 20u",
        "#define RM_TM_PERIODS 2u",
        "#define RM_NO_WFI 1",
        "",
    ]))


# Cases the vendor profile's time slicing (a tick switches between equal
# priorities) is known to break, and why.
VENDOR_EXCEPTIONS = {
    "tm.cooperative": "a time slice can end a thread's turn before it counts",
    "lat.yield": "both equal-priority threads write the stream; a time slice "
                 "interleaves their records (bad checksum)",
}


def test_vendor_profile_through_build_contract(tmp_path: Path, catalog: Catalog) -> None:
    """-DRM_PROFILE=vendor builds FreeRTOS's shipped checks (configASSERT, stack
    check 2, handler check, time slicing); every group then runs to the end on
    the Cortex-M7 without an assertion or stack check firing (they would end
    the stream with a FAULT), and the cases pass but VENDOR_EXCEPTIONS."""
    _need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    target = "qemu-mps2-an500"  # the Cortex-M7, through the CM4F port
    config, build = tmp_path / "config", tmp_path / "build"
    _write_config(config, target, "vendor")
    tdir = ROOT / "targets" / target
    subprocess.run([
        "cmake", "-S", str(ROOT / "bench"), "-B", str(build), "-G", "Ninja",
        f"-DCMAKE_TOOLCHAIN_FILE={tdir / 'toolchain.cmake'}", f"-DRM_TARGET_DIR={tdir}",
        f"-DRM_PORT_DIR={ROOT / 'ports' / 'freertos'}", f"-DRM_CONFIG_DIR={config}",
        f"-DRM_GROUPS={';'.join(catalog.groups)}", "-DRM_OPT_FLAGS=-O2",
        f"-DRM_SOURCE_DIR={TREE}", "-DRM_PROFILE=vendor",
    ], check=True, capture_output=True)
    subprocess.run(["cmake", "--build", str(build), "-j", "2"], check=True, capture_output=True)
    for group in catalog.groups:
        proc = subprocess.run([
            "qemu-system-arm", "-M", "mps2-an500", "-nographic",
            "-semihosting-config", "enable=on,target=native",
            "-icount", "shift=6,align=off,sleep=off", "-kernel", str(build / f"rm_{group}.elf"),
        ], capture_output=True, timeout=300, check=False)
        parsed = parse_stream(proc.stdout)
        assert parsed.complete and parsed.fault is None, (group, parsed.noise, parsed.fault)
        broken = {pc.id for pc in parsed.cases if pc.status == "error"}
        assert broken <= set(VENDOR_EXCEPTIONS), (group, parsed.errors)
        cfg = parsed.config
        assert (cfg["kernel_profile"], cfg["time_slicing"], cfg["assertions"],
                cfg["stack_overflow_check"], cfg["freertos_port"]) == (
            "vendor", "on", "on (configASSERT)", "2", "GCC_ARM_CM4F")
        for pc in parsed.cases:
            if pc.id.startswith(("tm.", "lat.", "sw.")) and pc.id not in VENDOR_EXCEPTIONS:
                assert pc.status in ("ok", "unsupported"), (pc.id, pc.status, pc.reason)
                assert all(c.ok for c in pc.checks), (pc.id, pc.checks)
