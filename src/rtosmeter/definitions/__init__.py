"""Ports, targets, boards, profiles and campaigns: the declarative TOML files.

Each kind is found by looking in its folder (ports/*/port.toml,
targets/*/target.toml or targets/<family>/*/target.toml,
toolchains/*/toolchain.toml, profiles/*.toml, campaigns/*.toml; a board is
a target of kind "board");
there is no central list. Files are validated strictly: an unknown key is an
error naming the file and the key (a typo must not silently change a set-up),
and an unknown name lists the valid ones. Schemas: docs/architecture.md.

One module per kind (ports, targets, toolchains, profiles, campaigns), what
they share (common), and the whole tree's (tree: `Definitions`); every name
is also here, where callers import it from.
"""

from __future__ import annotations

from rtosmeter.definitions.campaigns import (
    Campaign,
    CampaignEntry,
    load_campaign,
)
from rtosmeter.definitions.common import (
    DEFAULT_TOOLCHAIN,
    HOST_PREFIX,
    KINDS,
    OPT_INTENTS,
    PARAM_KEYS,
    project_root,
    unknown_name,
)
from rtosmeter.definitions.ports import (
    Companion,
    Port,
    PortTarget,
    SourceSpec,
    ToolchainLimit,
    load_port,
)
from rtosmeter.definitions.profiles import (
    DEFAULT_PARAMS,
    Params,
    Profile,
    load_profile,
)
from rtosmeter.definitions.targets import (
    Board,
    Counter,
    FirmwareCounter,
    QemuSpec,
    Target,
    board_of,
    load_target,
)
from rtosmeter.definitions.toolchains import (
    Toolchain,
    ToolchainUse,
    load_toolchain,
)
from rtosmeter.definitions.tree import (
    Definitions,
)

__all__ = [
    "DEFAULT_PARAMS",
    "DEFAULT_TOOLCHAIN",
    "HOST_PREFIX",
    "KINDS",
    "OPT_INTENTS",
    "PARAM_KEYS",
    "Board",
    "Campaign",
    "CampaignEntry",
    "Companion",
    "Counter",
    "Definitions",
    "FirmwareCounter",
    "Params",
    "Port",
    "PortTarget",
    "Profile",
    "QemuSpec",
    "SourceSpec",
    "Target",
    "Toolchain",
    "ToolchainLimit",
    "ToolchainUse",
    "board_of",
    "load_campaign",
    "load_port",
    "load_profile",
    "load_target",
    "load_toolchain",
    "project_root",
    "unknown_name",
]
