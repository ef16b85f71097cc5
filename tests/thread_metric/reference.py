"""Build and run upstream Thread-Metric on QEMU exactly as rtosmeter runs its
own firmware: the reference that tests/test_thread_metric_reference.py
compares rtosmeter's tm.* counts with.

The CMake project next to this file compiles Thread-Metric's tests and
porting layer from the user's ThreadX tree (utility/benchmarks/thread_metric;
FreeRTOS uses tm_porting_layer_freertos.c from here) against the kernel that
rtosmeter's port.cmake builds, with the default profile's flags and
rtosmeter's start-up and linker script. Each firmware runs under rtosmeter's
own QEMU runner (the same command line) and exits after its reports.

By hand (prints the counts per period):
    python tests/thread_metric/reference.py threadx [--lto] [--build DIR] [--toolchain clang]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from rtosmeter.definitions import Definitions, project_root
from rtosmeter.runners import run_once
from rtosmeter.runners.base import RunRequest

HERE = Path(__file__).resolve().parent
TARGET = "qemu-mps2-an386"
PROFILE = "default"
# Thread-Metric test -> rtosmeter case (tm.<name>); the ELF is tm_<name>.elf.
TESTS = ("basic", "cooperative", "preemptive", "interrupt", "interrupt_preempt",
         "message", "sync", "memory")
TREE_ENV = {"threadx": "RTOSMETER_THREADX", "freertos": "RTOSMETER_FREERTOS"}
_TOTAL = re.compile(r"^Time Period Total:\s+(\d+)\s*$", re.MULTILINE)
_ERROR = re.compile(r"^ERROR:.*$", re.MULTILINE)


@dataclass(frozen=True)
class Reference:
    """One test's run: the count of every reported period, first included."""

    name: str
    elf: Path
    totals: tuple[int, ...]
    errors: tuple[str, ...]
    output: str


def thread_metric_dir(threadx_tree: Path) -> Path:
    return threadx_tree / "utility" / "benchmarks" / "thread_metric"


LTO_MODES = ("off", "layer", "all")  # CMakeLists.txt TM_LTO


def build(rtos: str, kernel_tree: Path, threadx_tree: Path, build_dir: Path, lto: str,
          period_ticks: int = 1000, periods: int = 2, jobs: int = 2,
          toolchain: str = "gcc") -> dict[str, Path]:
    """Configure and build the reference with `toolchain` (toolchains/NAME, as
    rtosmeter builds); returns test name -> ELF.

    lto: "off" (as shipped), "layer" (test + porting layer, the kernel a
    library as in rtosmeter) or "all" (the kernel too)."""
    if lto not in LTO_MODES:
        raise ValueError(f"lto must be one of {LTO_MODES}, not {lto!r}")
    defs = Definitions.load()
    target = defs.target(TARGET)
    profile = defs.profile(PROFILE)
    tc = defs.toolchain(toolchain)
    use = tc.use_for(target)
    assert use is not None, f"toolchain {toolchain} does not build for {TARGET}"
    configure = [
        "cmake", "-S", str(HERE), "-B", str(build_dir), "-G", "Ninja",
        f"-DCMAKE_TOOLCHAIN_FILE={use.cmake}",
        f"-DTM_RTOS={rtos}", f"-DRM_SOURCE_DIR={kernel_tree}",
        f"-DTM_SOURCE_DIR={thread_metric_dir(threadx_tree)}",
        f"-DRM_TARGET_DIR={target.dir}", f"-DRM_OPT_FLAGS={tc.opt_flags(profile)}",
        f"-DRM_ARCH={target.arch}", f"-DRM_CPU={target.cpu}",
        f"-DRM_TS_HZ={target.counter.hz}", f"-DRM_CPU_HZ={target.cpu_hz}",
        f"-DTM_LTO={lto.upper()}", f"-DTM_PERIOD_TICKS={period_ticks}",
        f"-DTM_REF_PERIODS={periods}",
    ]
    build_dir.mkdir(parents=True, exist_ok=True)
    for cmd in (configure, ["cmake", "--build", str(build_dir), "-j", str(jobs)]):
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-40:])
            raise RuntimeError(f"Error: the Thread-Metric reference build failed in {build_dir} "
                               f"({' '.join(cmd)}). Full output's tail:\n{tail}")
    return {name: build_dir / f"tm_{name}.elf" for name in TESTS}


def run(name: str, elf: Path) -> Reference:
    """One firmware under rtosmeter's QEMU runner (same command line)."""
    defs = Definitions.load()
    target = defs.target(TARGET)
    outcome = run_once(RunRequest(elf, target))
    text = outcome.stream.decode("utf-8", "replace")
    # The reference writes no BYE record: "exit" with status 0 is its end.
    if outcome.exit_code != 0:
        raise RuntimeError(f"Error: {elf} ended with {outcome.status} ({outcome.message}). "
                           f"Its console's tail:\n{text[-2000:]}")
    totals = tuple(int(m) for m in _TOTAL.findall(text))
    return Reference(name, elf, totals, tuple(_ERROR.findall(text)), text)


def run_all(elfs: dict[str, Path]) -> dict[str, Reference]:
    return {name: run(name, elf) for name, elf in elfs.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("rtos", choices=sorted(TREE_ENV))
    ap.add_argument("--lto", choices=LTO_MODES, default="off",
                    help="-flto over test and layer (layer) or the kernel too (all)")
    ap.add_argument("--build", type=Path, help="build folder (default: build/tm-ref-RTOS[-lto])")
    ap.add_argument("--periods", type=int, default=2)
    ap.add_argument("--toolchain", default="gcc", help="toolchains/NAME (default gcc)")
    args = ap.parse_args(argv)
    trees = {rtos: os.environ.get(env, "") for rtos, env in TREE_ENV.items()}
    for rtos in {args.rtos, "threadx"}:
        if not trees[rtos]:
            ap.error(f"{TREE_ENV[rtos]} is not set to the {rtos} tree")
    build_dir = args.build or project_root() / "build" / (
        f"tm-ref-{args.rtos}-{args.toolchain}" + ("" if args.lto == "off" else
                                                  f"-lto-{args.lto}"))
    elfs = build(args.rtos, Path(trees[args.rtos]), Path(trees["threadx"]), build_dir,
                 args.lto, periods=args.periods, toolchain=args.toolchain)
    for name, ref in run_all(elfs).items():
        print(f"tm.{name:<18} " + " ".join(f"{t:>9,}" for t in ref.totals)
              + ("  " + "; ".join(ref.errors) if ref.errors else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
