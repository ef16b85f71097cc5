"""Ports, targets, boards, profiles and campaigns: the declarative TOML files.

Each kind is found by looking in its folder (ports/*/port.toml,
targets/*/target.toml or targets/<family>/*/target.toml,
toolchains/*/toolchain.toml, profiles/*.toml, campaigns/*.toml; a board is
a target of kind "board");
there is no central list. Files are validated strictly: an unknown key is an
error naming the file and the key (a typo must not silently change a set-up),
and an unknown name lists the valid ones. Schemas: docs/architecture.md.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from rtosmeter import config
from rtosmeter.catalog import Capability, load_caps
from rtosmeter.errors import UserError
from rtosmeter.footprint import Reservations
from rtosmeter.instances import split as split_instance
from rtosmeter.loads import Load
from rtosmeter.loads import parse as parse_load
from rtosmeter.loads import split as split_load
from rtosmeter.toml_table import REQUIRED, TomlTable, read_toml

T = TypeVar("T")
KINDS = ("host", "qemu", "board")
DEFAULT_TOOLCHAIN = "gcc"  # what a campaign builds with when it names none
HOST_PREFIX = "host"  # a toolchain's `targets` key for targets without a program prefix
OPT_INTENTS = ("speed", "size", "debug")  # a profile's `opt`, mapped by each toolchain
PARAM_KEYS = ("samples", "batch", "tm_period_ms", "tm_periods")


def project_root() -> Path:
    """The source tree holding bench/, ports/, targets/ (RTOSMETER_ROOT overrides)."""
    env = os.environ.get("RTOSMETER_ROOT")
    if env:
        return Path(env).expanduser().resolve()
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "bench" / "include" / "rtosmeter" / "port.h").is_file():
            return parent
    cwd = Path.cwd()
    if (cwd / "bench" / "include" / "rtosmeter" / "port.h").is_file():
        return cwd
    raise UserError(
        "the rtosmeter source tree (bench/, ports/, targets/) was not found",
        str(here.parent),
        "Install with `pip install -e .` from a checkout, or set RTOSMETER_ROOT",
    )


def unknown_name(kind: str, name: str, valid: Iterable[str], where: str) -> UserError:
    names = sorted(valid)
    return UserError(
        f"unknown {kind} '{name}'",
        where,
        f"Valid {kind}s: {', '.join(names) if names else '(none found)'}",
    )


# ---- the definitions --------------------------------------------------------


@dataclass(frozen=True)
class SourceSpec:
    env: str
    probe: str
    version_file: str = ""
    version_regex: str = ""
    git: str = ""
    tag: str = ""
    # Projects of the tree's west.yml that `sources fetch` clones next to it
    # at the revisions that file pins (Zephyr's modules), into <tree>-modules/.
    west_modules: tuple[str, ...] = ()
    # Where a fetched checkout may hold the tree instead of its root (old
    # FreeRTOS tags keep the kernel in FreeRTOS/Source).
    subdirs: tuple[str, ...] = ()
    # Versions this port has been run with, as their version_regex reads them
    # (`rtosmeter list` shows them).
    tested: tuple[str, ...] = ()
    # Other repositories the kernel needs (uC-CPU and uC-LIB for µC/OS-III,
    # CMSIS 6 for RTX5): `sources fetch` clones each into <tree>/<name>,
    # where the port's build looks for it.
    companions: tuple[Companion, ...] = ()
    # Files of the tree that name a git package its build fetches (RIOT's
    # PKG_URL / PKG_VERSION): `doctor` says whether each is reachable offline.
    git_packages: tuple[str, ...] = ()


@dataclass(frozen=True)
class Companion:
    name: str  # the folder inside the tree
    git: str
    tag: str


@dataclass(frozen=True)
class PortTarget:
    """One entry of a port's [targets] table: a target, or a target family
    (the folder holding several targets), and what the RTOS's own build needs
    there. The harness passes it to the port's CMake project (RM_NATIVE_*)."""

    key: str  # the target's or the family's name
    board: str = ""  # the RTOS's own board for it ("" with `unsupported`)
    modules: tuple[str, ...] = ()  # RTOS modules that board needs (Zephyr's HALs)
    defines: tuple[str, ...] = ()  # compiler definitions of the target's sources there
    toolchains: tuple[str, ...] = ()  # () : the port's [targets] toolchains
    unsupported: str = ""  # why the port cannot run there (declared: never built)


