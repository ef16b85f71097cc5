"""The rmcycles QEMU plugin (plugins/qemu/): where it is, what it counts, and
what a run needs to use it and to record it.

QEMU 7.2 has no cycle counter (DWT reads 0), and under `-icount shift=6` the
25 MHz CMSDK timer ticks 1.6 times per instruction, so timer-tick results are
fractions of a code path. The plugin counts instead, per executed
instruction: `instructions` (exact) or `cycles` (an estimate from the target
core's cycle model, M0/M0+/M3/M4/M7, `MODEL`, in plugins/qemu/cycle_model.md).
The firmware reads the count like CYCCNT (mps2 targets, RM_TS_PLUGIN: `dbg
#0`, then a load of the NOLOAD word `rm_plugin_counter`), so the pipeline
after the firmware is unchanged; only the unit's name differs.

Units (what `--unit` chooses: rtosmeter.measure.Unit; the labels are
made from it by `unit_label`):
  instructions  "instructions (QEMU, exact)", integers, deterministic
  cycles        "cycles (estimated: rmcm-3, m4, ws=0)", integers, deterministic
  ticks         the target's own counter (the CMSDK timer), as before
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from rtosmeter import qemu_binary
from rtosmeter.definitions import Counter, FirmwareCounter
from rtosmeter.elf_symbols import symbol_address
from rtosmeter.errors import UserError
from rtosmeter.measure import DEFAULT_DIV, Unit
from rtosmeter.numbers import read_decimal, shown

PLUGIN_DIR = qemu_binary.PLUGIN_DIR
MODEL = "rmcm-3"  # the cycle table's version; plugins/qemu/rmcycles.c MODEL
COUNTER_SYMBOL = "rm_plugin_counter"
COUNTER_NAME = "rmcycles (QEMU plugin)"  # RM_TS_NAME of a plugin build
UNITS = tuple(u.value for u in Unit)
NAME = "rmcycles"  # what a run records as its "plugin"
# Target CPUs with a cycle model (plugins/qemu/cycle_model.md): the model
# a target's core selects. The M0+ has no QEMU machine of its own; a board
# with one (--as-board) runs on the M0 machine with the M0+ model.
CYCLE_CPUS = {"cortex-m0": "m0", "cortex-m0plus": "m0plus", "cortex-m3": "m3",
              "cortex-m4": "m4", "cortex-m7": "m7"}
# Targets whose rm_ts() can read the plugin counter (RM_TS_PLUGIN).
PLUGIN_MACHINES = ("mps2-an385", "mps2-an386", "mps2-an500", "microbit")
# Those that count instructions when no unit is asked for. The microbit reads
# the plugin only on request (--unit instructions|cycles): its runs and the
# studies on it stay in timer ticks by default, as they were recorded.
DEFAULT_PLUGIN_MACHINES = ("mps2-an385", "mps2-an386", "mps2-an500")
CODE_BLOCK = 0x400000  # MPS2: the 4 MiB ZBT SSRAM1 at 0 that holds the code
MIN_DIV, MAX_DIV, MAX_WS = 2, 12, 15  # what the plugin accepts
DEFAULT_BP = 6  # M7 misprediction: LLVM's ARMScheduleM7.td, "for forward branches is 6"


@dataclass(frozen=True)
class PluginSpec:
    """One way of running the plugin: its mode and the cycle model's inputs."""

    mode: Unit  # INSTRUCTIONS | CYCLES
    cpu: str = ""  # m0 | m0plus | m3 | m4 | m7 (cycles only)
    ws: int = 0  # flash wait states (cycles only)
    div: int = DEFAULT_DIV  # SDIV/UDIV cycles (cycles only)
    mul: int = 1  # MULS cycles on the M0/M0+: 1 or 32, the implementer's choice
    bp: int = DEFAULT_BP  # the M7's branch misprediction penalty
    # As on a board (rtosmeter.board_memory): its name, the plugin's memory
    # system arguments (line=, icache=, ...) and the label that says so.
    board: str = ""
    memory: tuple[str, ...] = ()
    board_label: str = ""
    clock_hz: int = 0  # the board's clock: the cycle counter's rate (RM_TS_HZ)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mode", Unit(self.mode))  # "cycles" given as a string

    @property
    def unit(self) -> str:
        """The unit's full name, as the firmware's HELLO declares it."""
        return self.board_label or unit_label(self.mode, self.cpu, self.ws)

    def args(self, counter: int | None = None, out: Path | None = None,
             idle_shift: int | None = None, idle_clock: str = "none") -> list[str]:
        """The `-plugin so,arg,...` arguments, in order. `idle_shift`: the
        -icount shift, for the idle figures; `idle_clock`: how the plugin
        reads time asleep on this QEMU (rmidle.c, qemu_binary.idle_clock)."""
        args = [f"mode={self.mode.value}"]
        if self.mode is Unit.CYCLES:
            args += [f"cpu={self.cpu}", f"ws={self.ws}", f"div={self.div}"]
            if self.cpu in ("m0", "m0plus"):
                args.append(f"mul={self.mul}")
            if self.cpu == "m7":
                args.append(f"bp={self.bp}")
            args += self.memory
        if counter is not None:
            args.append(f"counter=0x{counter:x}")
        if idle_shift is not None:
            args += [f"idle={idle_shift}", f"idleclock={idle_clock}"]
        if out is not None:
            args.append(f"out={out}")
        return args

    def record(self, so: Path) -> dict[str, str]:
        """What a run stores about the plugin: enough to say two runs are comparable."""
        rec = {"plugin": NAME, "plugin_sha256": plugin_hash(so), "mode": self.mode.value,
               "unit": self.unit}
        if self.mode is Unit.CYCLES:
            rec.update(model=MODEL, cpu=self.cpu, ws=str(self.ws), div=str(self.div),
                       mul=str(self.mul), bp=str(self.bp))
            if self.board:
                rec.update(as_board=self.board, memory=",".join(self.memory))
        return rec


