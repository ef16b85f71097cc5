"""The first screen: per target, each system's cost against the best, one
family at a time (throughput, latency, Flash, RAM), and one plain sentence
per family.

Every family is read as a cost, so that one scale serves all four: time
per Thread-Metric iteration (the inverse of the count per period), median
latency, Flash bytes, RAM bytes. A bar is the geometric mean over the cases
(firmwares, for Flash and RAM) of the system's cost divided by the lowest
cost of that case, so 1.00x is the best and a longer bar is worse; its
whisker runs from the smallest to the largest case. The systems of one
profile are compared together; a port in two profiles is compared with
itself apart (`across`: a configuration effect, not a ranking). Bare metal
is the floor, drawn as a reference line over the cases it ran. The ratio
statistics follow the answer's rules (answer.py): only cases every compared
system of the profile ran, stand-in cases and near-zero medians apart.

Marks on a bar: † a stand-in in that family's cases, ‡ a RAM figure that
holds what the port sized (the whole firmware's RAM, or a heap), ⚠ a
warning about its figures (QEMU guest errors are named in `caveats`), ✗ a
failed check.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from rtosmeter.model import (
    FAIL_MARK,
    SETTING_MARK,
    STAND_IN_MARK,
    WARN_MARK,
    CaseResult,
    Footprint,
    RunView,
)
from rtosmeter.reports.document.answer import (
    NEAR_ZERO_COUNTS,
    Answer,
    Ranking,
    geometric_mean,
    rankings,
)
from rtosmeter.reports.document.answer_text import ratio_text
from rtosmeter.reports.document.caveats import answer_caveats, stand_in_caveats, warning_caveats
from rtosmeter.reports.document.cells import Chart, anchor
from rtosmeter.vocabulary import FLOOR_PORT, family, system

FAMILIES = ("throughput", "latency", "flash", "ram")
TITLE = {"throughput": "Throughput", "latency": "Latency", "flash": "Flash", "ram": "RAM"}
COST = {"throughput": "time per Thread-Metric iteration", "latency": "median latency",
        "flash": "Flash bytes", "ram": "RAM bytes"}
EMULATED = ("Emulated under QEMU -icount: counts of instructions or virtual-clock ticks, "
            "exact and repeatable, not times.")

Row = dict[str, float]  # system -> cost of one case


@dataclass(frozen=True)
class GlanceBar:
    key: str  # port/target/profile
    label: str  # the port (its profile is the block's)
    ratio: float  # geometric mean of cost / lowest cost; 1.00x: the best
    low: float  # the smallest case's ratio
    high: float  # the largest case's ratio
    low_case: str
    high_case: str
    marks: str  # "†", "‡", "⚠", "✗" as they apply


@dataclass
class Block:
    """One family within one profile: its bars, best first, and the floor."""

    family: str
    profile: str
    unit: str
    cases: int  # cases (firmwares) in the ratios
    bars: list[GlanceBar]
    floor: float | None = None  # the floor's ratio over the cases it ran
    floor_cases: int = 0
    stand_in: list[str] = field(default_factory=list)  # † cases left out of the ratios
    near_zero: int = 0  # series left out: a median under NEAR_ZERO_COUNTS counts

    @property
    def best(self) -> GlanceBar:
        return self.bars[0]


@dataclass
class Glance:
    target: str
    emulated: bool
    blocks: dict[str, list[Block]]  # family -> one block per profile
    across: list[Across]  # per family: a port in two profiles, against itself
    caveats: list[str]  # the marks' meaning on this target, guest errors named
    no_rtos: str = ""  # said when there is no RTOS to rank

    @property
    def families(self) -> list[str]:
        return [f for f in FAMILIES if self.blocks.get(f)]

    def sentence(self, fam: str) -> str:
        return sentence(fam, self.blocks[fam])

    def extremes(self, fam: str) -> str:
        """Each bar's smallest and largest case, by name (the chart's hover)."""
        return "\n".join(f"{bl.profile} {b.label}: {ratio_text(b.low)} {b.low_case}, "
                         f"{ratio_text(b.high)} {b.high_case}"
                         for bl in self.blocks[fam] for b in bl.bars)


# ---- costs per case ---------------------------------------------------------------


def _costs(r: Ranking) -> dict[str, Row]:
    """The latency ranking's table: medians are costs already."""
    return {k: dict(row) for k, row in r.table.items()}