@dataclass(frozen=True)
class Port:
    name: str
    description: str
    archs: tuple[str, ...]  # CPU architectures the port runs on (a target's `arch`)
    caps: tuple[str, ...]
    unsupported: dict[str, str]
    source: SourceSpec | None
    dir: Path
    file: Path
    # A port whose RTOS builds its own applications (Zephyr): the CMake project
    # the harness configures instead of bench/, a folder relative to the port's.
    cmake_project: str = ""
    # Toolchains the RTOS's code does not build with on some architectures
    # ([toolchains.<name>] archs, why): such a build that fails is unsupported,
    # with the compiler's own error, not a failure of rtosmeter.
    toolchain_limits: dict[str, ToolchainLimit] = field(default_factory=dict)
    # [footprint]: which RAM symbols are stacks, heaps or pools, object slots
    # (rtosmeter.footprint); None where the port has not declared them.
    reservations: Reservations | None = None
    # [targets]: where the port runs (support.py reads it). A port with boards
    # there runs only on the targets it names a board for; any port may
    # declare a target or family it cannot hold (`unsupported`).
    targets: dict[str, PortTarget] = field(default_factory=dict)
    # [targets] toolchains: the toolchains its own build maps to the RTOS's
    # tools (() : every toolchain, through bench/'s CMake toolchain files).
    toolchains: tuple[str, ...] = ()
    # `owns_nvic`: the kernel owns the interrupt controller, so its port.c
    # defines rm_port_irq_enable/disable and the target's NVIC calls go there
    # (RM_PORT_OWNS_NVIC in rm_build_config.h; targets/common/cortex-m/cm.h).
    owns_nvic: bool = False

    @property
    def needs_board(self) -> bool:
        """Whether the RTOS builds for a board of its own on each target."""
        return any(e.board for e in self.targets.values())

    def entry(self, target: Target) -> PortTarget | None:
        """The [targets] entry of the target, else of its family."""
        return self.targets.get(target.name) or self.targets.get(target.family)

    def supports(self, target: Target) -> bool:
        return not self.unsupported_reason(target)

    def unsupported_reason(self, target: Target, toolchain: str = "") -> str:
        """Why the port cannot be built for the target (with the toolchain,
        when one is named), naming the file that says so; "" when it can.
        The planner stores such a combination as unsupported, never built."""
        entry = self.entry(target)
        where = f"{self.file} [targets.{entry.key}]" if entry else f"{self.file} [targets]"
        if entry and entry.unsupported:
            return f"{self.name} on {target.name}: {entry.unsupported} ({where})"
        if target.arch not in self.archs:
            return (f"port {self.name} does not run on {target.name}, a {target.arch} "
                    f"(its archs: {', '.join(self.archs)})")
        if self.needs_board and not (entry and entry.board):
            boards = ", ".join(k for k, e in self.targets.items() if e.board)
            return (f"port {self.name} has no board for target {target.name}: "
                    f"{self.file} [targets] names one for {boards} only")
        maps = entry.toolchains if entry and entry.toolchains else self.toolchains
        where = where if entry and entry.toolchains else f"{self.file} [targets]"
        if toolchain and maps and toolchain not in maps:
            return (f"the {self.name} build of {target.name} maps no toolchain '{toolchain}' "
                    f"to the RTOS's own tools ({where}: toolchains {', '.join(maps)})")
        return ""

    def toolchain_limit(self, toolchain: str, target: Target) -> ToolchainLimit | None:
        limit = self.toolchain_limits.get(toolchain)
        return limit if limit is not None and target.arch in limit.archs else None


@dataclass(frozen=True)
class ToolchainLimit:
    archs: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class Counter:
    name: str
    unit: str
    hz: int