def unit_label(unit: Unit, cpu: str = "", ws: int = 0) -> str:
    """The display label of a plugin unit (what RM_TS_UNIT and HELLO say)."""
    if unit is Unit.INSTRUCTIONS:
        return "instructions (QEMU, exact)"
    if unit is Unit.CYCLES:
        return f"cycles (estimated: {MODEL}, {cpu}, ws={ws})"
    raise ValueError(f"{unit} is the target's own counter, not the plugin's")


def plugin_path(qemu: str = "") -> Path | None:
    """The plugin build the QEMU `qemu` loads ("": the default QEMU;
    scripts/install.sh runs `make -C plugins/qemu`), or None."""
    return qemu_binary.Qemu(qemu_binary.chosen(qemu or None)).plugin()


def plugin_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def counter_address(elf: Path) -> int | None:
    """Where the firmware's rm_plugin_counter is (None: built without RM_TS_PLUGIN)."""
    return symbol_address(elf, COUNTER_SYMBOL)


def spec_for(unit: str, cpu: str, machine: str, where: str, ws: int = 0,
             div: int = DEFAULT_DIV) -> PluginSpec | None:
    """The plugin spec for `--unit` on one QEMU target (None: timer ticks).
    Raises UserError naming what is valid where the unit cannot be had."""
    if unit not in UNITS:
        raise UserError(f"unknown unit '{unit}'", where, f"Valid units: {', '.join(UNITS)}")
    if unit == Unit.TICKS:
        return None
    if machine not in PLUGIN_MACHINES:
        raise UserError(f"unit '{unit}' needs the plugin counter, which machine '{machine}' "
                        "cannot read", where,
                        f"Machines that can: {', '.join(PLUGIN_MACHINES)}; or use --unit ticks")
    if unit == Unit.INSTRUCTIONS:
        return PluginSpec(Unit.INSTRUCTIONS)
    if cpu not in CYCLE_CPUS:
        raise UserError(f"no cycle table for CPU '{cpu}'", where,
                        f"Cycle estimates exist for {', '.join(CYCLE_CPUS)}; "
                        "use --unit instructions there")
    if not 0 <= ws <= MAX_WS:
        raise UserError(f"{ws} flash wait states are out of range", where,
                        f"Give 0 to {MAX_WS} (--cycle-ws, or cycle_ws in the campaign)")
    if not MIN_DIV <= div <= MAX_DIV:
        raise UserError(f"a divide of {div} cycles is out of range", where,
                        f"Give {MIN_DIV} to {MAX_DIV} (--cycle-div, or cycle_div in the campaign)")
    return PluginSpec(Unit.CYCLES, CYCLE_CPUS[cpu], ws, div)


def instruction_hz(icount_shift: int) -> int:
    """Instructions per second of virtual time under -icount shift=N."""
    return 1_000_000_000 >> icount_shift


