"""`rtosmeter list`: benchmarks, ports, targets and boards, and what runs here."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rtosmeter.commands.common import echo_json, format_option

if TYPE_CHECKING:
    from rich.table import Table

    from rtosmeter.catalog import Catalog
    from rtosmeter.definitions import Board, Definitions, Target, Toolchain


@dataclass
class Listing:
    benchmarks: list[tuple[str, str, str]]  # id, group, needs
    ports: list[tuple[str, str, str, str]]  # name, caps, architectures, source
    targets: list[tuple[str, str, str, str]]  # name, kind, counter, available
    boards: list[tuple[str, str, str, str]]  # name, target, probe and serial, status
    toolchains: list[tuple[str, str, str]]  # name, description, available for which prefixes


def _source_status(defs: Definitions, name: str) -> str:
    from rtosmeter.sources import describe_source

    port = defs.ports[name]
    found, text = describe_source(port)
    tested = port.source.tested if port.source else ()
    runs = f" (versions run: {', '.join(tested)})" if tested else ""
    return (text if found else f"missing: {text}") + runs


def _connection(board: Board) -> str:
    """"probe pyocd k64f, serial 115200 Bd": how the board is flashed and read."""
    probe = ", ".join(f"{tool} {target}" for tool, target in board.probe.items())
    parts = [f"probe {probe}"] * bool(probe) + [f"serial {board.serial['baud']} Bd"] * bool(
        board.serial.get("baud"))
    return ", ".join(parts) or "-"


def collect(defs: Definitions, catalog: Catalog) -> Listing:
    benchmarks = [(c.id, c.group, " | ".join(c.needs) or "-") for c in catalog.cases]
    ports = [(p.name, ", ".join(p.caps), ", ".join(p.archs), _source_status(defs, p.name))
             for p in defs.ports.values()]
    from rtosmeter.definitions import DEFAULT_TOOLCHAIN
    from rtosmeter.plan import unavailable_reason  # the run pipeline: not for --help

    targets = []
    gcc = defs.toolchain(DEFAULT_TOOLCHAIN, "toolchains/")
    for t in defs.targets.values():
        reason = unavailable_reason(t, gcc)
        counter = f"{t.counter.name}, {t.counter.unit} @ {t.counter.hz} Hz"
        targets.append((t.name, f"{t.kind}, {t.arch}", counter,
                        "yes" if not reason else f"no: {reason}"))
    boards = [(b.name, b.target, _connection(b), "tested" if b.tested else "untested on hardware")
              for b in defs.boards.values()]
    toolchains = [(tc.name, tc.description, _toolchain_status(tc, list(defs.targets.values())))
                  for tc in defs.toolchains.values()]
    return Listing(benchmarks, ports, targets, boards, toolchains)


def _toolchain_status(tc: Toolchain, targets: list[Target]) -> str:
    """"arm-none-eabi: yes; host: no: missing clang" per target prefix it builds for."""
    from rtosmeter.build import missing_tools

    out = []
    for prefix in tc.uses:
        target = next((t for t in targets if (t.toolchain or "host") == prefix), None)
        missing = missing_tools(target, tc) if target else []
        out.append(f"{prefix}: " + ("yes" if not missing else "no: missing "
                                    + ", ".join(p for p, _ in missing)))
    return "; ".join(out)


def _table(title: str, headers: tuple[str, ...], rows: Sequence[Sequence[str]]) -> Table:
    from rich.table import Table

    table = Table(title=title, title_justify="left", show_lines=False)
    for h in headers:
        table.add_column(h, overflow="fold")
    for row in rows:
        table.add_row(*row)
    return table


BENCHMARK_KEYS = ("id", "group", "needs")
PORT_KEYS = ("port", "capabilities", "architectures", "source")
TARGET_KEYS = ("target", "kind", "counter", "available")
BOARD_KEYS = ("board", "target", "connection", "status")
TOOLCHAIN_KEYS = ("toolchain", "description", "available")


def as_json(listing: Listing, root: Path) -> dict[str, object]:
    """The listing with named fields (docs/results-schema.md)."""
    def records(keys: tuple[str, ...], rows: Sequence[Sequence[str]]) -> list[dict[str, str]]:
        return [dict(zip(keys, row, strict=True)) for row in rows]

    return {"benchmarks": records(BENCHMARK_KEYS, listing.benchmarks),
            "ports": records(PORT_KEYS, listing.ports),
            "targets": records(TARGET_KEYS, listing.targets),
            "boards": records(BOARD_KEYS, listing.boards),
            "toolchains": records(TOOLCHAIN_KEYS, listing.toolchains), "definitions": str(root)}


@click.command("list")
@format_option(("table", "json"), help_text="Terminal tables, or JSON.")
def list_command(fmt: str) -> None:
    """Show benchmarks, ports, targets, boards and toolchains, and what is available here."""
    from rich.console import Console

    from rtosmeter.catalog import load_catalog
    from rtosmeter.definitions import Definitions  # not for --help

    defs = Definitions.load()
    listing = collect(defs, load_catalog(defs.root))
    if fmt == "json":
        echo_json(as_json(listing, Path(defs.root)))
        return
    console = Console(width=None if sys.stdout.isatty() else 140,
                      force_terminal=False)
    console.print(_table("Benchmarks", ("id", "group", "needs"), listing.benchmarks))
    console.print(_table("Ports", ("port", "capabilities", "architectures", "RTOS source"),
                         listing.ports))
    console.print(_table("Targets", ("target", "kind, architecture", "counter", "available here"),
                         listing.targets))
    console.print(_table("Boards", ("board", "built as", "probe, serial", "status"),
                         listing.boards))
    console.print(_table("Toolchains", ("toolchain", "description", "available here"),
                         listing.toolchains))
    console.print(f"Definitions read from {Path(defs.root)}")
