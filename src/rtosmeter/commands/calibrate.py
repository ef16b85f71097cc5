"""`rtosmeter calibrate BOARD`: fit the board's cycle model to the board
(rtosmeter.calibrate)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from rtosmeter.errors import UserError

if TYPE_CHECKING:
    from rtosmeter.calibrate import Figures, Params


def _params(text: str) -> dict[str, int]:
    """`ws=3,prefetch=0,div=7` -> {ws: 3, ...}, within the fit's bounds."""
    from rtosmeter.board_memory import BOUNDS
    from rtosmeter.numbers import read_whole

    out: dict[str, int] = {}
    for part in text.split(","):
        key, _, value = part.partition("=")
        if key not in BOUNDS:
            raise UserError(f"unknown parameter '{key}'", "--stand-in",
                            f"Give {', '.join(f'{k}=N' for k in BOUNDS)}")
        low, high = BOUNDS[key]
        out[key] = read_whole(value, "--stand-in", key, low, high, f"Give {low}..{high}")
    return out


@click.command("calibrate")
@click.argument("board")
@click.option("--from-run", "from_run", metavar="RUN",
              help="The board's measurements: a run of bare metal's kernels on the board "
                   "(rtosmeter run --port baremetal --target BOARD --bench "
                   "'lat.isr.*,tm.basic,calib.flash') in --board-out.")
@click.option("--board-out", type=click.Path(path_type=Path), default=None,
              help="The store holding --from-run.")
@click.option("--stand-in", "stand_in", metavar="ws=N,prefetch=N,div=N",
              help="No board: a stand-in whose cycles the model itself produces with these "
                   "parameters (what the fit must recover).")
@click.option("--work", type=click.Path(path_type=Path), default=Path("rtosmeter-out/calibrate"),
              show_default=True, help="Where the kernels are built.")
@click.option("--write-to", "write_to", type=click.Path(path_type=Path), default=None,
              help="Folder for calibration.toml (default: the board's target folder, where "
                   "--as-board reads it).")
@click.option("--rtos", "rtos", metavar="PORTS", default=None,
              help="RTOS ports whose ranking to check (their lat.* kernel calls: measured "
                   "against the model). Default: the RTOS ports of --from-run; none with "
                   "--stand-in.")
def calibrate(board: str, from_run: str | None, board_out: Path | None, stand_in: str | None,
              work: Path, write_to: Path | None, rtos: str | None) -> None:
    """Fit BOARD's cycle model (wait states, prefetch, divide) to the board."""
    from rtosmeter import calibrate as cal
    from rtosmeter import calibrate_rtos as cr
    from rtosmeter.board_memory import board_named, read_memory
    from rtosmeter.commands.run import RunOptions, run_campaign
    from rtosmeter.definitions import Definitions
    from rtosmeter.qemu_plugin import CYCLE_CPUS

    if (from_run is None) == (stand_in is None):
        raise UserError("give either --from-run (a board run) or --stand-in (no board)",
                        "calibrate", "No board is attached: try --stand-in ws=3,prefetch=0")
    given = _params(stand_in) if stand_in is not None else {}  # checked before any build
    if write_to is not None and not write_to.is_dir():
        raise UserError(f"{write_to} is not a folder", "--write-to",
                        "Create it, or leave --write-to out (the board's target folder)")
    defs = Definitions.load()
    target = board_named(defs, board)
    mem = read_memory(target, calibrated=False)
    measured: cal.Figures = {}
    board_rtos: dict[str, cal.Figures] = {}  # port -> its lat.* figures on the board
    if from_run is not None:  # the board run holds what the fit needs, before any build
        measured, board_rtos = _board_figures(board_out or work, str(from_run), target.name)
    summary = run_campaign(RunOptions(out=work, ports=("baremetal",), bench=cal.KERNELS,
                                      board=mem, quiet=True, jobs=1))
    elfs = _elfs_by_port(work, summary.run_id).get("baremetal", [])
    machine = defs.targets[mem.qemu_target].qemu
    assert machine is not None
    cpu = CYCLE_CPUS[mem.cpu]

    def run(p: cal.Params) -> cal.Figures:
        return cal.simulate(elfs, machine.machine, mem, p, cpu)

    ports = tuple(p for p in (rtos or "").split(",") if p)
    if stand_in is not None:
        truth = cal.Params(**{**vars(cal.declared(mem)), **given})
        measured, source = run(truth), f"stand-in {truth}"
    else:
        source = f"board run {from_run}"
        ports = ports or tuple(sorted(board_rtos))
    rtos_elfs: dict[str, list[Path]] = {}
    if ports:  # the same RTOS firmware for the QEMU machine, estimated as on the board
        rsum = run_campaign(RunOptions(out=work / "rtos", ports=ports, bench=cr.RTOS_BENCH,
                                       board=mem, quiet=True, jobs=1))
        rtos_elfs = _elfs_by_port(work / "rtos", rsum.run_id)

    def run_rtos(p: cal.Params) -> dict[str, cal.Figures]:
        return {port: cr.lat_only(cal.simulate(elfs, machine.machine, mem, p, cpu))
                for port, elfs in rtos_elfs.items()}

    if stand_in is not None:
        board_rtos = run_rtos(truth)
    if not measured:
        raise UserError("no kernel figures measured", source, "Check the run's cases")
    start = cal.declared(mem)
    best, after = cal.fit(measured, start, run)
    kept = _print_fit(mem.board, source, measured, start, best, run(start), after)
    if ports:
        click.echo(cr.text(cr.ranking(board_rtos, run_rtos(start)), "declared"))
        click.echo(cr.text(cr.ranking(board_rtos, run_rtos(best)), "fitted"))
    else:
        click.echo(cr.text(cr.ranking({}, {}), "fitted"))
    path = cal.write(write_to or target.dir, best, cal.error(measured, after), kept, source)
    click.echo(f"Written: {path} (--as-board {mem.board} uses it)")