def _bars(table: dict[str, Row], keys: list[str], label: Callable[[str], str],
          marks: Callable[[str], str]) -> list[GlanceBar]:
    per: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for case, row in table.items():
        best = min(row.values())
        if best <= 0 or len(row) < len(keys):
            continue
        for k in keys:
            per[k].append((row[k] / best, case))
    bars = []
    for k in keys:
        if not per[k]:
            continue
        lo, hi = min(per[k]), max(per[k])
        bars.append(GlanceBar(k, label(k), geometric_mean([r for r, _ in per[k]]), lo[0], hi[0],
                              lo[1], hi[1], marks(k)))
    return sorted(bars, key=lambda b: b.ratio)


def _floor(table: dict[str, Row], floor: Row) -> tuple[float | None, int]:
    """The floor's ratio to each case's best, over the cases it ran."""
    ratios = [floor[c] / min(row.values()) for c, row in table.items()
              if c in floor and min(row.values()) > 0]
    return (geometric_mean(ratios), len(ratios)) if ratios else (None, 0)


def _floor_costs(cases: list[CaseResult], key: str, fam: str, unit: str) -> Row:
    """The floor's costs per case, as the family's table names its cases."""
    out: Row = {}
    for c in cases:
        if system(c) != key or c.status != "ok" or family(c) != fam:
            continue
        if fam == "throughput" and c.score:
            out[c.case_id] = 1.0 / (c.score / (c.period_ms or 1.0))
        for d in c.distributions if fam == "latency" else ():
            if d.unit.label == unit and d.p50 >= NEAR_ZERO_COUNTS * d.unit.per_tick:
                out[f"{c.case_id} · {d.series}"] = d.p50
    return out


def _throughput_costs(cases: list[CaseResult], keys: list[str], r: Ranking) -> dict[str, Row]:
    """Time per iteration (per ms of period, so periods of two profiles agree)."""
    by = {(system(c), c.case_id): c for c in cases}
    out: dict[str, Row] = {}
    for case_id in r.table:
        row = {}
        for k in keys:
            c = by.get((k, case_id))
            if c is not None and c.score:
                row[k] = 1.0 / (c.score / (c.period_ms or 1.0))
        out[case_id] = row
    return out


# ---- marks ---------------------------------------------------------------------------


@dataclass
class _Marks:
    stand_in: set[tuple[str, str]]  # (system, family)
    warned: set[tuple[str, str]]
    failed: set[tuple[str, str]]
    guest: set[str]  # systems with QEMU guest errors
    ram_whole: set[str]

    def of(self, key: str, fam: str) -> str:
        out = STAND_IN_MARK * ((key, fam) in self.stand_in)
        out += SETTING_MARK * (fam == "ram" and key in self.ram_whole)
        out += WARN_MARK * ((key, fam) in self.warned
                            or (key in self.guest and fam in ("throughput", "latency")))
        return out + FAIL_MARK * ((key, fam) in self.failed)

    def for_family(self, fam: str) -> Callable[[str], str]:
        return lambda key: self.of(key, fam)


