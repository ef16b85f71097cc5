"""QEMU runs on a Dask cluster (`--farm dask://HOST:PORT`).

Each emulated run becomes one Dask task: the firmware goes in as bytes, the
worker writes it to a folder of its own and runs it with the same QEMU
runner a local run uses, and the outcome (stream as bytes) comes back to be
stored here, in the one store. Under -icount the stream does not depend on
the machine, so any worker will do. A worker lost mid-run is Dask's to deal
with: its tasks go to another worker. Runs of `exclusive` runners (host
executables, boards) measure this machine's real time and stay local.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from rtosmeter.errors import UserError
from rtosmeter.runners import run_once, runner_class
from rtosmeter.runners.base import RunOutcome, RunRequest


def run_on_worker(request: RunRequest, firmware: bytes) -> RunOutcome:
    """A Dask task: run one firmware, given as bytes, in a folder of this worker."""
    with tempfile.TemporaryDirectory(prefix="rtosmeter-dask-") as tmp:
        elf = Path(tmp) / request.executable.name
        elf.write_bytes(firmware)
        outcome = run_once(replace(request, executable=elf))
    outcome.info["elf"] = str(request.executable)  # the firmware's name, not the worker's copy
    return outcome


class DaskFarm:
    def __init__(self, url: str, host: str, port: int, timeout_s: float = 10.0) -> None:
        from distributed import Client

        self.url = url
        try:
            self.client = Client(f"tcp://{host}:{port}", timeout=timeout_s,  # type: ignore[no-untyped-call]
                                 set_as_default=False)
        except OSError as exc:
            raise UserError(f"no Dask scheduler answers at {host}:{port} ({exc})", "--farm",
                            "Start one (`dask scheduler --port PORT` and `dask worker "
                            f"tcp://{host}:{port}`) or check the address") from exc

    def run(self, request: RunRequest) -> RunOutcome:
        cls = runner_class(request.target.kind)
        if cls is None or cls.exclusive:
            return run_once(request)
        firmware = Path(request.executable).read_bytes()
        # pure=False: the same firmware run twice is two runs, never a cached result.
        future = self.client.submit(run_on_worker, request, firmware, pure=False)
        outcome: RunOutcome = future.result()
        outcome.info["farm"] = self.url
        return outcome

    def close(self) -> None:
        self.client.close()  # type: ignore[no-untyped-call]