def _elfs_by_port(out: Path, run_id: int) -> dict[str, list[Path]]:
    """The firmware each port's executions of a run ran, in execution order."""
    from rtosmeter.store import Store

    with Store.open(out / "rtosmeter.sqlite") as st:
        port_of = {b.id: b.port for b in st.builds(run_id)}
        found: dict[str, list[Path]] = {}
        for e in st.executions(run_id):
            if e.runner.get("elf"):
                found.setdefault(port_of[e.build_id], []).append(Path(e.runner["elf"]))
    return found


def _board_figures(out: Path, from_run: str, board: str) -> tuple[Figures, dict[str, Figures]]:
    """A board run's kernel figures (bare metal's), and each RTOS port's lat.*
    figures; the run must be of the board and hold bare metal's kernels."""
    from rtosmeter import calibrate as cal
    from rtosmeter import calibrate_rtos as cr
    from rtosmeter.commands.common import open_store, resolve_run

    measured: Figures = {}
    board_rtos: dict[str, Figures] = {}
    with open_store(out, must_exist=True) as store:
        rid = resolve_run(store, from_run)
        port_of = {b.id: b.port for b in store.builds(rid)}
        for e in store.executions(rid):
            got = cal.figures(store.stream(e.id))
            if port_of[e.build_id] == "baremetal":
                measured.update(got)
            else:
                board_rtos.setdefault(port_of[e.build_id], {}).update(cr.lat_only(got))
        targets = sorted({b.target for b in store.builds(rid)})
    where = f"run {from_run} in {out}"
    if targets != [board]:
        raise UserError(f"the run is of {', '.join(targets) or 'no target'}, not of {board}",
                        where, f"Give a run of `rtosmeter run --target {board} --port "
                               f"baremetal --bench '{cal.KERNELS}' --boards`")
    lacking = [k for k in cal.FLASH_KERNELS if not any(m.startswith(k) for m in measured)]
    if lacking:
        raise UserError(f"the run lacks bare metal's kernels {', '.join(lacking)}", where,
                        f"Run them on the board: --port baremetal --bench '{cal.KERNELS}'")
    return measured, board_rtos


def _print_fit(board: str, source: str, measured: Figures, start: Params, best: Params,
               before: Figures, after: Figures) -> bool:
    """The fit case by case and its errors; whether the cases' ranking was kept."""
    from rtosmeter import calibrate as cal

    err_before, err_after = cal.error(measured, before), cal.error(measured, after)
    click.echo(f"Calibration of {board} against {source}")
    click.echo(f"declared: {start}  ->  fitted: {best}")
    click.echo(f"{'case':40} {'measured':>12} {'declared':>12} {'fitted':>12} {'error %':>8}")
    for key in sorted(err_after):
        click.echo(f"{key:40} {measured[key]:12,.0f} {before[key]:12,.0f} {after[key]:12,.0f} "
                   f"{err_after[key]:8.2f}")
    kept = cal.ranking_kept(measured, after)
    click.echo(f"mean absolute error: declared {cal.mape(err_before):.2f} %, "
               f"fitted {cal.mape(err_after):.2f} %; ranking of the cases kept: "
               f"{'yes' if kept else 'no'}")
    return kept
