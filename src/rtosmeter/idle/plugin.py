"""The idle figures of one execution from the rmcycles plugin's idle
summary (plugins/qemu/rmidle.c, the runner's info `plugin_idle`): each
window's time asleep and awake, its wake-ups by cause (the exception taken
first after a WFI), and why time asleep is unknown on a QEMU that cannot
read virtual time (docs/qemu.md)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

from rtosmeter.idle.figures import WHOLE, IdleFigures
from rtosmeter.qemu_binary import untimed_reason

if TYPE_CHECKING:
    from rtosmeter.protocol import ParsedStream

PLUGIN_KEY = "plugin_idle"  # the runner's info: the plugin's idle summary (JSON)
SYSTICK = 15
# The timers' exception numbers (16 + IRQ) per QEMU machine: the CMSDK
# TIMER0, TIMER1 and the dual timer (IRQ 8, 9, 10) on MPS2. Any other
# exception that ends a sleep is an "interrupt".
TIMER_EXCEPTIONS = {m: frozenset({24, 25, 26})
                    for m in ("mps2-an385", "mps2-an386", "mps2-an500")}


def cause_of(exception: int, machine: str) -> str:
    """The wake-up cause of the first exception entered after a WFI."""
    if exception == SYSTICK:
        return "tick"
    if exception in TIMER_EXCEPTIONS.get(machine, frozenset()):
        return "timer"
    return "interrupt"


def window_names(parsed: ParsedStream | None) -> list[str]:
    """The names of windows 1, 2, ... (DBG #1 … DBG #2 in the firmware), in
    the order the cases opened them: each case lists its own in META
    `idle_windows` (comma-separated), named "<case id>@<name>"."""
    names: list[str] = []
    for case in parsed.cases if parsed is not None else ():
        listed = str(case.meta.get("idle_windows", ""))
        names += [f"{case.id}@{n.strip()}" for n in listed.split(",") if n.strip()]
    return names


def from_plugin(info: Mapping[str, str], parsed: ParsedStream | None) -> list[IdleFigures]:
    """The idle figures of one execution from the plugin's summary (the
    runner's `plugin_idle`, rmidle.c): the whole run, then each closed
    window. None without the plugin's idle member."""
    text = info.get(PLUGIN_KEY)
    if not text:
        return []
    data = json.loads(text)
    shift, machine = int(data["shift"]), str(info.get("machine", ""))
    names = window_names(parsed)
    limit = time_limit(data, info.get("qemu", ""))
    out = []
    for k, w in enumerate(data["windows"]):
        if not w["closed"]:
            continue
        name = WHOLE if k == 0 else names[k - 1] if k - 1 < len(names) else f"window{k}"
        awake = int(w["instructions"]) << shift
        asleep = 0 if w["asleep_ns"] is None else int(w["asleep_ns"])
        # A window without a wake-up had no sleep (the guest opens and closes
        # windows awake): its time is exact on every QEMU.
        untimed = limit if int(w["wakeups"]) else ""
        out.append(IdleFigures(awake + asleep, asleep, awake, int(w["wakeups"]),
                               _by_cause(w["causes"], machine), int(w["instructions"]), name,
                               _by_cause(w.get("entries", {}), machine, interrupts_only=True),
                               untimed))
    return out


def time_limit(summary: Mapping[str, object], qemu: str) -> str:
    """Why the plugin's summary has no time asleep ("" when it has):
    rmidle.c's clock "none", with its own reason where a clock it was asked
    for could not start, else the QEMU's (docs/qemu.md)."""
    if summary.get("clock", "guard72") != "none":  # summaries before the clocks: 7.2's
        return ""
    return untimed_reason(qemu, str(summary.get("why") or ""))  # why: a clock that failed


def _by_cause(by_exception: Mapping[str, object], machine: str,
              interrupts_only: bool = False) -> dict[str, int]:
    """Counts per exception number -> per cause. `interrupts_only`: leave out
    the system exceptions besides SysTick (SVC, PendSV: a kernel's own
    context switches, not interrupts)."""
    out: dict[str, int] = {}
    for exception, count in by_exception.items():
        if interrupts_only and 0 <= int(exception) < SYSTICK:
            continue
        cause = cause_of(int(exception), machine)
        out[cause] = out.get(cause, 0) + int(str(count))
    return out
