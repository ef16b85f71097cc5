"""bench/core's calls run one way: the runner calls the stream writer and
the load, never the other way. The case's state lives in stream.c (it gates
every record of a case) and the runner only sets it, so no function of
runner.c is called from stream.c (rm_core.h); the load's busy work is
rm_spin in spin.c, which both call, so load.c calls nothing of runner.c."""

from __future__ import annotations

import re
from pathlib import Path

CORE = Path(__file__).resolve().parents[1] / "bench" / "core"
# A non-static definition: its name, then its parameter list and the opening brace.
DEFINITION = re.compile(r"^(?!static\b)[A-Za-z_][\w \t\*()]*?\b(rm_\w+)\s*\([^;{}]*\)\s*\{",
                        re.MULTILINE)


def _code(path: Path) -> str:
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)


def calls_into(caller: Path, callee: Path) -> set[str]:
    defined = set(DEFINITION.findall(_code(callee)))
    return defined & set(re.findall(r"\b(rm_\w+)\s*\(", _code(caller)))


def test_the_stream_never_calls_the_runner() -> None:
    back = calls_into(CORE / "stream.c", CORE / "runner.c")
    assert not back, f"bench/core/stream.c calls runner.c's {sorted(back)}: the circle is back"


def test_the_runner_calls_the_stream() -> None:
    """The check sees calls at all (else the test above could not fail)."""
    assert {"rm_rec", "rm_case_open", "rm_series_reset_all"} <= calls_into(
        CORE / "runner.c", CORE / "stream.c")


def test_the_load_never_calls_the_runner() -> None:
    back = calls_into(CORE / "load.c", CORE / "runner.c")
    assert not back, f"bench/core/load.c calls runner.c's {sorted(back)}: the circle is back"


def test_the_runner_calls_the_load() -> None:
    """The check sees the runner's calls of the load (else the test above could not fail)."""
    assert {"rm_load_needs", "rm_load_start", "rm_load_stop"} <= calls_into(
        CORE / "runner.c", CORE / "load.c")
