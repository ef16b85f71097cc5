"""Checks (the properties the cases verify, tm.basic against bare metal),
interrupt responsiveness (irq.max_rate) and the measurement overhead: one
table per target, the same in every format."""

from __future__ import annotations

from rtosmeter.model import FAIL_MARK, CaseResult, CaseStatus, Check, RunView, Unit
from rtosmeter.numbers import whole_or_none
from rtosmeter.reports.document.cells import Cell, Section, Value, empty, flag, fmt
from rtosmeter.reports.document.systems import Systems
from rtosmeter.scores import floor_checks
from rtosmeter.vocabulary import (
    CALIB_CASE,
    FLOOR_CASE,
    FLOOR_CHECK,
    FLOOR_PORT,
    family,
    is_interrupt_rate,
    system,
)


def _check_cell(k: Check) -> Cell:
    """within-1 checks report the largest deviation as `got` (the spread)."""
    if "within_1" in k.name:
        return Cell(("yes" if k.ok else "no") + f" (spread {k.got})", flag="" if k.ok else "fail")
    return Cell("yes" if k.ok else f"no (got {k.got}, want {k.want})",
                flag="" if k.ok else "fail")


def _floor_row(view: RunView, target: str, sys_: Systems) -> list[Value] | None:
    cals = {c.system: c for c in floor_checks(view.cases) if c.target == target}
    basic = {system(c): c for c in view.cases
             if c.target == target and c.case_id == FLOOR_CASE}
    if not cals:
        return None
    cells: list[Value] = []
    for k in sys_.keys:
        cal = cals.get(k)
        if cal is not None:
            flag = "fail" if cal.ok is False else ("dim" if cal.ok is None else "")
            cells.append(Cell(cal.describe(), flag=flag))
        elif k in basic and basic[k].port == FLOOR_PORT and basic[k].score is not None:
            cells.append(Cell("the floor", flag="dim"))
        else:
            cells.append(Cell(""))
    return [FLOOR_CASE, "within 1 % of bare metal", *cells]


def checks_section(view: RunView, target: str) -> Section | None:
    """Every property check, side by side: throughput first (the
    Thread-Metric "deterministic scheduler" checks), then the others; and the
    tm.basic floor check against bare metal (docs/benchmarks.md §1)."""
    cases = [c for c in view.cases if c.target == target]
    sys_ = Systems.of(target, cases)
    by = {(system(c), c.case_id): c for c in cases}
    names: dict[tuple[str, str], None] = {}
    for c in sorted(cases, key=lambda c: (family(c) != "throughput", c.case_id)):
        for k in c.checks:
            if k.name != FLOOR_CHECK:
                names.setdefault((c.case_id, k.name))
    sec = Section(f"Checks on {target} (properties the cases verify; {FAIL_MARK} = failed)",
                  ["case", "check", *sys_.headers])
    for cid, name in names:
        row: list[Value] = [cid, name.replace("_", " ")]
        for key in sys_.keys:
            case = by.get((key, cid))
            chk = next((k for k in case.checks if k.name == name), None) if case else None
            row.append(_check_cell(chk) if chk else empty(case) if case and not case.checks
                       else Cell(""))
        sec.rows.append(row)
    cal = _floor_row(view, target, sys_)
    if cal is not None:
        sec.rows.append(cal)
        sec.notes.append("tm.basic makes no kernel call: it should score the same on every "
                         "RTOS on one target and compiler; more than 1 % away from bare metal "
                         "is flagged.")
    return sec if sec.rows else None



# ---- interrupt responsiveness --------------------------------------------------


def _units(view: RunView) -> dict[str, Unit]:
    """system -> the unit of its samples (any series of it says)."""
    out: dict[str, Unit] = {}
    for c in view.cases:
        for d in c.distributions:
            out.setdefault(system(c), d.unit)
    return out


def _meta_int(case: CaseResult, key: str) -> int | None:
    return whole_or_none(case.meta.get(key, ""))



def at_clock(unit: Unit) -> bool:
    """Counts converted to estimated µs at a named clock (--clock, --as-board)."""
    return unit.label.startswith("µs (estimated")


