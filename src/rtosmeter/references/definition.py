"""Reading references/*.toml strictly: each file is one source document (its
kernel, core, board, clock and source at the top, any of which a
[[reference]] may restate), each [[reference]] one figure. An unknown key, a
wrong type, a choice outside the vocabularies, a case, port or board that
points nowhere, or an id given twice is an error naming the file and the key."""

from __future__ import annotations

from pathlib import Path

from rtosmeter.catalog import Catalog
from rtosmeter.definitions import Definitions, project_root
from rtosmeter.errors import UserError
from rtosmeter.references.model import CONFIDENCES, CORES, FIGURES, KINDS, UNITS, Reference
from rtosmeter.toml_table import REQUIRED, TomlTable, read_toml

REFERENCES_DIR = "references"
# Keys the document states once for all its figures; a [[reference]] may restate each.
SHARED_TEXT = ("port", "version", "core", "core_stated", "board", "flash_ws", "source",
               "as_board")


def _choice(t: TomlTable, key: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise UserError(f"'{t.prefix}{key}' is '{value}', not one of {', '.join(allowed)}",
                        t._line_of(key), f"Give {key} = one of {', '.join(allowed)}")
    return value


def _shared(doc: TomlTable) -> dict[str, object]:
    out: dict[str, object] = {k: doc.text(k, "") for k in SHARED_TEXT}
    out["clock_hz"] = doc.num("clock_hz", 0)
    return out


def _reference(t: TomlTable, shared: dict[str, object], title: str, path: Path) -> Reference:
    def text(key: str) -> str:
        value = t.text(key, shared[key] or REQUIRED)
        assert isinstance(value, str)
        return value

    value = t._get("value", (int, float), "a number", REQUIRED)
    scale = t._get("scale", (int, float), "a number", 1)
    clock = t.num("clock_hz", shared["clock_hz"])
    ref = Reference(
        id=t.text("id", REQUIRED), file=path, title=title,
        operation=t.text("operation", REQUIRED), port=text("port"), version=text("version"),
        core=_choice(t, "core", text("core"), CORES),
        core_stated=t.text("core_stated", shared["core_stated"]),
        board=text("board"), clock_hz=int(clock), flash_ws=text("flash_ws"),
        value=float(value), unit=_choice(t, "unit", t.text("unit", REQUIRED), UNITS),
        source=text("source"), case=t.text("case", REQUIRED), series=t.text("series", ""),
        figure=_choice(t, "figure", t.text("figure", "mean"), FIGURES),
        kind=_choice(t, "kind", t.text("kind", REQUIRED), KINDS),
        confidence=_choice(t, "confidence", t.text("confidence", REQUIRED), CONFIDENCES),
        reason=t.text("reason", REQUIRED), as_board=t.text("as_board", shared["as_board"]),
        scale=float(scale), note=t.text("note", ""))
    if ref.value <= 0 or ref.scale <= 0:
        raise UserError(f"'{t.prefix}value' and 'scale' must be above 0", t._line_of("value"),
                        "A published figure is a positive count")
    if ref.unit == "us" and not ref.clock_hz:
        raise UserError(f"'{t.prefix}unit' is us without a clock", t._line_of("unit"),
                        "Give clock_hz = the clock the source states for its µs")
    t.done()
    return ref


def parse(path: Path) -> list[Reference]:
    """One file's references, each key typed; no cross-checks (check)."""
    doc = TomlTable(read_toml(path), path)
    title = doc.text("title", REQUIRED)
    shared = _shared(doc)
    items = doc.tables("reference")
    if not items:
        raise UserError("no [[reference]] in the file", str(path),
                        "Add [[reference]] tables (docs/estimates.md)")
    refs = [_reference(t, shared, title, path) for t in items]
    doc.done()
    return refs


def check(refs: list[Reference], defs: Definitions, catalog: Catalog) -> None:
    """Every name points somewhere: port, case, board (of the reference's core); ids unique."""
    cases = {c.id for c in catalog.cases}
    seen: dict[str, Path] = {}
    for r in refs:
        where = f"{r.file} (reference {r.id})"
        if r.id in seen:
            raise UserError(f"reference id '{r.id}' given twice", where,
                            f"It is also in {seen[r.id]}; give each figure its own id")
        seen[r.id] = r.file
        if r.port not in defs.ports:
            raise UserError(f"'port' is '{r.port}', not a port", where,
                            f"Ports: {', '.join(sorted(defs.ports))}")
        if r.case not in cases:
            raise UserError(f"'case' is '{r.case}', not a case", where,
                            "`rtosmeter list` shows the cases")
        if r.as_board:
            target = defs.targets.get(r.as_board)
            if target is None or target.kind != "board":
                raise UserError(f"'as_board' is '{r.as_board}', not a board target", where,
                                "Give a targets/ board with a [memory] table, or leave it out")
            if target.cpu != r.core:
                raise UserError(f"'as_board' {r.as_board} is a {target.cpu}, the reference "
                                f"a {r.core}", where, "Give a board of the reference's core")


def references_dir(root: Path | None = None) -> Path:
    return (root or project_root()) / REFERENCES_DIR


def load_all(defs: Definitions, catalog: Catalog, folder: Path | None = None
             ) -> list[Reference]:
    """Every references/*.toml, read and cross-checked, in file order."""
    base = folder or references_dir(defs.root)
    files = sorted(base.glob("*.toml"))
    if not files:
        raise UserError("no reference files", str(base), "Add references/NAME.toml")
    refs = [r for f in files for r in parse(f)]
    check(refs, defs, catalog)
    return refs
