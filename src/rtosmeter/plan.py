"""The planner: a campaign and the command line's selection -> the plan.

A campaign names (port, target, profile) combinations, each built with one or
more toolchains (an axis: rtosmeter.axes); each becomes one `PlannedBuild`
(one build tree, one execution per benchmark group). Every combination that
will not be built says why (`skip_status`, `skip_reason`): support is decided
in one place, `check_support`, and what this machine lacks in
`unavailable_reason`. The planner builds and runs nothing (the executor,
execute.py, does), and never names a runner kind (rtosmeter.runners).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from rtosmeter import axes, instances, qemu_binary, runners
from rtosmeter.board_memory import BoardMemory, board_named, read_memory
from rtosmeter.build import missing_tools
from rtosmeter.catalog import Catalog
from rtosmeter.definitions import (
    DEFAULT_TOOLCHAIN,
    Campaign,
    Definitions,
    Port,
    Target,
    Toolchain,
)
from rtosmeter.errors import UserError
from rtosmeter.loads import profile_name as loaded_name
from rtosmeter.loads import with_idle
from rtosmeter.measure import DEFAULT_DIV, Unit
from rtosmeter.net.support import net_unsupported
from rtosmeter.runners.base import Measure

IDLE_ONLY = ("idle",)


@dataclass
class PlannedBuild:
    """One (port, target, profile) and its axes (toolchain): one build tree,
    one execution per group; or, with a skip status, one that is not built."""

    port: str
    target: str
    profile: str
    bench: str
    groups: list[str]
    params: dict[str, int]
    optional: bool = False
    skip_status: str = ""  # "" | unsupported | skipped
    skip_reason: str = ""
    unit: Unit = Unit.TICKS  # what the executions count (rtosmeter.measure)
    ws: int = 0  # cycles: flash wait states
    div: int = DEFAULT_DIV  # cycles: SDIV/UDIV cycles
    axes: dict[str, str] = field(default_factory=dict)  # rtosmeter.axes: every axis

    def __post_init__(self) -> None:
        self.axes = axes.complete(self.axes)  # a plan stored before an axis existed
        self.unit = Unit.stored(self.unit)  # a stored plan's string

    @property
    def toolchain(self) -> str:
        return self.axes["toolchain"]

    @property
    def key(self) -> str:
        return axes.name(self.port, self.target, self.profile, self.axes)

    @property
    def done_key(self) -> tuple[str, str, str, str]:
        """(port, target, profile, canonical axes): Store.done_groups' key, less the group."""
        return (self.port, self.target, self.profile, axes.canonical(self.axes))



@dataclass
class Plan:
    campaign: str
    campaign_file: str
    builds: list[PlannedBuild]
    jobs: int
    icount: bool
    sources: dict[str, str] = field(default_factory=dict)
    profile_file: str = ""  # --profile FILE: loaded again by --resume
    power: str = ""  # --power ANALYSER[:SERIAL]: each execution inside a capture
    align: str = "auto"  # --align: how captures meet cases (rtosmeter.runners.powered)
    qemu: str = ""  # the QEMU binary, resolved once (--qemu, RTOSMETER_QEMU, the campaign's)
    attribute: bool = False  # --attribute: plugin runs attribute every interval
    board: BoardMemory | None = None  # --as-board: the board's memory model, read once
    # study run --as-board A,B: the boards of the other cores, each on its QEMU target
    core_boards: list[BoardMemory] = field(default_factory=list)

    def board_for(self, target: str) -> BoardMemory | None:
        return board_for(self.board, tuple(self.core_boards), target)

    def measure_of(self, build: PlannedBuild) -> Measure:
        """What the build's executions count and how: every runner option."""
        return Measure(build.unit, self.icount, build.ws, build.div,
                       self.board_for(build.target), self.qemu, self.attribute)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Plan:
        # "combos": how plans were stored before PlannedBuild had its name;
        # "as_board": the board's name in every build, before the plan held its model
        stored = [dict(b) for b in data.get("builds", data.get("combos", []))]
        boards = {str(b.pop("as_board", "")) for b in stored} - {""}
        board = data.get("board")
        return cls(data.get("campaign", "?"), data.get("campaign_file", ""),
                   [PlannedBuild(**b) for b in stored],
                   int(data.get("jobs", 2)), bool(data.get("icount", True)),
                   dict(data.get("sources", {})), str(data.get("profile_file", "")),
                   str(data.get("power", "")), str(data.get("align", "auto")),
                   str(data.get("qemu", "")), bool(data.get("attribute", False)),
                   BoardMemory(**board) if board else
                   read_memory(board_named(Definitions.load(), boards.pop())) if boards
                   else None, [BoardMemory(**b) for b in data.get("core_boards", [])])