def counter_hz(spec: PluginSpec, icount_shift: int) -> int:
    """The counter's rate as the firmware takes it (RM_TS_HZ): instructions
    per second of virtual time; for cycles estimated as on a board, its
    clock (a Thread-Metric period is then that many cycles a second); for
    other cycles, nominally one per instruction's virtual time."""
    if spec.mode is Unit.CYCLES and spec.clock_hz:
        return spec.clock_hz
    return instruction_hz(icount_shift)


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def build_defines(spec: PluginSpec, icount_shift: int) -> dict[str, str]:
    """rm_build_config.h entries (name -> C text) that switch rm_ts() to the
    plugin counter. RM_TS_HZ is the counter's rate (counter_hz): exact for
    instructions; for cycles, whose rate in virtual time varies with the
    code, the estimate's clock, so RM_TS_IS_TIME 0 tells the cases that need
    a clock of virtual time (expected times from RM_TS_HZ) that this counter
    is not one, and Thread-Metric's periods are periods of estimated time."""
    defines = {
        "RM_TS_PLUGIN": "1",
        "RM_TS_NAME": _c_string(COUNTER_NAME),
        "RM_TS_UNIT": _c_string(spec.unit),
        "RM_TS_HZ": f"{counter_hz(spec, icount_shift)}u",
    }
    if spec.mode is Unit.CYCLES:
        defines["RM_TS_IS_TIME"] = "0"
    return defines


def firmware_counter(spec: PluginSpec, icount_shift: int) -> FirmwareCounter:
    """The plugin's counter as the build compiles it in (build_defines), in
    its own tree (`@instructions`, `@cycles`)."""
    defines = build_defines(spec, icount_shift)
    for key in ("RM_TS_NAME", "RM_TS_UNIT", "RM_TS_HZ"):  # the build writes the Counter's
        del defines[key]
    counter = Counter(COUNTER_NAME, spec.unit, counter_hz(spec, icount_shift))
    return FirmwareCounter(counter, tuple(defines.items()), f"@{spec.mode.value}")


def resolve_unit(requested: str | None, cpu: str, machine: str, icount: bool,
                 where: str, ws: int = 0, div: int = DEFAULT_DIV, qemu: str = "") -> Unit:
    """The unit one (port, QEMU target) combination measures in: TICKS (the
    QEMU timer), INSTRUCTIONS or CYCLES. Without a request, QEMU targets that
    can read the plugin count exact instructions when the plugin is built and
    -icount is on, on every port: those built by bench/ link with mps2.ld,
    which places the counter word, and those that link with their RTOS's own
    script add the target's section (targets/mps2/rm_plugin_counter.ld)
    through its hooks. `qemu`: the binary the plan runs ("": the default)."""
    if requested is None:
        usable = machine in DEFAULT_PLUGIN_MACHINES and icount and plugin_path(qemu) is not None
        return Unit.INSTRUCTIONS if usable else Unit.TICKS
    spec = spec_for(requested, cpu, machine, where, ws, div)
    if spec is not None and plugin_path(qemu) is None:
        why = qemu_binary.Qemu(qemu_binary.chosen(qemu or None)).plugin_missing()
        raise UserError(f"unit '{requested}' needs the rmcycles QEMU plugin: {why}", where,
                        "Run scripts/install.sh (or make -C plugins/qemu), or choose another "
                        "QEMU with --qemu")
    return Unit.TICKS if spec is None else spec.mode


def qemu_arguments(spec: PluginSpec, elf: Path, summary: Path, idle_shift: int | None = None,
                   qemu: str = "") -> tuple[list[str], dict[str, str]]:
    """The QEMU arguments that load the plugin for one firmware, and what the
    run records about it (hash, mode, parameters, the counter's address).
    With `idle_shift` (the run is under -icount) the plugin also counts idle
    figures, timed where this QEMU lets it (rmidle.c, docs/qemu.md).
    The entry point for the QEMU runner; `qemu` is the binary it runs."""
    binary = qemu_binary.Qemu(qemu_binary.chosen(qemu or None))
    so = binary.plugin()
    if so is None:
        raise UserError(binary.plugin_missing(), str(PLUGIN_DIR),
                        "Run scripts/install.sh (or make -C plugins/qemu), or choose another "
                        "QEMU with --qemu")
    counter = counter_address(elf)
    if counter is None:
        raise UserError(f"no {COUNTER_SYMBOL} in the firmware (built without RM_TS_PLUGIN)",
                        str(elf), "Rebuild it with the plugin unit")
    if not counter < CODE_BLOCK:  # the plugin writes it through the code's host address
        raise UserError(f"{COUNTER_SYMBOL} at 0x{counter:x} is outside the code's RAM block "
                        f"(below 0x{CODE_BLOCK:x})", str(elf),
                        "Place .rm_plugin_counter as targets/mps2/mps2.ld does (or link "
                        "targets/mps2/rm_plugin_counter.ld)")
    record = spec.record(so) | {"plugin_counter": f"0x{counter:x}",
                                "plugin_api": str(binary.api)}
    args = spec.args(counter, summary, idle_shift, binary.idle_clock)
    return ["-plugin", ",".join([str(so), *args])], record