def _marks(view: RunView, cases: list[CaseResult], answer: Answer) -> _Marks:
    fam = {(system(c), c.case_id): family(c) for c in cases}
    warned = {(w.system, fam[(w.system, w.case_id)]) for w in view.warnings
              if (w.system, w.case_id) in fam}
    return _Marks(
        {(system(c), family(c)) for c in cases if c.stand_ins},
        warned,
        {(system(c), family(c)) for c in cases if any(not k.ok for k in c.checks)},
        {w.system for w in view.warnings if w.kind == "guest-error"},
        {k for k, f in answer.ram.items() if not f.declared}
        | {k for k in answer.heap if k not in answer.ram or not answer.ram[k].declared})


# ---- the blocks ------------------------------------------------------------------------


def _profiles(keys: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(k.rsplit("/", 1)[1] for k in keys))


def _port(key: str) -> str:
    return key.split("/", 1)[0]


def _ranked_blocks(cases: list[CaseResult], keys: list[str], floor: str | None,
                   profile: str, marks: _Marks) -> list[Block]:
    out = []
    for r in rankings(cases, keys):
        costs = _throughput_costs(cases, keys, r) if r.family == "throughput" else _costs(r)
        bars = _bars(costs, keys, _port, marks.for_family(r.family))
        if not bars:
            continue
        unit = COST[r.family] if r.family == "throughput" else f"median in {r.unit}"
        block = Block(r.family, profile, unit, len(costs), bars, stand_in=sorted(r.stand_in),
                      near_zero=len(r.near_zero))
        if floor is not None:
            block.floor, block.floor_cases = _floor(
                costs, _floor_costs(cases, floor, r.family, r.unit))
        out.append(block)
    return out


def _bytes_table(footprints: list[Footprint], keys: list[str], ram: bool) -> dict[str, Row]:
    """Per firmware (group) built by every system: its Flash, or its RAM (the
    kernel's own where the port declared its reservations)."""
    by: dict[str, Row] = defaultdict(dict)
    for f in footprints:
        if system(f) in keys:
            kernel = f.parts.get("kernel", (0, 0))[1]
            by[f.group][system(f)] = (kernel if f.declared and kernel else f.ram) if ram \
                else f.flash
    return {g: row for g, row in by.items() if set(row) >= set(keys)}


def _bytes_blocks(view: RunView, target: str, keys: list[str], floor: str | None,
                  profile: str, marks: _Marks) -> list[Block]:
    fps = [f for f in view.footprints if f.target == target]
    out = []
    for fam in ("flash", "ram"):
        table = _bytes_table(fps, keys, fam == "ram")
        bars = _bars(table, keys, _port, marks.for_family(fam))
        if not bars:
            continue
        block = Block(fam, profile, "bytes" if fam == "flash" else "the kernel's own bytes",
                      len(table), bars)
        if floor is not None and fam == "flash":  # bare metal has no kernel RAM to draw
            mine = {g: row[floor] for g, row in _bytes_table(fps, [floor], False).items()}
            block.floor, block.floor_cases = _floor(table, mine)
        out.append(block)
    return out


def _across(cases: list[CaseResult], view: RunView, target: str, keys: list[str]
            ) -> list[Across]:
    """A port in two or more profiles against itself in the first: a
    configuration effect, per family."""
    profiles = _profiles(keys)
    if len(profiles) < 2:
        return []
    first = profiles[0]
    by_port: dict[str, list[str]] = defaultdict(list)
    for k in keys:
        by_port[_port(k)].append(k)
    per_fam: dict[str, list[str]] = defaultdict(list)
    for port, mine in by_port.items():
        base = next((k for k in mine if k.endswith("/" + first)), None)
        for other in (k for k in mine if k != base):
            if base is None:
                continue
            pair = [base, other]
            for b in _ranked_blocks(cases, pair, None, "", _NO_MARKS):
                per_fam[b.family].append(f"{port} {_ratio_of(b, other)}")
            for b in _bytes_blocks(view, target, pair, None, "", _NO_MARKS):
                per_fam[b.family].append(f"{port} {_ratio_of(b, other)}")
    return [Across(f, "/".join(profiles[1:]), first, per_fam[f]) for f in FAMILIES
            if per_fam.get(f)]