NO_BOARD = "needs the board attached (study run --boards)"


def other_core(board: BoardMemory, target: Target) -> str:
    """Why a study's QEMU target of another core is not run as on a board."""
    return (f"--as-board {board.board} is a {board.cpu}, estimated on {board.qemu_target}: "
            f"{target.name} ({target.cpu}) would need a board of its own core (--as-board "
            f"{board.board},BOARD)")


def board_for(board: BoardMemory | None, core_boards: tuple[BoardMemory, ...],
              target: str) -> BoardMemory | None:
    """The board a target's cycles are estimated as: the one of its core
    among several (study run --as-board A,B), else the one given."""
    return next((b for b in (board, *core_boards) if b and b.qemu_target == target), board)


@dataclass(frozen=True)
class Selection:
    """Command-line choices that narrow or replace the campaign."""

    ports: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    bench: str | None = None
    profile: str | None = None
    jobs: int = 2
    icount: bool = True
    sources: dict[str, Path] = field(default_factory=dict)
    profile_file: Path | None = None  # --profile FILE (its profile is in the definitions)
    unit: str | None = None  # --unit (None: the campaign's, else the default)
    ws: int | None = None  # --cycle-ws (None: the campaign's, else 0)
    div: int | None = None  # --cycle-div (None: the campaign's, else 12)
    loads: tuple[str, ...] = ()  # --load (empty: the campaign's, else idle)
    toolchains: tuple[str, ...] = ()  # --toolchain (empty: the campaign's)
    boards: bool = True  # False: board targets are planned as not run (no board attached)
    board: BoardMemory | None = None  # --as-board: cycles estimated as on this board
    board_target: bool = False  # run --as-board without --target: its core's QEMU target
    board_core_only: bool = False  # study run --as-board: other cores' QEMU targets not run
    core_boards: tuple[BoardMemory, ...] = ()  # study run --as-board A,B: the other cores' boards
    power: str = ""  # --power ANALYSER[:SERIAL] (rtosmeter.energy.sessions)
    align: str = "auto"  # --align auto|marker|stream
    qemu: str = ""  # --qemu PATH (rtosmeter.qemu_binary; "": RTOSMETER_QEMU, the campaign's)
    attribute: bool = False  # --attribute (rtosmeter.attribution)


@dataclass(frozen=True)
class Candidate:
    """One (port, target) pair asked for, with what to build of it, before
    support is checked."""

    port: str  # a port or a version instance (`freertos@V9.0.0`, instances.py)
    target: str
    profiles: tuple[str, ...]
    bench: str  # case globs, or "*"
    optional: bool  # if_available: skipped, not an error, when it cannot run here
    loads: tuple[str, ...]
    toolchains: tuple[str, ...]


# ---- support: the one place a combination is judged ------------------------


@dataclass(frozen=True)
class Support:
    """Whether a (port, target, toolchain) combination is built: `reason`
    says why not ("" when it is)."""

    reason: str = ""


def check_support(port: Port, target: Target, toolchain: Toolchain) -> Support:
    """Every rule of where a port runs, in one place: the port's one table
    (port.toml `archs` and [targets]: boards, toolchains its own build maps,
    targets it cannot hold) and the toolchain's targets (toolchain.toml
    [targets.*])."""
    if why := port.unsupported_reason(target, toolchain.name):
        return Support(why)
    if toolchain.use_for(target) is None:
        return Support(f"toolchain {toolchain.name} does not build for {target.name} (no "
                       f"[targets.{target.toolchain or 'host'}] in {toolchain.file})")
    return Support()


def unavailable_reason(target: Target, toolchain: Toolchain, measure: Measure | None = None
                       ) -> str:
    """Why this target cannot be built with `toolchain` and run here ("" when
    it can; what running needs, its runner says)."""
    missing = missing_tools(target, toolchain)
    if missing:
        return ("missing " + ", ".join(p for p, _ in missing) + ": apt-get install "
                + " ".join(dict.fromkeys(pkg for _, pkg in missing)))
    return runners.unavailable(target, measure)


# ---- what is asked for ------------------------------------------------------


