"""Several versions of one RTOS side by side: port instances.

An instance is a port name with a label, `freertos@V9.0.0`: the same port
(port.toml and port code) built against another source tree. The label is one
more coordinate of a build, beside target and profile; it travels inside the
port coordinate, so the plan, the build folder (`build/freertos@V9.0.0/...`),
the store (`builds.port`), every report (one column per instance) and
`compare` (which matches systems by name) keep the versions apart without a
field of their own. The tree of an instance comes from
`--source freertos@V9.0.0=PATH`, the configuration's
`[sources] "freertos@V9.0.0"`, or the cache filled by
`rtosmeter sources fetch freertos@V9.0.0`; never from the port's environment
variable, which names the one unlabelled tree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rtosmeter.errors import UserError

SEP = "@"
_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
_VERSIONISH = re.compile(r"[vV]?\d+(\.\d+)*")


def split(name: str, where: str = "--port") -> tuple[str, str]:
    """"freertos@V9.0.0" -> ("freertos", "V9.0.0"); a plain name has label ""."""
    port, sep, label = name.partition(SEP)
    if sep and not _LABEL.fullmatch(label):
        raise UserError(f"'{name}' has a malformed version label", where,
                        "Write PORT@LABEL with a label of letters, digits and . _ + - "
                        "(e.g. freertos@V10.4.6)")
    return port, label


def join(port: str, label: str) -> str:
    return f"{port}{SEP}{label}" if label else port


def expand(ports: Iterable[str], sources: Mapping[str, object]) -> tuple[str, ...]:
    """A port named without a label, for which --source names labelled trees,
    runs as those instances (and also unlabelled if --source names its plain
    tree too); other names are kept as they are. Where the instances are
    named beside the plain port (`freertos@V9.0.0,freertos`), the plain name
    is the unlabelled tree: both run."""
    ports = tuple(ports)
    named = {split(p)[0] for p in ports if SEP in p}
    out: list[str] = []
    for name in ports:
        labelled = [k for k in sources if SEP in k and split(k, "--source")[0] == name]
        if SEP in name or not labelled or name in named:
            out.append(name)
            continue
        out += ([name] if name in sources else []) + labelled
    return tuple(dict.fromkeys(out))


def _norm(version: str) -> str:
    return version.strip().lstrip("vV").rstrip("+")


def check_label(name: str, version: str, where: str) -> None:
    """A label that reads as a version must be the tree's version: a
    `freertos@V9.0.0` column must not hold another kernel."""
    port, label = split(name, where)
    if not label or not version or not _VERSIONISH.fullmatch(label):
        return
    if _norm(label) != _norm(version):
        raise UserError(f"the tree given for {name} is {port} {version}, not {label}", where,
                        f"Pass the {label} tree, or name the instance after its version "
                        f"({join(port, version.rstrip('+'))})")


def sort_key(name: str) -> tuple[str, tuple[tuple[int, str], ...]]:
    """Instances of one port in version order (V9 before V10), not text order."""
    port, _, label = name.partition(SEP)
    return port, tuple((int(part), "") if part.isdigit() else (-1, part)
                       for part in re.findall(r"[0-9]{1,18}|[^0-9.]+", label))
