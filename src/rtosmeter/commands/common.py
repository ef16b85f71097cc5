"""Options and helpers shared by several subcommands."""

from __future__ import annotations

from pathlib import Path

import click

from rtosmeter.errors import UserError
from rtosmeter.store import Store

DEFAULT_OUT = Path("rtosmeter-out")
STORE_NAME = "rtosmeter.sqlite"

out_option = click.option(
    "--out", "out", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_OUT,
    show_default=True, help="Campaign folder: the store (rtosmeter.sqlite), builds, reports.")


def split_list(values: tuple[str, ...]) -> tuple[str, ...]:
    """--port a,b --port c -> (a, b, c)."""
    out: list[str] = []
    for value in values:
        out += [v.strip() for v in value.split(",") if v.strip()]
    return tuple(dict.fromkeys(out))


def open_store(out: Path, must_exist: bool = False) -> Store:
    path = out / STORE_NAME
    if must_exist and not path.is_file():
        raise UserError("no result store", str(path),
                        "Run `rtosmeter run` first, or pass the --out folder of a campaign")
    return Store.open(path)
