"""Profiles (profiles/*.toml): the optimisation intent and the run-length
parameters per target kind, over built-in defaults."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from rtosmeter.definitions.common import BOARD_CLOCKS, KINDS, OPT_INTENTS, PARAM_KEYS
from rtosmeter.errors import UserError
from rtosmeter.loads import Load
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
    t.done()
    return Profile(name, description, opt, params, path, opt_flags=opt_flags,
                   board_clock=board_clock, idle=idle)
