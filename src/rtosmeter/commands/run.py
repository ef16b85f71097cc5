"""`rtosmeter run`: campaign -> builds -> runs -> store -> table and reports.

SIGTERM and SIGHUP stop a run as Ctrl-C does: the run is stored as
interrupted, the QEMUs and executables it started are ended, and the exact
`--resume` command is printed.
"""

from __future__ import annotations

import shlex
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import click

from rtosmeter.commands.common import open_store, out_option, resolve_run, split_list
from rtosmeter.commands.report import load_view, write_reports
from rtosmeter.commands.run_exports import export_options, write_exports
from rtosmeter.errors import UserError
from rtosmeter.instances import split as split_instance
from rtosmeter.textsafe import terminal_safe

if TYPE_CHECKING:
    from rtosmeter.board_memory import BoardMemory
    from rtosmeter.definitions import Definitions
    from rtosmeter.first_run import FirstRun
    from rtosmeter.model import RunView
    from rtosmeter.runners.base import RunOutcome, RunRequest
    from rtosmeter.runs import RunSummary


@dataclass
class RunOptions:
    out: Path = Path("rtosmeter-out")
    ports: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    bench: str | None = None
    sources: dict[str, Path] = field(default_factory=dict)
    jobs: int = 2
    profile: str | None = None
    campaign: str | None = None
    icount: bool = True
    resume: str | None = None
    quiet: bool | None = None  # None: progress only on a terminal (plain under NO_COLOR)
    unit: str | None = None  # QEMU targets: instructions | cycles | ticks (None: default)
    cycle_ws: int | None = None  # the cycle model's flash wait states
    cycle_div: int | None = None  # the cycle model's SDIV/UDIV cycles
    board: BoardMemory | None = None  # --as-board: its model, read once (rtosmeter.board_memory)
    loads: tuple[str, ...] = ()  # --load: load profiles (rtosmeter.loads); () the campaign's
    toolchains: tuple[str, ...] = ()  # --toolchain (empty: the campaign's; gcc by default)
    farm: str | None = None  # labgrid://HOST:PORT | dask://HOST:PORT (rtosmeter.farm)
    insecure: bool = False  # --insecure: a dask:// farm over plain TCP
    power: str = ""  # --power ANALYSER[:SERIAL]: each execution inside a capture
    align: str = "auto"  # --align auto|marker|stream (rtosmeter.runners.powered)
    qemu: str = ""  # --qemu PATH (rtosmeter.qemu_binary)
    attribute: bool = False  # --attribute: per-function attribution (rtosmeter.attribution)


# Characters a path given to CMake and QEMU cannot hold as plain text: each
# would split it, or make the tool read part of it as syntax.
_PATH_SPECIAL = {
    ";": "which CMake reads as a list separator",
    ",": "which splits QEMU's -plugin argument list (and could add plugin arguments)",
    '"': "which ends a CMake string",
    "\\": "which CMake reads as an escape",
    "$": "which CMake reads as a variable reference (${...}, $ENV{...})",
    "\n": "which ends a line of the build files",
}


def check_path(path: Path, what: str, where: str, fix: str) -> None:
    """Refuse a path (followed through its links: the tools see the target)
    holding a character of _PATH_SPECIAL, naming it."""
    for text in dict.fromkeys((str(path), str(path.resolve()))):
        for ch, why in _PATH_SPECIAL.items():
            if ch in text:
                raise UserError(f"{what} '{text}' contains {ch!r}, {why}", where, fix)


def out_folder(out: Path) -> Path:
    """--out, created; a path of _PATH_SPECIAL would split the build's paths
    or QEMU's plugin arguments, and write outside the folder."""
    check_path(out, "the campaign folder", "--out", "Pass a folder whose path has none of "
               + " ".join(_PATH_SPECIAL).replace("\n", "a line break"))
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create the campaign folder ({exc.strerror})", f"--out {out}",
                        "Pass a writable folder with --out") from None
    return out.resolve()


