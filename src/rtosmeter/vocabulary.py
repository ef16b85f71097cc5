"""The case vocabulary every report and comparison speaks: the family of a
case (throughput, latency, other), whether it times an interrupt, the name
of the system a result belongs to, the measurement-overhead case and the
bare-metal floor (tm.basic against bare metal)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rtosmeter import axes

if TYPE_CHECKING:
    from rtosmeter.model import BuildInfo, CaseResult, Footprint
    from rtosmeter.store import BuildRow


CALIB_CASE = "calib.overhead"
CALIB_SERIES = "overhead"
FLOOR_CASE = "tm.basic"
FLOOR_PORT = "baremetal"
FLOOR_CHECK = "within_1pct_of_bare_metal"
FLOOR_TOLERANCE = 0.01  # docs/benchmarks.md tm.basic: within 1 %


def family(case: CaseResult) -> str:
    """throughput | latency | other.

    Only `tm.*` cases are the throughput family (docs/benchmarks.md §1);
    an interrupt rate ramp (irq.max_rate, counts per step) is "other", so it
    is never normalised against Thread-Metric scores. A case with interval
    series, or a latency case id, is latency.
    """
    if case.case_id.startswith("tm."):
        return "throughput"
    if is_interrupt_rate(case):
        return "other"
    if case.distributions or case.case_id.startswith(("lat.", "calib.", "sw.", "irq.")):
        return "latency"
    return "other"


def is_interrupt_rate(case: CaseResult) -> bool:
    """An interrupt-responsiveness case that reports a rate, not intervals
    (irq.max_rate: counts per step of the ramp, the result in META)."""
    return case.case_id.startswith("irq.") and (bool(case.counts)
                                                or case.case_id.endswith("max_rate"))


def measures_interrupts(case: CaseResult) -> bool:
    """A case timing an interrupt's path (lat.isr.*, irq.*): under emulation
    a code-path length, as QEMU charges no time for exception entry."""
    return case.case_id.startswith(("lat.isr", "irq."))


def system(case: CaseResult | Footprint) -> str:
    """The compared system: "port/target/profile" and its axes ("+clang")."""
    return axes.name(case.port, case.target, case.profile, case.axes)


def build_name(b: BuildRow | BuildInfo) -> str:
    """A build's system: "port/target/profile" and its axes (rtosmeter.axes)."""
    return axes.name(b.port, b.target, b.profile, b.axes)
