"""Where runs execute besides this machine: `--farm URL`.

- `labgrid://HOST:PORT[?wait=SECONDS]`: boards (and any target) shared through a labgrid
  coordinator; each run reserves a place tagged `board=<target>`, acquires
  it, runs there, and releases it whatever happens (farm/labgrid.py).
- `dask://HOST:PORT?ca=FILE&cert=FILE&key=FILE`: QEMU runs spread over a
  Dask cluster, over TLS (plain TCP only with --insecure: results come back
  pickled); emulated results do not depend on the machine, so they come
  back byte for byte as a local run's (farm/dask.py).

Both are engines of their ecosystems; rtosmeter only submits runs to them.
A farm is a `Farm`: `run(request) -> RunOutcome`, the executor's run_once
elsewhere, and `close()`. Neither engine is imported for a local run.
"""

from __future__ import annotations

from typing import Protocol
from urllib.parse import parse_qs, urlsplit

from rtosmeter.errors import UserError
from rtosmeter.numbers import read_decimal
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


def open_farm(url: str, insecure: bool = False) -> Farm:
    """The farm at `url`; `insecure`: a dask:// farm may use plain TCP."""
    scheme, host, port = address(url)
    query = parse_qs(urlsplit(url).query)
    if scheme == "dask":
        from rtosmeter.farm.dask import DaskFarm

        timeout_s = read_decimal(query.get("timeout", ["10"])[0], f"--farm {url}", "timeout",
                                 0.1, 1e5, "Give ?timeout=SECONDS, how long to wait for the "
                                 "scheduler to answer")
        return DaskFarm(url, host, port, query, insecure, timeout_s)
    from rtosmeter.farm.labgrid import LabgridFarm

    wait_s = read_decimal(query.get("wait", ["600"])[0], f"--farm {url}", "wait", 0, 1e7,
                          "Give ?wait=SECONDS, how long to wait for a free place")
    return LabgridFarm(url, host, port, wait_s)
