"""The power runner inside `rtosmeter run --power ANALYSER[:SERIAL]`: each
execution runs between the start and the stop of a capture, and its energy
per case is stored in the same step as the execution.

- `PowerRun` wraps the way one execution runs (the local runner or a
  farm's): it opens the analyser (sessions.py), starts the capture, runs the
  firmware with an `Arrivals` that notes when its stream grows, and stops
  the capture whatever happened (exit, fault, hang, a runner that raised);
  the capture goes to `traces/` beside the store at once, so nothing is
  lost, and the runner info names it.
- `record` runs once the execution is stored: it aligns the trace to the
  cases that ran, by the GPIO marker when the target has one wired
  (`[power] marker_pin`) and `--align` is not `stream`, else by the stream's
  arrival times (by_stream.py), and stores the energy per case.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from rtosmeter.definitions import Target
from rtosmeter.energy import jls
from rtosmeter.energy.arrivals import Arrivals
from rtosmeter.energy.by_stream import align as align_by_stream
from rtosmeter.energy.capture import align as align_by_marker
from rtosmeter.energy.model import FILE as POWER_FILE
from rtosmeter.energy.model import load_model
from rtosmeter.energy.sessions import PowerSpec, Session, open_session
from rtosmeter.energy.stored import TRACES, write_energy
from rtosmeter.errors import UserError
from rtosmeter.protocol import ParsedStream
from rtosmeter.runners.base import RunOutcome, RunRequest
from rtosmeter.store import Store

ALIGN = ("auto", "marker", "stream")
DEFAULT_SUPPLY_V = 3.3  # a target without a power model: the PPK2's source voltage
RAN = ("ok", "failed")  # a case the target ran to its END, so marked
# Runner info keys the recorder reads back.
TRACE, START, ARRIVALS, ANALYSER = "power_trace", "power_start_s", "power_arrivals", "power"
_COUNTER = itertools.count(1)


def supply_v(target: Target) -> float:
    """The supply the board's power model is given at (the PPK2 sources it)."""
    path = target.dir / POWER_FILE
    if target.kind != "board" or not path.is_file():
        return DEFAULT_SUPPLY_V
    return load_model(path, target.name).supply_v.value


class PowerRun:
    """Run one execution inside a capture (see the module's docstring)."""

    def __init__(self, run: Callable[[RunRequest], RunOutcome], spec: PowerSpec, out: Path,
                 opener: Callable[[PowerSpec, float], Session] = open_session) -> None:
        self.run, self.spec, self.out, self.opener = run, spec, out, opener

    def __call__(self, request: RunRequest) -> RunOutcome:
        info = {ANALYSER: str(self.spec)}
        try:
            session = self.opener(self.spec, supply_v(request.target))
        except UserError as exc:
            return RunOutcome(b"", "error", None, f"Error: {exc.message}", 0.0, info)
        arrivals = Arrivals()
        try:
            session.start()
        except Exception as exc:  # UserError, or the library's own: nothing runs uncaptured
            session.close()
            why = exc.message if isinstance(exc, UserError) else f"{self.spec}: {exc!r}"
            return RunOutcome(b"", "error", None, f"Error: {why}", 0.0, info)
        try:
            outcome = self.run(replace(request, arrivals=arrivals))
        except Exception as exc:  # a runner bug: the capture is still kept
            outcome = RunOutcome(b"", "error", None, f"runner failed: {exc!r}", 0.0,
                                 {"runner": request.target.kind})
        arrivals.note(len(outcome.stream))  # the last look: what came after the runner's
        try:
            capture = session.stop()
        except UserError as exc:  # the stream is kept; the execution is an error
            outcome.info.update(info)
            return replace(outcome, status="error", message=f"Error: {exc.message}")
        finally:
            session.close()
        trace = self.out / TRACES / (f"capture-{time.strftime('%Y%m%dT%H%M%S')}-"
                                     f"{os.getpid()}-{next(_COUNTER)}.jls")
        jls.write(capture, trace)
        info.update({TRACE: str(trace.relative_to(self.out)), ARRIVALS: arrivals.as_text(),
                     START: repr(capture.start_host_s), "power_analyser": capture.analyser})
        outcome.info.update(info)
        return outcome


def record(store: Store, execution_id: int, info: dict[str, str], stream: bytes,
           ran: ParsedStream, kept: ParsedStream, target: Target, align: str) -> str:
    """Store the energy per case of a stored execution run with --power
    (every case that ran is aligned, those --bench kept are stored); the
    number of cases measured and how, or raise UserError (the trace stays)."""
    trace = store.path.parent / info[TRACE]
    start = info.get(START, "None")  # repr() of the capture's start_host_s
    capture = replace(jls.read(trace), start_host_s=None if start == "None" else float(start),
                      analyser=info.get("power_analyser", "analyser"))
    cases = [c for c in ran.cases if c.status in RAN]
    stored = {c.id for c in kept.cases if c.status in RAN}
    by = "stream" if align == "stream" or (align == "auto" and not target.marker_pin) \
        else "marker"
    if by == "marker":
        if not target.marker_pin:
            raise UserError(f"target {target.name} has no marker pin", "--align marker",
                            f"Declare [power] marker_pin in {target.file}, or --align stream")
        measured = align_by_marker(capture, [c.id for c in cases])
        write_energy(store, execution_id, capture.analyser,
                     {k: w for k, w in measured.items() if k in stored}, trace)
    else:  # every runner reads its stream from a file or the target's RAM: no UART's delay
        windows = align_by_stream(capture, stream, [(c.id, c.offset) for c in cases],
                                  Arrivals.from_text(info[ARRIVALS]))
        windows = {k: w for k, w in windows.items() if k in stored}
        write_energy(store, execution_id, capture.analyser,
                     {k: w.energy for k, w in windows.items()}, trace, windows)
    return f"{len(stored)} cases measured with {capture.analyser}, aligned by {by}"
