"""The ThreadX port (ports/threadx), built against a real Eclipse ThreadX tree
with ThreadX's own CMake and run for real: on QEMU MPS2-AN386 (twice, to check
that the streams are bit-identical under -icount), on the host through
ThreadX's Linux port, and in the "vendor" kernel profile on the Cortex-M3
(MPS2-AN385) through the build contract directly.

Needs the tree in RTOSMETER_THREADX (CI has none: the tests skip, saying so).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rtosmeter.catalog import Catalog, load_catalog
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import project_root
from rtosmeter.protocol import ParsedStream, parse_stream
from rtosmeter.store import Store

ROOT = project_root()
TREE = os.environ.get("RTOSMETER_THREADX", "")
PROFILE = "quick"  # few samples: this checks the port, it does not benchmark it

pytestmark = [
    pytest.mark.rtos,
    pytest.mark.skipif(
        not TREE or not (Path(TREE) / "common" / "inc" / "tx_api.h").is_file(),
        reason="RTOSMETER_THREADX is not set to an Eclipse ThreadX tree "
        "(e.g. git clone https://github.com/eclipse-threadx/threadx)",
    ),
]


def _need(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is required: run scripts/install.sh")


def _tree_version() -> str:
    """MAJOR.MINOR.PATCH from the tree's tx_api.h, read independently of the port."""
    text = (Path(TREE) / "common" / "inc" / "tx_api.h").read_text(errors="replace")
    parts = [re.search(rf"THREADX_{p}_VERSION\s+(\d+)", text) for p in ("MAJOR", "MINOR", "PATCH")]
    assert all(parts)
    return ".".join(m.group(1) for m in parts if m)


def _run(out: Path, target: str) -> dict[str, bytes]:
    """`rtosmeter run --port threadx --target T --profile quick`: group -> stream."""
    summary = run_campaign(RunOptions(
        out=out, ports=("threadx",), targets=(target,), profile=PROFILE,
        sources={"threadx": Path(TREE)}, jobs=2, quiet=True))
    with Store.open(out / "rtosmeter.sqlite") as store:
        return {e.group: store.stream(e.id) for e in store.executions(summary.run_id)}


def _check_case_families(parsed: ParsedStream, group: str, port_toml: str) -> None:
    """Each tm.*/lat.* case (BENCHMARKS.md sections 1-2) is ok with passing
    checks and data, or unsupported for a capability port.toml explains."""
    for pc in parsed.cases:
        if not pc.id.startswith(("tm.", "lat.")):
            continue
        if pc.status == "unsupported":
            missing = pc.reason.removeprefix("port lacks ").split(", ")
            assert all(f'{m} = "' in port_toml for m in missing), (pc.id, pc.reason)
            continue
        assert pc.status == "ok", (group, pc.id, pc.status, pc.reason)
        assert all(ch.ok for ch in pc.checks), (pc.id, pc.checks)
        assert pc.series or pc.counts, pc.id


def _check_streams(raw: dict[str, bytes], catalog: Catalog) -> dict[str, ParsedStream]:
    streams = {group: parse_stream(data) for group, data in raw.items()}
    port_toml = (ROOT / "ports" / "threadx" / "port.toml").read_text()
    assert set(streams) == set(catalog.groups)
    for group, parsed in streams.items():
        assert parsed.complete and not parsed.errors and parsed.fault is None, group
        assert parsed.config["threadx.version"] == _tree_version()
        ids = {c.id for c in parsed.cases}
        for entry in catalog.cases:
            if entry.group == group:
                assert entry.id in ids, f"{entry.id} missing from the {group} stream"
        _check_case_families(parsed, group, port_toml)
    return streams


def _case(parsed: ParsedStream, case_id: str) -> None:
    pc = next(c for c in parsed.cases if c.id == case_id)
    assert pc.status == "ok" and pc.checks and all(c.ok for c in pc.checks), (case_id, pc)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(ROOT)


