"""The coordinates of an execution beyond port, target and profile.

An axis is one more value that tells two builds of one (port, target,
profile) apart: the toolchain today; an RTOS version would be another. A
build stores its axes as one JSON object (store `builds.axes`), every axis
present. A system is named "port/target/profile" followed by "+value" for
each axis not at its default ("freertos/qemu-mps2-an386/default+clang"), so
runs built with the defaults keep the names they always had, and compare
matches systems across runs by that name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from rtosmeter.definitions import DEFAULT_TOOLCHAIN

# axis -> its default value, in the order names show them
AXES: dict[str, str] = {"toolchain": DEFAULT_TOOLCHAIN}


def complete(axes: Mapping[str, str]) -> dict[str, str]:
    """Every axis, the defaults filled in (known axes first, in AXES order)."""
    out = {k: str(axes.get(k, default)) for k, default in AXES.items()}
    out.update({k: str(v) for k, v in sorted(axes.items()) if k not in AXES})
    return out


def suffix(axes: Mapping[str, str]) -> str:
    """"+clang" for the axes not at their default; "" when all are."""
    return "".join(f"+{v}" for k, v in complete(axes).items() if AXES.get(k) != v)


def canonical(axes: Mapping[str, str]) -> str:
    """One text per set of axes: how the store keys and compares them."""
    return json.dumps(complete(axes), sort_keys=True)


def order(axes: Mapping[str, str]) -> tuple[tuple[bool, str], ...]:
    """A sort key: each axis at its default first (gcc before clang)."""
    return tuple((AXES.get(k) != v, v) for k, v in complete(axes).items())


def name(port: str, target: str, profile: str, axes: Mapping[str, str]) -> str:
    """The compared system: "port/target/profile" and the axes' suffix."""
    return f"{port}/{target}/{profile}{suffix(axes)}"
