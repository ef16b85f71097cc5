"""The compared systems: per target, the columns of the comparison tables
(`Systems`); for the whole run, the page's columns with their colours
(`Column`), one per build that ran."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rtosmeter import axes
from rtosmeter.analysis import NOT_RUN_STATUSES, compiler_text
from rtosmeter.instances import sort_key
from rtosmeter.model import BuildInfo, CaseResult, Footprint, RunView
from rtosmeter.vocabulary import FLOOR_PORT, build_name, system

BuildKey = tuple[str, str, str, str]  # (port, target, profile, axes suffix: "+clang")


@dataclass
class Systems:
    """The systems compared on one target, in a stable order, with short
    column labels: the port, then the profile and each axis (toolchain) that
    differs among them; a toolchain with its compiler's version, so the
    compiler stands at every number ("freertos/clang 14.0.6")."""

    target: str
    keys: list[str]  # "port/target/profile" and the axes' suffix (vocabulary.system)
    labels: dict[str, str]

    @classmethod
    def of(cls, target: str, items: Iterable[CaseResult | Footprint]) -> Systems:
        found = {system(c): c for c in items if c.target == target}
        # bare metal first: it is the floor the others are read against
        keys = sorted(found, key=lambda k: (found[k].port != FLOOR_PORT, sort_key(found[k].port),
                                            found[k].profile, axes.order(found[k].axes)))
        varying = {name for name in ("profile", *axes.AXES)
                   if len({_coordinate(found[k], name) for k in keys}) > 1}
        labels = {k: "/".join([found[k].port, *(_coordinate(found[k], n, True) for n in
                                               ("profile", *axes.AXES) if n in varying)])
                  for k in keys}
        return cls(target, keys, labels)

    @property
    def headers(self) -> list[str]:
        return [self.labels[k] for k in self.keys]


def _coordinate(item: CaseResult | Footprint, name: str, label: bool = False) -> str:
    """A system's profile or axis value; as a label, the toolchain with its
    compiler's version ("clang 14.0.6")."""
    if name == "profile":
        return item.profile
    if label and name == "toolchain" and item.compiler:
        return item.compiler
    return axes.complete(item.axes)[name]


def build_of(view: RunView, key: str) -> BuildInfo | None:
    return next((b for b in view.builds if build_name(b) == key), None)


# ---- the page's columns ----------------------------------------------------------


@dataclass
class Column:
    key: BuildKey
    label: str
    colour: str
    emulated: bool


def key_of(item: CaseResult | Footprint | BuildInfo) -> BuildKey:
    return (item.port, item.target, item.profile, axes.suffix(item.axes))


def system_of(k: BuildKey) -> str:
    """The analysis' name of a column's system (vocabulary.system)."""
    port, target, profile, suffix = k
    return f"{port}/{target}/{profile}{suffix}"


def _compiler(item: CaseResult | Footprint | BuildInfo) -> str:
    """"clang 14.0.6", or the toolchain's name where the build did not say."""
    text = compiler_text(item.config) if isinstance(item, BuildInfo) else item.compiler
    return text or axes.complete(item.axes)["toolchain"]


def columns(view: RunView) -> list[Column]:
    from rtosmeter import charts  # matplotlib: only for the page

    # a combination not run here is listed apart, never a column
    ran = [b for b in view.builds if b.status not in NOT_RUN_STATUSES]
    items: list[CaseResult | Footprint | BuildInfo] = [*ran, *view.cases, *view.footprints]
    keys = list(dict.fromkeys(key_of(i) for i in items))
    targets = {k[1] for k in keys}
    profiles = {k[2] for k in keys}
    compiler = {key_of(i): _compiler(i) for i in reversed(items)}  # a build's word first
    # per system, whether it ran under an emulator: its samples' unit says
    emulated = {key_of(c): d.unit.emulated for c in view.cases for d in c.distributions}
    cols = []
    for i, k in enumerate(keys):
        # the text reports' label (port, then profile and compiler where they
        # differ: "freertos/vendor/clang 14.0.6"), then the target
        label = k[0] + (f"/{k[2]}" if len(profiles) > 1 else "")
        label += f"/{compiler[k]}" if len({k[3] for k in keys}) > 1 else ""
        label += f" · {k[1]}" if len(targets) > 1 else ""
        colour = charts.colour_for(i)  # one per column: two profiles never share one
        cols.append(Column(k, label, colour, emulated.get(k, False)))
    return cols
