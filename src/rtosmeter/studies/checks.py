"""Cross-checks of a study file: every name it uses points at something
(its own systems, operations and states; our ports, targets, profiles,
toolchains and cases), every choice is one of the fixed vocabularies. Each
error names the file and the key."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from pathlib import Path

from rtosmeter.catalog import Catalog
from rtosmeter.definitions import Definitions
from rtosmeter.errors import UserError
from rtosmeter.instances import split as split_instance
from rtosmeter.loads import parse as parse_load
from rtosmeter.studies.model import (
    BETTER,
    CAUSES,
    KINDS,
    MARK_ALONG,
    MARKS,
    NORMALISE,
    OPERATION_UNITS,
    STATS,
    TABLE_AXES,
    TABLE_UNITS,
    Finding,
    Study,
    Table,
)
from rtosmeter.textsafe import strip_controls

_LITERAL = re.compile(r'"([^"\\]*)"')
MIN_MAGNITUDE, MAX_MAGNITUDE = 1e-9, 1e12  # a published figure's size, any unit


class Checker:
    def __init__(self, study: Study, defs: Definitions, catalog: Catalog) -> None:
        self.study, self.defs, self.catalog = study, defs, catalog
        self.path = study.file

    def fail(self, key: str, what: str, fix: str) -> UserError:
        return UserError(what, f"{self.path} (key '{key}')", fix)

    def one_of(self, key: str, value: str, valid: Iterable[str], kind: str) -> None:
        valid = tuple(valid)
        if value not in valid:
            raise self.fail(key, f"unknown {kind} '{value}'",
                            f"Valid {kind}s: {', '.join(repr(v) for v in valid) or '(none)'}")

    def unique(self, kind: str, ids: list[str]) -> None:
        """Each id once, and printable: an id is a line's head in every
        report, so a newline or an escape code in it would forge lines."""
        for i, x in enumerate(ids):
            if strip_controls(x) != x or not x.strip():
                raise self.fail(f"{kind}[{i}]", f"{x!r} is not an id",
                                "Give an id of printable characters, without newlines")
            if x in ids[:i]:
                raise self.fail(f"{kind}[{i}]", f"'{x}' is given twice", "Give each one id once")

    # -- the parts -------------------------------------------------------------

    def head(self) -> None:
        s = self.study
        if s.name != self.path.parent.name:
            raise self.fail("name", f"name '{s.name}' is not the folder's "
                            f"'{self.path.parent.name}'", "Name the study after its folder")
        if s.clock_hz <= 0:
            raise self.fail("clock_hz", "clock_hz must be positive", "Give the study's CPU clock")
        if not s.targets:
            raise self.fail("target", "no [[target]]", "Add [[target]] name = \"qemu-...\"")
        if not s.systems:
            raise self.fail("system", "no [[system]]", "Add the study's kernels as [[system]]")

    def systems(self) -> None:
        self.unique("system", [x.label for x in self.study.systems])
        for i, x in enumerate(self.study.systems):
            if x.port:
                self.defs.port(x.port, f"{self.path} (key 'system[{i}].port')")
            elif not x.unavailable:
                raise self.fail(f"system[{i}].unavailable", f"system '{x.label}' has no port "
                                "and no reason", "Give port = \"...\" or unavailable = \"why\"")
            if x.profile:
                self.defs.profile(x.profile, f"{self.path} (key 'system[{i}].profile')")
            if x.study_port:
                where = f"{self.path} (key 'system[{i}].study_port')"
                self.defs.port(x.study_port, where)
                if split_instance(x.study_port)[0] != split_instance(x.port)[0]:
                    raise UserError(f"study_port '{x.study_port}' is not an instance of port "
                                    f"'{x.port}'", where,
                                    "Name the study's version of the same port "
                                    "(port = \"freertos@V10.4.6\", study_port = "
                                    "\"freertos@V10.2.0\")")

    def targets(self) -> None:
        for i, x in enumerate(self.study.targets):
            self.defs.target(x.name, f"{self.path} (key 'target[{i}].name')")

    def matrix(self) -> None:
        m = self.study.matrix
        for p in m.profiles:
            self.defs.profile(p, f"{self.path} (key 'matrix.profiles')")
        for tc in m.toolchains:
            self.defs.toolchain(tc, f"{self.path} (key 'matrix.toolchains')")
        for load in m.loads:
            parse_load(load, f"{self.path} (key 'matrix.loads')")
        if not self.catalog.select(m.bench):
            raise self.fail("matrix.bench", f"no case matches '{m.bench}'",
                            "Run `rtosmeter list` to see the case IDs")

    def operations(self) -> None:
        self.unique("operation", [x.id for x in self.study.operations])
        chosen = {c.id for c in self.catalog.select(self.study.matrix.bench)}
        for i, op in enumerate(self.study.operations):
            key = f"operation[{i}]"
            if not op.case:
                if not op.untestable:
                    raise self.fail(f"{key}.untestable", f"operation '{op.id}' has no case and "
                                    "no reason", "Give case = \"...\" or untestable = \"why\"")
                continue
            self.case_series(key, op.case, op.series, chosen)
            self.one_of(f"{key}.unit", op.unit, OPERATION_UNITS, "operation unit")
            if op.profile and op.profile not in self.study.matrix.profiles:
                raise self.fail(f"{key}.profile", f"profile '{op.profile}' is not in the "
                                "matrix", "Add it to [matrix] profiles, or remove the key")
            for name, m in op.per_system:
                where = f"{key}.per_system.{name}"
                self.one_of(where, name, [x.label for x in self.study.systems], "system")
                self.case_series(where, m.case, m.series, chosen)

    def case_series(self, key: str, case: str, series: str, chosen: set[str]) -> None:
        """The case exists and is in the matrix; the case emits the series."""
        cases = {c.id: c for c in self.catalog.cases}
        self.one_of(f"{key}.case", case, cases, "case")
        if case not in chosen:
            raise self.fail(f"{key}.case", f"case '{case}' is not in matrix.bench "
                            f"'{self.study.matrix.bench}'", "Add it to [matrix] bench")
        if series and (why := series_problem(series, cases[case].file)):
            raise self.fail(f"{key}.series", f"{case}: {why}",
                            "Give a series the case reports (`rtosmeter report` lists them)")

    def states(self) -> tuple[str, ...]:
        return self.study.matrix.loads

    def figures(self) -> None:
        ops = [o.id for o in self.study.operations]
        systems = [x.label for x in self.study.systems]
        for i, f in enumerate(self.study.figures):
            key = f"figure[{i}]"
            self.one_of(f"{key}.operation", f.operation, ops, "operation")
            self.one_of(f"{key}.system", f.system, systems, "system")
            self.one_of(f"{key}.stat", f.stat, STATS, "stat")
            self.one_of(f"{key}.hardware", f.hardware, self.study.hardware_keys, "hardware")
            self.one_of(f"{key}.state", f.state, self.states(), "state")
            self.finite(f"{key}.value", f.value)

    def finite(self, key: str, value: float | None) -> None:
        """A published number: finite and of a size a figure can have (NaN,
        infinities and denormals would make every ratio with it meaningless)."""
        if value is not None and not (math.isfinite(value) and (
                value == 0 or MIN_MAGNITUDE <= abs(value) <= MAX_MAGNITUDE)):
            raise self.fail(key, f"{value!r} is not a figure's number",
                            f"Give a finite number between {MIN_MAGNITUDE:g} and "
                            f"{MAX_MAGNITUDE:g} in magnitude (or 0)")

    def finding(self, i: int, f: Finding) -> None:
        key = f"finding[{i}]"
        ops = [o.id for o in self.study.operations]
        systems = [x.label for x in self.study.systems]
        self.one_of(f"{key}.kind", f.kind, KINDS, "kind")
        for op in f.operations:
            self.one_of(f"{key}.operation", op, ops, "operation")
        for name in (f.system, *f.systems):
            if name:
                self.one_of(f"{key}.system", name, systems, "system")
        if f.stat:
            self.one_of(f"{key}.stat", f.stat, STATS, "stat")
        self.one_of(f"{key}.better", f.better, BETTER, "better")
        if f.hardware:
            self.one_of(f"{key}.hardware", f.hardware, self.study.hardware_keys, "hardware")
        if f.cause:
            self.one_of(f"{key}.cause", f.cause, CAUSES, "cause")
        for side, o in (("left", f.left), ("right", f.right)):
            if o is not None:
                self.one_of(f"{key}.{side}.system", o.system, systems, "system")
                self.one_of(f"{key}.{side}.operation", o.operation, ops, "operation")
                if o.stat:
                    self.one_of(f"{key}.{side}.stat", o.stat, STATS, "stat")
        self.finite(f"{key}.value", f.value)
        if f.kind == "ratio" and f.value == 0:
            raise self.fail(f"{key}.value", "a ratio of 0", "Give the published ratio")
        for name, frac in (("tolerance", f.tolerance), ("margin", f.margin)):
            if frac is not None and not 0 < frac < 1:
                raise self.fail(f"{key}.{name}", f"{name} {frac:g} is not a fraction",
                                f"Give the paper's {name} as a fraction in (0, 1): 0.05 for 5 %")
        self.finding_shape(key, f)
        self.rerun(key, f)

    def finding_shape(self, key: str, f: Finding) -> None:
        if f.operands:
            if len(f.operands) != 2 or f.kind not in ("less", "ratio") or f.systems:
                raise self.fail(f"{key}.left", "left and right go together, in a finding of "
                                "kind 'less' or 'ratio', instead of systems",
                                "Give both left = {system, operation} and right = {...}")
            if f.kind == "ratio" and f.value is None:
                raise self.fail(f"{key}.value", "a finding of kind 'ratio' needs value",
                                "See docs/studies.md, [[finding]]")
            return
        need: dict[str, bool] = {
            "why": f.kind == "untestable" and not f.why,
            "operation": f.kind != "untestable" and not f.operations,
            "system": f.kind in ("lowest", "highest") and not f.system,
            "systems": (f.kind in ("less", "ratio") and len(f.systems) != 2)
            or (f.kind == "order" and len(f.systems) < 2),
            "value": f.kind == "ratio" and f.value is None,  # a change may claim a direction only
            "to_state": f.kind == "change" and not f.to_state,
            "direction": f.kind == "change" and f.direction not in ("up", "down"),
        }
        for name, missing in need.items():
            if missing:
                raise self.fail(f"{key}.{name}", f"a finding of kind '{f.kind}' needs {name}",
                                "See docs/studies.md, [[finding]]")
        for state in (f.from_state, f.to_state):
            if state:
                self.one_of(f"{key}.to_state", state, self.states(), "state")

    def rerun(self, key: str, f: Finding) -> None:
        r = f.rerun
        if r is None:
            return
        given = [k for k in ("source", "unit", "profile", "toolchain") if getattr(r, k)]
        if len(given) != 1:
            raise self.fail(f"{key}.rerun", "a rerun removes one cause: give one of source, "
                            "unit, profile, toolchain", "See docs/studies.md, rerun")
        if r.source:
            base, label = split_instance(r.source, f"{self.path} (key '{key}.rerun.source')")
            ports = {split_instance(x.port)[0] for x in self.study.systems if x.port}
            if not label or base not in ports:
                raise self.fail(f"{key}.rerun.source", f"'{r.source}' is not PORT@VERSION of "
                                "a port of the study's systems", f"Ports: {', '.join(ports)}")
            self.defs.port(r.source, f"{self.path} (key '{key}.rerun.source')")
        if r.unit:
            self.one_of(f"{key}.rerun.unit", r.unit, ("cycles", "instructions", "ticks"), "unit")
        if r.cycle_ws is not None and r.unit != "cycles":
            raise self.fail(f"{key}.rerun.cycle_ws", "cycle_ws goes with unit = \"cycles\"",
                            "Add unit = \"cycles\"")
        if r.profile:
            self.defs.profile(r.profile, f"{self.path} (key '{key}.rerun.profile')")
        if r.toolchain:
            self.defs.toolchain(r.toolchain, f"{self.path} (key '{key}.rerun.toolchain')")

    def table(self, i: int, t: Table) -> None:
        key = f"table[{i}]"
        self.one_of(f"{key}.rows", t.rows, TABLE_AXES, "axis")
        self.one_of(f"{key}.columns", t.columns, TABLE_AXES, "axis")
        for op in t.operations:
            self.one_of(f"{key}.operations", op, [o.id for o in self.study.operations],
                        "operation")
        for name in t.systems:
            self.one_of(f"{key}.systems", name, [x.label for x in self.study.systems], "system")
        for stat in t.stats:
            self.one_of(f"{key}.stats", stat, STATS, "stat")
        for unit in t.units:
            self.one_of(f"{key}.units", unit, TABLE_UNITS, "unit")
        for state in t.states:
            self.one_of(f"{key}.states", state, self.states(), "state")
        self.one_of(f"{key}.normalise", t.normalise, NORMALISE, "normalise")
        self.one_of(f"{key}.mark", t.mark, MARKS, "mark")
        self.one_of(f"{key}.mark_along", t.mark_along, MARK_ALONG, "mark_along")
        if t.hardware:
            self.one_of(f"{key}.hardware", t.hardware, self.study.hardware_keys, "hardware")

    def all(self) -> None:
        self.head()
        self.systems()
        self.targets()
        self.matrix()
        self.operations()
        self.figures()
        self.unique("finding", [f.id for f in self.study.findings])
        for i, f in enumerate(self.study.findings):
            self.finding(i, f)
        self.unique("table", [t.id for t in self.study.tables])
        for i, t in enumerate(self.study.tables):
            self.table(i, t)


# The bench's name-computing helpers (bench/cases/*.c): what each appends to
# its stem, so a computed series is checked whole ("handler.1000hz", never
# "handler" alone, which the case never emits).
NAME_HELPERS = {
    "hz_name": (r"\.\d+hz", "<stem>.<N>hz"),  # app_sampling.c
    "at_name": (r"@\d", "<stem>@<N>"),  # irq.c
    "layout_name": (r"(@\d+)?(/g\d+)?", "<stem>[@<N>][/g<GAP>]"),  # lat_lifecycle.c
}


def series_problem(series: str, path: Path) -> str:
    """"" when the case's source emits the series, else what it emits
    instead: a string literal that is not only a helper's stem, or a stem
    with exactly what a helper the source calls appends to it."""
    text = path.read_text(encoding="utf-8")
    literals = set(_LITERAL.findall(text))
    used = {h: v for h, v in NAME_HELPERS.items() if re.search(rf"\b{h}\(", text)}
    for suffix, _ in used.values():
        for stem in literals:
            if series.startswith(stem) and re.fullmatch(suffix, series[len(stem):]):
                return ""
    stems_only = {m for h in used for m in re.findall(rf'\b{h}\(\s*"([^"\\]*)"', text)}
    stems_only -= set(re.findall(r'rm_series_open\w*\([^,]*,\s*"([^"\\]*)"', text))
    if series in literals and series not in stems_only:
        return ""
    forms = ", ".join(form for _, form in used.values())
    return (f"no series '{series}' in {path.name}"
            + (f" (its computed names read {forms}: give the whole name)" if forms else ""))


def check(study: Study, defs: Definitions, catalog: Catalog) -> None:
    Checker(study, defs, catalog).all()
