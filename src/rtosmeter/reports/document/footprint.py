"""Footprint: Flash and RAM per firmware, the comparison table of every
format and the page's table of parts with its stacked charts. A RAM figure
that holds a heap the profile set is marked ‡, the heap's size in a note."""

from __future__ import annotations

from rtosmeter.model import SETTING_MARK, Footprint, RunView
from rtosmeter.reports.document.answer import HEAP_KEY, heap_of
from rtosmeter.reports.document.cells import Cell, Chart, Section, Value, anchor, fmt
from rtosmeter.reports.document.ram import COMPARED
from rtosmeter.reports.document.ram import breakdown as ram_breakdown
from rtosmeter.reports.document.systems import BuildKey, Column, Systems, build_of, key_of
from rtosmeter.vocabulary import system

PART_ORDER = ("kernel", "network", "benchmark", "libc", "startup", "start-up")


def footprint_section(view: RunView, target: str) -> Section | None:
    fps = [f for f in view.footprints if f.target == target]
    if not fps:
        return None
    sys_ = Systems.of(target, fps)
    sec = Section(f"Footprint on {target}: Flash bytes (RAM in small text)",
                  ["group", *sys_.headers], numeric=1)
    by: dict[tuple[str, str], Footprint] = {(system(f), f.group): f for f in fps}
    heaps = {k: h for k in sys_.keys if (h := heap_of(build_of(view, k)))}
    for group in sorted({f.group for f in fps}):
        row: list[Value] = [group]
        for key in sys_.keys:
            f = by.get((key, group))
            mark = f" {SETTING_MARK}" if key in heaps else ""
            row.append(Cell(fmt(f.flash), f"RAM {fmt(f.ram)}{mark}") if f else Cell(""))
        sec.rows.append(row)
    sec.notes += heap_notes(heaps)
    return sec


def ram_section(view: RunView, target: str) -> Section | None:
    """RAM (and Flash) by part, median firmware per system: what the answer
    compares (the kernel row) apart from what each port sizes for the benchmark."""
    fps = [f for f in view.footprints if f.target == target]
    if not any(f.declared for f in fps):  # nothing told apart: the footprint table says it all
        return None
    sys_ = Systems.of(target, fps)
    rows, notes = ram_breakdown(fps, sys_.keys, sys_.labels)
    sec = Section(f"RAM on {target} by part: bytes, median firmware (Flash in small text; "
                  "the answer compares the kernel row)", ["part", *sys_.headers], numeric=1)
    sec.rows = [[label, *(Cell(fmt(c[0]), f"Flash {fmt(c[1])}" if c[1] else "") if c else Cell("")
                          for c in cells)] for label, cells in rows]
    sec.notes = [f"The answer compares the kernel row: {COMPARED}.", *notes]
    return sec


def heap_notes(heaps: dict[str, int]) -> list[str]:
    """Why a RAM figure is large: the heap the port reserves as a static array."""
    return [f"{SETTING_MARK} {key}: the RAM figure holds a {heap:,} B heap ({HEAP_KEY}, a "
            "setting of the profile, not what the kernel needs)" for key, heap in heaps.items()]


# ---- the page: every firmware with its parts, and the charts ----------------------


def _origins(view: RunView) -> list[str]:
    found = list(dict.fromkeys(o for f in view.footprints for o in f.parts))
    return [o for o in PART_ORDER if o in found] + [o for o in found if o not in PART_ORDER]


def _charts(fps: list[Footprint], target: str, origins: list[str],
            col_of: dict[BuildKey, Column]) -> list[Chart]:
    from rtosmeter import charts

    out = []
    for i, (what, label) in enumerate((("flash", "Flash"), ("ram", "RAM"))):
        stacks = [charts.Stack(f"{col_of[key_of(f)].label} · {f.group}",
                               {o: f.parts[o][i] for o in origins if o in f.parts})
                  for f in fps]
        out.append(Chart(anchor(f"fp-{target}-{what}"), f"{label} — {target}",
                         charts.stacked_bars(stacks, f"{label} bytes (ELF sections, "
                                             f"{target})")))
    return out


def _row(f: Footprint, origins: list[str], label: str, heap: bool) -> list[Value]:
    mark = f" {SETTING_MARK}" if heap else ""
    cells = [Cell(f.group), Cell(f"{f.flash:,}"), Cell(f"{f.ram:,}{mark}")]
    cells += [Cell(" / ".join(f"{v:,}" for v in f.parts.get(o, (0, 0)))) for o in origins]
    return [label, *cells]


def page_footprint(view: RunView, cols: list[Column]) -> tuple[list[Chart], Section | None]:
    """Charts and the table; a RAM figure that holds a heap the profile set is
    marked ‡, with the heap's size in the table's notes."""
    if not view.footprints:
        return [], None
    col_of = {c.key: c for c in cols}
    builds = {key_of(b): b for b in view.builds}
    heaps = {c.key: h for c in cols if (h := heap_of(builds.get(c.key)))}
    origins = _origins(view)
    rows: list[list[Value]] = []
    chart_list = []
    for target in dict.fromkeys(f.target for f in view.footprints):
        fps = [f for f in view.footprints if f.target == target]
        chart_list += _charts(fps, target, origins, col_of)
        rows += [_row(f, origins, col_of[key_of(f)].label, key_of(f) in heaps) for f in fps]
    head = ["", "firmware", "Flash (B)", "RAM (B)"] + [f"{o} Flash / RAM (B)" for o in origins]
    table = Section("Bytes from the ELF's sections, attributed by the object file they come "
                    "from.", head, rows)
    table.notes = heap_notes({col_of[k].label: h for k, h in heaps.items()})
    return chart_list, table
