"""Options and helpers shared by several subcommands."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from rtosmeter import reports
from rtosmeter.errors import UserError

if TYPE_CHECKING:
    from rtosmeter.reports.document.sheet import Sheet
    from rtosmeter.store import Store

F = TypeVar("F", bound=Callable[..., Any])

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


class FormatName(click.ParamType[str]):
    """A `--format` value: one of reports.FORMATS (or a former name of one,
    accepted and not shown), or one of the command's own `extra` names."""

    name = "format"

    def __init__(self, shown: Sequence[str], extra: Sequence[str] = ()) -> None:
        self.shown, self.extra = tuple(shown), tuple(extra)

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return "[" + "|".join(self.shown) + "]"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        name = reports.public(str(value))
        if name in self.shown or name in self.extra:
            return name
        self.fail(f"{value!r} is not one of {', '.join(self.shown)}", param, ctx)


def format_option(gives: Sequence[str], default: str = "table", extra: Sequence[str] = (),
                  help_text: str = "") -> Callable[[F], F]:
    """The one `--format` of every command: table, md, csv, json, html
    (reports.FORMATS); a format this command does not give (`gives`) is a
    UserError naming the ones it does."""
    shown = reports.choices()

    def check(ctx: click.Context, _param: click.Parameter, value: str) -> str:
        if value not in gives and value not in extra:
            raise UserError(f"`{ctx.command_path}` has no {value} format", "--format",
                            f"Use one of: {', '.join(gives)}")
        return value

    return click.option("--format", "fmt", type=FormatName(shown, extra), default=default,
                        show_default=True, callback=check, help=help_text)


def echo_sheet(sheet: Sheet, fmt: str, width: int | None = None) -> None:
    """A comparison, a study or a breakdown in `fmt`, on stdout alone (JSON
    included: a reader can take it); colour only on a terminal without NO_COLOR."""
    import os
    import sys

    from rtosmeter.reports import table

    if fmt == "table":
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        text = table.render(sheet, width=width, color=color)
    else:
        text = reports.render(sheet, fmt)
    click.echo(text, nl=not text.endswith("\n"))