@dataclass(frozen=True)
class FirmwareCounter:
    """A timestamp counter a runner gives the firmware instead of the
    target's [counter] (the QEMU plugin's: runners/qemu.py). rm_ts() reads it
    (rm_build_config.h: RM_TS_NAME/UNIT/HZ and `defines`), and a build with
    it is a tree of its own (`tree`, the build folder's suffix)."""

    counter: Counter
    defines: tuple[tuple[str, str], ...]  # further rm_build_config.h entries, in order
    tree: str


@dataclass(frozen=True)
class QemuSpec:
    machine: str
    icount_shift: int = 6
    extra_args: tuple[str, ...] = ()


@dataclass(frozen=True)
class Target:
    name: str
    description: str
    kind: str
    arch: str  # CPU architecture: what a port's `archs` names (armv7e-m, host)
    cpu: str  # the core (-mcpu), e.g. cortex-m4
    toolchain: str
    counter: Counter
    qemu: QemuSpec | None
    dir: Path
    file: Path
    wall_limit_s: float = 120.0
    guest_limit_s: float = 60.0
    cpu_hz: int = 0  # core clock the kernel tick is derived from; 0 on the host
    # [board]: how a board runner reaches the board (probe tool, chip, pack);
    # read and checked by rtosmeter.runners.board_settings, not here.
    board: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    # [params]: the most its RAM holds of a run length (the result buffers are
    # 2 x batch words): caps on what the profile and campaign ask for.
    params: dict[str, int] = field(default_factory=dict, compare=False, hash=False)
    # The machine family: the folder holding this target's folder under
    # targets/ (targets/mps2/qemu-mps2-an386: "mps2"), "" for a target alone.
    # Everything that knows the machine lives there: shared sources, linker
    # script, and each RTOS's own board files (native/<port>/).
    family: str = ""

    @property
    def family_dir(self) -> Path:
        return self.dir.parent if self.family else self.dir

    def native_dir(self, port: str) -> Path | None:
        """The port's RTOS board files for this machine (native/<port>/ in the
        target's folder, else its family's), if it has any."""
        for base in (self.dir, self.family_dir):
            if (base / "native" / port).is_dir():
                return base / "native" / port
        return None


@dataclass(frozen=True)
class Board:
    """A target of kind "board", as `list` shows it: its [board] table's
    probe names, serial speed and whether it ran on the hardware."""

    name: str
    target: str  # the target it is built as: its cpu_hz is the clock the firmware runs at
    description: str
    tested: bool
    probe: dict[str, str]
    serial: dict[str, int]
    file: Path


@dataclass(frozen=True)
class ToolchainUse:
    """How a toolchain builds for targets of one program prefix."""

    cmake: Path  # the CMake toolchain file
    compiler: str  # the C compiler program: its `--version` first line is recorded
    assembler: str  # what assembles the .S/.s files (an RTOS's, written for GNU as)
    linker: str  # what links, as recorded
    needs: tuple[str, ...]  # programs that must be installed


@dataclass(frozen=True)
class Toolchain:
    """A compiler with its assembler and linker handling: toolchains/<name>/."""

    name: str
    description: str
    uses: dict[str, ToolchainUse]  # a target's `toolchain` prefix (or "host") -> how
    opt: dict[str, str]  # optimisation intent -> this compiler's flags
    packages: dict[str, str]  # program -> Debian package(s) that provide it
    version_regex: str  # the version number in the compiler's `--version` line
    dir: Path
    file: Path

    def use_for(self, target: Target) -> ToolchainUse | None:
        return self.uses.get(target.toolchain or HOST_PREFIX)

    def opt_flags(self, profile: Profile) -> str:
        return profile.opt_flags or self.opt[profile.opt]


@dataclass(frozen=True)
class Params:
    """Run-length parameters compiled into rm_build_config.h."""

    samples: int
    batch: int
    tm_period_ms: int  # throughput period in milliseconds (ticks: HELLO tm_period)
    tm_periods: int

    def merged(self, overrides: dict[str, int]) -> Params:
        return replace(self, **overrides)