@dataclass(frozen=True)
class Across:
    """A family's profiles against the first, port by port."""

    family: str
    profiles: str  # "vendor"
    first: str  # "default"
    ports: list[str]  # "threadx 1.16x"

    @property
    def line(self) -> str:
        return (f"{TITLE[self.family]}, {self.profiles} against {self.first} (a configuration "
                f"effect, not a ranking): {', '.join(self.ports)}.")


def lower(fam: str) -> str:
    """A family as a word within a sentence (Flash and RAM keep their capitals)."""
    return TITLE[fam] if fam in ("flash", "ram") else fam


def across_line(found: list[Across]) -> str:
    """Every family's profile comparison in one line (the terminal's)."""
    if not found:
        return ""
    a = found[0]
    return (f"{a.profiles} against {a.first} (a configuration effect, not a ranking): "
            + "; ".join(f"{lower(x.family)} "
                        f"{', '.join(x.ports)}" for x in found) + ".")


def _ratio_of(block: Block, key: str) -> str:
    """`key`'s cost against the other bar of a two-bar block."""
    mine = next(b for b in block.bars if b.key == key)
    if mine is block.best:
        other = block.bars[1] if len(block.bars) > 1 else mine
        return ratio_text(1 / other.ratio) if other.ratio else "-"
    return ratio_text(mine.ratio)


_NO_MARKS = _Marks(set(), set(), set(), set(), set())


def _apart(blocks: dict[str, list[Block]]) -> str:
    """What the ratios leave out, in one line: the stand-in cases (the
    answer's details give the mean with them) and the near-zero series."""
    parts = []
    ranked = {f: [bl for bl in bls if len(bl.bars) > 1] for f, bls in blocks.items()}
    stand_in = {f: list(dict.fromkeys(c.split(" · ")[0] for bl in bls for c in bl.stand_in))
                for f, bls in ranked.items()}
    if any(stand_in.values()):
        parts.append(f"{STAND_IN_MARK} stand-in cases (" + "; ".join(
            f"{lower(f)}: {', '.join(cs)}" for f, cs in stand_in.items() if cs) + ")")
    near = [f"{bl.near_zero} in {bl.profile}" if bl.profile else str(bl.near_zero)
            for bl in ranked.get("latency", []) if bl.near_zero]
    if near:
        parts.append(f"latency series with a median under {NEAR_ZERO_COUNTS} counts "
                     f"({', '.join(near)})")
    return f"Not in the ratios: {'; '.join(parts)}." if parts else ""


def _caveats(view: RunView, cases: list[CaseResult], answer: Answer,
             blocks: dict[str, list[Block]]) -> list[str]:
    shown = {b.key for bs in blocks.values() for block in bs for b in block.bars}
    out = list(answer.no_verdict)  # a family in two units: why no bar, the option that helps
    out += stand_in_caveats(cases, shown)
    if any(SETTING_MARK in b.marks for bs in blocks.values() for bl in bs for b in bl.bars):
        out.append(f"{SETTING_MARK} RAM of the whole firmware (stacks and heaps the port "
                   "sized included), or holding a heap the profile set.")
    out += warning_caveats(view, shown)
    if (apart := _apart(blocks)):
        out.append(apart)
    return out + answer_caveats(answer)