def test_qemu_all_cases_and_deterministic(tmp_path: Path, catalog: Catalog) -> None:
    _need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    first = _run(tmp_path / "a", "qemu-mps2-an386")
    streams = _check_streams(first, catalog)
    sched = streams["tm_sched"]
    cfg = sched.config
    assert (cfg["threadx.arch"], cfg["threadx.profile"], cfg["threadx.error_checking"],
            cfg["tick_hz"]) == ("cortex_m4", "benchmark", "off", "1000")
    _case(sched, "tm.cooperative")
    _case(sched, "tm.preemptive")
    _case(streams["lat_ipc"], "lat.mutex.inheritance")
    # Under -icount the same firmware gives the same stream, byte for byte.
    second = _run(tmp_path / "b", "qemu-mps2-an386")
    assert set(first) == set(second)
    for group, data in first.items():
        assert data == second[group], f"{group}: the two QEMU runs differ"


def test_host_linux_port(tmp_path: Path, catalog: Catalog) -> None:
    _need("cmake", "ninja", "gcc")
    streams = _check_streams(_run(tmp_path, "host"), catalog)
    assert streams["tm_sched"].config["threadx.arch"] == "linux"
    # The simulated interrupt (tx_isr_linux.c) really preempts: the handler
    # resumes a more urgent thread, and every count agrees.
    _case(streams["tm_interrupt"], "tm.interrupt_preempt")


def _write_config(path: Path, target: str, profile: str, caps: str) -> None:
    path.mkdir(parents=True, exist_ok=True)
    (path / "rm_build_config.h").write_text("\n".join([
        '#define RM_PORT_NAME "threadx"',
        f'#define RM_TARGET_NAME "{target}"',
        f'#define RM_PROFILE "{profile}"',
        f"#define RM_PORT_CAPS ({caps})",
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


def test_vendor_profile_through_build_contract(tmp_path: Path, catalog: Catalog) -> None:
    """-DRM_PROFILE=vendor builds ThreadX as shipped (error checking, 100 Hz
    tick, timer thread) on the Cortex-M3; the scheduling and IPC groups run to
    the end and pass."""
    _need("cmake", "ninja", "arm-none-eabi-gcc", "qemu-system-arm")
    target, groups = "qemu-mps2-an385", ["tm_sched", "lat_ipc", "lat_thread"]
    port_caps = re.search(r"caps = \[(.*?)\]",
                          (ROOT / "ports" / "threadx" / "port.toml").read_text(), re.S)
    assert port_caps
    caps = " | ".join(f"RM_CAP_{c}" for c in re.findall(r'"(\w+)"', port_caps.group(1)))
    config, build = tmp_path / "config", tmp_path / "build"
    _write_config(config, target, "vendor", caps)
    tdir = ROOT / "targets" / target
    subprocess.run([
        "cmake", "-S", str(ROOT / "bench"), "-B", str(build), "-G", "Ninja",
        f"-DCMAKE_TOOLCHAIN_FILE={tdir / 'toolchain.cmake'}", f"-DRM_TARGET_DIR={tdir}",
        f"-DRM_PORT_DIR={ROOT / 'ports' / 'threadx'}", f"-DRM_CONFIG_DIR={config}",
        f"-DRM_GROUPS={';'.join(groups)}", "-DRM_OPT_FLAGS=-O2",
        f"-DRM_SOURCE_DIR={TREE}", "-DRM_PROFILE=vendor",
    ], check=True, capture_output=True)
    subprocess.run(["cmake", "--build", str(build), "-j", "2"], check=True, capture_output=True)
    port_toml = (ROOT / "ports" / "threadx" / "port.toml").read_text()
    for group in groups:
        proc = subprocess.run([
            "qemu-system-arm", "-M", "mps2-an385", "-nographic",
            "-semihosting-config", "enable=on,target=native",
            "-icount", "shift=6,align=off,sleep=off", "-kernel", str(build / f"rm_{group}.elf"),
        ], capture_output=True, timeout=300, check=False)
        parsed = parse_stream(proc.stdout)
        assert parsed.complete and not parsed.errors and parsed.fault is None, (group, parsed)
        cfg = parsed.config
        assert (cfg["threadx.arch"], cfg["threadx.profile"], cfg["threadx.error_checking"],
                cfg["threadx.timer"], cfg["tick_hz"]) == (
            "cortex_m3", "vendor", "on", "timer thread", "100")
        _check_case_families(parsed, group, port_toml)
