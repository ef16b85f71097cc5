"""Test helper (not a test module): build real Cortex-M firmware through the
build contract of docs/architecture.md (bench/CMakeLists.txt + a target + a
port + a hand-written rm_build_config.h), for the QEMU runner and footprint
tests. Groups come from bench/cases or from tests/firmware (test-only
firmware such as a known NOP sequence), via a bench tree of symlinks.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from rtosmeter.definitions import load_target

ROOT = Path(__file__).resolve().parent.parent
TEST_CASES = Path(__file__).resolve().parent / "firmware"

# Small run parameters for QEMU (the values).
PARAMS = {"RM_SAMPLES": 1024, "RM_BATCH": 256, "RM_TM_PERIOD_MS": 100, "RM_TM_PERIODS": 3}


def have_toolchain() -> bool:
    return all(shutil.which(t) for t in ("arm-none-eabi-gcc", "cmake", "ninja",
                                         "qemu-system-arm"))


def target_dir(target: str) -> Path:
    """The target's folder: targets/<target>, or inside its family's."""
    (path,) = [p.parent for pattern in ("*/target.toml", "*/*/target.toml")
               for p in (ROOT / "targets").glob(pattern) if p.parent.name == target]
    return path


def config_header(target: str, port: str, caps: int,
                  extra: dict[str, str] | None = None) -> str:
    """The hand-written rm_build_config.h; `extra` defines replace the
    target's (e.g. RM_TS_PLUGIN and the plugin's RM_TS_UNIT)."""
    counter = load_target(target_dir(target) / "target.toml").counter
    lines = [
        f'#define RM_PORT_NAME "{port}"',
        f'#define RM_TARGET_NAME "{target}"',
        '#define RM_PROFILE "default"',
        f"#define RM_PORT_CAPS 0x{caps:x}u",
        f'#define RM_TS_NAME "{counter.name}"',
        f'#define RM_TS_UNIT "{counter.unit}"',
        f'#define RM_TS_HZ {counter.hz}u',
        *(f"#define {k} {v}" for k, v in PARAMS.items()),
        "#define RM_NO_WFI 1",
    ]
    for name, value in (extra or {}).items():
        lines = [ln for ln in lines if not ln.startswith(f"#define {name} ")]
        lines.append(f"#define {name} {value}")
    return "\n".join(lines) + "\n"


def build(out: Path, target: str, groups: list[str], cases: Path = TEST_CASES,
          port: str = "baremetal", caps: int = 1 << 4, opt: str = "-O2",
          extra: dict[str, str] | None = None,
          source: Path | None = None, toolchain: str = "gcc",
          board_clock: str = "reset") -> dict[str, Path]:
    """Configure and build; returns group -> ELF. Raises with the log on error.
    A board target stays at its reset clock unless `board_clock` is "max":
    QEMU's STM32F405 (netduinoplus2) has no RCC model, so the clock set-up
    would wait for a flag that never sets."""
    bench = out / "bench"
    bench.mkdir(parents=True, exist_ok=True)
    for name in ("CMakeLists.txt", "cmake", "core", "include"):
        link = bench / name
        if not link.exists():
            link.symlink_to(ROOT / "bench" / name)
    if not (bench / "cases").exists():
        (bench / "cases").symlink_to(cases)
    cfg = out / "cfg"
    cfg.mkdir(exist_ok=True)
    (cfg / "rm_build_config.h").write_text(config_header(target, port, caps, extra))
    build_dir = out / "build"
    configure = [
        "cmake", "-S", str(bench), "-B", str(build_dir), "-G", "Ninja",
        f"-DCMAKE_TOOLCHAIN_FILE={ROOT / 'toolchains' / toolchain / 'arm-none-eabi.cmake'}",
        f"-DRM_TARGET_DIR={target_dir(target)}",
        f"-DRM_PORT_DIR={ROOT / 'ports' / port}",
        f"-DRM_CONFIG_DIR={cfg}", f"-DRM_GROUPS={';'.join(groups)}",
        f"-DRM_OPT_FLAGS={opt}",
        *([f"-DRM_SOURCE_DIR={source}", "-DRM_PROFILE=default"] if source else []),
        *([f"-DRM_BOARD_CLOCK={board_clock}"]
          if 'kind = "board"' in (target_dir(target) / "target.toml").read_text() else []),
    ]
    for cmd in (configure, ["cmake", "--build", str(build_dir), "-j2"]):
        res = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if res.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{res.stdout[-4000:]}"
                               f"\n{res.stderr[-4000:]}")
    return {g: build_dir / f"rm_{g}.elf" for g in groups}