# Built-in defaults per target kind; profiles and campaigns override them.
DEFAULT_PARAMS = {
    "host": Params(4096, 512, 300, 3),
    "qemu": Params(1024, 256, 100, 3),
    "board": Params(131072, 1024, 30000, 3),
}


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    opt: str  # the optimisation intent (OPT_INTENTS): each toolchain maps it to its flags
    params: dict[str, dict[str, int]]  # kind -> overrides
    file: Path
    load: Load | None = None  # a loaded profile `<name>+<load>` (rtosmeter.loads)
    opt_flags: str = ""  # flags given as they are, for every toolchain ("": the intent's)

    def params_for(self, kind: str) -> Params:
        return DEFAULT_PARAMS[kind].merged(self.params.get(kind, {}))


@dataclass(frozen=True)
class CampaignEntry:
    ports: tuple[str, ...]
    targets: tuple[str, ...]
    profiles: tuple[str, ...]
    bench: str
    optional: bool  # "only if available": skipped (and said so) when tools are missing
    where: str
    loads: tuple[str, ...] = ("idle",)  # load profiles (rtosmeter.loads), each a build
    toolchains: tuple[str, ...] = (DEFAULT_TOOLCHAIN,)


@dataclass(frozen=True)
class Campaign:
    name: str
    description: str
    entries: tuple[CampaignEntry, ...]
    params: dict[str, dict[str, int]]
    file: Path
    extra: dict[str, Any] = field(default_factory=dict)
    unit: str | None = None  # QEMU targets: instructions | cycles | ticks (None: the default)
    cycle_ws: int | None = None  # the cycle model's flash wait states (unit cycles)
    cycle_div: int | None = None  # the cycle model's SDIV/UDIV cycles (unit cycles)


def _params_tables(t: TomlTable) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    table = t.table("params")
    if table is None:
        return out
    for kind in list(table.data):
        if kind not in KINDS:
            table.used.add(kind)
            raise UserError(f"unknown key '{table.prefix}{kind}'", str(t.path),
                            f"Use one of the target kinds: {', '.join(KINDS)}")
        sub = table.table(kind)
        assert sub is not None
        values = {k: sub.num(k) for k in PARAM_KEYS if k in sub.data}
        for k, v in values.items():
            if v <= 0:
                raise UserError(f"'{sub.prefix}{k}' must be positive", str(t.path),
                                f"Fix the value of {k}")
        sub.done()
        out[kind] = values
    table.done()
    return out


def _check_caps(names: Iterable[str], caps: dict[str, Capability], path: Path,
                key: str) -> None:
    for name in names:
        if name not in caps:
            raise UserError(
                f"unknown capability '{name}' (key '{key}')",
                str(path),
                f"Use names from RM_CAPS in bench/include/rtosmeter/port.h: {', '.join(caps)}",
            )


def _companions(st: TomlTable) -> tuple[Companion, ...]:
    """[source.companions] NAME = { git = "...", tag = "..." }."""
    out = []
    for name, entry in st.named_tables("companions").items():
        out.append(Companion(name, entry.text("git", REQUIRED), entry.text("tag", REQUIRED)))
        entry.done()
    return tuple(out)


def _folder_name(t: TomlTable, path: Path, kind: str) -> str:
    """The `name` key, which must be the name of the file's folder."""
    name: str = t.text("name", REQUIRED)
    if name != path.parent.name:
        raise UserError(f"{kind} name '{name}' differs from its folder '{path.parent.name}'",
                        str(path), f"Set name = \"{path.parent.name}\"")
    return name


