"""`rtosmeter energy`: measured energy from a power analyser's capture, and
the chips' power models that estimates use."""

from __future__ import annotations

from pathlib import Path

import click

from rtosmeter.commands.common import open_store, out_option
from rtosmeter.textsafe import terminal_safe


@click.group("energy")
def energy() -> None:
    """Energy: import a capture into a stored execution, list power models."""


@energy.command("import")
@click.argument("capture", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--execution", "execution_id", type=click.IntRange(min=1), required=True,
              help="The stored execution the capture was recorded during.")
@click.option("--marker", default="gpi[0]", show_default=True,
              help="The capture's signal the target's GPIO marker is wired to.")
@out_option
def import_capture(capture: Path, execution_id: int, marker: str, out: Path) -> None:
    """Store a recorded .jls capture as energy per case of an execution: the
    n-th marker pulse is the n-th case that ran; the trace is kept beside the store."""
    from rtosmeter.energy import jls
    from rtosmeter.energy.runner import store_capture

    with open_store(out, must_exist=True) as store:
        cases = store_capture(store, execution_id, jls.read(capture, marker))
    lines = [f"execution {execution_id}: {len(cases)} cases measured (measured, {capture.name})",
             "case                         window ms   energy µJ   mean mA   mean mW"]
    for case, w in cases.items():
        lines.append(f"{case:<28} {w.duration_s * 1e3:>9.3f} {w.energy_uj:>11.3f} "
                     f"{w.mean_ma:>9.4f} {w.average_mw:>9.4f}")
    for line in lines:
        click.echo(terminal_safe(line))


@energy.command("models")
def models() -> None:
    """The power model each target's estimates use, and its sources."""
    from rtosmeter.definitions import Definitions
    from rtosmeter.energy.model import models_for

    defs = Definitions.load()
    lines = []
    for name, target in sorted(defs.targets.items()):
        for m in models_for(target, defs.targets):
            clock = defs.targets[m.target].cpu_hz
            lines.append(f"{name}: {m.name}: run {m.run_ma(clock):.3g} mA and sleep "
                         f"{m.sleep_ma(clock):.3g} mA at {clock / 1e6:g} MHz, stop "
                         f"{m.stop_ua.value:g} µA, wake-up {m.wakeup_us.value:g} µs, "
                         f"{m.supply_v.value:g} V ({m.file})")
    for line in lines or ["No target declares a power model."]:
        click.echo(terminal_safe(line))


@energy.command("markers")
def markers() -> None:
    """Where each board's case marker comes out: wire it to the analyser's
    digital input (docs/energy.md)."""
    from rtosmeter.definitions import Definitions

    defs = Definitions.load()
    lines = [f"{name}: {t.marker_pin} ({t.file})" for name, t in sorted(defs.targets.items())
             if t.marker_pin]
    for line in lines or ["No target declares a case marker ([power] marker_pin)."]:
        click.echo(terminal_safe(line))
