"""Configure and build one (port, target, profile, toolchain) tree with CMake and Ninja.

Writes rm_build_config.h (the run parameters and the target's counter, see
docs/architecture.md "Build contract"), configures `bench/` with the port and
target folders, builds one executable per group, and records what was built
with what: compiler and version, flags, CMake cache entries, RTOS version and
commit, and a hash of the benchmark, port and target sources, so that only
comparable results are compared.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rtosmeter import axes, children
from rtosmeter.catalog import Catalog
from rtosmeter.definitions import (
    FirmwareCounter,
    Params,
    Port,
    Profile,
    Target,
    Toolchain,
    ToolchainUse,
)
from rtosmeter.errors import ToolMissing
from rtosmeter.net import trace as net_trace
from rtosmeter.sources import SourceTree

LOG_TAIL = 25  # compiler output lines quoted in a build error
CACHE_KEYS = ("CMAKE_C_COMPILER", "CMAKE_C_FLAGS", "CMAKE_BUILD_TYPE", "CMAKE_C_COMPILER_VERSION",
              "CMAKE_TOOLCHAIN_FILE", "CMAKE_EXE_LINKER_FLAGS", "CMAKE_MAKE_PROGRAM")

# Debian packages that provide a missing program (a toolchain names its own).
PACKAGES = {
    "cmake": "cmake",
    "ninja": "ninja-build",
    "qemu-system-arm": "qemu-system-arm",
}


@dataclass(frozen=True)
class BuildSpec:
    port: Port
    target: Target
    profile: Profile
    params: Params
    groups: tuple[str, ...]
    source: SourceTree | None
    out: Path  # the campaign's --out directory
    toolchain: Toolchain
    counter: FirmwareCounter | None = None  # the runner's counter, not the target's
    instance: str = ""  # "freertos@V9.0.0" for a version instance (instances.py)
    runner_defines: tuple[tuple[str, str], ...] = ()  # what the runner needs compiled in
    net_source: SourceTree | None = None  # a net-* build's network stack tree ([net.source])

    @property
    def system(self) -> str:
        """The port, or its version instance: its own build folder and column."""
        return self.instance or self.port.name

    @property
    def axes(self) -> dict[str, str]:
        return {"toolchain": self.toolchain.name}

    @property
    def key(self) -> str:
        return axes.name(self.system, self.target.name, self.profile.name, self.axes)

    @property
    def use(self) -> ToolchainUse:
        use = self.toolchain.use_for(self.target)
        if use is None:
            raise ValueError(f"toolchain {self.toolchain.name} cannot build for {self.target.name}")
        return use

    @property
    def opt_flags(self) -> str:
        return self.toolchain.opt_flags(self.profile)

    @property
    def build_dir(self) -> Path:
        # a loaded profile: default+irq-2000-50; other axes: +clang (rtosmeter.axes)
        leaf = self.profile.name.replace(":", "-") + axes.suffix(self.axes)
        if self.counter is not None:  # another rm_ts(): another tree
            leaf += self.counter.tree
        return self.out / "build" / self.system / self.target.name / leaf


@dataclass
class BuildResult:
    spec: BuildSpec
    status: str  # ok | failed (some or all groups did not build)
    error: str
    executables: dict[str, Path]  # group -> executable, only those that built
    failed_groups: dict[str, str] = field(default_factory=dict)  # group -> reason
    config: dict[str, str] = field(default_factory=dict)
    log: Path | None = None
    seconds: float = 0.0


def missing_tools(target: Target, toolchain: Toolchain) -> list[tuple[str, str]]:
    """(program, Debian package) pairs that building for `target` with
    `toolchain` needs and this machine lacks; [] also when the toolchain does
    not build for the target (make_plan says so apart)."""
    use = toolchain.use_for(target)
    needed = ["cmake", "ninja", *(use.needs if use else ())]
    packages = {**PACKAGES, **toolchain.packages}
    out = [(p, packages.get(p, p)) for p in needed if shutil.which(p) is None]
    gcc = f"{target.toolchain}-gcc"
    if target.toolchain and use and gcc in use.needs and shutil.which(gcc):
        libc = subprocess.run([gcc, "-print-file-name=libc.a"],
                              capture_output=True, text=True, check=False).stdout.strip()
        if not Path(libc).is_absolute():
            out.append((f"libc.a for {target.toolchain}", f"libnewlib-{target.toolchain}"))
    return out


def check_tools(target: Target, toolchain: Toolchain, where: str) -> None:
    """Raise ToolMissing naming the Debian package for the first absent tool."""
    for program, package in missing_tools(target, toolchain):
        raise ToolMissing(program, where, package)


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def config_header(spec: BuildSpec, catalog: Catalog) -> str:
    t = spec.target
    p = spec.params
    ts = spec.counter.counter if spec.counter is not None else t.counter
    counter = {"RM_TS_NAME": _c_string(ts.name), "RM_TS_UNIT": _c_string(ts.unit),
               "RM_TS_HZ": f"{ts.hz}u"}
    own = spec.counter.defines if spec.counter is not None else ()
    lines = [
        "/* Generated by rtosmeter.build for "
        f"{spec.key}: do not edit, it is rewritten on every build. */",
        "#ifndef RM_BUILD_CONFIG_H",
        "#define RM_BUILD_CONFIG_H",
        f"#define RM_PORT_NAME {_c_string(spec.port.name)}",
        f"#define RM_TARGET_NAME {_c_string(t.name)}",
        f"#define RM_PROFILE {_c_string(spec.profile.name)}",
        f"#define RM_PORT_CAPS 0x{catalog.caps_mask(spec.port.caps):08x}ul",
        *(f"#define {name} {value}" for name, value in counter.items()),
        *(f"#define {name} {value}" for name, value in own),
        *([f"#define RM_CPU_HZ {t.cpu_hz}u"] if t.cpu_hz else []),
        *(["#define RM_PORT_OWNS_NVIC 1 /* port.toml owns_nvic: rm_port_irq_enable */"]
          if spec.port.owns_nvic else []),
        f"#define RM_SAMPLES {p.samples}u",
        f"#define RM_BATCH {p.batch}u",
        f"#define RM_TM_PERIOD_MS {p.tm_period_ms}u",
        f"#define RM_TM_PERIODS {p.tm_periods}u",
    ]
    if spec.profile.load is not None:  # bench/core/load.c
        lines += [f"#define {k} {v}" for k, v in spec.profile.load.defines().items()]
    lines += [f"#define {name} {value}" for name, value in spec.runner_defines]
    if spec.profile.idle == "kernel":  # the kernel's own low-power idle (docs/idle.md)
        lines.append("#define RM_IDLE_KERNEL 1 /* profile idle = kernel: WFI, tickless */")
    elif t.qemu is not None:  # the fair profiles spin: their figures stay as they were
        lines.append("#define RM_NO_WFI 1 /* deterministic emulation: idle loops spin */")
    lines += ["#endif", ""]
    return "\n".join(lines)


def tm_method(spec: BuildSpec) -> dict[str, str]:
    """How the tm.* counts were taken, for the stored run and its reports
    (docs/measuring.md): through Thread-Metric's porting layer, and, on an
    emulated target, why its period may be shorter than Thread-Metric's."""
    method = {"tm_porting_layer": "real functions in their own translation unit "
              "(bench/core/tm_porting_layer.c), as Thread-Metric's readme 2.2 requires"}
    board_ms = spec.profile.params_for("board").tm_period_ms
    if spec.target.qemu is not None and spec.params.tm_period_ms < board_ms:
        method["tm_period_note"] = (
            f"{spec.params.tm_period_ms} ms periods, shorter than Thread-Metric's "
            f"{board_ms / 1000:g} s (the board default): under QEMU -icount "
            f"(shift {spec.target.qemu.icount_shift}; unless the run is host-timed) the counts are "
            "exact, so a short period "
            "carries the same information")
    return method


