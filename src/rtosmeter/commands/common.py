"""Options and helpers shared by several subcommands."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from rtosmeter.errors import UserError

if TYPE_CHECKING:
    from rtosmeter.store import Store

DEFAULT_OUT = Path("rtosmeter-out")
STORE_NAME = "rtosmeter.sqlite"

out_option = click.option(
    "--out", "out", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_OUT,
    show_default=True, help="Campaign folder: the store (rtosmeter.sqlite), builds, reports.")


def echo_json(data: object) -> None:
    """`data` as one JSON document on stdout (docs/results-schema.md, "Command
    output as JSON"); NaN and infinity are refused, not written as invalid JSON."""
    import json

    click.echo(json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False))


def split_list(values: tuple[str, ...]) -> tuple[str, ...]:
    """--port a,b --port c -> (a, b, c)."""
    out: list[str] = []
    for value in values:
        out += [v.strip() for v in value.split(",") if v.strip()]
    return tuple(dict.fromkeys(out))


MAX_RUN_DIGITS = 18  # SQLite's ids are signed 64-bit: 19 digits may already overflow


def resolve_run(store: Store, ref: str) -> int:
    """The run id `ref` names (latest, latest~N or a number), refusing a
    number no store can hold before SQLite sees it."""
    text = ref.strip()
    number = text.removeprefix("latest").removeprefix("~")
    if len(number) > MAX_RUN_DIGITS and number.isdigit():
        raise UserError(f"no run {text[:24]}{'…' if len(text) > 24 else ''}",
                        str(store.path), "Give a run number `rtosmeter history` lists, "
                        "`latest` or `latest~N`")
    return store.resolve_run(text)


def open_store(out: Path, must_exist: bool = False) -> Store:
    path = out / STORE_NAME
    if must_exist and not path.is_file():
        raise UserError("no result store", str(path),
                        "Run `rtosmeter run` first, or pass the --out folder of a campaign")
    from rtosmeter.store import Store  # numpy: not for --help

    return Store.open(path, read_only_ok=must_exist)  # the readers: history, report, compare
