"""RAM like with like: the answer's RAM figure and the footprint section's
breakdown, built from the stored footprints (rtosmeter.footprint's parts).

A firmware's RAM is mostly what its port sizes for the benchmark: thread
stacks, heaps and pools, and the slots of the benchmark's threads and
objects. One port keeps stacks in static arrays, another in the kernel's
heap, so whole-firmware RAM compares the ports' sizing choices, not the
kernels. The answer therefore compares the `kernel` part alone (the RTOS's
and port's own data, the reservations taken out) wherever the port declared
its reservations (port.toml [footprint]); a footprint stored without them
(an older run, or an undeclared port) shows its whole RAM and says so.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rtosmeter.model import SETTING_MARK, Footprint
from rtosmeter.vocabulary import system

# (part, row label) of the breakdown, in reading order.
BREAKDOWN = (
    ("kernel", "kernel (RTOS and port data)"),
    ("network", "network stack (net-* loads)"),
    ("objects", "object slots (threads, objects, pools)"),
    ("stacks", "stacks (threads, kernel, main)"),
    ("heaps", "heaps and pools"),
    ("benchmark", "benchmark"),
    ("framework", "framework (result stream, runner)"),
    ("startup", "start-up"),
    ("libc", "C library"),
    ("other", "other (alignment fill)"),
)
COMPARED = ("the kernel's own RAM: the RTOS's and its port's data, without the stacks, "
            "heaps, pools and object slots each port sizes for the benchmark")
LABEL_SPLIT = "RAM bytes: kernel alone (median firmware)"
LABEL_WHOLE = "RAM bytes (median firmware)"


@dataclass(frozen=True)
class RamFigure:
    """One system's RAM in the answer: medians over the firmwares compared."""

    kernel: float  # the kernel part's RAM (the whole RAM where not declared)
    total: float
    declared: bool
    firmwares: int


def median(xs: Sequence[float]) -> float:
    s = sorted(xs)
    mid = len(s) // 2
    return float(s[mid]) if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


def _ram(f: Footprint, part: str) -> int:
    return f.parts.get(part, (0, 0))[1]


def ram_figures(footprints: Iterable[Footprint], target: str, systems: list[str]
                ) -> dict[str, RamFigure]:
    """Per system, its median kernel and total RAM over the firmwares (groups)
    every system built."""
    by: dict[str, dict[str, Footprint]] = defaultdict(dict)
    for f in footprints:
        if f.target == target and system(f) in systems:
            by[f.group][system(f)] = f
    common = [row for row in by.values() if set(row) == set(systems)]
    if not common:
        return {}
    out = {}
    for k in systems:
        fps = [row[k] for row in common]
        declared = all(f.declared for f in fps)
        out[k] = RamFigure(median([_ram(f, "kernel") if declared else f.ram for f in fps]),
                           median([f.ram for f in fps]), declared, len(fps))
    return out


def ram_label(figures: dict[str, RamFigure]) -> str:
    """The answer row's label: what its figures are."""
    return LABEL_SPLIT if any(f.declared for f in figures.values()) else LABEL_WHOLE


def ram_cell(figures: dict[str, RamFigure], key: str, heap: int) -> str:
    """The answer's RAM cell: the kernel's own RAM (of the whole) where the
    port declared its reservations; else the whole RAM, marked where others
    are split, or where a heap (CFG heap_bytes, `heap`) inflates it."""
    fig = figures.get(key)
    if fig is None:
        return ""
    if fig.declared:
        return f"{fig.kernel:,.0f} (of {fig.total:,.0f})"
    if any(f.declared for f in figures.values()):
        return f"{fig.total:,.0f} {SETTING_MARK} (whole firmware)"
    return (f"{fig.total:,.0f} {SETTING_MARK} ({fig.total - heap:,.0f} without the heap)"
            if heap else f"{fig.total:,.0f}")


def ram_sentences(figures: dict[str, RamFigure], labels: dict[str, str]) -> list[str]:
    """What the answer's RAM figures compare, and which system's cannot be split."""
    if not any(f.declared for f in figures.values()):
        return []
    n = next(iter(figures.values())).firmwares
    out = [f"RAM compared: {COMPARED} (median over {n} firmware{'s' if n != 1 else ''}; "
           "the footprint section breaks the whole down)."]
    whole = [labels[k] for k, f in figures.items() if not f.declared]
    if whole:
        out.append(f"{SETTING_MARK} {', '.join(whole)}: the whole firmware's RAM, stacks and "
                   "heaps included: its port declares none (port.toml [footprint]), or the "
                   "run was stored before they were told apart.")
    return out


Cells = list[tuple[float, float] | None]  # per system: median (RAM, Flash), None: no footprint


def breakdown(footprints: Iterable[Footprint], keys: list[str], labels: dict[str, str]
              ) -> tuple[list[tuple[str, Cells]], list[str]]:
    """The footprint section's table: (row label, per system in `keys` its
    median (RAM, Flash), None where it has no footprint) for each part and
    the total, and notes naming the symbols each system's reservations hold."""
    per: dict[str, list[Footprint]] = defaultdict(list)
    for f in footprints:
        if system(f) in keys:
            per[system(f)].append(f)
    notes = [_reserved_note(labels[k], per[k]) for k in keys if per[k]]
    if any(len(per[k]) > 1 for k in keys):
        notes.append("Each row is its own median over a system's firmwares: the rows need not "
                     "add up to the total.")
    return _rows(per, keys), [n for n in notes if n]


def _rows(per: dict[str, list[Footprint]], keys: list[str]) -> list[tuple[str, Cells]]:
    rows: list[tuple[str, Cells]] = []
    for part, label in BREAKDOWN:
        cells: Cells = [(median([_ram(f, part) for f in per[k]]),
                         median([f.parts.get(part, (0, 0))[0] for f in per[k]]))
                        if per[k] else None for k in keys]
        if any(c and any(c) for c in cells):
            rows.append((label, cells))
    rows.append(("total", [(median([f.ram for f in per[k]]), median([f.flash for f in per[k]]))
                           if per[k] else None for k in keys]))
    return rows


def _reserved_note(label: str, fps: list[Footprint]) -> str:
    """The symbols a system's reservations hold, by part (the largest size
    over its firmwares), or why it has none."""
    if not all(f.declared for f in fps):
        return (f"{label}: stacks, heaps and object slots not told apart (its port.toml "
                "declares no [footprint], or the run predates it): the kernel row holds them")
    largest: dict[tuple[str, str], int] = {}
    for f in fps:
        for name, part, ram in f.reserved:
            largest[(part, name)] = max(largest.get((part, name), 0), ram)
    if not largest:
        return ""
    return f"{label}: " + "; ".join(
        f"{part} " + ", ".join(f"{name} {ram:,}" for (p, name), ram in largest.items()
                               if p == part)
        for part in dict.fromkeys(p for p, _ in largest))