def _check_sources(defs: Definitions, sources: dict[str, Path]) -> None:
    from rtosmeter.definitions import unknown_name
    from rtosmeter.net.source import net_source_names

    ports = list(defs.ports.values())
    valid = sorted([p.name for p in ports if p.source is not None] + net_source_names(ports))
    for name, path in sources.items():
        base = split_instance(name, f"--source {name}={path}")[0]  # freertos@V9.0.0
        if base not in valid:
            raise unknown_name("source name", base, valid, f"--source {name}={path}")
        check_path(path, "the source path", f"--source {name}",
                   "Move or copy the tree to a path without it (a link is followed)")


def _profile(defs: Definitions, spec: str | None) -> tuple[str | None, Path | None]:
    """--profile takes a name (profiles/NAME.toml) or a file, like --campaign."""
    from rtosmeter.definitions import load_profile

    if spec is None or spec in defs.profiles or not Path(spec).expanduser().is_file():
        return spec, None
    path = Path(spec).expanduser().resolve()
    profile = load_profile(path)
    defs.profiles[profile.name] = profile
    return profile.name, path


def run_campaign(opts: RunOptions, root: Path | None = None,
                 before: Callable[[Definitions], object] | None = None) -> RunSummary:
    """Plan, build, run and store; the tests call this. `before` runs once
    the plan is made (every option checked), before the first build."""
    # the run pipeline loads numpy and rich: imported here, not for --help
    from rtosmeter.catalog import load_catalog
    from rtosmeter.definitions import Definitions
    from rtosmeter.plan import Selection, make_plan
    from rtosmeter.runs import execute

    if opts.jobs < 1:
        raise UserError(f"-j {opts.jobs} is not a job count", "-j", "Give -j 1 or more")
    defs = Definitions.load(root)
    _check_sources(defs, opts.sources)
    catalog = load_catalog(defs.root)
    out = out_folder(opts.out)
    with open_store(out) as store, _farm(opts.farm, opts.insecure) as run:
        if opts.resume is not None:
            run_id = resolve_run(store, opts.resume)
            return execute(defs, catalog, store, out, None, resume=run_id, quiet=opts.quiet,
                           run=run)
        campaign = defs.campaign(opts.campaign)
        profile, profile_file = _profile(defs, opts.profile)
        sel = Selection(opts.ports, opts.targets, opts.bench, profile, opts.jobs,
                        opts.icount, opts.sources, profile_file, opts.unit,
                        opts.cycle_ws, opts.cycle_div, opts.loads, opts.toolchains,
                        board=opts.board, board_target=not opts.targets,
                        power=opts.power, align=opts.align,
                        qemu=opts.qemu, attribute=opts.attribute)
        plan = make_plan(defs, catalog, campaign, sel)
        if before is not None:
            before(defs)
        return execute(defs, catalog, store, out, plan, quiet=opts.quiet, run=run)


@contextmanager
def _farm(url: str | None, insecure: bool = False
          ) -> Iterator[Callable[[RunRequest], RunOutcome]]:
    """--farm: the farm's way to run one execution, closed after the run."""
    from rtosmeter.runners import run_once

    if url is None:
        yield run_once
        return
    from rtosmeter.farm import open_farm

    farm = open_farm(url, insecure)
    try:
        yield farm.run
    finally:
        farm.close()


