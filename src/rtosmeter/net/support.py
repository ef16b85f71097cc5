"""Where a net-* load can run: the port's own network stack (capability
NET) on a target it runs on, in a state it serves, with its tree present."""

from __future__ import annotations

from pathlib import Path

from rtosmeter.definitions import Port, Profile, Target
from rtosmeter.net.source import NetSourceMissing, find_net_source


def net_unsupported(port: Port, target: Target, profile: Profile,
                    sources: dict[str, Path]) -> str:
    """Why the profile's net-* load cannot run here ("" when it can, or when
    the profile has no net-* load): a port without a network stack, with its
    port.toml reason; a target its stack does not run on ([net] targets), a
    state it cannot serve ([net] unsupported), or a stack whose tree is
    missing ([net.source])."""
    load = profile.load
    if load is None or not load.net_state:
        return ""
    if "NET" not in port.caps:
        why = port.unsupported.get("NET", "the port has no network stack on the virtual radio")
        return f"{port.name} under {load.name}: {why} (capability NET, {port.file})"
    if not port.net_runs_on(target):
        assert port.net is not None
        return (f"{port.name} under {load.name}: its network stack runs on "
                f"{', '.join(port.net.targets)} only, not {target.name} "
                f"({port.file} [net] targets)")
    if port.net is not None and (why := port.net.unsupported.get(load.net_state, "")):
        return f"{port.name} under {load.name}: {why} ({port.file} [net] unsupported)"
    try:
        find_net_source(port, sources)
    except NetSourceMissing as exc:
        return f"{port.name} under {load.name}: {exc.reason}"
    return ""