def load_port(path: Path, caps: dict[str, Capability]) -> Port:
    t = TomlTable(read_toml(path), path)
    name = _folder_name(t, path, "port")
    description = t.text("description", "")
    archs = t.strs("archs", REQUIRED)
    port_caps = t.strs("caps", ())
    _check_caps(port_caps, caps, path, "caps")
    unsupported = t.str_map("unsupported")
    _check_caps(unsupported, caps, path, "unsupported")
    source = None
    st = t.table("source")
    if st is not None:
        source = SourceSpec(
            env=st.text("env", REQUIRED), probe=st.text("probe", REQUIRED),
            version_file=st.text("version_file", ""), version_regex=st.text("version_regex", ""),
            git=st.text("git", ""), tag=st.text("tag", ""),
            west_modules=st.strs("west_modules", ()), subdirs=st.strs("subdirs", ()),
            tested=st.strs("tested", ()), companions=_companions(st),
            git_packages=st.strs("git_packages", ()),
        )
        st.done()
    limits: dict[str, ToolchainLimit] = {}
    for tc, entry in t.named_tables("toolchains").items():
        limits[tc] = ToolchainLimit(entry.strs("archs", REQUIRED), entry.text("why", REQUIRED))
        entry.done()
    reservations = None
    if (ft := t.table("footprint")) is not None:
        reservations = Reservations(ft.strs("stacks", ()), ft.strs("heaps", ()),
                                    ft.strs("objects", ()))
        ft.done()
    cmake_project = t.text("cmake_project", "")
    if cmake_project and not (path.parent / cmake_project / "CMakeLists.txt").is_file():
        raise UserError(f"cmake_project '{cmake_project}' has no CMakeLists.txt",
                        str(path), "Name a folder of the port holding a CMake project")
    entries, toolchains = _port_targets(t)
    owns_nvic: bool = t.flag("owns_nvic", False)
    t.done()
    return Port(name, description, archs, port_caps, unsupported, source, path.parent, path,
                cmake_project=cmake_project, toolchain_limits=limits, targets=entries,
                toolchains=toolchains, reservations=reservations, owns_nvic=owns_nvic)


def _port_targets(t: TomlTable) -> tuple[dict[str, PortTarget], tuple[str, ...]]:
    """[targets]: `toolchains` for all, then one [targets.<target or family>]
    table each, with a board (and its modules, defines, toolchains) or the
    reason it is unsupported. Names are checked against the targets later
    (Definitions.check_port_targets)."""
    table = t.table("targets")
    if table is None:
        return {}, ()
    toolchains: tuple[str, ...] = table.strs("toolchains", ())
    entries: dict[str, PortTarget] = {}
    for key in list(table.data):
        if key == "toolchains":
            continue
        sub = table.table(key)
        assert sub is not None
        entry = PortTarget(key, sub.text("board", ""), sub.strs("modules", ()),
                           sub.strs("defines", ()), sub.strs("toolchains", ()),
                           sub.text("unsupported", ""))
        sub.done()
        if bool(entry.board) == bool(entry.unsupported):
            raise UserError(f"[targets.{key}] needs either board or unsupported",
                            str(t.path), "Name the RTOS's board for the target, or say "
                            "why the port cannot run there (unsupported = \"...\")")
        entries[key] = entry
    table.done()
    return entries, toolchains


def load_target(path: Path) -> Target:
    t = TomlTable(read_toml(path), path)
    name = _folder_name(t, path, "target")
    description = t.text("description", "")
    kind = t.text("kind", REQUIRED)
    if kind not in KINDS:
        raise UserError(f"unknown target kind '{kind}' (key 'kind')", str(path),
                        f"Use one of: {', '.join(KINDS)}")
    arch = t.text("arch", REQUIRED)
    cpu = t.text("cpu", "")
    cpu_hz = t.num("cpu_hz", 0)
    if kind != "host" and cpu_hz <= 0:
        raise UserError("missing key 'cpu_hz'", str(path),
                        "Set cpu_hz to the core clock at which the firmware runs (SysTick input)")
    toolchain = t.text("toolchain", "")
    ct = t.table("counter")
    if ct is None:
        raise UserError("missing table [counter]", str(path),
                        "Add [counter] with name, unit and hz of the timestamp counter")
    unit = ct.text("unit", REQUIRED)
    # A cycle counter (DWT) counts the core clock: its rate is cpu_hz, not a second copy.
    counter = Counter(ct.text("name", REQUIRED), unit,
                      ct.num("hz", cpu_hz if unit == "cycles" and cpu_hz > 0 else REQUIRED))
    ct.done()
    qemu = None
    qt = t.table("qemu")
    if qt is not None:
        qemu = QemuSpec(qt.text("machine", REQUIRED), qt.num("icount_shift", 6),
                        qt.strs("extra_args", ()))
        qt.done()
    if kind == "qemu" and qemu is None:
        raise UserError("a qemu target needs a [qemu] table", str(path),
                        "Add [qemu] with machine = \"...\"")
    limits = t.table("limits")
    wall, guest = 120.0, 60.0
    if limits is not None:
        wall = float(limits._get("wall_s", (int, float), "a number of seconds", wall))
        guest = float(limits._get("guest_s", (int, float), "a number of seconds", guest))
        limits.done()
    board = t._get("board", dict, "a table", {})
    if kind == "board" and not board:
        raise UserError("a board target needs a [board] table", str(path),
                        "Add [board] with probe and pyocd_target (docs/boards.md)")
    params: dict[str, int] = {}
    pt = t.table("params")
    if pt is not None:
        params = {key: pt.num(key, REQUIRED) for key in ("samples", "batch", "tm_period_ms",
                                                          "tm_periods") if key in pt.data}
        pt.done()
    t.done()
    family = path.parent.parent.name if path.parent.parent.name != "targets" else ""
    return Target(name, description, kind, arch, cpu, toolchain, counter, qemu, path.parent, path,
                  wall, guest, cpu_hz, board, params, family)


