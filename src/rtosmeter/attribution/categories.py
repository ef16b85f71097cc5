"""Functions grouped into what they do in the kernel, for the side-by-side
view (`rtosmeter explain ... --by category`, reports/document/explain.py).

Each port names its kernel's functions in ports/PORT/attribution.toml:
`[categories]` maps a category to shell-style patterns of function names;
the first category (in CATEGORIES' order) with a matching pattern wins.
rtosmeter's own measurement code (MEASUREMENT) is its own category, and a
function no pattern names is "other". docs/explain.md documents the file.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from pathlib import Path

from rtosmeter.attribution.breakdown import Breakdown
from rtosmeter.errors import UserError
from rtosmeter.instances import split as split_instance
from rtosmeter.toml_table import read_toml

CATEGORIES = ("kernel entry/exit", "critical section", "object", "lists", "scheduler",
              "port layer", "tick", "other")
MEASUREMENT = "rtosmeter (measurement)"
# rtosmeter's own functions: the benchmark's, which hold a measured
# interval's first and last instructions (the timestamp reads and the call's
# argument set-up), and the ports' thread entry glue.
MEASUREMENT_PATTERNS = ("run_*", "pass_*", "nocs_*", "inh_*", "rm_*", "thread_trampoline")
FILE = "attribution.toml"


def rules(ports_dir: Path, port: str) -> list[tuple[str, tuple[str, ...]]]:
    """(category, patterns) of a port, in CATEGORIES' order ([] without a file)."""
    base = split_instance(port, port)[0]
    path = ports_dir / base / FILE
    if not path.is_file():
        return []
    data = read_toml(path)  # unreadable, not UTF-8, not TOML: an error naming the file
    for key in data:
        if key != "categories":  # a misspelt [categorys] would be ignored without a word
            raise UserError(f"unknown key or table '{key}'", str(path),
                            "The file holds one table, [categories] (docs/explain.md)")
    table = data.get("categories", {})
    if not isinstance(table, dict):
        raise UserError("[categories] must be a table", str(path), "See docs/explain.md")
    for name, patterns in table.items():
        if name not in CATEGORIES:
            raise UserError(f"unknown category {name!r}", f"{path} [categories]",
                            f"Categories: {', '.join(CATEGORIES)}")
        if not (isinstance(patterns, list) and all(isinstance(p, str) for p in patterns)):
            raise UserError(f"{name!r} must be a list of name patterns",
                            f"{path} [categories]", "e.g. \"lists\" = [\"vList*\"]")
    return [(c, tuple(table[c])) for c in CATEGORIES if c in table]


def category(function: str, port_rules: Sequence[tuple[str, tuple[str, ...]]]) -> str:
    if any(fnmatch.fnmatchcase(function, p) for p in MEASUREMENT_PATTERNS):
        return MEASUREMENT
    for name, patterns in port_rules:
        if any(fnmatch.fnmatchcase(function, p) for p in patterns):
            return name
    return "other"


def grouped(b: Breakdown, ports_dir: Path) -> dict[str, list[tuple[str, float]]]:
    """category -> [(function, per sample)], largest first."""
    port_rules = rules(ports_dir, b.port)
    out: dict[str, list[tuple[str, float]]] = {}
    for f in b.functions:
        out.setdefault(category(f.function, port_rules), []).append(
            (f.function, b.cost(f) / b.samples))
    return out