@contextmanager
def signals_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP raise `Interrupted` in the main thread, as SIGINT
    raises KeyboardInterrupt; a repeat while the run winds down is ignored."""
    from rtosmeter.runs import Interrupted

    def handler(signum: int, frame: FrameType | None) -> None:
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)
        raise Interrupted(signum)

    old = {sig: signal.signal(sig, handler) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, previous in old.items():
            signal.signal(sig, previous)


ERRORS_SHOWN = 5  # errors and failed cases printed under the summary line


def _first_run(opts: RunOptions, defs: Definitions) -> FirstRun:
    """The default campaign (no option choosing what to run): fetch the
    pinned RTOS trees it compares, once (rtosmeter.first_run)."""
    from rtosmeter.first_run import FirstRun, prepare

    if opts.campaign or opts.ports or opts.targets or opts.farm or opts.sources:
        return FirstRun()
    return prepare(defs, click.echo)


def resume_command(run_id: int, out: Path) -> str:
    return f"rtosmeter run --resume {run_id} --out {shlex.quote(str(out.resolve()))}"


@click.command("run")
@click.option("--port", "ports", multiple=True, metavar="P[,P...]", help="Ports to run.")
@click.option("--target", "targets", multiple=True, metavar="T[,T...]", help="Targets to run on.")
@click.option("--bench", metavar="GLOB", help="Case IDs to keep, e.g. 'lat.sem.*' (fnmatch).")
@click.option("--source", "sources", multiple=True, metavar="NAME=PATH",
              help="An RTOS source tree for a port.")
@out_option
@click.option("-j", "jobs", type=int, default=2, show_default=True,
              help="Parallel jobs (compiler and emulated runs; host runs go one at a time).")
@click.option("--profile", metavar="NAME|FILE",
              help="Configuration profile file or name (profiles/NAME.toml).")
@click.option("--campaign", metavar="FILE", help="Campaign file or name (campaigns/NAME.toml).")
@click.option("--toolchain", "toolchains", multiple=True, metavar="TC[,TC...]",
              help="Toolchains to build with, side by side (toolchains/NAME; default: the "
                   "campaign's, else gcc), e.g. gcc,clang.")
@click.option("--no-icount", is_flag=True,
              help="Run QEMU without -icount (host-timed, noisy; labelled so).")
@click.option("--resume", metavar="RUN_ID", help="Finish an interrupted run (skips stored groups).")
@click.option("--unit", type=click.Choice(["instructions", "cycles", "ticks"]),
              help="What emulated runs count (QEMU targets; plugins/qemu): exact "
                   "instructions (the default when the plugin is built), estimated cycles "
                   "(Cortex-M3/M4), or the target's timer ticks. Hosts and boards keep "
                   "their own counter.")
@click.option("--cycle-ws", type=int, metavar="N",
              help="--unit cycles: flash wait states of the board to estimate (default 0).")
@click.option("--cycle-div", type=int, metavar="N",
              help="--unit cycles: cycles of SDIV/UDIV, 2..12 (default 12, the worst case).")
@click.option("--farm", metavar="URL",
              help="Run elsewhere: labgrid://HOST:PORT (boards and any target through a "
                   "labgrid coordinator's places) or dask://HOST:PORT?ca=CA.pem&cert=CERT.pem"
                   "&key=KEY.pem (QEMU runs on a Dask cluster, over TLS). Default: this "
                   "machine.")
@click.option("--insecure", is_flag=True,
              help="Let a dask:// farm use plain TCP, without TLS: results come back as "
                   "pickles, so only on a network you trust.")
@click.option("--attribute", is_flag=True,
              help="QEMU runs with the plugin also attribute every interval to the "
                   "firmware's functions (`rtosmeter explain`; docs/explain.md).")
@click.option("--clock", metavar="RATE",
              help="Also show the plugin's counts as estimated µs at this clock, e.g. 80MHz.")
@click.option("--as-board", "as_board", metavar="BOARD",
              help="Estimate cycles as on this board (e.g. B-L475E-IOT01A): its flash wait "
                   "states, prefetch and caches at its clock (its target.toml [memory]) on "
                   "the QEMU machine with its core, shown also as µs at its clock.")
@click.option("--load", "loads", multiple=True, metavar="L[,L...]",
              help="Run every case under these load profiles too (idle, irq:HZ:WORK, "
                   "tasks:N[:CALLS], accept|reject|forward[:HZ[:WORK]], "
                   "net-idle, net-accept|net-reject|net-forward[:HZ]: the OS's own stack); "
                   "each is a build of its own, beside the idle build a run with loads always has: "
                   "`report --view load` gives each as its change against idle.")
@click.option("--power", metavar="ANALYSER[:SERIAL]",
              help="Capture current with a power analyser (joulescope, ppk2 or otii) "
                   "around each execution, one at a time, and store the energy per case and "
                   "the trace (docs/energy.md).")
@click.option("--align", type=click.Choice(["auto", "marker", "stream"]), default="auto",
              show_default=True,
              help="--power: match the capture to the cases by the board's GPIO marker, or "
                   "by when the stream's records arrived (auto: the marker where the target "
                   "declares one).")
@click.option("--qemu", metavar="PATH",
              help="The qemu-system-arm to run emulated targets with (default: "
                   "$RTOSMETER_QEMU, the campaign's qemu, else the one on PATH); QEMU 7.2 "
                   "and later (docs/qemu.md).")
@export_options
def run(ports: tuple[str, ...], targets: tuple[str, ...], bench: str | None,
        sources: tuple[str, ...], out: Path, jobs: int, profile: str | None,
        campaign: str | None, toolchains: tuple[str, ...], no_icount: bool,
        resume: str | None, unit: str | None,
        cycle_ws: int | None, cycle_div: int | None, farm: str | None, insecure: bool,
        clock: str | None, as_board: str | None, loads: tuple[str, ...],
        export_json: Path | None, export_md: Path | None, export_csv: Path | None,
        junit: Path | None, attribute: bool, power: str | None, align: str,
        qemu: str | None) -> None:
    """Build and run a campaign, store the results, print the table."""
    clock, board = _checked_clock(clock, as_board)
    _check_power(power, align)
    from rtosmeter.sources import parse_source_options

    opts = RunOptions(out, split_list(ports), split_list(targets), bench,
                      parse_source_options(sources), jobs, profile, campaign, not no_icount, resume,
                      unit=unit, cycle_ws=cycle_ws, cycle_div=cycle_div, farm=farm,
                      board=board,
                      insecure=insecure, power=power or "", align=align,
                      loads=split_list(loads), toolchains=split_list(toolchains),
                      qemu=qemu or "", attribute=attribute)
    summary, first = _run_reporting_interruptions(opts)
    view = load_view(opts.out, str(summary.run_id), clock)  # once, for every output below
    _print_outcome(opts, summary, view, first)
    for path in write_exports(view, {"export_json": export_json, "export_md": export_md,
                                     "export_csv": export_csv, "junit": junit}):
        click.echo(f"Report: {path}")
    if is_tool_failure(summary):
        raise UserError(f"{summary.failed} execution(s) and {summary.builds_failed} build(s) "
                        "failed", f"run {summary.run_id}",
                        f"See the errors above and `rtosmeter report {summary.run_id}`")


def _checked_clock(clock: str | None, as_board: str | None
                   ) -> tuple[str | None, BoardMemory | None]:
    """--clock and --as-board, checked before the campaign: the clock the
    reports convert at, and the board's model (read once, for the plan)."""
    if clock:
        from rtosmeter.qemu_plugin import parse_clock

        parse_clock(clock)  # a bad rate fails before the campaign, not after
    if not as_board:
        return clock, None
    from rtosmeter.board_memory import memory_of
    from rtosmeter.qemu_plugin import parse_clock

    board = memory_of(as_board)  # an unknown board fails before the campaign
    if clock and parse_clock(clock) != board.clock_hz:
        raise UserError(f"--clock {clock} is not the clock of {as_board} "
                        f"({board.clock_hz / 1e6:g} MHz)", "--clock",
                        "Leave --clock out: --as-board converts at the board's clock")
    return f"{board.clock_hz}Hz", board


