"""Where runs execute besides this machine: `--farm URL`.

- `labgrid://HOST:PORT[?wait=SECONDS]`: boards (and any target) shared through a labgrid
  coordinator; each run reserves a place tagged `board=<target>`, acquires
  it, runs there, and releases it whatever happens (farm/labgrid.py).
- `dask://HOST:PORT`: QEMU runs spread over a Dask cluster; emulated results
  do not depend on the machine, so they come back byte for byte as a local
  run's (farm/dask.py).

Both are engines of their ecosystems; rtosmeter only submits runs to them.
A farm is a `Farm`: `run(request) -> RunOutcome`, the scheduler's run_once
elsewhere, and `close()`. Neither engine is imported for a local run.
"""

from __future__ import annotations

from typing import Protocol
from urllib.parse import parse_qs, urlsplit

from rtosmeter.errors import UserError
from rtosmeter.runners.base import RunOutcome, RunRequest

SCHEMES = ("labgrid", "dask")


class Farm(Protocol):
    url: str

    def run(self, request: RunRequest) -> RunOutcome: ...

    def close(self) -> None: ...


def address(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of a farm URL; UserError naming --farm when it is not one."""
    parts = urlsplit(url.split("?", 1)[0])
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme not in SCHEMES or not parts.hostname or port is None:
        raise UserError(f"'{url}' is not a farm address", "--farm",
                        "Give labgrid://HOST:PORT (a labgrid coordinator) or dask://HOST:PORT "
                        "(a Dask scheduler)")
    return parts.scheme, parts.hostname, port


def open_farm(url: str) -> Farm:
    scheme, host, port = address(url)
    if scheme == "dask":
        from rtosmeter.farm.dask import DaskFarm

        return DaskFarm(url, host, port)
    from rtosmeter.farm.labgrid import LabgridFarm

    wait = parse_qs(urlsplit(url).query).get("wait", ["600"])[0]
    try:
        wait_s = float(wait)
    except ValueError:
        raise UserError(f"wait={wait} is not a number of seconds", f"--farm {url}",
                        "Give ?wait=SECONDS, how long to wait for a free place") from None
    return LabgridFarm(url, host, port, wait_s)
