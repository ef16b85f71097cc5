"""What `validate` runs: the references' cases on the QEMU target of each
reference's core, once counting instructions, once in cycles (the core's
model, no wait state) and once in cycles as on each board a reference names
(or `--as-board` gives for its core). Each of those is one in-memory
campaign, `validate:<view>`, planned and executed as `rtosmeter run` does
(studies.run.executor); a stored run of that campaign holding every case
asked for is reused instead of run again. A reference whose port needs an
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


def latest_run(store: Store, campaign: str) -> int | None:
    """The latest stored run of a campaign that finished, or None."""
    ids = [r.id for r in store.runs()
           if str(r.campaign.get("campaign", "")) == campaign and r.status == "done"]
    return max(ids) if ids else None


def covers(view: RunView, refs: list[Reference]) -> bool:
    """The run holds a finished result of every reference's case."""
    have = {(c.port, c.target, c.case_id) for c in view.cases if c.status == "ok"}
    return all((r.port, r.qemu_target, r.case) in have for r in refs)


Runner = Callable[[Campaign, "BoardMemory | None"], "RunSummary"]


def run_views(store: Store, views: dict[str, tuple[View, list[Reference]]], runner: Runner,
              file: Path, rerun: bool = False) -> dict[str, RunView | None]:
    """Each view's run: the stored one if it covers its references (and not
    `rerun`), else a new one; None when none of its references could run."""
    from rtosmeter.analysis import load_run

    out: dict[str, RunView | None] = {}
    for name, (view, refs) in views.items():
        if not refs:
            out[name] = None
            continue
        stored = None if rerun else latest_run(store, view.campaign)
        loaded = load_run(store, stored) if stored is not None else None
        if loaded is None or not covers(loaded, refs):
            summary = runner(campaign_of(view, refs, file), view.board)
            loaded = load_run(store, summary.run_id)
        out[name] = loaded
    return out
