"""The benchmark catalog and the capability list, read from the C sources.

Cases register themselves with one-line `RM_CASE(sym, "id", needs, fn, param);`
entries in bench/cases/<group>.c (the group is the file stem); capabilities
are the `X(NAME, bit, "description")` lines of `RM_CAPS` in
bench/include/rtosmeter/port.h. Nothing is listed twice: adding a case or a
capability is an edit to the C source only.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

from rtosmeter.errors import UserError

PORT_H = Path("bench/include/rtosmeter/port.h")
CASES_DIR = Path("bench/cases")

_CAP_RE = re.compile(r'^\s*X\(\s*([A-Z0-9_]+)\s*,\s*(\d+)\s*,\s*"([^"]*)"\s*\)')
_CASE_START = re.compile(r"^\s*RM_CASE\s*\(")
_CASE_RE = re.compile(
    r'^\s*RM_CASE\(\s*(\w+)\s*,\s*"([^"]+)"\s*,\s*([^,]+?)\s*,\s*(\w+)\s*,\s*([^,]+?)\s*\)\s*;'
)
_NEED_RE = re.compile(r"^RM_CAP_([A-Z0-9_]+)$")


@dataclass(frozen=True)
class Capability:
    name: str
    bit: int
    description: str


@dataclass(frozen=True)
class Case:
    id: str
    group: str
    needs: tuple[str, ...]  # capability names, e.g. ("SEM",)
    symbol: str
    file: Path
    line: int

    @property
    def prefix(self) -> str:
        """The ID's first component: tm, lat, irq, app, mem, cfg, calib
        (vocabulary.family() is the report's throughput/latency/other)."""
        return self.id.split(".", 1)[0]


@dataclass(frozen=True)
class Catalog:
    cases: tuple[Case, ...]
    caps: dict[str, Capability]

    @property
    def groups(self) -> list[str]:
        return sorted({c.group for c in self.cases})

    def select(self, pattern: str | None) -> list[Case]:
        """Cases whose ID matches the glob (comma-separated globs allowed)."""
        if not pattern:
            return list(self.cases)
        globs = [g.strip() for g in pattern.split(",") if g.strip()]
        return [c for c in self.cases if any(fnmatch.fnmatchcase(c.id, g) for g in globs)]

    def groups_for(self, pattern: str | None) -> list[str]:
        """The groups to build for a --bench glob; an empty match is an error."""
        chosen = self.select(pattern)
        if not chosen:
            raise UserError(
                f"no benchmark matches '{pattern}'",
                "--bench",
                "Run `rtosmeter list` to see the case IDs, e.g. --bench 'lat.sem.*'",
            )
        return sorted({c.group for c in chosen})

    def caps_mask(self, names: list[str] | tuple[str, ...]) -> int:
        mask = 0
        for name in names:
            mask |= 1 << self.caps[name].bit
        return mask


def load_caps(root: Path) -> dict[str, Capability]:
    """Parse the RM_CAPS X-macro lines of port.h."""
    path = root / PORT_H
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(
            f"cannot read the porting header ({exc.strerror})",
            str(path),
            "Run rtosmeter from a complete source tree",
        ) from exc
    caps: dict[str, Capability] = {}
    inside = False
    for line in text.splitlines():
        if "#define RM_CAPS(X)" in line:
            inside = True
            continue
        if not inside:
            continue
        m = _CAP_RE.match(line)
        if m:
            caps[m.group(1)] = Capability(m.group(1), int(m.group(2)), m.group(3))
        if not line.rstrip().endswith("\\"):
            break
    if not caps:
        raise UserError(
            "no RM_CAPS(X) list with X(NAME, bit, \"description\") lines found",
            str(path),
            "Keep one X(...) entry per line in the RM_CAPS macro",
        )
    return caps


_DEFINE_RE = re.compile(r"^\s*#\s*define\s+(\w+)\s+(.+?)\s*(?:/[*/].*)?$")


def _parse_needs(expr: str, caps: dict[str, Capability], where: str,
                 macros: dict[str, str] | None = None, depth: int = 0) -> tuple[str, ...]:
    """`RM_CAP_A | RM_CAP_B`, `0`, or a macro #defined in the same file as such."""
    expr = expr.strip()
    while expr.startswith("(") and expr.endswith(")"):
        expr = expr[1:-1].strip()
    if expr in ("0", "0u", "0ul"):
        return ()
    names: list[str] = []
    for part in (p.strip().strip("()").strip() for p in expr.split("|")):
        m = _NEED_RE.match(part)
        if m and m.group(1) in caps:
            names.append(m.group(1))
        elif macros and part in macros and depth < 8:
            names += _parse_needs(macros[part], caps, where, macros, depth + 1)
        else:
            raise UserError(
                f"unknown capability '{part}' in the needs of a case",
                where,
                "Use 0 or RM_CAP_<NAME> | ... (or a #define of them in the same file) with "
                f"names from RM_CAPS in {PORT_H}: {', '.join(caps)}",
            )
    return tuple(dict.fromkeys(names))


def parse_cases(path: Path, caps: dict[str, Capability]) -> list[Case]:
    """The RM_CASE entries of one group file."""
    cases: list[Case] = []
    group = path.stem
    lines = path.read_text(encoding="utf-8").splitlines()
    macros = {m.group(1): m.group(2) for line in lines if (m := _DEFINE_RE.match(line))}
    for number, line in enumerate(lines, 1):
        if not _CASE_START.match(line):
            continue
        where = f"{path}:{number}"
        m = _CASE_RE.match(line)
        if not m:
            raise UserError(
                "malformed RM_CASE entry",
                where,
                'Keep it on one line: RM_CASE(sym, "group.id", RM_CAP_X | RM_CAP_Y, fn, param);',
            )
        sym, case_id, needs, _fn, _param = m.groups()
        cases.append(Case(case_id, group, _parse_needs(needs, caps, where, macros), sym, path,
                          number))
    return cases


def load_catalog(root: Path) -> Catalog:
    caps = load_caps(root)
    cases: list[Case] = []
    seen: dict[str, Case] = {}
    for path in sorted((root / CASES_DIR).glob("*.c")):
        for case in parse_cases(path, caps):
            if case.id in seen:
                first = seen[case.id]
                raise UserError(
                    f"case ID '{case.id}' registered twice",
                    f"{path}:{case.line}",
                    f"It is already registered in {first.file}:{first.line}; IDs must be unique",
                )
            seen[case.id] = case
            cases.append(case)
    return Catalog(tuple(cases), caps)
