"""Reading studies/NAME/study.toml strictly: unknown keys, wrong types and
names that point nowhere are errors naming the file and the key
(docs/studies.md). checks.py holds the cross-checks against the catalog
and the definitions."""

from __future__ import annotations

from pathlib import Path

from rtosmeter.catalog import Catalog
from rtosmeter.definitions import DEFAULT_TOOLCHAIN, Definitions, project_root
from rtosmeter.definitions.profiles import params_tables
from rtosmeter.errors import UserError
from rtosmeter.studies.model import (
    DEFAULT_HARDWARE,
    Figure,
    Finding,
    Mapping,
    Matrix,
    Operand,
    Operation,
    Rerun,
    Study,
    StudyTarget,
    System,
    Table,
)
from rtosmeter.toml_table import REQUIRED, TomlTable, read_toml

STUDIES_DIR = "studies"
STUDY_FILE = "study.toml"


def _number(t: TomlTable, key: str, default: object) -> float | None:
    value = t._get(key, (int, float), "a number", default)
    return None if value is None else float(value)


def _system(t: TomlTable) -> System:
    s = System(label=t.text("label", REQUIRED), version=t.text("version", REQUIRED),
               port=t.text("port", ""), nearest=t.text("nearest", ""),
               unavailable=t.text("unavailable", ""), profile=t.text("profile", ""),
               study_port=t.text("study_port", ""))
    t.done()
    return s


def _target(t: TomlTable) -> StudyTarget:
    s = StudyTarget(name=t.text("name", REQUIRED), hardware=t.text("hardware", DEFAULT_HARDWARE),
                    stands_for=t.text("stands_for", ""), power_model=t.text("power_model", ""))
    t.done()
    return s


def _matrix(t: TomlTable | None, path: Path) -> tuple[Matrix, dict[str, dict[str, int]]]:
    if t is None:
        raise UserError("missing table [matrix]", str(path),
                        "Add [matrix] with bench = \"...\" (docs/studies.md)")
    loads = t.strs("loads", ("idle",))
    m = Matrix(profiles=t.strs("profiles", ("default",)), bench=t.text("bench", REQUIRED),
               loads=("idle", *(x for x in loads if x != "idle")),
               toolchains=t.strs("toolchains", (DEFAULT_TOOLCHAIN,)))
    params = params_tables(t)
    t.done()
    return m, params


def _mapping(t: TomlTable) -> Mapping:
    m = Mapping(case=t.text("case", REQUIRED), series=t.text("series", ""),
                reason=t.text("reason", REQUIRED))
    t.done()
    return m


def _operation(t: TomlTable) -> Operation:
    o = Operation(id=t.text("id", REQUIRED), label=t.text("label", REQUIRED),
                  case=t.text("case", ""), series=t.text("series", ""),
                  reason=t.text("reason", ""), untestable=t.text("untestable", ""),
                  window=t.text("window", ""), profile=t.text("profile", ""),
                  unit=t.text("unit", ""),
                  per_system=tuple((k, _mapping(v))
                                   for k, v in t.named_tables("per_system").items()))
    t.done()
    return o


def _figure(t: TomlTable, hardware: str) -> Figure:
    value = _number(t, "value", REQUIRED)
    assert value is not None
    f = Figure(operation=t.text("operation", REQUIRED), system=t.text("system", REQUIRED),
               stat=t.text("stat", REQUIRED), value=value, unit=t.text("unit", REQUIRED),
               source=t.text("source", REQUIRED), hardware=t.text("hardware", hardware),
               state=t.text("state", "idle"), note=t.text("note", ""))
    t.done()
    return f


def _rerun(t: TomlTable) -> Rerun | None:
    sub = t.table("rerun")
    if sub is None:
        return None
    r = Rerun(source=sub.text("source", ""), unit=sub.text("unit", ""),
              cycle_ws=sub.num("cycle_ws", None), profile=sub.text("profile", ""),
              toolchain=sub.text("toolchain", ""))
    sub.done()
    return r


def _operand(t: TomlTable, key: str) -> Operand | None:
    sub = t.table(key)
    if sub is None:
        return None
    o = Operand(system=sub.text("system", REQUIRED), operation=sub.text("operation", REQUIRED),
                stat=sub.text("stat", ""))
    sub.done()
    return o