def summary_path(elf: Path) -> Path:
    """Where the plugin writes its totals for one firmware (out=): next to it,
    so the recorded QEMU command is the same from run to run."""
    return elf.parent / f"{elf.stem}.plugin.json"


def read_summary(summary: Path) -> dict[str, str]:
    """The plugin's totals at exit (out=), as strings for the run record."""
    try:
        data = json.loads(summary.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    keys = ("instructions", "cycles", "exception_entries", "exception_returns", "tail_chains")
    out = {f"plugin_{k}": str(data[k]) for k in keys if k in data}
    if isinstance(data.get("idle"), dict):
        out["plugin_idle"] = json.dumps(data["idle"], sort_keys=True)  # idle.plugin.PLUGIN_KEY
    api = data.get("api")
    if isinstance(api, dict):  # the QEMU's range of plugin APIs, as it told the plugin
        out["plugin_qemu_api"] = f"{api.get('qemu_min')}..{api.get('qemu_cur')}"
    return out


_CLOCK = re.compile(r"^\s*([0-9.]+)\s*(hz|khz|mhz|ghz)?\s*$", re.IGNORECASE | re.ASCII)
_CLOCK_SCALE = {"hz": 1, "khz": 1_000, "mhz": 1_000_000, "ghz": 1_000_000_000}
# No Cortex-M runs faster: the fastest parts (i.MX RT1170's M7) run at 1 GHz.
MAX_CLOCK_HZ = 1_000_000_000


def parse_clock(text: str, where: str = "--clock") -> int:
    """`80MHz`, `64 MHz`, `120000000Hz` -> Hz: a whole number of Hz from 1 Hz
    to MAX_CLOCK_HZ. The unit is required: `80` would be 80 Hz where 80 MHz
    was meant, and a clock above any Cortex-M's is a slip of the unit."""
    fix = "Give a rate with its unit, such as 80MHz, 64MHz or 120000000Hz"
    m = _CLOCK.match(text)
    if m is None:
        raise UserError(f"{shown(text)} is not a clock rate", where, fix)
    if m.group(2) is None:
        raise UserError(f"{shown(text)} has no unit (Hz, kHz, MHz or GHz)", where, fix)
    scale = _CLOCK_SCALE[m.group(2).lower()]
    hz = round(read_decimal(m.group(1), where, "clock rate", 0, 1e12 / scale, fix) * scale)
    if hz < 1:
        raise UserError(f"{shown(text)} is below 1 Hz", where, fix)
    if hz > MAX_CLOCK_HZ:
        raise UserError(f"{shown(text)} is faster than any Cortex-M runs "
                        f"(at most {MAX_CLOCK_HZ // 1_000_000_000} GHz)", where, fix)
    return hz


def unit_of(runner: Mapping[str, object]) -> Unit | None:
    """The plugin unit an execution counted in, from what its run recorded
    (PluginSpec.record); None when it did not run with the plugin."""
    if runner.get("plugin") != NAME:
        return None
    mode = str(runner.get("mode", ""))
    return Unit(mode) if mode in (Unit.INSTRUCTIONS, Unit.CYCLES) else None


def estimated_time(unit: Unit, label: str, clock_hz: int) -> tuple[str, float]:
    """Plugin counts (`label`: the firmware's name of `unit`) as time at a
    named clock: (unit label, µs per count). Always "estimated": cycles are a
    model's, and instructions assume one cycle each."""
    mhz = clock_hz / 1e6
    basis = "cycles" if unit is Unit.CYCLES else "1 cycle per instruction"
    return f"µs (estimated at {mhz:g} MHz from {basis}; {label})", 1.0 / mhz