def load_toolchain(path: Path) -> Toolchain:
    t = TomlTable(read_toml(path), path)
    name = _folder_name(t, path, "toolchain")
    description = t.text("description", "")
    uses: dict[str, ToolchainUse] = {}
    for prefix, ut in t.named_tables("targets").items():
        cmake = path.parent / ut.text("cmake", REQUIRED)
        if not cmake.is_file():
            raise UserError(f"CMake toolchain file {cmake.name} not found "
                            f"(key 'targets.{prefix}.cmake')", str(path),
                            "Name a file of the toolchain's folder")
        compiler = ut.text("compiler", REQUIRED)
        uses[prefix] = ToolchainUse(cmake, compiler, ut.text("assembler", compiler),
                                    ut.text("linker", compiler), ut.strs("needs", (compiler,)))
        ut.done()
    if not uses:
        raise UserError("no [targets.<prefix>] table", str(path),
                        "Add [targets.arm-none-eabi] (a target's `toolchain`) or "
                        "[targets.host] with cmake and compiler")
    opt = t.str_map("opt")
    missing = [i for i in OPT_INTENTS if i not in opt]
    if missing or set(opt) - set(OPT_INTENTS):
        raise UserError("[opt] must map exactly the intents " + ", ".join(OPT_INTENTS),
                        str(path), f"Give flags for {', '.join(missing) or 'those only'}")
    packages = t.str_map("packages")
    version_regex = t.text("version_regex", r"(?<![\w.:-])(\d+\.\d+(?:\.\d+)?)")
    t.done()
    return Toolchain(name, description, uses, opt, packages, version_regex, path.parent, path)


def board_of(target: Target) -> Board:
    """The board a target of kind "board" is: its [board] table's probe name
    (pyOCD's), serial speed and `tested` (whether it
    has run on the hardware). runners.board_settings checks the table."""
    b = target.board
    probe = {"pyocd": str(b["pyocd_target"])} if b.get("pyocd_target") else {}
    baud = b.get("serial_baud")
    return Board(target.name, target.name, target.description, bool(b.get("tested", False)),
                 probe, {"baud": int(baud)} if isinstance(baud, int) else {}, target.file)


def load_profile(path: Path) -> Profile:
    t = TomlTable(read_toml(path), path)
    name = t.text("name", path.stem)
    description = t.text("description", "")
    opt = t.text("opt", "speed")
    if opt not in OPT_INTENTS:
        raise UserError(f"unknown optimisation intent '{opt}' (key 'opt')", str(path),
                        f"Use one of: {', '.join(OPT_INTENTS)}")
    opt_flags = t.text("opt_flags", "")
    params = _params_tables(t)
    t.done()
    return Profile(name, description, opt, params, path, opt_flags=opt_flags)


