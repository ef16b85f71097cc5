"""A new user's first `rtosmeter run` answers something.

The default campaign compares FreeRTOS and ThreadX with the bare-metal
floor on QEMU (campaigns/default.toml, if available). A new machine has no
RTOS tree, so before such a run the pinned releases (each port.toml's
[source] tag and commit) are fetched into the cache, once, with a line
saying so. Offline (or without git), the run goes on without them and one
line says what it can and cannot answer and the one command that adds an
RTOS. A tree already set ($RTOSMETER_FREERTOS, a configuration's
[sources], the cache) is used as it is, and nothing is fetched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rtosmeter.definitions import DEFAULT_TOOLCHAIN, Definitions
from rtosmeter.errors import UserError
from rtosmeter.plan import unavailable_reason
from rtosmeter.sources import SourceMissing, cache_dir, fetch, find_source

FIRST_PORTS = ("freertos", "threadx")
FIRST_TARGET = "qemu-mps2-an386"


@dataclass
class FirstRun:
    fetched: list[str] = field(default_factory=list)  # "freertos V11.1.0"
    failed: list[str] = field(default_factory=list)  # ports still without a tree
    why: str = ""  # the first failure's reason

    @property
    def offline_line(self) -> str:
        """What the run can and cannot answer without the trees, and the one
        command that adds an RTOS; "" when nothing is missing."""
        if not self.failed:
            return ""
        have = [p for p in FIRST_PORTS if p not in self.failed]
        can = (f"this run compares {', '.join(have)} with the bare-metal floor on QEMU"
               if have else "this run measures POSIX on the host and the bare-metal floor on "
               "QEMU only: it cannot rank an RTOS")
        first = self.failed[0]
        return (f"No {' or '.join(self.failed)} tree ({self.why}): {can}. Add one with "
                f"`rtosmeter sources fetch {first}` (or set RTOSMETER_{first.upper()}=PATH), "
                "then `rtosmeter run` again.")


def prepare(defs: Definitions, say: Callable[[str], None]) -> FirstRun:
    """Fetch the pinned trees the default campaign's RTOSes lack, saying so."""
    out = FirstRun()
    target = defs.targets.get(FIRST_TARGET)
    if target is None or unavailable_reason(target, defs.toolchain(DEFAULT_TOOLCHAIN)):
        return out  # the campaign skips QEMU, and says why
    missing = []
    for name in FIRST_PORTS:
        try:
            find_source(defs.port(name), {})
        except SourceMissing:
            missing.append(name)
    if not missing:
        return out
    pins = [f"{name} {spec.tag}" for name in missing
            if (spec := defs.port(name).source) is not None]
    say(f"First run: fetching the pinned {' and '.join(pins)} into {cache_dir()} (once), to "
        f"compare them with the bare-metal floor on QEMU...")
    for name, pin in zip(missing, pins, strict=True):
        try:
            fetch(defs.port(name))
            out.fetched.append(pin)
        except UserError as exc:
            out.failed.append(name)
            out.why = out.why or exc.what
    if out.fetched:
        say(f"Fetched {', '.join(out.fetched)}.")
    return out
