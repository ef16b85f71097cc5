"""JUnit XML for CI: a run's checks (`run --junit`) and a comparison's gate
verdicts (`compare --junit`), one <testcase> each, a failed one with its
message, in the shape CI servers read from pytest and Zephyr's twister
(testsuites > testsuite > testcase > failure)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

from rtosmeter.gate import Verdict
from rtosmeter.textsafe import terminal_safe

if TYPE_CHECKING:
    from rtosmeter.model import RunView


def check_verdicts(view: RunView) -> list[Verdict]:
    """A run's cases as verdicts: each property check, and each case that
    ran (failed, error and incomplete cases fail; unsupported ones are skips,
    left out)."""
    out = []
    for c in view.cases:
        system = f"{c.port}/{c.target}/{c.profile}"
        for k in c.checks:
            out.append(Verdict("check", f"{system} {c.case_id} {k.name}", k.ok,
                               f"got {k.got}, want {k.want}"))
        if c.status in ("ok", "failed", "error", "incomplete"):
            out.append(Verdict("case", f"{system} {c.case_id}", c.status == "ok",
                               f"{c.status}" + (f": {c.reason}" if c.reason else "")))
    return out


def write(path: Path, suite: str, verdicts: list[Verdict]) -> Path:
    """`verdicts` as one test suite named `suite`; the class name is the
    verdict's kind, so CI groups checks, missing cases and rules apart."""
    failures = sum(not v.passed for v in verdicts)
    root = ET.Element("testsuites", tests=str(len(verdicts)), failures=str(failures))
    node = ET.SubElement(root, "testsuite", name=suite, tests=str(len(verdicts)),
                         failures=str(failures), errors="0", skipped="0")
    for v in verdicts:
        case = ET.SubElement(node, "testcase", classname=f"{suite}.{v.check}",
                             name=terminal_safe(v.name))
        if not v.passed:
            ET.SubElement(case, "failure", message=terminal_safe(v.message)[:500]).text = \
                terminal_safe(v.message)
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    return path