def _rate_cells(c: CaseResult | None, unit: Unit | None) -> tuple[Cell, Cell, Cell]:
    """One system's (highest rate, its inverse, rates tried)."""
    hz, period = (_meta_int(c, "max_rate_hz"), _meta_int(c, "max_rate_period_ticks")) \
        if c else (None, None)
    steps = Cell(str(_meta_int(c, "steps") or "")) if c else Cell("")
    if c is None or hz is None or period is None:
        cell = empty(c)
        if c is not None and c.status not in (CaseStatus.OK, CaseStatus.UNSUPPORTED):
            cell = Cell(c.status, c.reason[:60], "fail")
        return cell, Cell(""), steps
    lower_bound = c.meta.get("loss_found") == "0"  # no loss up to the fastest rate tried
    note = "no loss up to the last rate tried" if lower_bound else ""
    if unit is not None and at_clock(unit) and period > 0:
        # counts shown as µs at a named clock: the rate at that clock too,
        # the inverse of the same converted period (not virtual-time Hz)
        # under a cycle counter the case's max_rate_hz is already estimated
        # time (META rate_time): the timer's own rate is timer_hz
        emulated = _meta_int(c, "timer_hz") if c.meta.get("rate_time") == "estimated" else hz
        if emulated is not None:
            note = f"{fmt(emulated)} Hz of emulated time" + (f"; {note}" if note else "")
        hz = round(1e6 / (period * unit.per_tick))
    elif c.meta.get("rate_time") == "estimated":  # cycles at the counter's nominal rate
        timer = _meta_int(c, "timer_hz")
        note = "Hz of estimated time" + (f"; {fmt(timer)} Hz of emulated time" if timer else "") \
            + (f"; {note}" if note else "")
    rate = Cell(("≥ " if lower_bound else "") + fmt(hz), note, flag(c))
    inverse = (Cell(fmt(period * unit.per_tick), f"{fmt(period)} ticks") if unit
               else Cell(f"{fmt(period)} ticks"))
    return rate, inverse, steps


def interrupt_section(view: RunView, target: str) -> Section | None:
    """irq.max_rate: the highest periodic-interrupt rate with no event lost
    and its inverse, the worst-case response (docs/benchmarks.md §3)."""
    cases = [c for c in view.cases if c.target == target and is_interrupt_rate(c)]
    if not any(c.status != CaseStatus.UNSUPPORTED for c in cases):
        return None
    sys_ = Systems.of(target, cases)
    units = _units(view)
    sec = Section(f"Interrupt responsiveness on {target} (irq.max_rate: the handler signals "
                  "a task that records each event)", ["figure", *sys_.headers], numeric=1)
    by = {system(c): c for c in cases}
    cells = [_rate_cells(by.get(key), units.get(key)) for key in sys_.keys]
    labels = {units[k].label for k in sys_.keys if k in units}
    inverse = "its inverse: worst-case response" + (f" in {labels.pop()}"
                                                    if len(labels) == 1 else "")
    clocked = [units[k] for k in sys_.keys if k in units and at_clock(units[k])]
    estimated = any(c.meta.get("rate_time") == "estimated" for c in cases)
    hz_of = ("Hz at the clock the counts are converted at" if clocked
             else "Hz of estimated time" if estimated else "Hz of the target clock")
    for i, label in enumerate((f"highest rate with no lost event ({hz_of})",
                               inverse, "rates tried (x1.25 each step)")):
        sec.rows.append([label, *(c[i] for c in cells)])
    if estimated:  # bench/cases/irq.c: the timer runs in emulated time, the counter estimates
        sec.notes.append("Under a cycle counter the timer still raises its events in "
                         "virtual time; the rate counts them per second of estimated time "
                         "(the counter's cycles per event), the note gives the timer's own "
                         "rate in virtual time.")
    elif any(u.deterministic for k, u in units.items() if k in sys_.keys):
        sec.notes.append("Under QEMU icount the rate counts events per second of virtual time.")
    return sec


# ---- overhead --------------------------------------------------------------------


def overhead_section(view: RunView, target: str) -> Section | None:
    """The measured cost of an empty measurement, per firmware (group)."""
    calib = [c for c in view.cases if c.target == target and c.case_id == CALIB_CASE]
    if not any(c.distributions for c in calib):
        return None
    sys_ = Systems.of(target, calib)
    labels = sorted({d.unit.label for c in calib for d in c.distributions})
    sec = Section(f"Measurement overhead on {target} in {' / '.join(labels)}: median "
                  "subtracted from every interval of the same firmware (p99 small)",
                  ["group", *sys_.headers], numeric=1)
    by = {(system(c), c.group): c for c in calib}
    for group in sorted({c.group for c in calib}):
        row: list[Value] = [group]
        for key in sys_.keys:
            c = by.get((key, group))
            d = c.distributions[0] if c and c.distributions else None
            row.append(Cell(fmt(d.p50), f"p99 {fmt(d.p99)}") if d else Cell(""))
        sec.rows.append(row)
    return sec