def _check_power(power: str | None, align: str) -> None:
    """--power and --align, checked before the campaign."""
    if power:
        from rtosmeter.energy.sessions import PowerSpec

        PowerSpec.parse(power)  # an unknown analyser fails before the campaign
    elif align != "auto":
        raise UserError(f"--align {align} aligns a power capture", "--align",
                        "Give --power ANALYSER too, or leave --align out")


def _run_reporting_interruptions(opts: RunOptions) -> tuple[RunSummary, FirstRun]:
    """The run, and what its first run fetched; an interruption says what
    was kept and how to resume, and exits 128 + the signal."""
    from rtosmeter.first_run import FirstRun
    from rtosmeter.runs import Interrupted, RunInterrupted

    first = FirstRun()

    def first_run(defs: Definitions) -> None:
        nonlocal first
        first = _first_run(opts, defs)

    try:
        with signals_interrupt():
            summary = run_campaign(opts, before=first_run)
    except RunInterrupted as exc:
        name = signal.Signals(exc.signum).name
        click.echo(f"Interrupted ({name}): run {exc.run_id} is stored as interrupted, with "
                   "every execution that finished; the QEMUs and programs it started are "
                   f"stopped. Resume it with:\n  {resume_command(exc.run_id, opts.out)}",
                   err=True)
        raise click.exceptions.Exit(128 + exc.signum) from None
    except Interrupted as exc:  # while planning, before the run was stored
        click.echo(f"Interrupted ({signal.Signals(exc.signum).name}) before the run started: "
                   "nothing was stored", err=True)
        raise click.exceptions.Exit(128 + exc.signum) from None
    return summary, first


