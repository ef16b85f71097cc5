"""Nothing of ours inside a measurement that spans its samples (issue 27 §3),
on bare metal: tests/firmware/span.c built with arm-none-eabi-gcc for
qemu-mps2-an386 and run in QEMU under -icount (no RTOS tree: CI runs it).

The firmware times the target's periodic timer, once through a plain
series, whose full batches are written while the timer runs (the control:
the write lies inside the next period), and once through a span series,
which the measurement pauses to write (bench.h, rm_series_open_span). The
FreeRTOS form of the same property, on lat.jitter.periodic itself, is in
test_port_freertos.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rtosmeter.definitions import Definitions
from rtosmeter.protocol import parse_stream
from rtosmeter.runners import run_once
from rtosmeter.runners.base import RunRequest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cortexm_firmware as fw

pytestmark = pytest.mark.skipif(not fw.have_toolchain(),
                                reason="needs arm-none-eabi-gcc, cmake, ninja, qemu-system-arm")

TARGET = "qemu-mps2-an386"


@pytest.mark.slow
def test_a_span_series_is_written_only_between_its_measurements(tmp_path: Path) -> None:
    elf = fw.build(tmp_path, TARGET, ["span"])["span"]
    out = run_once(RunRequest(elf, Definitions.load(fw.ROOT).target(TARGET)))
    assert out.status == "ok", out.message
    parsed = parse_stream(out.stream)
    assert parsed.complete and not parsed.errors and parsed.bye_status == 0, parsed.errors
    case = parsed.case("selftest.span")
    assert case.status == "ok", case.reason
    samples, batch = int(parsed.header["samples"]), int(parsed.header["batch"])
    period = int(case.meta["period_ts"])
    plain, span = case.series["plain"].samples, case.series["span"].samples
    assert len(plain) == len(span) == samples > 2 * batch
    boundaries = range(batch, samples, batch)  # the first sample after each full batch
    # The control: a batch written while the timer runs lands in the next
    # period, and costs several periods (the CRC and UART of 256 samples).
    assert all(plain[i] > 2 * period for i in boundaries), [plain[i] for i in boundaries]
    # Paused to write: every period is one timer period, at the batch
    # boundaries too. The bound is the period plus 1/64 of it; under
    # -icount the timer's period is exact, so the samples sit on it.
    bound = period + period // 64
    over = {i: s for i, s in enumerate(span) if s > bound}
    assert not over, f"samples above {bound} (period {period}): {over}"
    assert sorted(span)[samples // 2] == period