def source_hash(root: Path, spec: BuildSpec) -> str:
    """SHA-256 over the benchmark, port and target sources (paths and bytes)."""
    digest = hashlib.sha256()
    # the family folder holds the target's and every RTOS's board files for the machine
    dirs = [root / "bench", spec.port.dir, *(spec.port.dir.parent / s for s in spec.port.shares),
            spec.target.family_dir, root / "targets" / "common"]
    for base in dirs:
        if not base.is_dir():
            continue
        for path in sorted(p for p in base.rglob("*") if p.is_file()):
            if "__pycache__" in path.parts:
                continue
            # a port or target on the search path lies outside the tree
            digest.update(str(path.relative_to(root if path.is_relative_to(root)
                                               else base.parent)).encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _cache_entries(build_dir: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    cache = build_dir / "CMakeCache.txt"
    if not cache.is_file():
        return out
    for line in cache.read_text(encoding="utf-8", errors="replace").splitlines():
        name, _, value = line.partition("=")
        key = name.split(":", 1)[0]
        if key in CACHE_KEYS or key.startswith("RM_"):
            out[f"cmake.{key}"] = value
    return out


def _forget_moved_cache(build_dir: Path) -> None:
    """A build folder copied or moved from elsewhere (a copied --out) holds
    a CMakeCache.txt naming the old folder, which CMake refuses: forget that
    cache (and CMakeFiles), so the build configures afresh where it is."""
    cache = build_dir / "CMakeCache.txt"
    if not cache.is_file():
        return
    for line in cache.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("CMAKE_CACHEFILE_DIR:"):
            recorded = Path(line.partition("=")[2].strip())
            if recorded.resolve() != build_dir.resolve():
                cache.unlink()
                shutil.rmtree(build_dir / "CMakeFiles", ignore_errors=True)
            return


def _configured_compiler(build_dir: Path, lang: str = "C") -> str:
    """The compiler CMake chose for `lang` (C, ASM). A toolchain file sets it
    as a plain variable, not a cache entry, so read the compiler file CMake
    writes for either case."""
    pattern = rf'set\(CMAKE_{lang}_COMPILER "([^"]+)"\)'
    for found in sorted(build_dir.glob(f"CMakeFiles/*/CMake{lang}Compiler.cmake")):
        m = re.search(pattern, found.read_text(encoding="utf-8"))
        if m:
            return m.group(1)
    return ""


def _compiler_version(compiler: str) -> str:
    if not compiler:
        return ""
    proc = subprocess.run([compiler, "--version"], capture_output=True, text=True, check=False)
    return (proc.stdout.splitlines() or [""])[0].strip()


def short_version(toolchain: Toolchain, version_line: str) -> str:
    """"14.0.6" from the compiler's `--version` line (the toolchain's
    version_regex); "" when it does not match."""
    m = re.search(toolchain.version_regex, version_line)
    return (m.group(1) if m.groups() else m.group(0)) if m else ""


def toolchain_config(spec: BuildSpec) -> dict[str, str]:
    """What the build records of its toolchain (besides CMake's compiler)."""
    use = spec.use
    return {"toolchain": spec.toolchain.name, "opt": spec.profile.opt,
            "opt_flags": spec.opt_flags, "assembler": use.assembler, "linker": use.linker,
            "toolchain_file": str(use.cmake)}


def cmake_project(spec: BuildSpec, root: Path) -> Path:
    """bench/, or the port's own CMake project (port.toml `cmake_project`: an
    RTOS that builds its own applications, e.g. Zephyr), same inputs."""
    if spec.port.cmake_project:
        return spec.port.dir / spec.port.cmake_project
    return root / "bench"


def cmake_configure_command(spec: BuildSpec, root: Path, config_dir: Path) -> list[str]:
    cmd = [
        "cmake", "-S", str(cmake_project(spec, root)), "-B", str(spec.build_dir), "-G", "Ninja",
        f"-DRM_TARGET_DIR={spec.target.dir}", f"-DRM_PORT_DIR={spec.port.dir}",
        f"-DRM_CONFIG_DIR={config_dir}", f"-DRM_GROUPS={';'.join(spec.groups)}",
        f"-DRM_OPT_FLAGS={spec.opt_flags}",
        # the kernel configuration's profile: a loaded profile's base (rtosmeter.loads)
        f"-DRM_PROFILE={spec.profile.kernel}",
        f"-DRM_KERNEL_DEFINES={';'.join(spec.profile.defines.get(spec.port.name, ()))}",
        f"-DRM_ARCH={spec.target.arch}", f"-DRM_CPU={spec.target.cpu}",
        f"-DRM_TOOLCHAIN={spec.toolchain.name}",
    ]
    if spec.target.kind == "board":  # its clock.c, or the reset clock (the profile's board_clock)
        cmd.append(f"-DRM_BOARD_CLOCK={spec.profile.board_clock}")
    if not spec.port.cmake_project:  # such an RTOS brings its own (told RM_TOOLCHAIN)
        cmd.append(f"-DCMAKE_TOOLCHAIN_FILE={spec.use.cmake}")
    if spec.source is not None:
        cmd.append(f"-DRM_SOURCE_DIR={spec.source.path}")
    if spec.net_source is not None:
        cmd.append(f"-DRM_NET_SOURCE_DIR={spec.net_source.path}")
    if spec.port.cmake_project:  # its build scripts may need rtosmeter's Python
        cmd.append(f"-DPython3_EXECUTABLE={sys.executable}")
    if entry := spec.port.entry(spec.target):  # port.toml [targets]: what its RTOS builds for
        native = spec.target.native_dir(spec.port.name)
        cmd += [f"-DRM_NATIVE_BOARD={entry.board}",
                f"-DRM_NATIVE_MODULES={';'.join(entry.modules)}",
                f"-DRM_NATIVE_DEFINES={';'.join(entry.defines)}",
                f"-DRM_NATIVE_DIR={native or ''}"]
    return cmd


def executable_path(build_dir: Path, group: str) -> Path | None:
    for name in (f"rm_{group}", f"rm_{group}.elf"):
        path = build_dir / name
        if path.is_file():
            return path
    return None


def compiler_errors(result: BuildResult, n: int = 3) -> list[str]:
    """The compiler's first `n` distinct error lines in the build log."""
    if result.log is None or not result.log.is_file():
        return []
    lines = result.log.read_text(encoding="utf-8", errors="replace").splitlines()
    found = dict.fromkeys(ln.strip() for ln in lines if re.search(r"\berror:", ln))
    return list(found)[:n]


# What a failed build's error quotes: the compiler's and linker's diagnostics and
# ninja's failed targets, not the command lines nor the progress lines around them.
_DIAGNOSTIC = re.compile(r"^FAILED:|\b(?:fatal )?error:|\bld(?:\.bfd)?:|undefined reference"
                         r"|multiple definition|will not fit in region|overflowed by")
_TOOL_PATH = re.compile(r"^\S*/((?:arm-none-eabi-)?(?:ld(?:\.bfd)?|collect2)):")


def diagnostics(text: str, n: int = LOG_TAIL) -> str:
    """The build output's diagnostic lines (toolchain paths cut), in order,
    without repeats; the output's tail when it has none."""
    found: dict[str, None] = {}
    for line in text.splitlines():
        line = line.strip()
        if _DIAGNOSTIC.search(line) and not line.startswith("$ "):
            found.setdefault(_TOOL_PATH.sub(r"\1:", line))
    return "\n".join(list(found)[:n]) if found else _tail(text, n)


def _tail(text: str, n: int = LOG_TAIL) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return "\n".join(lines[-n:])


def build(spec: BuildSpec, root: Path, catalog: Catalog, jobs: int = 2) -> BuildResult:
    """Configure and build; never raises for a compile error (the result says)."""
    started = time.monotonic()
    check_tools(spec.target, spec.toolchain, f"target {spec.target.name}, toolchain "
                f"{spec.toolchain.name}")
    build_dir = spec.build_dir
    config_dir = build_dir / "config"
    config_dir.mkdir(parents=True, exist_ok=True)
    _write_if_changed(config_dir / "rm_build_config.h", config_header(spec, catalog))
    log = build_dir / "build.log"
    config: dict[str, str] = {
        "port": spec.system, "target": spec.target.name, "profile": spec.profile.name,
        **toolchain_config(spec), "groups": ",".join(spec.groups),
        "caps": ",".join(spec.port.caps), "source_hash": source_hash(root, spec),
        "samples": str(spec.params.samples), "batch": str(spec.params.batch),
        "tm_period_ms": str(spec.params.tm_period_ms),
        "tm_periods": str(spec.params.tm_periods), "build_dir": str(build_dir),
        "unit": (spec.counter.counter if spec.counter is not None else spec.target.counter).unit,
        "load": spec.profile.load.name if spec.profile.load is not None else "idle",
        "kernel_config": spec.profile.kernel,
    }
    if defines := spec.profile.defines.get(spec.port.name):
        config["kernel_defines"] = " ".join(defines)
    config.update(tm_method(spec))
    load = spec.profile.load
    config.update(net_trace.write_header(config_dir, load.net_state if load else "",
                                         spec.port.net_iphc_cid))
    if spec.source is not None:
        config.update(spec.source.as_config())
    if spec.net_source is not None:  # the stack's tree, as the RTOS's: net_source, ...
        net = spec.net_source.as_config().items()
        config.update({k.replace("rtos_", "net_"): v for k, v in net})
        config["net_stack"] = spec.net_source.port

    configure = cmake_configure_command(spec, root, config_dir)
    _forget_moved_cache(build_dir)
    with log.open("w", encoding="utf-8") as f:
        f.write("$ " + " ".join(configure) + "\n")
    rc, output = children.run_tool(configure)
    with log.open("a", encoding="utf-8") as f:
        f.write(output)
    config.update(_cache_entries(build_dir))
    compiler = config.get("cmake.CMAKE_C_COMPILER") or _configured_compiler(build_dir)
    config["compiler"] = compiler
    config["compiler_version"] = _compiler_version(compiler)
    config["compiler_short"] = short_version(spec.toolchain, config["compiler_version"])
    # what assembled, as CMake chose it (an RTOS's own build may differ from
    # the toolchain's word, e.g. Zephyr's llvm variant assembles with Clang)
    config["assembler_program"] = _configured_compiler(build_dir, "ASM")
    if rc != 0:
        return BuildResult(
            spec, "failed",
            f"CMake configure failed for {spec.key} in {build_dir}:\n"
            f"{_tail(output)}\nFull log: {log}",
            {}, {g: "configure failed" for g in spec.groups}, config, log,
            time.monotonic() - started,
        )

    # Remove old executables so that a group that fails now is not mistaken
    # for one that built (relinking is cheap); -k 0 builds every other group.
    for group in spec.groups:
        old = executable_path(build_dir, group)
        if old is not None:
            old.unlink()
    cmd = ["cmake", "--build", str(build_dir), "-j", str(max(1, jobs)), "--", "-k", "0"]
    with log.open("a", encoding="utf-8") as f:
        f.write("$ " + " ".join(cmd) + "\n")
    rc, output = children.run_tool(cmd)
    with log.open("a", encoding="utf-8") as f:
        f.write(output)

    executables: dict[str, Path] = {}
    failed: dict[str, str] = {}
    for group in spec.groups:
        path = executable_path(build_dir, group)
        if path is None:
            failed[group] = f"rm_{group} did not build (see {log})"
        else:
            executables[group] = path
    status, error = "ok", ""
    if failed or rc != 0:
        status = "failed"
        error = (f"build of {spec.key} failed for group(s) "
                 f"{', '.join(failed) or '(none: a later step failed)'} in {build_dir}:\n"
                 f"{diagnostics(output)}\nFull log: {log}")
    return BuildResult(spec, status, error, executables, failed, config, log,
                       time.monotonic() - started)