def _check_names(defs: Definitions, sel: Selection) -> None:
    for p in sel.ports:
        defs.port(p)
    for t in sel.targets:
        defs.target(t)
    for tc in sel.toolchains:
        defs.toolchain(tc)


def _from_campaign(campaign: Campaign, sel: Selection, wanted: tuple[str, ...]
                   ) -> list[Candidate]:
    """The campaign's entries, narrowed by --port/--target; a port or target
    named on the command line is wanted, not optional."""
    explicit = bool(sel.ports or sel.targets)
    out = []
    for e in campaign.entries:
        for p in instances.expand(e.ports, sel.sources):
            if sel.ports and p not in wanted and instances.split(p)[0] not in sel.ports:
                continue
            out += [Candidate(p, t, e.profiles, e.bench, e.optional and not explicit, e.loads,
                              sel.toolchains or e.toolchains)
                    for t in e.targets if not sel.targets or t in sel.targets]
    return out


def _declared(defs: Definitions, sel: Selection, wanted: tuple[str, ...]) -> list[Candidate]:
    """What the ports declare, on the targets that have a runner here: for a
    port or target the campaign does not name."""
    targets = sel.targets or tuple(defs.targets)
    out = [Candidate(p, t, ("default",), "*", not sel.targets, IDLE_ONLY,
                     sel.toolchains or (DEFAULT_TOOLCHAIN,))
           for p in wanted or tuple(defs.ports) for t in targets
           if defs.port(p).supports(defs.targets[t])
           and runners.runner_class(defs.targets[t].kind)]
    if not out:
        what = f"port {', '.join(sel.ports)}" if sel.ports else f"target {', '.join(targets)}"
        raise UserError(f"nothing to run for {what}", "--port/--target",
                        "Run `rtosmeter list` to see which ports run on which targets")
    return out


def candidates(defs: Definitions, campaign: Campaign, sel: Selection) -> list[Candidate]:
    """The pairs asked for: every pair of --port and --target (unsupported
    ones are planned, to say so), else the campaign's entries, else what the
    ports declare. A port may be an instance (`freertos@V9.0.0`), and a plain
    port with labelled --source trees runs as those instances."""
    _check_names(defs, sel)
    wanted = instances.expand(sel.ports, sel.sources)
    if sel.ports and sel.targets:
        out = [Candidate(p, t, ("default",), "*", False, IDLE_ONLY,
                         sel.toolchains or (DEFAULT_TOOLCHAIN,))
               for p in wanted for t in sel.targets]
    else:
        out = _from_campaign(campaign, sel, wanted)
        if out:
            return out
        out = _declared(defs, sel, wanted)
    return [replace(c, profiles=_campaign_profiles(campaign, c)) for c in out]


def _campaign_profiles(campaign: Campaign, cand: Candidate) -> tuple[str, ...]:
    """A pair the campaign does not list (--port/--target outside it) keeps
    the campaign's profiles: those of the entries naming its port, else of
    every entry (`--campaign two-profiles --port threadx` runs both)."""
    port = instances.split(cand.port)[0]
    for e in campaign.entries:
        if cand.target in e.targets and port in e.ports:
            return e.profiles
    named = [p for e in campaign.entries if port in e.ports for p in e.profiles]
    every = [p for e in campaign.entries for p in e.profiles]
    return tuple(dict.fromkeys(named or every)) or cand.profiles


# ---- the plan -----------------------------------------------------------------


def split_names(text: str) -> tuple[str, ...]:
    """`default,vendor` (--profile) -> ("default", "vendor")."""
    return tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))


def _merge_bench(first: PlannedBuild, again: PlannedBuild, catalog: Catalog) -> None:
    """One build per (port, target, profile): the cases of both entries."""
    if "*" in (first.bench, again.bench):
        first.bench = "*"
    elif again.bench not in first.bench.split(","):
        first.bench = f"{first.bench},{again.bench}"
    first.groups = catalog.groups_for(first.bench)


