"""`--clock` cannot mislead: a rate without a unit and one faster than any
Cortex-M are refused (tests/test_hostile_options.py holds the messages), and
under a clock every converted figure uses it: irq.max_rate's rate is the
inverse of the same converted period, not Hz of emulated time beside µs;
a period the kernel's tick sets stays in emulated time, labelled so."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from _datahalf import parse_named

from rtosmeter.analysis import load_run
from rtosmeter.reports import markdown
from rtosmeter.reports.document.cells import fmt
from rtosmeter.store import Store

DATA = Path(__file__).resolve().parent / "data"
IRQ = DATA / "baremetal-qemu-mps2-an386-irq.rmstream"
JITTER = DATA / "posix-host-lat_jitter.rmstream"  # lat.jitter.periodic: a 1-tick period


def _view(tmp_path: Path, clock_hz: int | None, stream: Path = IRQ) -> str:
    """A recorded stream as if the plugin had counted instructions."""
    runner = {"runner": "qemu", "icount_shift": "6", "plugin": "rmcycles",
              "mode": "instructions", "unit": "instructions (QEMU, exact)"}
    path = tmp_path / f"{stream.stem}-{clock_hz}.sqlite"
    data = stream.read_bytes()
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


def _section_rows(md: str, title: str, start: str) -> list[list[str]]:
    """The rows starting with `start` of the sections whose title holds `title`."""
    rows, inside = [], False
    for ln in md.splitlines():
        if ln.startswith("#"):
            inside = title in ln
        elif inside and ln.startswith(f"| {start}"):
            rows.append([c.strip() for c in ln.strip("|").split("|")])
    return rows


def test_a_period_set_in_kernel_ticks_stays_in_emulated_time(tmp_path: Path) -> None:
    """lat.jitter.periodic sleeps one tick (1 ms at 1 kHz, emulated time, as
    on a board): its count converted at 80 MHz would claim a 12.5 ms period
    here (the recorded ns as instructions; 195 µs on an386), so it is shown
    in µs of the counter's own rate, labelled emulated; its deviation, work
    done late, is converted at the clock like every other latency."""
    parsed = parse_named(JITTER.read_bytes())
    overhead = float(np.median(parsed.case("calib.overhead").series["overhead"].samples[1:]))

    def median(name: str) -> float:  # warm samples, overhead subtracted as the analysis does
        series = parsed.case("lat.jitter.periodic").series[name]
        ticks = series.samples[1:].astype(np.float64) - (overhead if series.subtract else 0.0)
        return float(np.median(np.maximum(ticks, 0.0)))

    md = _view(tmp_path, 80_000_000, JITTER)
    virtual = "µs of emulated time (the kernel's tick; not converted at 80 MHz)"
    rows = _section_rows(md, f"Latency on qemu-mps2-an386 in {virtual}", "lat.jitter.periodic")
    assert [r[1] for r in rows] == ["period"]
    median_us = median("period") / 1e3  # hz=1e9: one count is 1 ns
    assert 900 < median_us < 1100  # one 1 ms tick
    assert rows[0][2].startswith(fmt(median_us))
    at_clock = _section_rows(md, "Latency on qemu-mps2-an386 in µs (estimated at 80 MHz",
                             "lat.jitter.periodic")
    assert [r[1] for r in at_clock] == ["deviation"]
    assert at_clock[0][2].startswith(fmt(median("deviation") / 80.0))
