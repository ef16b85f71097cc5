"""docs/architecture.md stays true to the code: every module its table names
exists and every module is named; the store's version and tables are the
schema's; every TOML example loads through the
strict loader of its kind (unknown keys are errors there, so each documented
key is one the harness reads)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from rtosmeter import config, definitions, reports, store
from rtosmeter.catalog import load_caps
from rtosmeter.errors import UserError
from rtosmeter.runners.board_settings import board_settings

DOC = Path(__file__).parents[1] / "docs" / "architecture.md"
SRC = Path(__file__).parents[1] / "src" / "rtosmeter"


def documented_modules() -> set[str]:
    """The module table's first column, `<format>` and `<command>` expanded."""
    table = DOC.read_text().split("| module | job |", 1)[1]
    names: set[str] = set()
    for cell in re.findall(r"^\| (.+?) \|", table, re.M):
        for name in re.findall(r"`([^`]+\.py)`", cell):
            if "<format>" in name:
                names |= {name.replace("<format>", f) for f in reports.names()}
            elif "<command>" in name:
                names |= {f"commands/{p.name}" for p in (SRC / "commands").glob("*.py")
                          if p.stem != "__init__"}
            else:
                names.add(name)
    return names


def _defines_something(init: Path) -> bool:
    """A package's __init__.py is a module of its own when it has more than
    its docstring (reports/ and runners/ hold their registries there)."""
    body = ast.parse(init.read_text()).body
    return len(body) > (1 if body and isinstance(body[0], ast.Expr) else 0)


def test_every_documented_module_exists_and_every_module_is_documented() -> None:
    documented = documented_modules()
    missing = sorted(m for m in documented if not (SRC / m).is_file())
    assert not missing, f"docs/architecture.md names modules that do not exist: {missing}"
    actual = {str(p.relative_to(SRC)) for p in SRC.rglob("*.py")
              if p.name != "__init__.py" or _defines_something(p)}
    undocumented = sorted(actual - documented)
    assert not undocumented, f"modules missing from docs/architecture.md: {undocumented}"


def test_the_store_section_is_the_store_of_the_code() -> None:
    """The schema version it names is store.SCHEMA_VERSION, and its table
    lists every table the schema creates, no more."""
    section = DOC.read_text().split("## Store", 1)[1].split("\n## ", 1)[0]
    version = re.search(r"`PRAGMA user_version` \(now (\d+)", section)
    assert version is not None, "docs/architecture.md: the store's version is not named"
    assert int(version.group(1)) == store.SCHEMA_VERSION
    documented = set(re.findall(r"^\| `(\w+)` \|", section, re.M))
    created = set(re.findall(r"CREATE TABLE (\w+)", store.schema.SCHEMA))
    assert documented == created, f"documented {sorted(documented)}, created {sorted(created)}"


def _examples() -> list[tuple[str, str]]:
    """(what the paragraph before it names, TOML text) per ```toml block."""
    text = DOC.read_text()
    out = []
    for m in re.finditer(r"```toml\n(.*?)```", text, re.S):
        before = text[:m.start()].rstrip().rsplit("\n\n", 1)[-1]
        out.append((before, m.group(1)))
    return out


def _load(kind: str, text: str, tmp: Path, root: Path) -> None:
    name = re.search(r'^name = "([^"]+)"', text, re.M)
    stem = name.group(1) if name else "example"
    paths: dict[str, tuple[Path, Callable[[Path], object]]] = {
        "ports/": (tmp / "ports" / stem / "port.toml",
                   lambda p: definitions.load_port(p, load_caps(root))),
        "targets/": (tmp / "targets" / stem / "target.toml", _load_target),
        "profiles/": (tmp / "profiles" / f"{stem}.toml", definitions.load_profile),
        "campaigns/": (tmp / "campaigns" / f"{stem}.toml", definitions.load_campaign),
        "toolchains/": (tmp / "toolchains" / stem / "toolchain.toml", _load_toolchain),
        "configuration": (tmp / "config.toml", lambda p: config.Config().merge(p)),
    }
    path, loader = paths[kind]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    loader(path)


