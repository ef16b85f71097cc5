"""The tree of a port's network stack when it is not the RTOS's own (port.toml
[net] stack and [net.source]: lwIP for FreeRTOS): from `--source <stack>=PATH`,
else the stack's environment variable. Needed only by the net-* loads; never
copied into this repository."""

from __future__ import annotations

import os
import re
from pathlib import Path

from rtosmeter.definitions import Port
from rtosmeter.errors import UserError
from rtosmeter.sources import SourceMissing, SourceTree, git_commit


class NetSourceMissing(SourceMissing):
    """The port's network stack needs a tree that is not there."""

    def __init__(self, port: Port) -> None:
        net = port.net
        assert net is not None and net.source is not None
        self.reason = (f"{port.name}'s network stack {net.stack} needs its source tree: pass "
                       f"--source {net.stack}=PATH or set {net.source.env} ({port.file} "
                       "[net.source])")
        Exception.__init__(self, self.reason)


def net_source_names(ports: list[Port]) -> list[str]:
    """The --source names of the network stacks' trees."""
    return [p.net.stack for p in ports if p.net is not None and p.net.source is not None]


def find_net_source(port: Port, overrides: dict[str, Path]) -> SourceTree | None:
    """The tree of the port's network stack, None if the port needs none;
    raises NetSourceMissing if absent, UserError if it is not the stack's."""
    net = port.net
    if net is None or net.source is None:
        return None
    spec = net.source
    if net.stack in overrides:
        tree, origin = overrides[net.stack].expanduser(), f"--source {net.stack}"
    elif env := os.environ.get(spec.env):
        tree, origin = Path(env).expanduser(), f"${spec.env}"
    else:
        raise NetSourceMissing(port)
    if not (tree / spec.probe).is_file():
        raise UserError(f"the {net.stack} tree has no {spec.probe}", f"{origin} ({tree})",
                        f"Point it at the root of a {net.stack} checkout ({spec.git or port.file})")
    version = ""
    if spec.version_file and (tree / spec.version_file).is_file():
        m = re.search(spec.version_regex, (tree / spec.version_file).read_text(errors="replace"))
        version = ".".join(g for g in m.groups() if g) if m else ""
    return SourceTree(net.stack, tree.resolve(), origin, version, git_commit(tree))
