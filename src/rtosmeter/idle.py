"""Idle figures of one execution: how long the CPU slept and was awake in
QEMU's virtual time, how often it woke and why, and the instructions each
wake-up cost (the rmcycles plugin's idle hook, plugins/qemu/rmidle.c).

One `IdleFigures` per execution and window: the window "execution" is the
whole run of the firmware; a case's id is that case's window. They are
stored in the `idle` table (schema 6) by `write_idle` and read back by
`read_idle`; the energy estimate (issue 31) multiplies them by a target's
power model. Times are virtual nanoseconds under `-icount`: exact and the
same on every run, not the host's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING

from rtosmeter.qemu_binary import untimed_reason

if TYPE_CHECKING:
    from rtosmeter.protocol import ParsedStream
    from rtosmeter.store import Store

# Why the CPU left WFI: the exception taken first after it.
WAKE_CAUSES = ("tick", "timer", "interrupt")
WHOLE = "execution"  # the window of the whole execution
PLUGIN_KEY = "plugin_idle"  # the runner's info: the plugin's idle summary (JSON)
SYSTICK = 15
# The timers' exception numbers (16 + IRQ) per QEMU machine: the CMSDK
# TIMER0, TIMER1 and the dual timer (IRQ 8, 9, 10) on MPS2. Any other
# exception that ends a sleep is an "interrupt".
TIMER_EXCEPTIONS = {m: frozenset({24, 25, 26})
                    for m in ("mps2-an385", "mps2-an386", "mps2-an500")}

TABLE = """
CREATE TABLE idle (
    execution_id INTEGER NOT NULL REFERENCES executions(id),
    win TEXT NOT NULL,                        -- "execution" or a case id
    window_ns INTEGER NOT NULL,
    asleep_ns INTEGER NOT NULL,
    awake_ns INTEGER NOT NULL,
    wakeups INTEGER NOT NULL,
    wake_causes TEXT NOT NULL DEFAULT '{}',   -- JSON {"tick": n, "timer": n, "interrupt": n}
    instructions_awake INTEGER NOT NULL,
    interrupts TEXT NOT NULL DEFAULT '{}',    -- JSON: exceptions entered, by cause
    time_limit TEXT NOT NULL DEFAULT '',      -- why asleep time was not measured ('' it was)
    PRIMARY KEY (execution_id, win)
)"""


@dataclass(frozen=True)
class IdleFigures:
    """Idle figures of one window of one execution (virtual time)."""

    window_ns: int  # the window's length: asleep_ns + awake_ns
    asleep_ns: int  # time between WFI entries and the wake-ups that ended them
    awake_ns: int
    wakeups: int  # WFI exits
    wake_causes: Mapping[str, int] = field(default_factory=dict)  # WAKE_CAUSES -> count
    instructions_awake: int = 0  # instructions executed in the window
    window: str = WHOLE
    # Exceptions entered in a case's window, by WAKE_CAUSES, asleep or not
    # (a spinning idle takes its ticks awake); empty for the whole execution.
    interrupts: Mapping[str, int] = field(default_factory=dict)
    # Why time asleep is unknown ("" when measured): on a QEMU whose plugin
    # cannot read virtual time, asleep_ns is 0 and window_ns only the time
    # awake, so every figure of time says so (docs/qemu.md).
    time_limit: str = ""

    def __post_init__(self) -> None:
        causes = {k: int(v) for k, v in self.wake_causes.items()}
        entered = {k: int(v) for k, v in self.interrupts.items()}
        unknown = sorted((set(causes) | set(entered)) - set(WAKE_CAUSES))
        if unknown:
            raise ValueError(f"unknown wake-up causes {unknown} (known: {WAKE_CAUSES})")
        object.__setattr__(self, "wake_causes", MappingProxyType(causes))
        object.__setattr__(self, "interrupts", MappingProxyType(entered))
        if min(self.window_ns, self.asleep_ns, self.awake_ns, self.wakeups,
               self.instructions_awake, *causes.values(), *entered.values(), 0) < 0:
            raise ValueError("idle figures are never negative")

    @property
    def timed(self) -> bool:
        """Whether time asleep (so the window's length) was measured."""
        return not self.time_limit

    @property
    def residency(self) -> float | None:
        """The fraction of the window spent asleep (0 for an empty window;
        None when time asleep was not measured)."""
        if not self.timed:
            return None
        return self.asleep_ns / self.window_ns if self.window_ns else 0.0

    @property
    def wakeups_per_s(self) -> float | None:
        if not self.timed:
            return None
        return self.wakeups * 1e9 / self.window_ns if self.window_ns else 0.0

    @property
    def instructions_per_wakeup(self) -> float:
        return self.instructions_awake / self.wakeups if self.wakeups else 0.0


def write_idle(store: Store, execution_id: int, figures: IdleFigures) -> None:
    """Store (or replace) one window's figures of an execution."""
    with store._tx():
        store.conn.execute(
            "INSERT OR REPLACE INTO idle (execution_id, win, window_ns, asleep_ns, awake_ns, "
            "wakeups, wake_causes, instructions_awake, interrupts, time_limit) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (execution_id, figures.window, figures.window_ns, figures.asleep_ns,
             figures.awake_ns, figures.wakeups,
             json.dumps(dict(sorted(figures.wake_causes.items()))),
             figures.instructions_awake, json.dumps(dict(sorted(figures.interrupts.items()))),
             figures.time_limit))


def read_idle(store: Store, run_id: int) -> dict[int, list[IdleFigures]]:
    """Every execution of the run that has idle figures: execution id -> its
    windows, the whole execution first, then the cases in id order."""
    rows = store.conn.execute(
        "SELECT i.execution_id, i.win, i.window_ns, i.asleep_ns, i.awake_ns, i.wakeups, "
        "i.wake_causes, i.instructions_awake, i.interrupts, i.time_limit FROM idle i "
        "JOIN executions e ON e.id = i.execution_id WHERE e.run_id = ? "
        "ORDER BY i.execution_id, i.win != ?, i.win", (run_id, WHOLE)).fetchall()
    out: dict[int, list[IdleFigures]] = {}
    for row in rows:
        figures = store._decoded(f"idle figures {row[1]} of execution {row[0]}",
                                 partial(_figures, row))
        out.setdefault(int(row[0]), []).append(figures)
    return out


def _figures(row: tuple[object, ...]) -> IdleFigures:
    _, win, window_ns, asleep, awake, wakeups, causes, instructions, entered, limit = row
    parsed, entries = json.loads(str(causes)), json.loads(str(entered))
    if not isinstance(parsed, dict) or not isinstance(entries, dict):
        raise ValueError("wake_causes or interrupts is not an object")
    return IdleFigures(int(str(window_ns)), int(str(asleep)), int(str(awake)),
                       int(str(wakeups)), parsed, int(str(instructions)), str(win), entries,
                       str(limit))


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
