"""`rtosmeter history`: the stored runs; with --case, that case across runs."""

from __future__ import annotations

from pathlib import Path

import click

from rtosmeter.commands.common import open_store, out_option
from rtosmeter.textsafe import chart_name, terminal_safe


def history_text(out: Path) -> str:
    from rtosmeter import history as hist  # numpy, through the analysis

    with open_store(out, must_exist=True) as store:
        runs = hist.list_runs(store)
    lines = ["run  started                    status       campaign    ports / targets / "
             "profiles; sources"]
    for r in runs:
        lines.append(
            f"{r.id:<4} {r.started:<26} {r.status:<12} {r.campaign or '-':<11} "
            f"{','.join(r.ports)} / {','.join(r.targets)} / {','.join(r.profiles)}"
            + (f"; {', '.join(r.sources)}" if r.sources else "")
            + (f"  [rtosmeter {r.tool_version}]" if r.tool_version else ""))
    return terminal_safe("\n".join(lines))


@click.command("history")
@out_option
@click.option("--case", "case_id", default=None, help="Follow this case ID across the runs.")
@click.option("--chart", "chart_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Write the case's chart here (.svg or .png); "
              "default OUT/history-<case>.svg.")
def history(out: Path, case_id: str | None, chart_path: Path | None) -> None:
    """List stored runs (campaign, ports, targets, sources, versions)."""
    click.echo(history_text(out))
    if case_id:
        from rtosmeter import history as hist

        path = chart_path or out / f"history-{chart_name(case_id)}.svg"
        with open_store(out, must_exist=True) as store:
            hist.write_chart(store, case_id, path)
        click.echo(f"chart of {case_id}: {path}")
