"""The idle group of one port under `lowpower`, read back from the store
(docs/idle.md): each window's idle figures, for the per-port tests of the
ports whose lowpower idle is a ticking kernel's (tests/test_port_*.py)."""

from __future__ import annotations

from pathlib import Path

from rtos_ports import run_port

from rtosmeter.idle.figures import IdleFigures
from rtosmeter.idle.stored import read_idle
from rtosmeter.store import Store


def lowpower_idle(out: Path, port: str, target: str, tree: str) -> dict[str, IdleFigures]:
    """`run --profile lowpower --bench 'idle.*'` into `out` (a second call
    reuses the build and adds a run): window -> the last run's figures."""
    run_port(out, port, target, tree, profile="lowpower", bench="idle.*")
    with Store.open(out / "rtosmeter.sqlite") as st:
        run = st.runs()[-1].id
        (windows,) = read_idle(st, run).values()
    return {f.window: f for f in windows}
