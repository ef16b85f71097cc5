"""The `rtosmeter` command: a click group over the commands/ modules.

`main()` is the entry point. Exit status (README, "The command line"): 0 on
success, 1 for every user error, usage error (click's own are 2 by default)
and tool-chain failure, 2 only when `compare`'s gate fails. A
`UserError` becomes `Error: <message>` on stderr; `--debug` shows the
traceback instead.

Command modules import nothing heavy at module level (numpy, scipy,
matplotlib, jinja2 load inside the functions that need them), so `--help`
and `--version` start at once: scripts/bench_startup.py measures it.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence
from typing import Any

import click

from rtosmeter import __version__, config
from rtosmeter.commands.calibrate import calibrate
from rtosmeter.commands.compare import compare
from rtosmeter.commands.doctor import doctor
from rtosmeter.commands.energy import energy
from rtosmeter.commands.explain import explain
from rtosmeter.commands.histogram import histogram
from rtosmeter.commands.history import history
from rtosmeter.commands.list import list_command
from rtosmeter.commands.publish import publish
from rtosmeter.commands.report import report
from rtosmeter.commands.run import run
from rtosmeter.commands.sources import sources
from rtosmeter.commands.study import study
from rtosmeter.commands.validate import validate
from rtosmeter.errors import USER_ERROR_EXIT, UserError


class _Group(click.Group):
    """Turns UserError into `Error: ...` and every error into exit 1 (unless --debug)."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.ClickException as exc:  # usage errors included: 1, not click's 2
            exc.show()
            sys.exit(USER_ERROR_EXIT)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(USER_ERROR_EXIT)
        sys.exit(rv if isinstance(rv, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except UserError as exc:
            if ctx.params.get("debug"):
                raise
            raise click.ClickException(exc.message) from None
        except (click.ClickException, click.exceptions.Exit, click.Abort, KeyboardInterrupt):
            raise
        except Exception as exc:
            if ctx.params.get("debug"):
                raise
            raise click.ClickException(
                f"internal error {type(exc).__name__}: {exc} in rtosmeter {__version__}. "
                "Run again with --debug for the traceback and report it") from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
@click.version_option(__version__, prog_name="rtosmeter")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Reproducible RTOS benchmarks on host, QEMU and boards.

    Option defaults and RTOS trees can be kept in ~/.config/rtosmeter/config.toml
    or a project's rtosmeter.toml (`rtosmeter doctor` shows what is read).
    """
    if debug:
        traceback.sys.tracebacklimit = 1000  # type: ignore[attr-defined]
    ctx.default_map = config.default_map(config.load(), _option_keys(ctx.command))


def _option_keys(group: click.Command) -> dict[str, dict[str, str]]:
    """command -> {option as written in a config file: click parameter name}:
    the long option without dashes (`format`, `no-icount`), else the
    parameter's name (`jobs` for -j)."""
    assert isinstance(group, click.Group)
    out: dict[str, dict[str, str]] = {}
    for name, command in group.commands.items():
        keys: dict[str, str] = {}
        for param in command.params:
            if isinstance(param, click.Option) and param.name:
                longs = [o[2:] for o in param.opts if o.startswith("--")]
                keys[longs[0] if longs else param.name] = param.name
        out[name] = keys
    return out


for _command in (run, report, list_command, doctor, sources, compare, history, histogram,
                 publish, study, explain, calibrate, energy, validate):
    cli.add_command(_command)


def main() -> None:
    cli(prog_name="rtosmeter")
