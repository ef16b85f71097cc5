"""The idle section of the report (docs/idle.md): per system and window,
how much of the window the CPU slept, how often it woke and why, and what
each wake-up cost, in QEMU's virtual time (exact under -icount)."""

from __future__ import annotations

import itertools

from rtosmeter.idle.figures import WAKE_CAUSES, WHOLE
from rtosmeter.model import RunView
from rtosmeter.reports.document.cells import Cell, Section, Value, fmt

TITLE = "Idle: sleep residency and wake-ups (virtual time, exact under QEMU -icount)"
HEADERS = ["system", "window", "asleep %", "wake-ups/s", "wake-up causes",
           "interrupts/s", "instructions/wake-up", "window ms"]


def _causes(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {counts[k]:,}" for k in WAKE_CAUSES if counts.get(k)) or "-"


def window_key(window: str) -> tuple[str, int, str]:
    """Case, then its windows by the number they begin with (100hz < 1000hz)."""
    case, _, name = window.partition("@")
    digits = "".join(itertools.takewhile(str.isdigit, name))
    return case, int(digits) if digits else 0, name


def idle_section(view: RunView) -> Section | None:
    """One row per case window of each system (the whole execution is left
    out: it holds the start-up and the stream's writing); None when the run
    has no idle figures."""
    rows = [(system, f) for system, f in view.idle if f.window != WHOLE]
    if not rows:
        return None
    sec = Section(TITLE, HEADERS, numeric=2, notes=[
        "asleep %: time halted in WFI over the window; wake-ups: WFI exits, by the first "
        "exception after each (tick: SysTick; timer: the target's timers; interrupt: "
        "any other); interrupts/s: every interrupt entered, asleep or not (a spinning idle "
        "takes its ticks awake). Profiles whose idle spins (default) never sleep."])
    limits: list[str] = []
    for system, f in sorted(rows, key=lambda r: (r[0], window_key(r[1].window))):
        if not f.timed and f.time_limit not in limits:
            limits.append(f.time_limit)
        mark = UNTIMED_MARK * (limits.index(f.time_limit) + 1) if not f.timed else ""
        seconds = f.window_ns / 1e9 if f.timed else 0.0
        entered = sum(f.interrupts.values())
        cells: list[Value] = [
            system, f.window.split("@", 1)[-1] if "@" in f.window else f.window,
            _timed(f.residency, 100.0, 2, mark), _timed(f.wakeups_per_s, 1.0, 1, mark),
            _causes(dict(f.wake_causes)),
            Cell(fmt(round(entered / seconds, 1) if seconds else None)) if f.timed
            else _timed(None, 1.0, 1, mark),
            Cell(fmt(round(f.instructions_per_wakeup)) if f.wakeups else "-"),
            _timed(f.window_ns / 1e6 if f.timed else None, 1.0, 3, mark)]
        sec.add(cells)
    sec.notes += [f"{UNTIMED_MARK * (k + 1)} not measured, {why}" for k, why in enumerate(limits)]
    return sec


UNTIMED_MARK = "‡"  # a figure of time the QEMU of that run could not measure


def _timed(value: float | None, scale: float, digits: int, mark: str) -> Cell:
    """A figure of time, or, where time asleep was not measured, its mark."""
    if value is None:
        return Cell(f"n/a {mark}", flag="dim")
    return Cell(fmt(round(value * scale, digits)))
