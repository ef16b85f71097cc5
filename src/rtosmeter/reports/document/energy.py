"""The energy sections (the report's and `--view energy`): per target,
the estimated energy of each idle window (an idle system, the sampling
application by rate, each load state) on each chip model, and the energy
measured per case on a board. Every estimated figure carries "estimated
(model, source)" at the number, every measured one "measured (analyser)";
the full sources are the section's notes.
"""

from __future__ import annotations

from rtosmeter.energy.view import BATTERY_NOTE, ESTIMATED, MEASURED, EnergyFigure
from rtosmeter.model import RunView
from rtosmeter.reports.document.cells import Cell, Section, fmt

EMPTY = ("No energy figures in this run: estimates need idle figures (a `lowpower` "
         "run under QEMU) and a target with a power model; measurements need a capture "
         "(rtosmeter energy import).")


SATURATED = "⚠ saturated"  # at a window whose awake instructions outlast it at the chip's clock


def marker(f: EnergyFigure) -> str:
    """What is shown at the figure: "estimated (chip)" or "measured (analyser[, by stream])"."""
    if f.kind == MEASURED:
        return f"measured ({f.chip}{', by stream' if f.by_stream else ''})"
    return f"estimated ({f.chip})"


def _at(x: float | None, tag: str, label: str, saturated: bool = False) -> Cell:
    if x is None:
        return Cell("-", flag="dim")
    return Cell(fmt(x), f"{tag} {SATURATED}" if saturated else tag, title=label,
                flag="dim" if saturated else "")


def _estimated(target: str, figures: list[EnergyFigure]) -> Section:
    sec = Section(f"Energy, estimated, on {target}",
                  ["system", "window", "asleep %", "wake-ups/s", "mW average",
                   "µJ per wake-up", "battery days"], numeric=2)
    labels: dict[str, str] = {}
    for f in figures:
        tag = marker(f)
        labels.setdefault(tag, f.label)
        state = f.profile if f.load == "idle" else f"{f.profile}, {f.load}"
        asleep = None if f.residency is None else f.residency * 100
        per_s = f.wakeups / f.duration_s if f.wakeups is not None and f.duration_s else None
        sec.add([f"{f.port} ({state})", f.window, Cell(fmt(asleep)), Cell(fmt(per_s)),
                 _at(f.average_mw, tag, f.label, f.saturated),
                 _at(f.uj_per_wakeup, tag, f.label, f.saturated),
                 _at(f.battery_days, tag, f.label, f.saturated)])
    sec.notes = [f"{tag}: {label}" for tag, label in labels.items()]
    sec.notes += ["asleep % and wake-ups/s are exact (QEMU virtual time, -icount); the "
                  "power figures price the window's awake instructions at the chip's clock, "
                  "one instruction per cycle.", BATTERY_NOTE]
    if any(f.saturated for f in figures):
        sec.notes.append(f"{SATURATED}: at the chip's clock the window's awake instructions "
                         "take longer than the window (QEMU runs them faster than the chip "
                         "would): the chip is busy throughout, so the mW is its run power and "
                         "the µJ per wake-up a lower bound.")
    return sec


def _measured(target: str, figures: list[EnergyFigure]) -> Section:
    streamed = any(f.by_stream for f in figures)
    sec = Section(f"Energy, measured, on {target}",
                  ["system", "case", "window ms", "energy µJ", "mW average"]
                  + ["aligned by stream: edges ±ms, µJ from to"] * streamed, numeric=2)
    labels: dict[str, str] = {}
    for f in figures:
        tag = marker(f)
        labels.setdefault(tag, f.label)
        state = f.profile if f.load == "idle" else f"{f.profile}, {f.load}"
        row: list[str | Cell] = [f"{f.port} ({state})", f.window,
                                 Cell(fmt(f.duration_s * 1e3)),
                                 _at(f.energy_uj, tag, f.label),
                                 _at(f.average_mw, tag, f.label)]
        if streamed:
            edge, low, high = f.by_stream or (0.0, f.energy_uj, f.energy_uj)
            row.append(f"±{fmt(edge * 1e3)}, {fmt(low)} to {fmt(high)}" if f.by_stream
                       else "by marker")
        sec.add(row)
    sec.notes = [f"{tag}: {label}" for tag, label in labels.items()]
    if streamed:
        sec.notes.append("Aligned by stream: each window opens when the case's CASE record "
                         "reached the harness and closes when its END did; an edge is known "
                         "to within the harness's look at the stream, the serial line's time "
                         "for the record and one sample period, and the energy lies between "
                         "the window shrunk and grown by that much (docs/energy.md).")
    return sec


def _untimed(view: RunView) -> Section | None:
    """The windows with wake-ups whose QEMU could not time them: no energy
    can be estimated without the window's length; say so, and why."""
    reasons: dict[str, list[str]] = {}
    for system, f in view.idle:
        if not f.timed:
            reasons.setdefault(f.time_limit, []).append(f"{system} {f.window}")
    if not reasons:
        return None
    sec = Section("Energy, not estimated", ["windows", "why"], numeric=0)
    for why, windows in reasons.items():
        sec.add([f"{len(windows)}: " + ", ".join(windows[:4])
                 + (f", … {len(windows) - 4} more" if len(windows) > 4 else ""), why])
    return sec


def sections(view: RunView) -> list[Section]:
    """Measured, then estimated, target by target; then the idle windows no
    estimate could price."""
    out = []
    for target in sorted({f.target for f in view.energy}):
        here = [f for f in view.energy if f.target == target]
        measured = [f for f in here if f.kind == MEASURED]
        estimated = [f for f in here if f.kind == ESTIMATED]
        if measured:
            out.append(_measured(target, measured))
        if estimated:
            out.append(_estimated(target, estimated))
    untimed = _untimed(view)
    return out + ([untimed] if untimed is not None else [])
