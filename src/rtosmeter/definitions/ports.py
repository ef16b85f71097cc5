"""Ports (ports/*/port.toml): capabilities, the RTOS tree, where the port
runs ([targets]), toolchain limits and the footprint's declared symbols."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rtosmeter.catalog import Capability
from rtosmeter.definitions.common import folder_name
from rtosmeter.errors import UserError
from rtosmeter.footprint import Reservations
from rtosmeter.toml_table import REQUIRED, TomlTable, read_toml

if TYPE_CHECKING:
    from rtosmeter.definitions.targets import Target


@dataclass(frozen=True)
class SourceSpec:
    env: str
    probe: str
    version_file: str = ""
    version_regex: str = ""
    git: str = ""
    tag: str = ""
    # The commit `tag` names, pinned: a tag can be moved upstream, a commit
    # cannot; `sources fetch` checks a clone and a cached tree against it.
    commit: str = ""
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
class NetStack:
    """[net]: where the port's network stack runs under the net-* loads
    (capability NET), and the stack's own tree when it is not the RTOS's
    (FreeRTOS + lwIP): `--source <stack>=PATH` or its variable."""

    stack: str = ""  # the stack's name, the --source name of its tree
    targets: tuple[str, ...] = ()  # targets or families it runs on (() : every target)
    source: SourceSpec | None = None  # [net.source]: the stack's tree
    # net state (accept, reject, forward) -> why the stack cannot serve it
    unsupported: dict[str, str] = field(default_factory=dict)
    # the stack reads context-based 6LoWPAN addresses only with IPHC's context
    # identifier byte, so its trace carries one (rtosmeter.net.trace.frame, cid)
    iphc_cid: bool = False


NET_STATES = ("accept", "reject", "forward")  # rtosmeter.net.trace.STATES


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
    # `shares`: folders of ports/ beside the port (no port.toml of their own)
    # whose files its build includes (ucos_common for µC/OS-II and -III):
    # hashed with the port's own (build.source_hash)
    shares: tuple[str, ...] = ()
    # [net]: the network stack under the net-* loads (None: the RTOS's own, everywhere)
    net: NetStack | None = None

    def net_runs_on(self, target: Target) -> bool:
        """Whether the port's network stack runs on the target ([net] targets)."""
        return (self.net is None or not self.net.targets
                or target.name in self.net.targets or target.family in self.net.targets)

    @property
    def net_iphc_cid(self) -> bool:
        """Whether the net-* trace carries IPHC's context identifier byte ([net] iphc_cid)."""
        return self.net is not None and self.net.iphc_cid

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


def _check_caps(names: Iterable[str], caps: dict[str, Capability], path: Path,
                key: str) -> None:
    for name in names:
        if name not in caps:
            raise UserError(
                f"unknown capability '{name}' (key '{key}')",
                str(path),
                f"Use names from RM_CAPS in bench/include/rtosmeter/port.h: {', '.join(caps)}",
            )


def _commit(st: TomlTable) -> str:
    commit: str = st.text("commit", "")
    if commit and (len(commit) != 40 or commit.strip("0123456789abcdef")):
        raise UserError(f"'{st.prefix}commit' must be a full commit id (40 lower-case hex "
                        f"digits), not {commit!r}", str(st.path),
                        "Write the id `git rev-parse TAG^{commit}` prints for the tag")
    return commit


def _companions(st: TomlTable) -> tuple[Companion, ...]:
    """[source.companions] NAME = { git = "...", tag = "..." }."""
    out = []
    for name, entry in st.named_tables("companions").items():
        out.append(Companion(name, entry.text("git", REQUIRED), entry.text("tag", REQUIRED)))
        entry.done()
    return tuple(out)


def load_port(path: Path, caps: dict[str, Capability]) -> Port:
    t = TomlTable(read_toml(path), path)
    name = folder_name(t, path, "port")
    description = t.text("description", "")
    archs = t.strs("archs", REQUIRED)
    port_caps = t.strs("caps", ())
    _check_caps(port_caps, caps, path, "caps")
    unsupported = t.str_map("unsupported")
    _check_caps(unsupported, caps, path, "unsupported")
    source = _source(t.table("source"))
    net = None
    if (nt := t.table("net")) is not None:
        net = NetStack(nt.text("stack", ""), nt.strs("targets", ()), _source(nt.table("source")),
                       nt.str_map("unsupported"), nt.flag("iphc_cid", False))
        nt.done()
        for state in net.unsupported:
            if state not in NET_STATES:
                raise UserError(f"unknown network state '{state}' (key 'net.unsupported')",
                                str(path), f"Use {', '.join(NET_STATES)}")
        if net.source is not None and not net.stack:
            raise UserError("[net.source] needs [net] stack = \"<name>\" (its --source name)",
                            str(path), "Name the network stack, e.g. stack = \"lwip\"")
    limits: dict[str, ToolchainLimit] = {}
    for tc, entry in t.named_tables("toolchains").items():
        limits[tc] = ToolchainLimit(entry.strs("archs", REQUIRED), entry.text("why", REQUIRED))
        entry.done()
    reservations = None
    net_objects = t.strs("net_objects", ())  # the network stack's objects (footprint)
    if (ft := t.table("footprint")) is not None:
        reservations = Reservations(ft.strs("stacks", ()), ft.strs("heaps", ()),
                                    ft.strs("objects", ()), net_objects)
        ft.done()
    elif net_objects:
        reservations = Reservations(network=net_objects, declared=False)
    cmake_project = t.text("cmake_project", "")
    if cmake_project and not (path.parent / cmake_project / "CMakeLists.txt").is_file():
        raise UserError(f"cmake_project '{cmake_project}' has no CMakeLists.txt",
                        str(path), "Name a folder of the port holding a CMake project")
    entries, toolchains = _port_targets(t)
    owns_nvic: bool = t.flag("owns_nvic", False)
    shares = t.strs("shares", ())
    for shared in shares:
        folder = path.parent.parent / shared
        if not folder.is_dir() or (folder / "port.toml").is_file() or "/" in shared:
            raise UserError(f"shares '{shared}' is not a shared folder beside the port",
                            str(path), "Name a folder of ports/ without a port.toml of its "
                            "own (e.g. ucos_common)")
    t.done()
    return Port(name, description, archs, port_caps, unsupported, source, path.parent, path,
                cmake_project=cmake_project, toolchain_limits=limits, targets=entries,
                toolchains=toolchains, reservations=reservations, owns_nvic=owns_nvic, net=net,
                shares=shares)


def _source(st: TomlTable | None) -> SourceSpec | None:
    """[source] (the RTOS's tree) or [net.source] (a network stack's)."""
    if st is None:
        return None
    source = SourceSpec(
        env=st.text("env", REQUIRED), probe=st.text("probe", REQUIRED),
        version_file=st.text("version_file", ""), version_regex=st.text("version_regex", ""),
        git=st.text("git", ""), tag=st.text("tag", ""), commit=_commit(st),
        west_modules=st.strs("west_modules", ()), subdirs=st.strs("subdirs", ()),
        tested=st.strs("tested", ()), companions=_companions(st),
        git_packages=st.strs("git_packages", ()),
    )
    st.done()
    return source


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
