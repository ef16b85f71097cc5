"""What the tests of the third-party RTOS ports share (not a test module).

Each port test builds and runs its port for real through `run_campaign` (the
code behind `rtosmeter run`) against the tree its environment variable names,
and checks the streams against the catalog and the port's port.toml.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from _datahalf import parse_named

from rtosmeter.catalog import Catalog
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import Definitions, project_root
from rtosmeter.protocol import ParsedStream
from rtosmeter.qemu_plugin import PluginSpec
from rtosmeter.runners import run_once
from rtosmeter.runners.base import RunRequest
from rtosmeter.store import Store

ROOT = project_root()
SECTIONS_1_2 = ("tm.", "lat.", "sw.")  # BENCHMARKS.md throughput, latency, signal/wait


def tree_marks(env: str, probe: str, clone_hint: str) -> list[pytest.MarkDecorator]:
    """Skip the module, saying why, unless `env` names a tree holding `probe`."""
    tree = os.environ.get(env, "")
    return [pytest.mark.rtos, pytest.mark.skipif(
        not tree or not (Path(tree) / probe).is_file(),
        reason=f"{env} is not set to an RTOS tree (e.g. git clone {clone_hint})")]


def need(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is required: run scripts/install.sh")


def run_port(out: Path, port: str, target: str, tree: str, profile: str = "quick",
             bench: str | None = None) -> dict[str, bytes]:
    """`rtosmeter run --port P --target T --profile X --source P=tree`: group -> stream."""
    summary = run_campaign(RunOptions(
        out=out, ports=(port,), targets=(target,), profile=profile, bench=bench,
        sources={port: Path(tree)}, jobs=2, quiet=True))
    with Store.open(out / "rtosmeter.sqlite") as store:
        return {e.group: store.stream(e.id) for e in store.executions(summary.run_id)}


def assert_reruns_identical(out: Path, port: str, target: str, first: dict[str, bytes],
                            profile: str = "quick") -> None:
    """Under -icount the same firmware gives the same stream, byte for byte:
    each firmware of `first` (run_port's) run once more. Counted by the QEMU
    plugin (folder `<profile>@instructions`, the default unit) where the port
    links with the shared linker script, else by the target's timer."""
    builds = out / "build" / port / target
    counted = builds / f"{profile}@instructions"
    build, plugin = (counted, PluginSpec("instructions")) if counted.is_dir() else (
        builds / profile, None)
    spec = Definitions.load(project_root()).target(target)
    for group, data in first.items():
        again = run_once(RunRequest(build / f"rm_{group}.elf", spec, plugin=plugin))
        assert again.stream == data, f"{group}: two QEMU runs of one firmware differ"


def check_streams(raw: dict[str, bytes], catalog: Catalog, port: str,
                  exceptions: dict[str, str] | None = None,
                  groups: list[str] | None = None) -> dict[str, ParsedStream]:
    """Every catalog case of each group is present; each case of sections 1-2
    is ok with passing checks and data, or unsupported for capabilities that
    port.toml gives a reason for. Cases in `exceptions` (id -> why) need only
    be present and intact."""
    streams = {group: parse_named(data) for group, data in raw.items()}
    port_toml = (ROOT / "ports" / port / "port.toml").read_text()
    assert set(streams) == set(groups or catalog.groups)
    for group, parsed in streams.items():
        assert parsed.complete and not parsed.errors and parsed.fault is None, (group, parsed)
        ids = {c.id for c in parsed.cases}
        for entry in catalog.cases:
            if entry.group == group:
                assert entry.id in ids, f"{entry.id} missing from the {group} stream"
        for pc in parsed.cases:
            if not pc.id.startswith(SECTIONS_1_2) or pc.id in (exceptions or {}):
                continue
            if pc.status == "unsupported":
                missing = pc.reason.removeprefix("port lacks ").split(", ")
                assert all(f'{m} = "' in port_toml for m in missing), (pc.id, pc.reason)
                continue
            assert pc.status == "ok", (group, pc.id, pc.status, pc.reason)
            assert all(ch.ok for ch in pc.checks), (pc.id, pc.checks)
            assert pc.series or pc.counts, pc.id
    return streams


def case_passes(parsed: ParsedStream, case_id: str) -> None:
    pc = next(c for c in parsed.cases if c.id == case_id)
    assert pc.status == "ok" and pc.checks and all(c.ok for c in pc.checks), (case_id, pc)
