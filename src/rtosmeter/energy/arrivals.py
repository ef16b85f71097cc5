"""When the harness saw the stream grow: the host-side receive times that
align a power capture to a target's cases when no marker pin is wired
(rtosmeter.energy.by_stream).

A runner given an `Arrivals` notes the stream's length each time it looks
(a console file's size, a semihosting write, an RTT read; runners/base.py
`looking`); a byte at offset k arrived after the last look that had not
seen it and by the first that had.
"""

from __future__ import annotations

import bisect
import threading
import time
from dataclasses import dataclass, field


@dataclass
class Arrivals:
    """(length, host monotonic time) at each look that found the stream longer."""

    sizes: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    previous_look: list[float] = field(default_factory=list)  # the look before each growth
    # the last look, grown or not; at first, when the run began (nothing can have come before)
    looked: float = field(default_factory=time.monotonic)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def note(self, size: int, at: float | None = None) -> None:
        now = time.monotonic() if at is None else at
        with self._lock:
            if not self.sizes or size > self.sizes[-1]:
                self.sizes.append(size)
                self.times.append(now)
                self.previous_look.append(self.looked)
            self.looked = now

    def span(self, offset: int) -> tuple[float, float] | None:
        """(earliest, latest) host time byte `offset` can have arrived at;
        None when no look saw it."""
        with self._lock:
            i = bisect.bisect_right(self.sizes, offset)
            if i == len(self.sizes):
                return None
            return self.previous_look[i], self.times[i]

    def as_text(self) -> str:
        """For the execution's runner info: 'size:time:previous' per growth."""
        with self._lock:
            return " ".join(f"{s}:{t:.6f}:{p:.6f}" for s, t, p in
                            zip(self.sizes, self.times, self.previous_look, strict=True))

    @classmethod
    def from_text(cls, text: str) -> Arrivals:
        out = cls()
        for item in text.split():
            size, at, before = item.split(":")
            out.sizes.append(int(size))
            out.times.append(float(at))
            out.previous_look.append(float(before))
        return out
