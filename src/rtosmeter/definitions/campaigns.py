"""Campaigns (campaigns/*.toml): which ports, targets, profiles, loads and
toolchains a run combines, [[run]] by [[run]]."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtosmeter.definitions.common import DEFAULT_TOOLCHAIN
from rtosmeter.definitions.profiles import params_tables
from rtosmeter.errors import UserError
from rtosmeter.loads import parse as parse_load
from rtosmeter.toml_table import REQUIRED, TomlTable, read_toml


@dataclass(frozen=True)
class CampaignEntry:
    ports: tuple[str, ...]
    targets: tuple[str, ...]
    profiles: tuple[str, ...]
    bench: str
    optional: bool  # "only if available": skipped (and said so) when tools are missing
    where: str
    loads: tuple[str, ...] = ("idle",)  # load profiles (rtosmeter.loads), each a build
    toolchains: tuple[str, ...] = (DEFAULT_TOOLCHAIN,)


@dataclass(frozen=True)
class Campaign:
    name: str
    description: str
    entries: tuple[CampaignEntry, ...]
    params: dict[str, dict[str, int]]
    file: Path
    extra: dict[str, Any] = field(default_factory=dict)
    unit: str | None = None  # QEMU targets: instructions | cycles | ticks (None: the default)
    cycle_ws: int | None = None  # the cycle model's flash wait states (unit cycles)
    cycle_div: int | None = None  # the cycle model's SDIV/UDIV cycles (unit cycles)
    qemu: str | None = None  # the QEMU binary (rtosmeter.qemu_binary; --qemu wins)


def load_campaign(path: Path) -> Campaign:
    t = TomlTable(read_toml(path), path)
    name = t.text("name", path.stem)
    description = t.text("description", "")
    default_profiles = t.strs("profiles", ("default",))
    default_bench = t.text("bench", "*")
    default_loads = t.strs("loads", ("idle",))
    default_toolchains = t.strs("toolchains", (DEFAULT_TOOLCHAIN,))
    unit = t.text("unit", "") or None
    if unit is not None and unit not in ("instructions", "cycles", "ticks"):
        raise UserError(f"unknown unit '{unit}'", str(path),
                        "Valid units: instructions, cycles, ticks")
    cycle_ws, cycle_div = t.num("cycle_ws", None), t.num("cycle_div", None)
    qemu = t.text("qemu", "") or None  # a name on PATH, or a path (relative: to this file)
    if qemu is not None and "/" in qemu and not Path(qemu).expanduser().is_absolute():
        qemu = str(path.parent / qemu)
    params = params_tables(t)
    entries = []
    for et in t.tables("run"):
        entries.append(CampaignEntry(
            ports=et.strs("ports", REQUIRED), targets=et.strs("targets", REQUIRED),
            profiles=et.strs("profiles", default_profiles), bench=et.text("bench", default_bench),
            optional=et.flag("if_available", False), where=f"{path} ([[run]] {et.prefix[4:-2]})",
            loads=et.strs("loads", default_loads),
            toolchains=et.strs("toolchains", default_toolchains),
        ))
        for key in ("ports", "targets"):  # an empty list once meant "everything"
            if not getattr(entries[-1], key):
                raise UserError(f"'{et.prefix}{key}' is empty", str(path),
                                f"Name at least one in {key} = [...] (`rtosmeter list`), or "
                                "remove the [[run]]")
        for spec in entries[-1].loads:
            parse_load(spec, f"{entries[-1].where}, key 'loads'")
        et.done()
    if not entries:
        raise UserError("no [[run]] entries", str(path),
                        "Add [[run]] with ports = [...] and targets = [...]")
    t.done()
    return Campaign(name, description, tuple(entries), params, path, unit=unit,
                    cycle_ws=cycle_ws, cycle_div=cycle_div, qemu=qemu)
