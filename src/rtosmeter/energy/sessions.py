"""`run --power ANALYSER[:SERIAL]`: open the analyser through its own
library, capture while one execution runs, close it.

- `joulescope`: `joulescope.scan()` (v1 API), streaming between
  `Device.start()` and `Device.stop()`, the samples then read from its
  stream buffer (which bounds a capture to the buffer's length, 30 s by
  default);
- `ppk2`: `ppk2_api.ppk2_api.PPK2_API.list_devices()`, source-meter mode at
  the board's supply (its power.toml `supply_v`, else 3.3 V);
- `otii`: `otii_tcp_client.otii_client.OtiiClient().connect()` to a running
  Otii application, its first device (or the one named SERIAL) in the
  active project.

The PPK2 and Otii loops (analysers.py) run in a thread until the execution
ends; each capture knows the host time of its first sample, which aligns it
by the stream when no marker pin is wired (by_stream.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from rtosmeter.energy import analysers
from rtosmeter.energy.capture import Capture
from rtosmeter.errors import UserError

ANALYSERS = ("joulescope", "ppk2", "otii")
OPTION = "--power"


@dataclass(frozen=True)
class PowerSpec:
    """Which analyser `--power` names, and which one of them (its serial)."""

    analyser: str
    serial: str = ""

    @classmethod
    def parse(cls, text: str) -> PowerSpec:
        name, _, serial = text.partition(":")
        if name not in ANALYSERS:
            raise UserError(f"unknown power analyser '{name}'", f"{OPTION} {text}",
                            f"Give one of {', '.join(ANALYSERS)}, with :SERIAL to pick one")
        return cls(name, serial)

    def __str__(self) -> str:
        return f"{self.analyser}:{self.serial}" if self.serial else self.analyser


class Session(Protocol):
    """One analyser, open: capture from `start()` to `stop()`."""

    def start(self) -> None: ...

    def stop(self) -> Capture: ...

    def close(self) -> None: ...


def _missing(package: str, spec: PowerSpec) -> UserError:
    return UserError(f"the {spec.analyser} library is not installed", f"{OPTION} {spec}",
                     f"pip install {package} (the power extra: pip install 'rtosmeter[power]')")


def _pick(found: list[tuple[str, Any]], spec: PowerSpec) -> Any:
    """The device whose serial (or name) is SERIAL, or the only one."""
    if spec.serial:
        chosen = [d for name, d in found if spec.serial in name]
        if not chosen:
            raise UserError(f"no {spec.analyser} with serial {spec.serial} (found: "
                            f"{', '.join(n for n, _ in found) or 'none'})", f"{OPTION} {spec}",
                            "Connect it, or give the serial of one that is")
        return chosen[0]
    if len(found) != 1:
        raise UserError(f"{len(found)} {spec.analyser} analysers found"
                        + (f" ({', '.join(n for n, _ in found)})" if found else ""),
                        f"{OPTION} {spec}", "Connect one, or pick one with "
                        f"{OPTION} {spec.analyser}:SERIAL")
    return found[0][1]


class _Looping:
    """A library loop (analysers.ppk2, analysers.otii) in a thread until stop()."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.recording = threading.Event()
        self.result: Capture | None = None
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None

    def loop(self, until: Callable[[], bool], started: Callable[[float], None]) -> Capture:
        raise NotImplementedError

    def start(self) -> None:
        def run() -> None:
            try:
                self.result = self.loop(self.done.is_set, lambda t: self.recording.set())
            except BaseException as exc:  # re-raised in stop(), in the caller's thread
                self.error = exc
            finally:
                self.recording.set()

        self.thread = threading.Thread(target=run, name="rm-power", daemon=True)
        self.thread.start()
        self.recording.wait()  # the firmware starts once the analyser records
        if self.error is not None:
            self.stop()

    def stop(self) -> Capture:
        self.done.set()
        if self.thread is not None:
            self.thread.join()
        if self.error is not None:
            raise UserError(f"the analyser failed: {self.error!r}", OPTION,
                            "Check its connection and its library's version")
        assert self.result is not None
        return self.result


class PPK2Session(_Looping):
    def __init__(self, spec: PowerSpec, supply_v: float) -> None:
        super().__init__()
        try:
            from ppk2_api.ppk2_api import PPK2_API
        except ImportError:
            raise _missing("ppk2-api", spec) from None
        # list_devices() gives ports, or (port, serial) pairs in newer releases
        found = [(d, d) if isinstance(d, str) else (" ".join(map(str, d)), d[0])
                 for d in PPK2_API.list_devices()]
        self.device = PPK2_API(_pick(found, spec))
        self.source_mv = round(supply_v * 1000)

    def loop(self, until: Callable[[], bool], started: Callable[[float], None]) -> Capture:
        return analysers.ppk2(self.device, self.source_mv, until, started=started)

    def close(self) -> None:
        self.device.toggle_DUT_power("OFF")


class OtiiSession(_Looping):
    def __init__(self, spec: PowerSpec) -> None:
        super().__init__()
        try:
            from otii_tcp_client import otii_client
        except ImportError:
            raise _missing("otii-tcp-client", spec) from None
        self.client = otii_client.OtiiClient()
        try:
            otii = self.client.connect()
        except Exception as exc:  # the library raises its own exceptions and OSErrors
            raise UserError(f"cannot reach the Otii application ({exc})", f"{OPTION} {spec}",
                            "Start Otii 3 with its TCP server on") from None
        self.device = _pick([(f"{d.name} {d.id}", d) for d in otii.get_devices()], spec)
        self.project = otii.get_active_project() or otii.create_project()

    def loop(self, until: Callable[[], bool], started: Callable[[float], None]) -> Capture:
        return analysers.otii(self.project, self.device, until, started=started)

    def close(self) -> None:
        self.client.disconnect()


class JoulescopeSession:
    def __init__(self, spec: PowerSpec) -> None:
        try:
            import joulescope
        except ImportError:
            raise _missing("joulescope", spec) from None
        self.device = _pick([(str(d), d) for d in joulescope.scan()], spec)
        self.device.open()
        self.started_at = 0.0

    def start(self) -> None:
        self.device.start()
        self.started_at = time.monotonic()

    def stop(self) -> Capture:
        self.device.stop()
        buffer = self.device.stream_buffer
        start, end = buffer.sample_id_range
        data = buffer.samples_get(start, end, fields=["current", "voltage", "current_lsb"])
        return analysers.joulescope_samples(data, where=str(self.device),
                                            start_host_s=self.started_at,
                                            analyser=f"Joulescope {self.device}")

    def close(self) -> None:
        self.device.close()


def open_session(spec: PowerSpec, supply_v: float) -> Session:
    """The analyser `spec` names, opened through its library."""
    if spec.analyser == "ppk2":
        return PPK2Session(spec, supply_v)
    if spec.analyser == "otii":
        return OtiiSession(spec)
    return JoulescopeSession(spec)