def _print_outcome(opts: RunOptions, summary: RunSummary, view: RunView,
                   first: FirstRun) -> None:
    """The answer, the run's line, its failures (the plugin's refusal once)
    and where the reports are."""
    from rtosmeter.model import FAIL_MARK
    from rtosmeter.qemu_binary import PLUGIN_FAILED
    from rtosmeter.reports import document
    from rtosmeter.reports._glance_text import text as glance_text

    doc = document.build(view)
    click.echo(glance_text(doc.glances))  # the answer; the full tables are `report`'s
    written = write_reports(opts.out, doc)
    findings = findings_of(view)
    click.echo(summary.line(len(findings), len(view.warnings))
               + f" Store: {opts.out / 'rtosmeter.sqlite'}")
    failures = view.errors + findings  # tool errors first, then the failed cases
    refused = [e for e in view.errors if PLUGIN_FAILED in e]
    if refused:  # once, with its fix: every plugin execution fails the same way
        click.echo(f"  {FAIL_MARK} {len(refused)} execution(s): {terminal_safe(refused[0])}")
        failures = [f for f in failures if PLUGIN_FAILED not in f]
    for line in failures[:ERRORS_SHOWN]:  # names and reasons come from the stream
        click.echo(f"  {FAIL_MARK} {terminal_safe(line)}")
    if len(failures) > ERRORS_SHOWN:
        click.echo(f"  … and {len(failures) - ERRORS_SHOWN} more (`rtosmeter report`)")
    if first.offline_line:
        click.echo(first.offline_line)
    click.echo(f"Report: {written[0]} and {written[1].name}; the full tables: "
               f"rtosmeter report {summary.run_id} --out {shlex.quote(str(opts.out))}")


# ---- the last lines and the exit status -------------------------------------
#
# Exit status (README, "The command line"): 0 when everything that could run
# here ran, even if some cases are unsupported, some combinations were not run
# here (port not made for the target, RTOS tree or tool missing: stored with
# the reason) or some cases failed a property check (a finding about the RTOS,
# shown with ✗); 1 for a user error or a failure of the tool chain: a build
# that failed, an execution that crashed, hung or wrote a corrupt stream.


def is_tool_failure(summary: RunSummary) -> bool:
    return bool(summary.failed or summary.builds_failed)


def findings_of(view: RunView) -> list[str]:
    """Cases that ran and failed (a property check, or the case itself), and
    derived checks that failed (tm.basic against bare metal): results about
    the RTOS, not failures of the tool."""
    from rtosmeter import vocabulary

    out = []
    for c in sorted(view.cases, key=lambda c: (vocabulary.system(c), c.case_id)):
        # incomplete / error cases belong to a failed execution (a tool failure)
        if c.status not in ("ok", "failed") or (c.status == "ok"
                                                and all(k.ok for k in c.checks)):
            continue
        checks = [f"check {k.name}: got {k.got}, want {k.want}" for k in c.checks if not k.ok]
        # the failed checks say more than a firmware's generic "check failed"
        why = "; ".join(checks) if checks and c.reason.startswith("check") else \
            "; ".join([c.reason] * bool(c.reason) + checks)
        out.append(f"{vocabulary.system(c)} {c.case_id}: {c.status}"
                   + (f" ({why})" if why else ""))
    return out
