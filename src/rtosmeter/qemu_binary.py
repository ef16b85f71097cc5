"""The QEMU a run uses: which binary, its version, the plugin API it speaks
and what works with it (docs/qemu.md).

The binary is, in order: `--qemu PATH`, `RTOSMETER_QEMU`, the campaign's
`qemu`, then `qemu-system-arm` on PATH; the planner resolves it once and the
plan keeps it (a resumed run uses the same QEMU). The rmcycles plugin
is built once per plugin API generation (plugins/qemu/Makefile): 1 for QEMU
7.2 and 8.x (plugin API 1), 2 for 9.0 to 10.x (API 2 to 6: QEMU removed the
v1 inline calls and raised its minimum to 2), 3 for 11 (API 7, its minimum:
every callback takes its userdata). A QEMU of another generation refuses the
other builds at load ("undefined symbol", or a version outside its range).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ENV = "RTOSMETER_QEMU"  # the QEMU binary, when --qemu is not given
PLUGIN_ENV = "RTOSMETER_QEMU_PLUGIN"  # another build of the plugin
DEFAULT = "qemu-system-arm"
PLUGIN_DIR = Path(__file__).resolve().parent.parent.parent / "plugins" / "qemu"
OLDEST = (7, 2)  # the oldest QEMU whose plugin API and -icount rtosmeter uses
API2_FROM = (9, 0)
API3_FROM = (11, 0)
# QEMU's own line when a plugin cannot be loaded or refuses its arguments.
_PLUGIN_ERROR = re.compile(r"^.*(Could not load plugin|plugin .*(version|failed)|"
                           r"rmcycles plugin:).*$", re.IGNORECASE | re.MULTILINE)
_VERSION = re.compile(r"version\s+(\d+)\.(\d+)(?:\.(\d+))?")


def chosen(option: str | None = None, campaign: str | None = None) -> str:
    """The QEMU binary to use, as given (a path or a name on PATH)."""
    return option or os.environ.get(ENV) or campaign or DEFAULT


def resolved(name: str) -> str:
    """`name` as an absolute path when it is found, else as given (the run
    then says it is missing)."""
    found = shutil.which(name)
    return str(Path(found).resolve()) if found else name


@cache
def _version_line(binary: str) -> str:
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True,
                             timeout=10, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.splitlines()[0] if out else ""


@cache
def _log_items(binary: str) -> frozenset[str]:
    try:
        out = subprocess.run([binary, "-d", "help"], capture_output=True, text=True,
                             timeout=10, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    return frozenset(line.split()[0] for line in out.splitlines() if line[:1].isalpha())


@dataclass(frozen=True)
class Qemu:
    """One QEMU binary and what rtosmeter can do with it."""

    binary: str  # as given: a path, or a name looked up on PATH

    @property
    def found(self) -> bool:
        return shutil.which(self.binary) is not None

    @property
    def version(self) -> str:
        """"7.2.22", "10.0.2" ("" when it cannot be run)."""
        line = _version_line(self.binary)
        m = _VERSION.search(line)
        if m is None:
            return line.strip()
        return ".".join(g for g in m.groups() if g is not None)

    @property
    def release(self) -> tuple[int, int] | None:
        m = _VERSION.search(_version_line(self.binary))
        return (int(m.group(1)), int(m.group(2))) if m else None

    @property
    def guest_error_log(self) -> str:
        """The -d items that log what the guest does wrong: guest_errors, and
        invalid_mem where QEMU logs rejected accesses apart (10.0 does; 7.2
        counts them among the guest errors)."""
        return "guest_errors,invalid_mem" if "invalid_mem" in _log_items(self.binary) \
            else "guest_errors"

    @property
    def api(self) -> int:
        """The plugin API generation of this QEMU (0: unknown or too old)."""
        rel = self.release
        if rel is None or rel < OLDEST:
            return 0
        return 3 if rel >= API3_FROM else 2 if rel >= API2_FROM else 1

    def plugin(self) -> Path | None:
        """The plugin build this QEMU loads (RTOSMETER_QEMU_PLUGIN overrides),
        or None when it is not built or this QEMU has no usable API."""
        env = os.environ.get(PLUGIN_ENV)
        if env:
            return Path(env) if Path(env).is_file() else None
        if self.api == 0:
            return None
        path = PLUGIN_DIR / "build" / f"rmcycles-api{self.api}.so"
        return path if path.is_file() else None

    def plugin_missing(self) -> str:
        """Why no plugin can be used with this QEMU ("" when one can)."""
        if not self.found:
            return f"{self.binary} not found"
        if self.api == 0:
            return (f"QEMU {self.version or '?'} ({self.binary}) is older than "
                    f"{OLDEST[0]}.{OLDEST[1]}, the oldest whose plugin API rtosmeter uses")
        if self.plugin() is None:
            return (f"the rmcycles plugin for QEMU {self.version} (plugin API {self.api}) is not "
                    f"built: {PLUGIN_DIR / 'build' / f'rmcycles-api{self.api}.so'}")
        return ""

    @property
    def idle_clock(self) -> str:
        """How the plugin reads time asleep here (plugins/qemu/rmidle.c):
        guard72 on 7.2 (its private timer layout, and the guard against
        the double warp), discon from 10.1 (discontinuity callbacks), none
        elsewhere (docs/qemu.md)."""
        return idle_clock(self.release)


DISCON_FROM = (10, 1)
# QEMU's fix of the late wake-up (docs/qemu-double-warp.md): commit 02ae3154,
# "util/qemu-timer.c: Don't warp timer from timerlist_rearm()", in 10.0.0
# and backported to 9.2.3.
WAKES_ON_TIME_FROM = ((9, 2, 3), (10, 0, 0))


def idle_clock(release: tuple[int, int] | None) -> str:
    if release == (7, 2):
        return "guard72"
    if release is not None and release >= DISCON_FROM:
        return "discon"
    return "none"


def _numbers(version: str) -> tuple[int, ...]:
    m = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?", version)
    return tuple(int(g or 0) for g in m.groups()) if m else ()


def wakes_late(version: str) -> bool:
    """Whether QEMU `version` wakes a WFI sleep on a periodic ptimer one
    period late without the plugin's guard (docs/qemu-double-warp.md)."""
    v = _numbers(version)
    return bool(v) and not (WAKES_ON_TIME_FROM[0] <= v < (9, 3) or v >= WAKES_ON_TIME_FROM[1])