def glance(view: RunView, answer: Answer) -> Glance:
    target = answer.target
    cases = [c for c in view.cases if c.target == target]
    keys = [k for k in dict.fromkeys(system(c) for c in cases)
            if not k.startswith(FLOOR_PORT + "/")]
    floors = {k.rsplit("/", 1)[1]: k for k in dict.fromkeys(system(c) for c in cases)
              if k.startswith(FLOOR_PORT + "/")}
    marks = _marks(view, cases, answer)
    blocks: dict[str, list[Block]] = defaultdict(list)
    for profile in _profiles(keys):
        mine = [k for k in keys if k.endswith("/" + profile)]
        floor = floors.get(profile)
        for b in (_ranked_blocks(cases, mine, floor, profile, marks)
                  + _bytes_blocks(view, target, mine, floor, profile, marks)):
            blocks[b.family].append(b)
    emulated = any(d.unit.emulated for c in cases for d in c.distributions)
    out = Glance(target, emulated, dict(blocks), _across(cases, view, target, keys), [])
    out.caveats = _caveats(view, cases, answer, out.blocks)
    if not keys:
        out.no_rtos = f"No RTOS ran on {target}: only bare metal, the floor, nothing to rank."
    elif len({_port(k) for k in keys}) == 1:
        out.no_rtos = f"Only {_port(keys[0])} ran on {target}: nothing to rank it against."
    return out


# ---- words -----------------------------------------------------------------------------


def _over(fam: str, blocks: list[Block]) -> str:
    n = max(b.cases for b in blocks)
    noun = {"throughput": "case", "latency": "series"}.get(fam, "firmware")
    return f"{n} {noun}{'s' * (n != 1 and noun != 'series')}"


def sentence(fam: str, blocks: list[Block]) -> str:
    """One plain sentence: the best of each profile and the others' multiples
    of it (one clause when every profile has the same order)."""
    order = [[b.label for b in bl.bars] for bl in blocks]
    if all(o == order[0] for o in order):
        where = f" in {' and '.join(b.profile for b in blocks)}" if len(blocks) > 1 else ""
        rest = [f"{label} {' / '.join(ratio_text(bl.bars[i].ratio) for bl in blocks)}"
                for i, label in enumerate(order[0]) if i]
        said = f"{order[0][0]} is best{where}{_own(blocks)}" + (
            f"; {rest[0].replace(' ', ' takes ', 1)}" if rest else "")
        said += "".join(f", {r}" for r in rest[1:])
    else:
        said = "; ".join(f"in {bl.profile} {bl.best.label} is best{_own([bl])}"
                         + "".join(f", {b.label} {ratio_text(b.ratio)}" for b in bl.bars[1:])
                         for bl in blocks)
    floors = [b.floor for b in blocks if b.floor]
    tail = f"; bare metal, the floor: {' / '.join(ratio_text(f) for f in floors)}" \
        if floors else ""
    return (f"{TITLE[fam]}, {blocks[0].unit} ({_over(fam, blocks)}, x the best of each): "
            f"{said}{tail}.")


def _own(blocks: list[Block]) -> str:
    """The best's own multiple when it is not the best of every case."""
    if all(b.best.ratio < 1.005 for b in blocks):
        return ""
    return f" ({' / '.join(ratio_text(b.best.ratio) for b in blocks)})"


# ---- the picture ---------------------------------------------------------------------------


def charts(g: Glance) -> list[Chart]:
    """One chart per family, a panel per profile; a port keeps its colour."""
    from rtosmeter import charts as draw

    ports = sorted({b.label for bs in g.blocks.values() for bl in bs for b in bl.bars})
    colour = {p: draw.colour_for(i) for i, p in enumerate(ports)}
    out = []
    for fam in g.families:
        panels = [draw.RatioPanel(
            bl.profile, [draw.RatioBar(b.label, b.ratio, b.low, b.high, b.marks, colour[b.label])
                         for b in bl.bars],
            bl.floor, f"bare metal {ratio_text(bl.floor)} ({bl.floor_cases} "
                      f"{'case' if fam in ('throughput', 'latency') else 'firmware'}"
                      f"{'s' * (bl.floor_cases != 1)})" if bl.floor else "")
            for bl in g.blocks[fam]]
        title = g.sentence(fam)
        svg = draw.ratio_bars(panels, "x the best (1 = best; shorter is better)")
        out.append(Chart(anchor(f"glance-{g.target}-{fam}"), title, svg))
    return out
