"""`rtosmeter publish DIR`: the store as a static site (publish.py)."""

from __future__ import annotations

from pathlib import Path

import click

from rtosmeter.commands.common import open_store, out_option


@click.command("publish")
@click.argument("site", type=click.Path(file_okay=False, path_type=Path))
@out_option
def publish(site: Path, out: Path) -> None:
    """Write every run, every study's verdicts and each case's history chart
    as a static site in SITE (relative links, no network: open
    SITE/index.html, or serve the folder)."""
    from rtosmeter.publish import publish as write_site

    with open_store(out, must_exist=True) as store:
        index = write_site(store, site)
    click.echo(f"Published: {index}")
