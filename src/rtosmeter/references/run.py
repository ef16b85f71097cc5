"""What `validate` runs: the references' cases on the QEMU target of each
reference's core, once counting instructions, once in cycles (the core's
model, no wait state) and once in cycles as on each board a reference names
(or `--as-board` gives for its core). Each of those is one in-memory
campaign, `validate:<view>`, planned and executed as `rtosmeter run` does
(studies.run.executor). Stored runs of that campaign are reused: only the
references none of them covers are run. A reference whose port needs an
RTOS tree that is not here is not run, with the variable to set."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rtosmeter.definitions import Campaign, CampaignEntry, Definitions
from rtosmeter.references.model import Reference
from rtosmeter.sources import SourceMissing, find_source
from rtosmeter.store import Store

if TYPE_CHECKING:
    from rtosmeter.board_memory import BoardMemory
    from rtosmeter.model import RunView
    from rtosmeter.runs import RunSummary

CAMPAIGN_PREFIX = "validate:"
INSTRUCTIONS, CYCLES = "instructions", "cycles"


@dataclass(frozen=True)
class View:
    """One way of counting: instructions, cycles, or cycles as on a board."""

    unit: str
    board: BoardMemory | None = None

    @property
    def name(self) -> str:
        return f"{self.unit}@{self.board.board}" if self.board else self.unit

    @property
    def campaign(self) -> str:
        return CAMPAIGN_PREFIX + self.name


def missing_tree(ref: Reference, defs: Definitions, sources: dict[str, Path]) -> str:
    """Why the reference's port cannot be built here ("" when it can)."""
    port = defs.ports[ref.port]
    try:
        find_source(port, sources)
    except SourceMissing:
        assert port.source is not None
        return f"not run: set {port.source.env}"
    return ""


def board_for(ref: Reference, boards: dict[str, BoardMemory],
              fallback: BoardMemory | None) -> BoardMemory | None:
    """The board the reference is estimated as on: its own, else --as-board's
    when it has the reference's core."""
    if ref.as_board:
        return boards[ref.as_board]
    return fallback if fallback is not None and fallback.cpu == ref.core else None


def views_of(refs: list[Reference], boards: dict[str, BoardMemory],
             fallback: BoardMemory | None) -> dict[str, tuple[View, list[Reference]]]:
    """Each view with the references it counts."""
    out: dict[str, tuple[View, list[Reference]]] = {
        INSTRUCTIONS: (View(INSTRUCTIONS), list(refs)), CYCLES: (View(CYCLES), list(refs))}
    for ref in refs:
        board = board_for(ref, boards, fallback)
        if board is not None:
            view = View(CYCLES, board)
            out.setdefault(view.name, (view, []))[1].append(ref)
    return out


def campaign_of(view: View, refs: list[Reference], file: Path) -> Campaign:
    """One entry per (port, target), its bench the cases its references need."""
    groups: dict[tuple[str, str], list[str]] = {}
    for ref in refs:
        groups.setdefault((ref.port, ref.qemu_target), []).append(ref.case)
    entries = tuple(
        CampaignEntry(ports=(port,), targets=(target,), profiles=("default",),
                      bench=",".join(dict.fromkeys(cases)), optional=True,
                      where=f"{file} ({port} on {target})")
        for (port, target), cases in sorted(groups.items()))
    return Campaign(view.campaign, "published references", entries, {}, file,
                    unit=view.unit)


def stored_runs(store: Store, campaign: str) -> list[int]:
    """The finished runs of a campaign, latest first."""
    return sorted((r.id for r in store.runs()
                   if str(r.campaign.get("campaign", "")) == campaign and r.status == "done"),
                  reverse=True)


def covered(views: list[RunView], ref: Reference) -> bool:
    """One of the runs holds a finished result of the reference's case (a
    count whose check failed too: it is kept, marked, and would fail again)."""
    done = ("ok", "failed") if ref.figure == "per_iteration" else ("ok",)
    return any((c.port, c.target, c.case_id) == (ref.port, ref.qemu_target, ref.case)
               and c.status in done for v in views for c in v.cases)


Runner = Callable[[Campaign, "BoardMemory | None"], "RunSummary"]


def run_views(store: Store, views: dict[str, tuple[View, list[Reference]]], runner: Runner,
              file: Path, rerun: bool = False) -> dict[str, list[RunView]]:
    """Each view's runs, latest first: the stored ones (unless `rerun`), and
    a new run of the references none of them covers, if any."""
    from rtosmeter.analysis import load_run

    out: dict[str, list[RunView]] = {}
    for name, (view, refs) in views.items():
        loaded = [] if rerun else [load_run(store, i) for i in stored_runs(store, view.campaign)]
        missing = [r for r in refs if not covered(loaded, r)]
        if missing:
            summary = runner(campaign_of(view, missing, file), view.board)
            loaded.insert(0, load_run(store, summary.run_id))
        out[name] = loaded
    return out
