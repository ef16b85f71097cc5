"""`rtosmeter history`: the stored runs; with --case, that case across runs."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rtosmeter.commands.common import echo_json, format_option, open_store, out_option
from rtosmeter.textsafe import chart_name, terminal_safe

if TYPE_CHECKING:
    from rtosmeter.history import StoredRun


def stored_runs(out: Path) -> list[StoredRun]:
    from rtosmeter import history as hist  # numpy, through the analysis

    with open_store(out, must_exist=True) as store:
        return hist.list_runs(store)


def history_text(out: Path) -> str:
    runs = stored_runs(out)
    lines = ["run  started                    status       campaign    ports / targets / "
             "profiles; sources"]
    for r in runs:
        lines.append(
            f"{r.id:<4} {r.started:<26} {r.status:<12} {r.campaign or '-':<11} "
            f"{','.join(r.ports)} / {','.join(r.targets)} / {','.join(r.profiles)}"
            + (f"; {', '.join(r.sources)}" if r.sources else "")
            + (f"  [rtosmeter {r.tool_version}]" if r.tool_version else ""))
    return "\n".join(terminal_safe(line) for line in lines)  # one line per run


@click.command("history")
@out_option
@click.option("--case", "case_id", default=None, help="Follow this case ID across the runs.")
@click.option("--chart", "chart_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Write the case's chart here (.svg or .png); "
              "default OUT/history-<case>.svg.")
@format_option(("table", "json"), help_text="Text, or JSON (the runs, and the chart's path).")
def history(out: Path, case_id: str | None, chart_path: Path | None, fmt: str) -> None:
    """List stored runs (campaign, ports, targets, sources, versions), one line
    each; --format json adds each run's figures."""
    if fmt == "table":
        click.echo(history_text(out))
    path = None
    if case_id:
        from rtosmeter import history as hist

        path = chart_path or out / f"history-{chart_name(case_id)}.svg"
        with open_store(out, must_exist=True) as store:
            hist.write_chart(store, case_id, path)
        if fmt == "table":
            click.echo(f"chart of {case_id}: {path}")
    if fmt == "json":
        from rtosmeter.history_values import run_values

        with open_store(out, must_exist=True) as store:
            runs = [{**asdict(r), "values": run_values(store, r.id)} for r in stored_runs(out)]
        echo_json({"runs": runs, "case": case_id, "chart": str(path) if path else None})