def load_campaign(path: Path) -> Campaign:
    t = TomlTable(read_toml(path), path)
    name = t.text("name", path.stem)
    description = t.text("description", "")
    default_profiles = t.strs("profiles", ("default",))
    default_bench = t.text("bench", "*")
    default_loads = t.strs("loads", ("idle",))
    default_toolchains = t.strs("toolchains", (DEFAULT_TOOLCHAIN,))
    unit = t.text("unit", "") or None
    if unit is not None and unit not in ("instructions", "cycles", "ticks"):
        raise UserError(f"unknown unit '{unit}'", str(path),
                        "Valid units: instructions, cycles, ticks")
    cycle_ws, cycle_div = t.num("cycle_ws", None), t.num("cycle_div", None)
    params = _params_tables(t)
    entries = []
    for et in t.tables("run"):
        entries.append(CampaignEntry(
            ports=et.strs("ports", REQUIRED), targets=et.strs("targets", REQUIRED),
            profiles=et.strs("profiles", default_profiles), bench=et.text("bench", default_bench),
            optional=et.flag("if_available", False), where=f"{path} ([[run]] {et.prefix[4:-2]})",
            loads=et.strs("loads", default_loads),
            toolchains=et.strs("toolchains", default_toolchains),
        ))
        for spec in entries[-1].loads:
            parse_load(spec, f"{entries[-1].where}, key 'loads'")
        et.done()
    if not entries:
        raise UserError("no [[run]] entries", str(path),
                        "Add [[run]] with ports = [...] and targets = [...]")
    t.done()
    return Campaign(name, description, tuple(entries), params, path, unit=unit,
                    cycle_ws=cycle_ws, cycle_div=cycle_div)


# ---- all definitions of a tree ---------------------------------------------


def _load_all(roots: Iterable[Path], pattern: str | tuple[str, ...],
              loader: Callable[[Path], T], key: Callable[[T], str]) -> dict[str, T]:
    """Every file of the pattern(s) under each root; a name defined twice is
    an error naming both files (one definition per name, wherever it lives)."""
    out: dict[str, T] = {}
    files: dict[str, Path] = {}
    patterns = (pattern,) if isinstance(pattern, str) else pattern
    for root in roots:
        # by folder name: a target's place in a family folder does not move it
        for path in sorted((p for pat in patterns for p in root.glob(pat)),
                           key=lambda p: (p.parent.name, str(p))):
            item = loader(path)
            name = key(item)
            if name in files:
                raise UserError(f"{name!r} is defined twice, also in {files[name]}", str(path),
                                "Rename one of them (the name key, or its folder)")
            out[name], files[name] = item, path
    return out


