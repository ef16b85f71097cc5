"""`study run`: a study's matrix as an in-memory campaign, planned and run by
the usual pipeline (plan.make_plan, runs.execute) into the store of --out,
as the campaign `study:NAME`; then, for each finding with a `rerun`, the
systems and cases it needs again with that cause removed, as
`study:NAME:rerun:FINDING`. The report finds the latest run of each name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rtosmeter.catalog import Catalog
from rtosmeter.definitions import Campaign, CampaignEntry, Definitions
from rtosmeter.errors import UserError
from rtosmeter.instances import SEP
from rtosmeter.instances import split as split_instance
from rtosmeter.store import Store
from rtosmeter.studies.model import Finding, Rerun, Study, System

if TYPE_CHECKING:
    from rtosmeter.board_memory import BoardMemory
    from rtosmeter.runs import RunSummary

CAMPAIGN_PREFIX = "study:"
RERUN_INFIX = ":rerun:"


def campaign_name(study: str, finding: str = "") -> str:
    return CAMPAIGN_PREFIX + study + (RERUN_INFIX + finding if finding else "")


def port_of(system: System, rerun: Rerun | None = None) -> str:
    """The port (or instance) a system runs as; a rerun's `source` replaces
    the port's tree by the study's version, except for a system that already
    runs its study's own version (an instance without `nearest`: Ungurean's
    FreeRTOS 9 stays V9.0.0 when FreeRTOS 10's rerun brings V10.2.0)."""
    base, label = split_instance(system.port)
    exact = bool(label) and not system.nearest
    if rerun and rerun.source and split_instance(rerun.source)[0] == base and not exact:
        return rerun.source
    return system.port


def profiles_of(study: Study, system: System, rerun: Rerun | None = None) -> tuple[str, ...]:
    if rerun and rerun.profile:
        return (rerun.profile,)
    return (system.profile,) if system.profile else study.matrix.profiles


def toolchains_of(study: Study, rerun: Rerun | None = None) -> tuple[str, ...]:
    return (rerun.toolchain,) if rerun and rerun.toolchain else study.matrix.toolchains


def finding_systems(study: Study, finding: Finding) -> list[System]:
    """The systems a finding compares (all runnable ones for lowest/highest
    without a list)."""
    named = [finding.system, *finding.systems] if finding.systems else []
    chosen = [s for s in study.systems if s.label in named] if named else list(study.systems)
    return [s for s in chosen if s.runnable]


def campaign(study: Study, name: str, systems: list[System], cases: list[str],
             rerun: Rerun | None = None) -> Campaign:
    """The campaign of these systems and cases, on every target of the study;
    each entry is if_available (a missing tree or tool: "not run here")."""
    targets = tuple(t.name for t in study.targets)
    bench = ",".join(dict.fromkeys(cases)) or study.matrix.bench
    entries = tuple(
        CampaignEntry(ports=(port_of(s, rerun),), targets=targets,
                      profiles=profiles_of(study, s, rerun), bench=bench, optional=True,
                      where=f"{study.file} ([[system]] {s.label})", loads=study.matrix.loads,
                      toolchains=toolchains_of(study, rerun))
        for s in systems if s.runnable)
    if not entries:
        raise UserError(f"no system of study {study.name} has a port to run", str(study.file),
                        "Give a [[system]] port = \"...\"")
    unit = rerun.unit if rerun and rerun.unit else None
    return Campaign(name, study.title, entries, study.params, study.file, unit=unit,
                    cycle_ws=rerun.cycle_ws if rerun else None)


def rerun_campaign(study: Study, finding: Finding) -> Campaign:
    assert finding.rerun is not None
    cases = [c for op in finding.operations for c in study.operation(op).cases]
    if finding.operands:
        names: tuple[str, ...] = tuple(o.system for o in finding.operands)
        systems = [s for s in study.systems if s.label in names and s.runnable]
    elif finding.kind in ("lowest", "highest"):
        systems = finding_systems(study, finding)
    else:
        names = finding.systems or (finding.system,)
        systems = [s for s in study.systems if s.label in names and s.runnable]
    return campaign(study, campaign_name(study.name, finding.id), systems, cases,
                    finding.rerun)


@dataclass
class Outcome:
    """What one campaign of the study did: its run, or why nothing ran."""

    name: str
    run_id: int | None = None
    summary: str = ""
    error: str = ""


Runner = Callable[[Campaign], "RunSummary"]


def run_study(study: Study, execute_campaign: Runner, reruns: bool = True) -> list[Outcome]:
    """The matrix, then each rerun; a campaign where nothing could run (a
    missing tree) is an outcome with its error, and the rest goes on."""
    names = [main_campaign(study)]
    if reruns:
        names += [rerun_campaign(study, f) for f in study.findings if f.rerun]
    out = []
    for camp in names:
        try:
            summary = execute_campaign(camp)
            out.append(Outcome(camp.name, summary.run_id, summary.line(0)))
        except UserError as exc:
            out.append(Outcome(camp.name, error=exc.message))
    return out


def main_campaign(study: Study) -> Campaign:
    """The whole matrix: every system, the matrix's bench."""
    return campaign(study, campaign_name(study.name), list(study.systems), [])


def latest_runs(store: Store, study: str) -> dict[str, int]:
    """Campaign name -> the latest finished or interrupted run of it."""
    out: dict[str, int] = {}
    for row in store.runs():
        name = str(row.campaign.get("campaign", ""))
        ours = name == campaign_name(study) or name.startswith(campaign_name(study) + RERUN_INFIX)
        if ours and row.id > out.get(name, -1):
            out[name] = row.id
    return out


def sources_for(camp: Campaign, sources: dict[str, Path]) -> dict[str, Path]:
    """--source trees, less the version instances this campaign does not name:
    given to the planner, a labelled tree would make a plain port run as that
    instance (instances.expand), and the matrix must run the ports as named."""
    named = {p for e in camp.entries for p in e.ports}
    return {k: v for k, v in sources.items() if SEP not in k or k in named}


def executor(defs: Definitions, catalog: Catalog, store: Store, out: Path,
             sources: dict[str, Path], jobs: int, quiet: bool | None = None,
             boards: bool = False, unit: str | None = None,
             board: BoardMemory | None = None,
             attribute: bool = False, qemu: str = "") -> Runner:
    """A campaign -> plan -> executed run, as `rtosmeter run` does it; board
    targets are stored as not run (no build) unless `boards` (one is attached).
    `unit` and `board` replace every campaign's unit (study run --unit,
    --as-board; the study's QEMU targets of another core than the board's
    are stored as not run, their verdicts untestable with the reason);
    `attribute` and `qemu` are run's --attribute and --qemu."""
    from rtosmeter.plan import Selection, make_plan
    from rtosmeter.runs import execute

    def go(camp: Campaign) -> RunSummary:
        plan = make_plan(defs, catalog, camp, Selection(
            jobs=jobs, sources=sources_for(camp, sources), boards=boards,
            unit=unit, board=board, board_core_only=True,
            attribute=attribute, qemu=qemu))
        return execute(defs, catalog, store, out, plan, quiet=quiet)

    return go
