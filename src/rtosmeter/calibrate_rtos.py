"""`rtosmeter calibrate`'s ranking of RTOSes: what a user picks an RTOS by.

The fit's own ranking check compares the order of bare metal's calibration
cases; this one compares the order of RTOS ports. For each lat.* series that
every port measured (on the board, or on the stand-in), the ports sorted by
the board's median and by the model's estimate of the same firmware under
QEMU: the ranking is kept where both orders agree (ties broken by name, so
equal figures on both sides agree).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rtosmeter.calibrate import Figures

# Kernel calls whose cost the memory system sets; not the timer-bound cases
# (lat.jitter.*, lat.isr.*), whose figures follow the tick and the interrupt
# controller more than the flash. The filter picks the groups built; each
# firmware, run as a stand-in or re-run under the model, runs its whole group
# (lat.yield's brings lat.suspend_resume).
RTOS_BENCH = "lat.sem.*,lat.mutex.*,lat.queue.*,lat.yield"


@dataclass(frozen=True)
class Ranking:
    ports: tuple[str, ...]  # the RTOS ports both sides have
    series: tuple[str, ...]  # "case/series" every one of them measured
    differs: tuple[str, ...]  # the series whose order differs, with both orders


def lat_only(figures: Figures) -> Figures:
    return {k: v for k, v in figures.items() if k.startswith("lat.")}


def ranking(measured: Mapping[str, Figures], estimated: Mapping[str, Figures]) -> Ranking:
    """The order of the ports per common lat.* series, measured against estimated."""
    ports = tuple(sorted(p for p in measured if p in estimated))
    if len(ports) < 2:
        return Ranking(ports, (), ())
    common = set.intersection(*(set(lat_only(measured[p])) & set(estimated[p]) for p in ports))
    differs = []
    for key in sorted(common):
        board = sorted(ports, key=lambda p: (measured[p][key], p))
        model = sorted(ports, key=lambda p: (estimated[p][key], p))
        if board != model:
            differs.append(f"{key} (measured {' < '.join(board)}; model {' < '.join(model)})")
    return Ranking(ports, tuple(sorted(common)), tuple(differs))


def text(r: Ranking, model: str) -> str:
    """One line of the calibration report: what was compared and the answer."""
    if len(r.ports) < 2:
        return (f"ranking of RTOSes: not checked: {len(r.ports)} RTOS port measured "
                f"({', '.join(r.ports) or 'none'}); it needs two or more (--rtos, or a board "
                "run holding their lat.* cases)")
    if not r.series:
        return f"ranking of RTOSes ({', '.join(r.ports)}): no lat.* series all of them measured"
    kept = len(r.series) - len(r.differs)
    line = (f"ranking of RTOSes ({', '.join(r.ports)}) over their {len(r.series)} common "
            f"lat.* series, {model} model: kept in {kept} of {len(r.series)}")
    return line + ("" if not r.differs else "; differs at " + "; ".join(r.differs))