def untimed_reason(version: str, failed: str = "") -> str:
    """Why the idle figures of time are not exact on QEMU `version` (its
    clock is "none"): what QEMU lacks, and whether it also wakes late; or
    `failed`, the plugin's reason where a clock it was asked for did not start."""
    shown = ".".join(str(n) for n in _numbers(version)[:2]) or "?"
    if failed:
        return f"not exact on QEMU {shown}: {failed}"
    late = wakes_late(version)
    why = "its plugin API has no virtual clock (discontinuity callbacks, from 10.1, give one)"
    if late:
        why += ("; and its WFI sleeps on a periodic timer wake one period late (the warp "
                "QEMU fixed in 9.2.3 and 10.0, docs/qemu-double-warp.md)")
    return f"not exact on QEMU {shown}: {why}"


def default() -> Qemu:
    """The QEMU used when a run names none."""
    return Qemu(chosen())


def plugin_error(stderr: str) -> str:
    """QEMU's own line about a plugin that did not load or start ("" when
    there is none)."""
    m = _PLUGIN_ERROR.search(stderr)
    return m.group(0).strip() if m else ""


PLUGIN_FAILED = "could not start the rmcycles plugin"  # what every such error says


def plugin_fix(line: str) -> str:
    """What to do about QEMU's line `line` (plugin_error)."""
    if re.search(r"undefined symbol|version", line, re.IGNORECASE):
        return (f"the plugin build does not match this QEMU's plugin API: run `make -C "
                f"plugins/qemu` (one build per API), unset {PLUGIN_ENV} if it names another "
                "build, and check with `rtosmeter doctor`")
    return "`rtosmeter doctor` starts the plugin in this QEMU and shows what fails"


def plugin_failure(version: str, binary: str, line: str) -> str:
    """An execution's error when QEMU refused the plugin: QEMU's own line and the fix."""
    return (f"QEMU {version or '?'} ({binary}) {PLUGIN_FAILED}: \"{line}\". "
            f"Fix: {plugin_fix(line)}")


# A firmware of four instructions for the probe: the vector table (stack,
# reset at 0x9), then MOVS r0,#0x18; LDR r1,[pc,#4]; BKPT 0xAB (semihosting
# SYS_EXIT, ADP_Stopped_ApplicationExit) and the word it loads.
_PROBE_IMAGE = bytes.fromhex("00100020" "09000000" "1820" "0149" "abbe" "00bf" "26000200")
PROBE_INSTRUCTIONS = 3  # what the plugin counts of it: MOVS, LDR, BKPT


@dataclass(frozen=True)
class Probe:
    """What starting the plugin in one QEMU showed."""

    loaded: bool
    instructions: int | None  # what it counted of the probe firmware
    cycles: int | None
    error: str  # QEMU's own line when it did not load ("" when it did)
    api: dict[str, object]  # the plugin's "api" member: QEMU's range, registers


def probe(qemu: Qemu, folder: Path) -> Probe:
    """Run the plugin in `qemu` on a 3-instruction firmware, once per mode."""
    import json

    so = qemu.plugin()
    if so is None:
        return Probe(False, None, None, qemu.plugin_missing(), {})
    image = folder / "probe.bin"
    image.write_bytes(_PROBE_IMAGE)
    counts: dict[str, int | None] = {}
    api: dict[str, object] = {}
    for mode in ("instructions", "cycles"):
        summary = folder / f"probe-{mode}.json"
        cmd = [qemu.binary, "-M", "mps2-an386", "-nographic", "-monitor", "none",
               "-semihosting-config", "enable=on,target=native",
               "-icount", "shift=6,align=off,sleep=off",
               "-plugin", f"{so},mode={mode},out={summary}", "-kernel", str(image)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return Probe(False, None, None, f"{qemu.binary}: {exc}", {})
        line = plugin_error(proc.stderr)
        if line or not summary.is_file():
            return Probe(False, None, None, line or (proc.stderr.strip().splitlines()
                                                     or [f"exit status {proc.returncode}"])[-1],
                         {})
        data = json.loads(summary.read_text(encoding="utf-8"))
        counts[mode] = int(data["cycles" if mode == "cycles" else "instructions"])
        api = dict(data.get("api", {}))
    return Probe(True, counts["instructions"], counts["cycles"], "", api)


# What `-d guest_errors` logs about the guest (ARM's messages include "M profile
# return from interrupt with misaligned PC is UNPREDICTABLE on v7M").
_GUEST_ERROR = re.compile(r"^(Invalid (read|write)|M profile|.*UNPREDICTABLE|.*guest_error"
                          r"|.*: unimplemented).*$", re.IGNORECASE | re.MULTILINE)
_NUMBER = re.compile(r"\b(0x[0-9a-f]+|\d+)\b", re.IGNORECASE)


def guest_errors(lines: Iterable[str]) -> Counter[str]:
    """The guest errors among QEMU's log lines, by message (addresses and
    numbers as N, so one message repeated is one kind)."""
    return Counter(_NUMBER.sub("N", line.strip()) for line in lines if _GUEST_ERROR.match(line))
