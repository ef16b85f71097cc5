"""`--clock` cannot mislead: a rate without a unit and one faster than any
Cortex-M are refused (tests/test_hostile_options.py holds the messages), and
under a clock every converted figure uses it: irq.max_rate's rate is the
inverse of the same converted period, not Hz of emulated time beside µs."""

from __future__ import annotations

import re
from pathlib import Path

from _datahalf import parse_named

from rtosmeter.analysis import load_run
from rtosmeter.reports import markdown
from rtosmeter.reports.document.cells import fmt
from rtosmeter.store import Store

DATA = Path(__file__).resolve().parent / "data"
IRQ = DATA / "baremetal-qemu-mps2-an386-irq.rmstream"


def _view(tmp_path: Path, clock_hz: int | None) -> str:
    """The recorded irq stream as if the plugin had counted instructions."""
    runner = {"runner": "qemu", "icount_shift": "6", "plugin": "rmcycles",
              "mode": "instructions", "unit": "instructions (QEMU, exact)"}
    path = tmp_path / f"{clock_hz}.sqlite"
    data = IRQ.read_bytes()
    parsed = parse_named(data)
    with Store.open(path) as st:
        run = st.create_run({"name": "t"}, {"machine": "x86_64"}, "0.1.0")
        build = st.add_build(run, "baremetal", "qemu-mps2-an386", "default", {})
        st.add_execution(run, build, parsed.header["group"], status="ok", exit_code=0,
                         runner=runner, stream=data, parsed=parsed)
        st.finish_run(run)
        return markdown.render(load_run(st, run, clock_hz=clock_hz))


def _row(md: str, start: str) -> list[str]:
    line = next(ln for ln in md.splitlines() if ln.startswith(f"| {start}"))
    return [c.strip() for c in line.strip("|").split("|")]


def test_the_rate_and_its_inverse_use_the_same_clock(tmp_path: Path) -> None:
    parsed = parse_named(IRQ.read_bytes())
    meta = parsed.case("irq.max_rate").meta
    hz, period = int(meta["max_rate_hz"]), int(meta["max_rate_period_ticks"])
    plain = _view(tmp_path, None)
    assert _row(plain, "highest rate with no lost event (Hz of the target clock)")[1] \
        .endswith(fmt(hz))
    md = _view(tmp_path, 80_000_000)
    rate = _row(md, "highest rate with no lost event (Hz at the clock")[1]
    inverse = _row(md, "its inverse")[1]
    us = period / 80.0  # one count = one cycle at 80 MHz
    assert inverse.startswith(fmt(us))
    shown = re.search(r"[0-9][0-9,.]*", rate)
    assert shown is not None and shown.group(0) == fmt(round(1e6 / us))
    assert f"{fmt(hz)} Hz of emulated time" in md  # the virtual-time figure, named as such
