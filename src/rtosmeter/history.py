"""The runs a store holds, and one case followed across them.

`list_runs()` describes every stored run (campaign, systems, RTOS sources and
versions) without loading samples; `case_history()` loads each run that has
the case and draws its median with the 25-75 % band (latency) or its count
per period with the min-max band over periods (throughput), one panel per
target and unit.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rtosmeter import analysis, vocabulary
from rtosmeter.errors import UserError
from rtosmeter.safe_write import write_text
from rtosmeter.store import Store


@dataclass(frozen=True)
class StoredRun:
    id: int
    started: str
    status: str
    campaign: str
    ports: list[str]
    targets: list[str]
    profiles: list[str]
    sources: list[str]  # "freertos V11.1.0 (abc1234)" per port with an RTOS tree
    tool_version: str


def _source(port: str, config: dict[str, object]) -> str:
    version = str(config.get("rtos_version", "") or "")
    commit = str(config.get("rtos_commit", "") or "")[:10]
    if not version and not commit:
        return ""
    return f"{port} {version}" + (f" ({commit})" if commit else "")


def list_runs(store: Store) -> list[StoredRun]:
    out = []
    for run in store.runs():
        builds = store.builds(run.id)
        sources = [s for b in builds if (s := _source(b.port, b.config))]
        campaign = str(run.campaign.get("campaign") or run.campaign.get("name") or "")
        out.append(StoredRun(
            run.id, run.started, run.status, campaign,
            list(dict.fromkeys(b.port for b in builds)),
            list(dict.fromkeys(b.target for b in builds)),
            list(dict.fromkeys(b.profile for b in builds)),
            list(dict.fromkeys(sources)), run.tool_version))
    return out


@dataclass
class Point:
    run_id: int
    started: str
    value: float
    low: float
    high: float


@dataclass
class CaseHistory:
    """A case across runs, one panel per (target, unit): a host's
    nanoseconds and QEMU's instructions, or counts per period of two targets,
    never share an axis."""

    case_id: str
    family: str
    # (target, unit) -> "port/profile[ series]" -> one point per run
    panels: dict[tuple[str, str], dict[str, list[Point]]]

    @property
    def units(self) -> list[str]:
        return sorted({unit for _, unit in self.panels})


THROUGHPUT_UNIT = "count per measurement period"


def case_history(store: Store, case_id: str) -> CaseHistory:
    """One case across every stored run that has it with status ok."""
    panels: dict[tuple[str, str], dict[str, list[Point]]] = {}
    family = ""
    for run in store.runs():
        if not any(c.case_id == case_id for c in store.cases(run.id)):
            continue
        view = analysis.load_run(store, run.id)
        for c in view.cases:
            if c.case_id != case_id or c.status != "ok":
                continue
            family = vocabulary.family(c)
            system = f"{c.port}/{c.profile}"  # the target names the panel
            if family == "throughput" and c.score is not None:
                total = c.counts["total"]
                panels.setdefault((c.target, THROUGHPUT_UNIT), {}).setdefault(
                    system, []).append(Point(run.id, run.started, c.score, min(total),
                                             max(total)))
            for d in c.distributions:
                name = system if len(c.distributions) == 1 else f"{system} {d.series}"
                panels.setdefault((c.target, d.unit.label), {}).setdefault(name, []).append(
                    Point(run.id, run.started, d.p50, d.p25, d.p75))
    if not panels:
        raise UserError(f"no stored run has case {case_id!r} with status ok", str(store.path),
                        "Check the case ID (`rtosmeter report latest` lists them)")
    return CaseHistory(case_id, family, panels)


def chart(history: CaseHistory, png: Path | None = None) -> str:
    """SVG: median and 25-75 % band per run (latency), or count per period and
    its min-max over periods (throughput), one panel per target and unit.
    With `png`, also a PNG there."""
    from rtosmeter import charts  # matplotlib: only when a chart is drawn

    x_labels: dict[int, str] = {}
    what = ("count per period (band: min-max over periods)" if history.family == "throughput"
            else "median (band: 25-75 %)")
    panels = []
    for (target, unit), lines in sorted(history.panels.items()):
        drawn = []
        for i, (name, points) in enumerate(sorted(lines.items())):
            for p in points:
                x_labels[p.run_id] = f"#{p.run_id} {p.started[:10]}"
            drawn.append(charts.Line(name, [p.run_id for p in points],
                                     [p.value for p in points], [p.low for p in points],
                                     [p.high for p in points], charts.colour_for(i)))
        panels.append(charts.Panel(f"{history.case_id} on {target}", unit, drawn))
    return charts.history_chart(panels, x_labels, what, png=png)


def write_chart(store: Store, case_id: str, path: Path) -> Path:
    """The chart of `case_id` across runs: PNG when `path` ends in .png, else SVG."""
    history = case_history(store, case_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".png":
        chart(history, png=path)
    else:
        write_text(path, chart(history))
    return path
