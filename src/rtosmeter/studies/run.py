"""`study run`: a study's matrix as an in-memory campaign, planned and run by
the usual pipeline (plan.make_plan, runs.execute) into the store of --out,
as the campaign `study:NAME`; then, for each finding with a `rerun`, the
systems and cases it needs again with that cause removed, as
`study:NAME:rerun:FINDING`. The report finds the latest run of each name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rtosmeter.catalog import Catalog
from rtosmeter.definitions import Campaign, CampaignEntry, Definitions
from rtosmeter.errors import UserError
from rtosmeter.instances import SEP
from rtosmeter.instances import split as split_instance
from rtosmeter.store import Store
from rtosmeter.store.lock import Busy
from rtosmeter.studies.model import Finding, Rerun, Study, System

if TYPE_CHECKING:
    from rtosmeter.board_memory import BoardMemory
    from rtosmeter.runs import RunSummary

CAMPAIGN_PREFIX = "study:"
RERUN_INFIX = ":rerun:"
UNIT_INFIX = ":unit:"  # the operations read in their own unit (Operation.unit)


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


def exact(system: System) -> System:
    """The system run at the study's own version (its `study_port`)."""
    return replace(system, port=system.study_port, nearest="")


def with_study_versions(study: Study, given: Callable[[str], bool]) -> Study:
    """The study whose systems run their study's own version wherever its
    tree is `given` (a port instance's name -> whether its tree is here)."""
    return replace(study, systems=tuple(
        exact(s) if s.study_port and given(s.study_port) else s for s in study.systems))


def as_run(study: Study, ports_run: set[str]) -> Study:
    """The study as its stored matrix ran it: a system whose study's own
    version has builds there is that version (the report of that run)."""
    return with_study_versions(study, lambda port: port in ports_run)


def rerun_needed(study: Study, finding: Finding) -> bool:
    """A version rerun is not needed where every system it names already
    runs the study's version in the matrix: it would run the same firmware."""
    r = finding.rerun
    if r is None:
        return False
    if r.kind != "source":
        return True
    return any(port_of(s, r) != s.port for s in rerun_systems(study, finding))


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


def rerun_systems(study: Study, finding: Finding) -> list[System]:
    """The systems a finding's rerun runs again."""
    if finding.operands:
        names: tuple[str, ...] = tuple(o.system for o in finding.operands)
    elif finding.kind in ("lowest", "highest"):
        return finding_systems(study, finding)
    else:
        names = finding.systems or (finding.system,)
    return [s for s in study.systems if s.label in names and s.runnable]


def unit_campaigns(study: Study) -> list[Campaign]:
    """The operations read in a unit of their own, their cases on every
    system in that unit (`study:NAME:unit:cycles`)."""
    units = dict.fromkeys(o.unit for o in study.operations if o.unit and o.case)
    return [campaign(study, campaign_name(study.name) + UNIT_INFIX + unit, list(study.systems),
                     [c for o in study.operations if o.unit == unit for c in o.cases],
                     Rerun(unit=unit)) for unit in units]


def rerun_campaign(study: Study, finding: Finding) -> Campaign:
    assert finding.rerun is not None
    cases = [c for op in finding.operations for c in study.operation(op).cases]
    return campaign(study, campaign_name(study.name, finding.id),
                    rerun_systems(study, finding), cases, finding.rerun)


@dataclass
class Outcome:
    """What one campaign of the study did: its run, or why nothing ran."""

    name: str
    run_id: int | None = None
    summary: str = ""
    error: str = ""


Runner = Callable[[Campaign], "RunSummary"]


def run_study(study: Study, execute_campaign: Runner, reruns: bool = True,
              one_unit: bool = False, done: frozenset[str] = frozenset()) -> list[Outcome]:
    """The matrix, the operations of a unit of their own (not when
    `one_unit`: --unit or --as-board counts the whole study in one), then
    each rerun, less the campaigns `done` (a resumed study's); a campaign
    where nothing could run (a missing tree) is an outcome with its error,
    and the rest goes on; another process running here stops the study."""
    names = [main_campaign(study), *([] if one_unit else unit_campaigns(study))]
    out = []
    for f in study.findings if reruns else ():
        if rerun_needed(study, f):
            names.append(rerun_campaign(study, f))
        elif f.rerun:
            out.append(Outcome(campaign_name(study.name, f.id), summary=(
                f"not run: the matrix already runs {f.rerun.source}, the study's version")))
    for camp in names:
        if camp.name in done:
            continue
        try:
            summary = execute_campaign(camp)
            out.append(Outcome(camp.name, summary.run_id, summary.line(0)))
        except Busy:
            raise  # another process runs here: the study stops, saying so
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
        ours = name == campaign_name(study) or name.startswith(
            (campaign_name(study) + RERUN_INFIX, campaign_name(study) + UNIT_INFIX))
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
             board: BoardMemory | None = None, core_boards: tuple[BoardMemory, ...] = (),
             attribute: bool = False, qemu: str = "") -> Runner:
    """A campaign -> plan -> executed run, as `rtosmeter run` does it; board
    targets are stored as not run (no build) unless `boards` (one is attached).
    `unit` and `board` replace every campaign's unit (study run --unit,
    --as-board; `core_boards`, the boards of other cores, each estimates its
    core's QEMU target; a QEMU target of a core without a board is stored as
    not run, its verdicts untestable with the reason);
    `attribute` and `qemu` are run's --attribute and --qemu."""
    from rtosmeter.plan import Selection, make_plan
    from rtosmeter.runs import execute

    def go(camp: Campaign) -> RunSummary:
        plan = make_plan(defs, catalog, camp, Selection(
            jobs=jobs, sources=sources_for(camp, sources), boards=boards,
            unit=unit, board=board, board_core_only=True, core_boards=core_boards,
            attribute=attribute, qemu=qemu))
        return execute(defs, catalog, store, out, plan, quiet=quiet)

    return go