class _Planner:
    def __init__(self, defs: Definitions, catalog: Catalog, campaign: Campaign,
                 sel: Selection, board: BoardMemory | None) -> None:
        self.defs, self.catalog, self.campaign, self.sel = defs, catalog, campaign, sel
        self.board = board
        self.ws = next(v for v in (sel.ws, campaign.cycle_ws, 0) if v is not None)
        self.div = next(v for v in (sel.div, campaign.cycle_div, DEFAULT_DIV) if v is not None)
        self.qemu = qemu_binary.resolved(qemu_binary.chosen(sel.qemu or None, campaign.qemu))

    def builds_of(self, cand: Candidate) -> list[PlannedBuild]:
        """Every profile idle and under every load (loads.with_idle), with
        every toolchain."""
        sel, target = self.sel, self.defs.targets[cand.target]
        where = "--load" if sel.loads else str(self.campaign.file)
        loaded = [loaded_name(p, load, where)
                  for p in (split_names(sel.profile) if sel.profile else cand.profiles)
                  for load in with_idle(sel.loads or cand.loads, where)]
        out = []
        for profile_name in dict.fromkeys(loaded):
            for tc in cand.toolchains:
                profile, toolchain = self.defs.profile(profile_name), self.defs.toolchain(tc)
                params = profile.params_for(target.kind).merged(
                    self.campaign.params.get(target.kind, {}))
                params = params.merged({k: min(getattr(params, k), v)  # the target's RAM caps
                                        for k, v in target.params.items()})
                pattern = sel.bench or cand.bench
                out.append(PlannedBuild(cand.port, target.name, profile.name, pattern,
                                        self.catalog.groups_for(pattern), asdict(params),
                                        cand.optional, ws=self.ws, div=self.div,
                                        axes={"toolchain": toolchain.name}))
        return out

    def unit(self, target: Target) -> Unit:
        sel = self.sel
        where = f"target {target.name} (--unit)" if sel.unit else str(self.campaign.file)
        return runners.resolve_unit(target, sel.unit or self.campaign.unit,
                                    Measure(Unit.TICKS, sel.icount, self.ws, self.div,
                                            self.board_for(target.name), self.qemu), where)

    def board_for(self, target: str) -> BoardMemory | None:
        return board_for(self.board, self.sel.core_boards, target)

    def measure(self, build: PlannedBuild) -> Measure:
        return Measure(build.unit, self.sel.icount, build.ws, build.div,
                       self.board_for(build.target), self.qemu)

    def settle(self, build: PlannedBuild) -> PlannedBuild:
        """The build as planned, or skipped with its reason."""
        port, target = self.defs.port(build.port), self.defs.targets[build.target]
        toolchain = self.defs.toolchain(build.toolchain)
        board = self.board_for(target.name)
        if (board and self.sel.board_core_only and target.kind == "qemu"
                and target.name != board.qemu_target):
            build.skip_status, build.skip_reason = "skipped", other_core(board, target)
            return build
        build.unit = self.unit(target)
        support = check_support(port, target, toolchain)
        if not support.reason:
            support = Support(net_unsupported(port, target, self.defs.profile(build.profile),
                                              self.sel.sources))
        if support.reason:
            build.skip_status, build.skip_reason = "unsupported", support.reason
        elif target.kind == "board" and not self.sel.boards:
            build.skip_status, build.skip_reason = "skipped", NO_BOARD
        elif reason := unavailable_reason(target, toolchain, self.measure(build)):
            if not build.optional:
                raise UserError(f"target {target.name} cannot run here: {reason}",
                                "--target" if self.sel.targets else str(self.campaign.file),
                                "Install what is missing (scripts/install.sh), or mark the "
                                "[[run]] entry if_available = true")
            build.skip_status, build.skip_reason = "skipped", f"{target.name}: {reason}"
        return build


def make_plan(defs: Definitions, catalog: Catalog, campaign: Campaign, sel: Selection) -> Plan:
    """The plan of a campaign narrowed by the selection; a later [[run]]
    entry of the same build adds its cases to it."""
    board = sel.board  # --as-board: in cycles
    if board is not None:
        sel = replace(sel, unit=sel.unit or Unit.CYCLES,
                      targets=(board.qemu_target,) if sel.board_target else sel.targets)
    planner = _Planner(defs, catalog, campaign, sel, board)
    planned: list[PlannedBuild] = []
    seen: dict[str, PlannedBuild] = {}
    for cand in candidates(defs, campaign, sel):
        for build in planner.builds_of(cand):
            if build.key in seen:
                _merge_bench(seen[build.key], build, catalog)
                continue
            seen[build.key] = build
            planned.append(planner.settle(build))
    return Plan(campaign.name, str(campaign.file), planned, sel.jobs, sel.icount,
                {k: str(v) for k, v in sel.sources.items()},
                str(sel.profile_file) if sel.profile_file else "", sel.power, sel.align,
                planner.qemu, sel.attribute, board, list(sel.core_boards))
