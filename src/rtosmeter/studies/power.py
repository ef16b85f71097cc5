"""Our side of a study's power figures (stat `power`): the operation's case
priced by the power model of the board the study's target names
(`power_model`), at the study's clock. An estimate, never a measurement:
every such figure carries ESTIMATE_MARK, and the legend says which model
and datasheet.

A case with idle figures (a `lowpower` run) is priced from them; a
Thread-Metric case never sleeps (its threads are always ready), so it draws
the chip's run power the whole time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rtosmeter.energy.estimate import busy, estimate
from rtosmeter.energy.model import FILE, PowerModel, load_model
from rtosmeter.errors import UserError
from rtosmeter.model import CaseResult, RunView
from rtosmeter.studies.model import Study

ESTIMATE_MARK = "≈"  # at every estimated power figure


@dataclass(frozen=True)
class Power:
    mw: float | None
    why: str = ""


@cache
def _model(board: str, where: str) -> PowerModel:
    from rtosmeter.definitions import Definitions

    target = Definitions.load().targets.get(board)
    if target is None or not (target.dir / FILE).is_file():
        raise UserError(f"power_model {board!r} is not a board target with a {FILE}", where,
                        "Name a board of targets/ that declares a power model")
    return load_model(target.dir / FILE, board)


def model_of(study: Study, target: str) -> PowerModel | None:
    found = next((t for t in study.targets if t.name == target), None)
    if found is None or not found.power_model:
        return None
    return _model(found.power_model, f"{study.file} (target {target}, key 'power_model')")


def estimated_mw(study: Study, view: RunView | None, case: CaseResult, window: str = ""
                 ) -> Power:
    """The case's estimated power on its target's model at the study's clock;
    `window`: one of the case's idle windows (idle.window_names)."""
    model = model_of(study, case.target)
    if model is None:
        return Power(None, f"the study's target {case.target} names no power_model")
    name = f"{case.case_id}@{window}" if window else case.case_id
    for f in view.energy if view else []:
        if f.idle is not None and (f.port, f.target, f.window) == (
                case.port, case.target, name) and _profile(f.profile, f.load) == \
                case.profile:
            return Power(estimate(f.idle, model, study.clock_hz).average_mw)
    if case.case_id.startswith("tm.") and not window:
        return Power(busy(model, study.clock_hz))
    return Power(None, f"{name} has no idle figures (run it in the lowpower profile)")


def _profile(base: str, load: str) -> str:
    from rtosmeter.loads import profile_name

    return profile_name(base, load, "energy")


def legend(study: Study) -> list[str]:
    """What ESTIMATE_MARK means in this study, per target with a model."""
    if not (any(f.stat == "power" for f in study.figures)
            or any("power" in t.stats for t in study.tables)):
        return []
    out = []
    for t in study.targets:
        if t.power_model:
            m = model_of(study, t.name)
            assert m is not None
            out.append(f"{ESTIMATE_MARK} {t.name}: estimated ({m.name} at "
                       f"{study.clock_hz / 1e6:g} MHz, {m.supply_v.value:g} V; a case with no "
                       f"idle figures that never sleeps (Thread-Metric) draws run power "
                       f"throughout; source: {m.sources})")
    return out
