"""Targets (targets/*/target.toml, or targets/<family>/*/target.toml): the
machine, its counter, QEMU machine and limits; a board is a target of kind
"board"."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rtosmeter.definitions.common import KINDS, folder_name
from rtosmeter.errors import UserError
from rtosmeter.toml_table import REQUIRED, TomlTable, read_toml


@dataclass(frozen=True)
class Counter:
    name: str
    unit: str
    hz: int


@dataclass(frozen=True)
class FirmwareCounter:
    """A timestamp counter a runner gives the firmware instead of the
    target's [counter] (the QEMU plugin's: runners/qemu.py). rm_ts() reads it
    (rm_build_config.h: RM_TS_NAME/UNIT/HZ and `defines`), and a build with
    it is a tree of its own (`tree`, the build folder's suffix)."""

    counter: Counter
    defines: tuple[tuple[str, str], ...]  # further rm_build_config.h entries, in order
    tree: str


@dataclass(frozen=True)
class QemuSpec:
    machine: str
    icount_shift: int = 6
    extra_args: tuple[str, ...] = ()


@dataclass(frozen=True)
class Target:
    name: str
    description: str
    kind: str
    arch: str  # CPU architecture: what a port's `archs` names (armv7e-m, host)
    cpu: str  # the core (-mcpu), e.g. cortex-m4
    toolchain: str
    counter: Counter
    qemu: QemuSpec | None
    dir: Path
    file: Path
    wall_limit_s: float = 120.0
    guest_limit_s: float = 60.0
    cpu_hz: int = 0  # core clock the kernel tick is derived from; 0 on the host
    # [board]: how a board runner reaches the board (probe tool, chip, pack);
    # read and checked by rtosmeter.runners.board_settings, not here.
    board: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    # [params]: the most its RAM holds of a run length (the result buffers are
    # 2 x batch words): caps on what the profile and campaign ask for.
    params: dict[str, int] = field(default_factory=dict, compare=False, hash=False)
    # The machine family: the folder holding this target's folder under
    # targets/ (targets/mps2/qemu-mps2-an386: "mps2"), "" for a target alone.
    # Everything that knows the machine lives there: shared sources, linker
    # script, and each RTOS's own board files (native/<port>/).
    family: str = ""
    # [clock]: a board whose clock.c sets its maximum clock (cpu_hz) before
    # main: the clock it has out of reset, and its counter's rate then
    # (0: the board has no clock.c; cpu_hz is its only clock).
    reset_hz: int = 0
    reset_counter_hz: int = 0

    def at_clock(self, board_clock: str) -> Target:
        """This target as a profile's `board_clock` builds it: at the reset
        clock, cpu_hz and the counter's rate are the reset ones."""
        if board_clock != "reset" or not self.reset_hz:
            return self
        return replace(self, cpu_hz=self.reset_hz,
                       counter=replace(self.counter, hz=self.reset_counter_hz))
    # [memory]: a board's flash memory system at its clock, for estimates as
    # on the board (rtosmeter.board_memory reads and checks it).
    memory: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    # [power] marker_pin: where a board's case marker (its marker.c) comes
    # out, for the analyser's digital input (docs/energy.md); "" without one.
    marker_pin: str = ""
    # [limits] silent_s: a host run that writes nothing for this long hangs
    # (a deadlock) and is ended then, however far it is from wall_limit_s.
    silent_limit_s: float = 120.0

    @property
    def family_dir(self) -> Path:
        return self.dir.parent if self.family else self.dir

    def native_dir(self, port: str) -> Path | None:
        """The port's RTOS board files for this machine (native/<port>/ in the
        target's folder, else its family's), if it has any."""
        for base in (self.dir, self.family_dir):
            if (base / "native" / port).is_dir():
                return base / "native" / port
        return None


@dataclass(frozen=True)
class Board:
    """A target of kind "board", as `list` shows it: its [board] table's
    probe names, serial speed and whether it ran on the hardware."""

    name: str
    target: str  # the target it is built as: its cpu_hz is the clock the firmware runs at
    description: str
    tested: bool
    probe: dict[str, str]
    serial: dict[str, int]
    file: Path


MAX_HZ = 10**12  # a clock rate in target.toml (as CFG ts_hz / cpu_hz in a stream)
MAX_ICOUNT_SHIFT = 10  # QEMU's -icount shift: 2^N ns per instruction, N at most 10
MIN_LIMIT_S, MAX_LIMIT_S = 0.001, 1e6  # [limits]: finite, a limit that can end a run


def load_target(path: Path) -> Target:
    t = TomlTable(read_toml(path), path)
    name = folder_name(t, path, "target")
    description = t.text("description", "")
    kind = t.text("kind", REQUIRED)
    if kind not in KINDS:
        raise UserError(f"unknown target kind '{kind}' (key 'kind')", str(path),
                        f"Use one of: {', '.join(KINDS)}")
    arch = t.text("arch", REQUIRED)
    cpu = t.text("cpu", "")
    cpu_hz = t.num("cpu_hz", 0, high=MAX_HZ)
    if kind != "host" and cpu_hz <= 0:
        raise UserError("missing key 'cpu_hz'", str(path),
                        "Set cpu_hz to the core clock at which the firmware runs (SysTick input)")
    toolchain = t.text("toolchain", "")
    ct = t.table("counter")
    if ct is None:
        raise UserError("missing table [counter]", str(path),
                        "Add [counter] with name, unit and hz of the timestamp counter")
    unit = ct.text("unit", REQUIRED)
    # A cycle counter (DWT) counts the core clock: its rate is cpu_hz, not a second copy.
    counter = Counter(ct.text("name", REQUIRED), unit,
                      ct.num("hz", cpu_hz if unit == "cycles" and cpu_hz > 0 else REQUIRED,
                             low=1, high=MAX_HZ))
    ct.done()
    qemu = None
    qt = t.table("qemu")
    if qt is not None:
        qemu = QemuSpec(qt.text("machine", REQUIRED),
                        qt.num("icount_shift", 6, high=MAX_ICOUNT_SHIFT),
                        qt.strs("extra_args", ()))
        qt.done()
    if kind == "qemu" and qemu is None:
        raise UserError("a qemu target needs a [qemu] table", str(path),
                        "Add [qemu] with machine = \"...\"")
    limits = t.table("limits")
    wall, guest, silent = 120.0, 60.0, 120.0
    if limits is not None:
        wall = limits.seconds("wall_s", wall, MIN_LIMIT_S, MAX_LIMIT_S)
        guest = limits.seconds("guest_s", guest, MIN_LIMIT_S, MAX_LIMIT_S)
        silent = limits.seconds("silent_s", silent, MIN_LIMIT_S, MAX_LIMIT_S)
        limits.done()
    board = t._get("board", dict, "a table", {})
    if kind == "board" and not board:
        raise UserError("a board target needs a [board] table", str(path),
                        "Add [board] with probe and pyocd_target (docs/boards.md)")
    params: dict[str, int] = {}
    pt = t.table("params")
    if pt is not None:
        params = {key: pt.num(key, REQUIRED, low=1) for key in ("samples", "batch", "tm_period_ms",
                                                          "tm_periods") if key in pt.data}
        pt.done()
    reset_hz, reset_counter_hz = 0, 0
    clock = t.table("clock")
    if clock is not None:
        reset_hz = clock.num("reset_hz", REQUIRED, low=1, high=MAX_HZ)
        # a DWT counter counts the core clock; a chip timer says its own rate
        reset_counter_hz = clock.num("reset_counter_hz", reset_hz if unit == "cycles" else REQUIRED,
                                     low=1, high=MAX_HZ)
        clock.done()
    memory = t._get("memory", dict, "a table", {})
    marker_pin = ""
    power = t.table("power")
    if power is not None:
        marker_pin = power.text("marker_pin", REQUIRED)
        power.done()
    t.done()
    family = path.parent.parent.name if path.parent.parent.name != "targets" else ""
    return Target(name, description, kind, arch, cpu, toolchain, counter, qemu, path.parent, path,
                  wall, guest, cpu_hz, board, params, family, reset_hz, reset_counter_hz,
                  memory, marker_pin, silent_limit_s=silent)


def board_of(target: Target) -> Board:
    """The board a target of kind "board" is: its [board] table's probe name
    (pyOCD's), serial speed and `tested` (whether it
    has run on the hardware). runners.board_settings checks the table."""
    b = target.board
    probe = {"pyocd": str(b["pyocd_target"])} if b.get("pyocd_target") else {}
    baud = b.get("serial_baud")
    return Board(target.name, target.name, target.description, bool(b.get("tested", False)),
                 probe, {"baud": int(baud)} if isinstance(baud, int) else {}, target.file)