@dataclass
class Definitions:
    root: Path
    caps: dict[str, Capability]
    ports: dict[str, Port]
    targets: dict[str, Target]
    boards: dict[str, Board]
    profiles: dict[str, Profile]
    toolchains: dict[str, Toolchain] = field(default_factory=dict)

    @classmethod
    def load(cls, root: Path | None = None) -> Definitions:
        """The tree's definitions, and the ports, targets and boards of the
        folders on the search path (RTOSMETER_PATH, the config's `path`)."""
        root = root or project_root()
        settings = config.load()
        roots = [root, *(folder for folder, _ in config.search_path(settings))]
        caps = load_caps(root)
        defs = cls(
            root=root,
            caps=caps,
            ports=_load_all(roots, "ports/*/port.toml", lambda p: load_port(p, caps),
                            lambda p: p.name),
            targets=_load_all(roots, ("targets/*/target.toml", "targets/*/*/target.toml"),
                              load_target, lambda t: t.name),
            boards={},
            profiles=_load_all([root], "profiles/*.toml", load_profile, lambda p: p.name),
            toolchains=_load_all(roots, "toolchains/*/toolchain.toml", load_toolchain,
                                 lambda t: t.name),
        )
        defs.boards = {t.name: board_of(t) for t in defs.targets.values() if t.kind == "board"}
        defs.check_archs()
        for port in defs.ports.values():
            for tc in port.toolchain_limits:
                defs.toolchain(tc, f"{port.file} (table [toolchains.{tc}])")
            defs.check_port_targets(port)
        for name, source in settings.sources.items():
            base = split_instance(name, f"{source.file} ([sources])")[0]
            if base not in defs.ports or defs.ports[base].source is None:
                raise unknown_name("port with a source tree", name,
                                   [p.name for p in defs.ports.values() if p.source],
                                   f"{source.file} ([sources])")
        return defs

    def check_archs(self) -> None:
        """Each architecture a port names is some target's: a misspelt one
        would silently match nothing."""
        known = {t.arch for t in self.targets.values()}
        for port in self.ports.values():
            named = [(a, "archs") for a in port.archs] + [
                (a, f"toolchains.{tc}.archs") for tc, lim in port.toolchain_limits.items()
                for a in lim.archs]
            for arch, key in named:
                if arch not in known:
                    raise unknown_name("architecture", arch, known, f"{port.file} (key '{key}')")

    def check_port_targets(self, port: Port) -> None:
        """Each [targets] key is a target or a family, each toolchain named
        there is one of toolchains/: a misspelt name would silently match
        nothing."""
        families = {t.family for t in self.targets.values() if t.family}
        for key, entry in port.targets.items():
            if key not in self.targets and key not in families:
                raise unknown_name("target or target family", key, [*self.targets, *families],
                                   f"{port.file} (table [targets.{key}])")
            for tc in entry.toolchains:
                self.toolchain(tc, f"{port.file} (key 'targets.{key}.toolchains')")
        for tc in port.toolchains:
            self.toolchain(tc, f"{port.file} (key 'targets.toolchains')")

    def port(self, name: str, where: str = "--port") -> Port:
        """The port of a name or of an instance name (`freertos@V9.0.0`:
        instances.py)."""
        base, label = split_instance(name, where)
        if base not in self.ports:
            raise unknown_name("port", base, self.ports, where)
        port = self.ports[base]
        if label and port.source is None:
            raise UserError(f"port '{base}' builds against no source tree, so it has no "
                            f"versions ('{name}')", where, f"Name it as '{base}'")
        return port

    def target(self, name: str, where: str = "--target") -> Target:
        if name not in self.targets:
            raise unknown_name("target", name, self.targets, where)
        return self.targets[name]

    def profile(self, name: str, where: str = "--profile") -> Profile:
        """A profile, or a loaded one: `<profile>+<load>` (rtosmeter.loads)."""
        base, load_spec = split_load(name)
        if base not in self.profiles:
            raise unknown_name("profile", base, self.profiles, where)
        load = parse_load(load_spec, where)
        profile = self.profiles[base]
        if load is None:
            return profile
        return replace(profile, name=f"{base}+{load.name}", load=load,
                       description=f"{profile.description}, under load {load.name}")

    def toolchain(self, name: str, where: str = "--toolchain") -> Toolchain:
        if name not in self.toolchains:
            raise unknown_name("toolchain", name, self.toolchains, where)
        return self.toolchains[name]

    def campaign_path(self, spec: str | None) -> Path:
        """--campaign takes a file or the name of campaigns/<name>.toml."""
        if spec is None:
            return self.root / "campaigns" / "default.toml"
        path = Path(spec).expanduser()
        if path.is_file():
            return path
        named = self.root / "campaigns" / f"{spec}.toml"
        if named.is_file():
            return named
        valid = [p.stem for p in (self.root / "campaigns").glob("*.toml")]
        raise UserError(f"campaign file '{spec}' not found", "--campaign",
                        f"Give a TOML file or one of: {', '.join(sorted(valid))}")

    def campaign(self, spec: str | None) -> Campaign:
        campaign = load_campaign(self.campaign_path(spec))
        for entry in campaign.entries:
            for p in entry.ports:
                self.port(p, f"{entry.where}, key 'ports'")
            for tg in entry.targets:
                self.target(tg, f"{entry.where}, key 'targets'")
            for pr in entry.profiles:
                self.profile(pr, f"{entry.where}, key 'profiles'")
            for tc in entry.toolchains:
                self.toolchain(tc, f"{entry.where}, key 'toolchains'")
        return campaign
