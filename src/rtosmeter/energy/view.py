"""A run's energy figures for the reports: measured ones (the `energy`
table) and estimated ones (the `idle` table priced by each power model of
the execution's target, at the model's board clock).

Each figure carries the label it is shown with: "measured (analyser,
trace)" or "estimated (model, source)".
"""

from __future__ import annotations

from dataclasses import dataclass

from rtosmeter.definitions import Definitions
from rtosmeter.energy.estimate import BATTERY, estimate
from rtosmeter.energy.model import PowerModel, models_for
from rtosmeter.energy.stored import MeasuredEnergy, read_energy
from rtosmeter.errors import UserError
from rtosmeter.idle.figures import IdleFigures
from rtosmeter.idle.stored import read_idle
from rtosmeter.loads import split
from rtosmeter.store import Store

MEASURED, ESTIMATED = "measured", "estimated"


@dataclass(frozen=True)
class EnergyFigure:
    """One window's energy: an execution or one of its cases."""

    port: str
    target: str
    profile: str  # the base profile (lowpower, default, ...)
    load: str  # the load state (idle, accept, ...)
    window: str  # a case id, or "execution"
    kind: str  # MEASURED or ESTIMATED
    chip: str  # the model's chip, or the analyser
    label: str  # shown at the figures: "estimated (model, source)" / "measured (...)"
    duration_s: float
    energy_uj: float
    average_mw: float
    wakeups: int | None = None  # estimated only: from the idle figures
    residency: float | None = None  # estimated only: fraction asleep (virtual time)
    battery_days: float | None = None  # estimated only, on BATTERY
    duty_cycle: float | None = None  # estimated only: awake at the chip's clock
    idle: IdleFigures | None = None  # estimated only: what was priced (a study reprices it)
    saturated: bool = False  # estimated only: the awake instructions outlast the window
    by_stream: tuple[float, float, float] | None = None  # measured, aligned by stream:
    #                                                      (edge_s, low_uj, high_uj)

    @property
    def uj_per_wakeup(self) -> float | None:
        return self.energy_uj / self.wakeups if self.wakeups else None


def figures(store: Store, run_id: int, defs: Definitions | None = None) -> list[EnergyFigure]:
    """The run's energy figures: measured first, then estimated."""
    where = {}  # execution id -> (port, target, profile)
    for row in store.conn.execute(
            "SELECT e.id, b.port, b.target, b.profile FROM executions e "
            "JOIN builds b ON b.id = e.build_id WHERE e.run_id = ?", (run_id,)):
        where[int(row[0])] = (str(row[1]), str(row[2]), str(row[3]))
    out = [_measured(m, where[m.execution_id]) for m in read_energy(store, run_id)]
    idle = read_idle(store, run_id)
    if not idle:
        return out
    defs = defs or Definitions.load()
    for execution_id, windows in idle.items():
        port, target, profile = where[execution_id]
        found = defs.targets.get(target)
        models = models_for(found, defs.targets) if found else []
        for model in models:
            clock = defs.targets[model.target].cpu_hz
            for w in windows:
                if w.timed:  # no window length, no energy (docs/qemu.md)
                    out.append(_estimated(model, clock, w, port, target, profile))
    return out


def measured_label(m: MeasuredEnergy) -> str:
    """"measured (analyser, trace T)", or "measured (analyser, trace T,
    aligned by stream)": how well each such window is known is the figure's
    own (EnergyFigure.by_stream), shown beside it."""
    return (f"measured ({m.analyser}, trace {m.trace}"
            + (", aligned by stream)" if m.by_stream is not None else ")"))


def _measured(m: MeasuredEnergy, place: tuple[str, str, str]) -> EnergyFigure:
    port, target, profile = place
    base, load = split(profile)
    w = m.window
    return EnergyFigure(port, target, base, load, m.case_id, MEASURED, m.analyser,
                        measured_label(m), w.duration_s, w.energy_uj, w.average_mw,
                        by_stream=m.by_stream)


def _estimated(model: PowerModel, clock: int, w: IdleFigures, port: str, target: str,
               profile: str) -> EnergyFigure:
    if clock <= 0:
        raise UserError(f"board {model.target} has no cpu_hz to price instructions at",
                        str(model.file), "Set cpu_hz in its target.toml")
    e = estimate(w, model, clock)
    base, load = split(profile)
    return EnergyFigure(port, target, base, load, w.window, ESTIMATED, model.chip, e.label,
                        e.window_s, e.energy_uj, e.average_mw, w.wakeups, w.residency,
                        e.battery_days, e.duty_cycle, w, e.saturated)


BATTERY_NOTE = f"Battery life: on a {BATTERY}, at each window's own duty cycle, repeated."
