"""Where emulation cannot answer a finding: what the study's board had that
our count of the same firmware lacks, per kind of figure the finding reads
(a finding's own `emulation` text replaces it). A verdict is worth what this
line leaves out."""

from __future__ import annotations

from rtosmeter.studies.figures import natural_stat
from rtosmeter.studies.model import Finding, Study

SIZES = "nothing: Flash and RAM come from the ELF and are the board's own"
POWER = ("the power is the board model's estimate from datasheet currents and our "
         "sleep/run split (docs/energy.md), not a measurement")
SPREAD = ("a board's spread from caches, bus contention and clock drift: an emulated "
          "count repeats exactly, so our spread is the code's paths alone")
TIMES = {
    "instructions": "flash wait states, the pipeline and the bus: one instruction is not one "
                    "cycle, and exception entry and exit cost no instruction",
    "cycles": "the cycle model's estimate (docs/estimates.md: wait states, exception entry "
              "and exit from the core's manual), not a board's measurement",
}
INTERRUPT = "; the pin, the interrupt controller's path and the GPIO driver of the board"
NETWORK = "; the link's timing, the radio or MAC and their driver are virtual"


def emulation_limit(study: Study, finding: Finding, unit: str) -> str:
    """The line for one finding in the run's unit ("instructions", "cycles";
    a board's run, "", has no emulation to answer for)."""
    if finding.emulation:
        return finding.emulation
    if finding.kind == "untestable":
        return "-"
    if not unit:
        return "none: measured on the board"
    # an operation read in a unit of its own (Operation.unit) is judged in it
    unit = next((study.operation(op).unit for op in finding.operations
                 if study.operation(op).unit), unit)
    stats = {finding.stat or natural_stat(study, op) for op in finding.operations}
    stats |= {o.stat for o in finding.operands if o.stat}
    if stats <= {"flash", "ram"}:
        return SIZES
    if "power" in stats:
        return POWER
    parts = [TIMES.get(unit, TIMES["instructions"])]
    if stats & {"std", "jitter", "min", "max", "p1", "p99"}:
        parts.insert(0, SPREAD)
    cases = [c for op in finding.operations for c in study.operation(op).cases]
    text = "; ".join(parts)
    if any(c.startswith(("irq.", "lat.isr", "tm.interrupt")) for c in cases):
        text += INTERRUPT
    if any(s.startswith(("net-", "accept", "reject", "forward"))
           for s in (finding.from_state, finding.to_state)):
        text += NETWORK
    return text