def _finding(t: TomlTable) -> Finding:
    left, right = _operand(t, "left"), _operand(t, "right")
    ops = t.strs("operations", ())
    one = t.text("operation", "")
    if not (one or ops):  # across operations: the operands' (the rerun's cases)
        ops = tuple(dict.fromkeys(o.operation for o in (left, right) if o))
    f = Finding(
        id=t.text("id", REQUIRED), text=t.text("text", REQUIRED), source=t.text("source", REQUIRED),
        kind=t.text("kind", REQUIRED), operations=(one, *ops) if one else ops,
        system=t.text("system", ""), systems=t.strs("systems", ()), stat=t.text("stat", ""),
        better=t.text("better", ""), value=_number(t, "value", None),
        tolerance=_number(t, "tolerance", None), margin=_number(t, "margin", None),
        from_state=t.text("from_state", "idle"), to_state=t.text("to_state", ""),
        direction=t.text("direction", ""), hardware=t.text("hardware", ""),
        why=t.text("why", ""), cause=t.text("cause", ""), cause_text=t.text("cause_text", ""),
        quote=t.text("quote", ""), citation=t.text("citation", ""),
        emulation=t.text("emulation", ""), trivial=t.text("trivial", ""), rerun=_rerun(t),
        left=left, right=right)
    t.done()
    return f


def _table(t: TomlTable) -> Table:
    x = Table(id=t.text("id", REQUIRED), title=t.text("title", REQUIRED),
              rows=t.text("rows", "operation"), columns=t.text("columns", "system"),
              operations=t.strs("operations", ()), systems=t.strs("systems", ()),
              stats=t.strs("stats", ("score",)), units=t.strs("units", ("native",)),
              normalise=t.text("normalise", ""), mark=t.text("mark", ""),
              mark_along=t.text("mark_along", "column"),
              states=t.strs("states", ("idle",)), hardware=t.text("hardware", ""))
    t.done()
    return x


def parse(path: Path) -> Study:
    """The study file's contents, each key typed; no cross-checks (checks.py)."""
    t = TomlTable(read_toml(path), path)
    targets = tuple(_target(x) for x in t.tables("target"))
    keys = tuple(dict.fromkeys(x.hardware for x in targets))
    hardware = keys[0] if len(keys) == 1 else ""
    matrix, params = _matrix(t.table("matrix"), path)
    study = Study(
        name=t.text("name", REQUIRED), title=t.text("title", REQUIRED),
        authors=t.text("authors", REQUIRED), year=t.num("year", REQUIRED),
        seed=t.text("seed", REQUIRED), hardware=t.text("hardware", REQUIRED),
        clock_hz=t.num("clock_hz", REQUIRED), summary=t.text("summary", REQUIRED),
        conditions=t.str_map("conditions"),
        systems=tuple(_system(x) for x in t.tables("system")), targets=targets, matrix=matrix,
        operations=tuple(_operation(x) for x in t.tables("operation")),
        figures=tuple(_figure(x, hardware) for x in t.tables("figure")),
        findings=tuple(_finding(x) for x in t.tables("finding")),
        tables=tuple(_table(x) for x in t.tables("table")), file=path, params=params)
    t.done()
    return study


def studies_dir(root: Path | None = None) -> Path:
    return (root or project_root()) / STUDIES_DIR


def names(root: Path | None = None) -> list[str]:
    """The studies of the tree: each folder of studies/ with a study.toml."""
    base = studies_dir(root)
    return sorted(p.parent.name for p in base.glob(f"*/{STUDY_FILE}"))


def study_path(name: str, root: Path | None = None) -> Path:
    """studies/NAME/study.toml, or NAME itself when it is a study file or
    a folder holding one (a study kept outside the tree)."""
    given = Path(name).expanduser()
    for path in (given, given / STUDY_FILE):
        if path.name == STUDY_FILE and path.is_file():
            return path
    path = studies_dir(root) / name / STUDY_FILE
    if not path.is_file():
        known = names(root)
        raise UserError(f"unknown study '{name}'", str(studies_dir(root)),
                        f"Valid studies: {', '.join(known) if known else '(none found)'}")
    return path


def load(name: str, defs: Definitions, catalog: Catalog) -> Study:
    """The study NAME of the tree, read and cross-checked (checks.py)."""
    from rtosmeter.studies.checks import check

    study = parse(study_path(name, defs.root))
    check(study, defs, catalog)
    return study


def load_all(defs: Definitions, catalog: Catalog) -> list[Study]:
    return [load(name, defs, catalog) for name in names(defs.root)]