def _load_target(path: Path) -> object:
    """A board target's [board] table is read by its runner's settings."""
    target = definitions.load_target(path)
    if target.kind == "board":
        board_settings(target)
    return target


def _load_toolchain(path: Path) -> object:
    """A toolchain names CMake files of its folder: the example's exist (empty)."""
    for name in re.findall(r'^cmake = "([^"]+)"', path.read_text(), re.M):
        (path.parent / name).touch()
    return definitions.load_toolchain(path)


KINDS = ("ports/", "targets/", "profiles/", "campaigns/", "toolchains/", "configuration")


def test_every_toml_example_loads_with_its_strict_loader(tmp_path: Path, root: Path) -> None:
    found = []
    for before, text in _examples():
        kind = next((k for k in KINDS if k in before), None)
        assert kind is not None, f"a TOML example whose kind is not said before it: {before!r}"
        _load(kind, text, tmp_path, root)
        found.append(kind)
    assert set(found) == set(KINDS), found  # an example of each kind


def test_a_key_the_loader_does_not_read_would_fail(tmp_path: Path, root: Path) -> None:
    """The check above can fail: a documented key nobody reads is refused."""
    _, text = next(e for e in _examples() if 'kind = "board"' in e[1])
    with pytest.raises(UserError, match=r"unknown key 'board\.cpu_hz'"):
        _load("targets/", text.replace("tested = false", "tested = false\ncpu_hz = 1"),
              tmp_path, root)


def _own_build_ports(doc: str) -> set[str]:
    """The ports a doc names as building for boards of their own."""
    text = (DOC.parent / doc).read_text()
    found = re.search(r"builds for boards of its own \(`?(?:cmake_project`: today )?([a-z, ]+)\)",
                      " ".join(text.split()))
    assert found, f"docs/{doc} no longer names the ports that build for their own boards"
    return {name.strip() for name in found.group(1).split(",")}


@pytest.mark.parametrize("doc", ["adding-a-port.md", "boards.md"])
def test_docs_name_the_ports_that_need_a_board(doc: str, root: Path) -> None:
    """The ports the docs say need a [targets] board are those whose port.toml
    names boards, and each of them (only them) has its own CMake project."""
    defs = definitions.Definitions.load(root)
    needing = {p.name for p in defs.ports.values() if p.needs_board}
    assert _own_build_ports(doc) == needing
    assert needing == {p.name for p in defs.ports.values() if p.cmake_project}


def test_docs_board_table_lists_every_board_target(root: Path) -> None:
    """docs/boards.md's table has a row per board target, with its pyOCD name."""
    text = (DOC.parent / "boards.md").read_text()
    defs = definitions.Definitions.load(root)
    boards = [t for t in defs.targets.values() if t.kind == "board"]
    assert boards
    for target in boards:
        assert f"| {target.name} | `{target.board['pyocd_target']}` |" in text, target.name


def test_docs_family_layout_is_the_tree(root: Path) -> None:
    """The family folder the docs describe holds the targets and every RTOS's
    own board files for the machine, and no port keeps a copy of them."""
    fam = root / "targets" / "mps2"
    assert not (fam / "target.toml").exists()  # a family is no target itself
    assert {p.parent.name for p in fam.glob("*/target.toml")} == {
        "qemu-mps2-an385", "qemu-mps2-an386", "qemu-mps2-an500"}
    assert {p.name for p in (fam / "native").iterdir()} == {"riot", "zephyr", "contiki"}
    for stale in ("ports/riot/cpu", "ports/riot/boards", "ports/zephyr/boards",
                  "ports/zephyr/soc", "ports/contiki/platform", "boards"):
        assert not (root / stale).exists(), stale
