"""The `rtosmeter` command: a click group over the commands/ modules.

`main()` is the entry point. A `UserError` becomes `Error: <message>` on
stderr and exit status 1; `--debug` shows the traceback instead.
"""

from __future__ import annotations

import traceback
from typing import Any

import click

from rtosmeter import __version__
from rtosmeter.commands.compare import compare
from rtosmeter.commands.doctor import doctor
from rtosmeter.commands.history import history
from rtosmeter.commands.list import list_command
from rtosmeter.commands.report import report
from rtosmeter.commands.run import run
from rtosmeter.commands.sources import sources
from rtosmeter.errors import UserError


class _Group(click.Group):
    """Turns UserError into click's `Error: ...` + exit 1 (unless --debug)."""

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
def cli(debug: bool) -> None:
    """Reproducible RTOS benchmarks on host, QEMU and boards."""
    if debug:
        traceback.sys.tracebacklimit = 1000  # type: ignore[attr-defined]


cli.add_command(run)
cli.add_command(report)
cli.add_command(list_command)
cli.add_command(doctor)
cli.add_command(sources)
cli.add_command(compare)
cli.add_command(history)


def main() -> None:
    cli(prog_name="rtosmeter")
