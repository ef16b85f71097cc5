"""`rtosmeter sources`: list and fetch third-party RTOS trees."""

from __future__ import annotations

from pathlib import Path

import click


@click.group("sources")
def sources() -> None:
    """RTOS source trees: where they are, which version, fetching them."""


@sources.command("list")
def list_sources() -> None:
    """Ports that build against an RTOS tree, and where each tree is."""
    from rtosmeter.definitions import Definitions  # not for --help
    from rtosmeter.sources import cache_dir, describe_source

    defs = Definitions.load()
    for port in defs.ports.values():
        if port.source is None:
            continue
        found, where = describe_source(port)
        click.echo(f"{port.name}: {where if found else 'not found: ' + where}")
        click.echo(f"    git {port.source.git or '-'} tag {port.source.tag or '-'}; "
                   f"env {port.source.env}")
    click.echo(f"Fetched trees go to {cache_dir()}")


@sources.command("fetch")
@click.argument("spec", metavar="NAME[@TAG]")
@click.option("--dest", type=click.Path(file_okay=False, path_type=Path),
              help="Clone here instead of the cache folder.")
def fetch_source(spec: str, dest: Path | None) -> None:
    """Clone a port's RTOS at a tag (default: the tag in its port.toml)."""
    from rtosmeter.definitions import Definitions
    from rtosmeter.sources import fetch

    name, _, tag = spec.partition("@")
    defs = Definitions.load()
    tree = fetch(defs.port(name, "sources fetch"), tag or None, dest)
    click.echo(f"{name} {tree.version or tag} in {tree.path}")
