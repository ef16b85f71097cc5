"""Profiles (profiles/*.toml): the optimisation intent and the run-length
parameters per target kind, over built-in defaults."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from rtosmeter.definitions.common import BOARD_CLOCKS, KINDS, OPT_INTENTS, PARAM_KEYS
from rtosmeter.errors import UserError
from rtosmeter.loads import Load
from rtosmeter.loads import split as split_load
from rtosmeter.toml_table import TomlTable, read_toml


@dataclass(frozen=True)
class Params:
    """Run-length parameters compiled into rm_build_config.h."""

    samples: int
    batch: int
    tm_period_ms: int  # throughput period in milliseconds (ticks: HELLO tm_period)
    tm_periods: int

    def merged(self, overrides: dict[str, int]) -> Params:
        return replace(self, **overrides)


# How the kernel idles: `spin` (a busy idle loop: no WFI under emulation, so
# virtual time never warps) or `kernel` (the kernel's own low-power idle with
# WFI, tickless where it has it: the lowpower profile, docs/idle.md).
IDLE_MODES = ("spin", "kernel")

_DEFINE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(=[A-Za-z0-9_.+-]*)?")

# Built-in defaults per target kind; profiles and campaigns override them.
DEFAULT_PARAMS = {
    "host": Params(4096, 512, 300, 3),
    "qemu": Params(1024, 256, 100, 3),
    "board": Params(131072, 1024, 30000, 3),
}


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    opt: str  # the optimisation intent (OPT_INTENTS): each toolchain maps it to its flags
    params: dict[str, dict[str, int]]  # kind -> overrides
    file: Path
    load: Load | None = None  # a loaded profile `<name>+<load>` (rtosmeter.loads)
    opt_flags: str = ""  # flags given as they are, for every toolchain ("": the intent's)
    board_clock: str = "max"  # BOARD_CLOCKS: boards at their maximum clock, or the reset one
    idle: str = "spin"  # IDLE_MODES: spin (RM_NO_WFI under QEMU) | kernel (RM_IDLE_KERNEL)
    # the kernel configuration the ports build (their RM_PROFILE): "" : this
    # profile's own name; a study's profile names one of profiles/ ("vendor")
    kernel_config: str = ""
    # port -> the compile definitions of a study's stated kernel options
    # (Beningo App. B's TX_NOT_INTERRUPTABLE, ...), on every source of its firmware
    defines: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def kernel(self) -> str:
        return self.kernel_config or split_load(self.name)[0]

    def params_for(self, kind: str) -> Params:
        return DEFAULT_PARAMS[kind].merged(self.params.get(kind, {}))


def params_tables(t: TomlTable) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    table = t.table("params")
    if table is None:
        return out
    for kind in list(table.data):
        if kind not in KINDS:
            table.used.add(kind)
            raise UserError(f"unknown key '{table.prefix}{kind}'", str(t.path),
                            f"Use one of the target kinds: {', '.join(KINDS)}")
        sub = table.table(kind)
        assert sub is not None
        values = {k: sub.num(k, low=1) for k in PARAM_KEYS if k in sub.data}
        sub.done()
        out[kind] = values
    table.done()
    return out


def load_profile(path: Path) -> Profile:
    t = TomlTable(read_toml(path), path)
    name = t.text("name", path.stem)
    description = t.text("description", "")
    opt = t.text("opt", "speed")
    if opt not in OPT_INTENTS:
        raise UserError(f"unknown optimisation intent '{opt}' (key 'opt')", str(path),
                        f"Use one of: {', '.join(OPT_INTENTS)}")
    opt_flags = t.text("opt_flags", "")
    board_clock = t.text("board_clock", "max")
    if board_clock not in BOARD_CLOCKS:
        raise UserError(f"unknown board clock '{board_clock}' (key 'board_clock')", str(path),
                        f"Use one of: {', '.join(BOARD_CLOCKS)}")
    idle = t.text("idle", "spin")
    if idle not in IDLE_MODES:
        raise UserError(f"unknown idle mode '{idle}' (key 'idle')", str(path),
                        f"Use one of: {', '.join(IDLE_MODES)}")
    params = params_tables(t)
    kernel = t.text("kernel", "")
    table = t.table("defines")
    defines = {port: table.strs(port) for port in list(table.data)} if table else {}
    for port, names in defines.items():
        bad = next((d for d in names if not _DEFINE.fullmatch(d)), None)
        if bad is not None:
            raise UserError(f"'{bad}' is not a compile definition (key 'defines.{port}')",
                            str(path), "Give NAME or NAME=VALUE, e.g. \"TX_NOT_INTERRUPTABLE\"")
    if table:
        table.done()
    t.done()
    return Profile(name, description, opt, params, path, opt_flags=opt_flags,
                   board_clock=board_clock, idle=idle, kernel_config=kernel, defines=defines)
