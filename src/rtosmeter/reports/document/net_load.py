"""The load view's network-stack tables (the net-* loads, rtosmeter.net.trace):
Thread-Metric against `net-idle` (the stack built and up, no frame: the
Silva et al. 2019 study's idle, "the network stack always initialised"), so
that the change is the traffic alone, with the mean over the tests per state
as the study's Table II's last column; then what the stack did with the
frames, summed over each build's cases (META net.*), and whether every case's
counts matched the trace (load.c fails a case whose counts disagree).
"""

from __future__ import annotations

from rtosmeter.loads import NET_IDLE, split
from rtosmeter.model import CaseResult, CaseStatus, RunView
from rtosmeter.reports.document.cells import Cell, Section, Value, fmt
from rtosmeter.reports.document.load import Paired, _marks, change, pct

COUNTS = ("sent", "read", "ip_in", "delivered", "forwarded", "dropped_below_ip",
          "dropped_in_ip", "tx_other", "overrun")


def stack_loads(loads: list[str]) -> list[str]:
    return [ld for ld in loads if ld.startswith("net-") and ld != NET_IDLE]


Means = dict[tuple[str, str], list[float]]  # (port label, load) -> changes of its tests


def _change_cell(c: CaseResult | None, base: CaseResult, label: str, load: str,
                 means: Means, marked: dict[tuple[str, str], str]) -> Cell:
    """One loaded test's change against net-idle, kept for its port's mean;
    its status (✗) when it has no figure."""
    x = change(c.score, base.score) if c is not None and c.score is not None \
        and base.score is not None else None
    if c is None or x is None or c.status != CaseStatus.OK:
        return Cell(c.status if c else "-", flag="fail" if c else "dim")
    means.setdefault((label, load), []).append(x)
    marked.setdefault((label, load), _marks(c, base))  # † on a mean when its tests rest on one
    return Cell(pct(x) + _marks(c, base), fmt(c.score))


def _mean_row(port: str, loads: list[str], means: Means,
              marked: dict[tuple[str, str], str]) -> list[Value]:
    """The mean change over a port's tests per load (the study's PD)."""
    cells: list[Value] = []
    for load in loads:
        xs = means.get((port, load), [])
        cells.append(Cell(pct(sum(xs) / len(xs)) + marked.get((port, load), "") if xs else "-",
                          f"{len(xs)} test{'' if len(xs) == 1 else 's'}"))
    return ["mean (the study's PD)", port, *cells]


def against_net_idle(view: RunView, target: str) -> Section | None:
    pairs = Paired(view, target, "throughput")
    loads = stack_loads(pairs.loads)
    if NET_IDLE not in pairs.loads or not loads:
        return None
    sec = Section(f"Thread-Metric under the network stack on {target}: change of the count per "
                  f"period against {NET_IDLE} (the stack up, no frame: the traffic alone; "
                  "small: the loaded count)", ["case", "port", *loads], numeric=2)
    means: Means = {}
    marked: dict[tuple[str, str], str] = {}
    for key in pairs.ordered():
        base = pairs.by.get((key, NET_IDLE))
        if base is None or base.score is None:
            continue
        label = key[0] if key[2] == "default" else f"{key[0]}/{key[2]}"
        sec.rows.append([key[3], label, *(_change_cell(pairs.by.get((key, load)), base, label,
                                                        load, means, marked)
                                          for load in loads)])
    for port in dict.fromkeys(str(r[1]) for r in sec.rows):
        sec.rows.append(_mean_row(port, loads, means, marked))
    sec.notes.append("A failed case (✗: a check failed, its stack counts against the trace or "
                     "the test's own; the report names which) has no figure and is left out "
                     "of the mean.")
    return sec if sec.rows else None


def stack_count(cases: list[CaseResult], name: str) -> int:
    return sum(int(c.meta.get(f"net.{name}", "0") or 0) for c in cases)


def counts_section(view: RunView, target: str) -> Section | None:
    builds: dict[tuple[str, str], list[CaseResult]] = {}
    for c in view.cases:
        if c.target == target and "net.sent" in c.meta:
            builds.setdefault((c.port, split(c.profile)[1]), []).append(c)
    if not builds:
        return None
    sec = Section(f"The network stack's counts on {target}, summed over the cases (META net.*; "
                  "each case's must equal what the trace sent)",
                  ["port", "load", *COUNTS, "cases matching"], numeric=2)
    for (port, load), cases in sorted(builds.items()):
        bad = sum(1 for c in cases if c.status == CaseStatus.FAILED)
        sec.rows.append([port, load + _marks(*cases),
                         *(Cell(fmt(stack_count(cases, n))) for n in COUNTS),
                         Cell(f"{len(cases) - bad} of {len(cases)}", flag="fail" if bad else "")])
    sec.notes.append("read: frames the stack took from the radio; ip_in: packets at its IPv6 "
                     "input; delivered: datagrams at the application's UDP socket; forwarded: "
                     "frames the radio sent to the neighbour; tx_other: the stack's own "
                     "transmissions; overrun: frames the radio's buffer could not hold.")
    return sec


def sections(view: RunView) -> list[Section]:
    targets = sorted({c.target for c in view.cases})
    return [s for t in targets for s in (against_net_idle(view, t), counts_section(view, t))
            if s is not None]
