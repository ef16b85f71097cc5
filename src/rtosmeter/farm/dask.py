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
from typing import Any

from rtosmeter.attribution import funcmap
from rtosmeter.errors import UserError
from rtosmeter.runners import run_once, runner_class
from rtosmeter.runners.base import RunOutcome, RunRequest


def run_on_worker(request: RunRequest, firmware: bytes) -> tuple[RunOutcome, dict[str, bytes]]:
    """A Dask task: run one firmware, given as bytes, in a folder of this
    worker; the outcome, and the files the run wrote beside the firmware
    for the recorder (--attribute: the plugin's attribution and the map of
    function names), by name."""
    with tempfile.TemporaryDirectory(prefix="rtosmeter-dask-") as tmp:
        elf = Path(tmp) / request.executable.name
        elf.write_bytes(firmware)
        outcome = run_once(replace(request, executable=elf))
        files = {}
        if "attribution" in outcome.info:
            _, names, out = funcmap.files(elf)
            files = {p.name: p.read_bytes() for p in (names, out) if p.is_file()}
    outcome.info["elf"] = str(request.executable)  # the firmware's name, not the worker's copy
    return outcome, files


TLS_KEYS = ("ca", "cert", "key")  # dask://HOST:PORT?ca=FILE&cert=FILE&key=FILE


def security(url: str, query: dict[str, list[str]], insecure: bool) -> Any | None:
    """Dask's TLS Security from the URL's ca=, cert= and key= files (the
    scheduler's CA, this client's certificate and key), or None (plain TCP)
    when `insecure`. Outcomes come back pickled: a scheduler nobody
    authenticates could run code here, so plain TCP needs --insecure."""
    given = {k: query[k][0] for k in TLS_KEYS if query.get(k)}
    if not given:
        if insecure:
            return None
        raise UserError(f"'{url}' would reach the Dask scheduler over plain TCP, and run "
                        "results come back as pickles (a scheduler or network in the "
                        "middle could run code on this machine)", "--farm",
                        "Give the TLS files: dask://HOST:PORT?ca=CA.pem&cert=CERT.pem&"
                        "key=KEY.pem (docs/boards.md), or pass --insecure on a network "
                        "you trust")
    missing = [k for k in TLS_KEYS if k not in given]
    if missing:
        raise UserError(f"'{url}' gives {', '.join(given)} but not {', '.join(missing)}",
                        "--farm", "TLS needs all three: ca= (the CA that signed the "
                        "scheduler's certificate), cert= and key= (this client's)")
    for key, path in given.items():
        if not Path(path).is_file():
            raise UserError(f"{key}={path}: no such file", f"--farm {url}",
                            "Give the path of the PEM file")
    from distributed.security import Security

    return Security(tls_ca_file=given["ca"], tls_client_cert=given["cert"],  # type: ignore[no-untyped-call]
                    tls_client_key=given["key"], require_encryption=True)


class DaskFarm:
    def __init__(self, url: str, host: str, port: int, query: dict[str, list[str]],
                 insecure: bool = False, timeout_s: float = 10.0) -> None:
        sec = security(url, query, insecure)
        from distributed import Client

        self.url = url
        scheme = "tcp" if sec is None else "tls"
        try:
            self.client = Client(f"{scheme}://{host}:{port}", timeout=timeout_s,  # type: ignore[no-untyped-call]
                                 set_as_default=False, security=sec)
        except OSError as exc:
            raise UserError(f"no Dask scheduler answers at {host}:{port} ({exc})", "--farm",
                            "Start one (`dask scheduler --port PORT` and `dask worker "
                            f"{scheme}://{host}:{port}`, with their TLS options for tls) "
                            "or check the address") from exc

    def run(self, request: RunRequest) -> RunOutcome:
        cls = runner_class(request.target.kind)
        if cls is None or cls.exclusive:
            return run_once(request)
        firmware = Path(request.executable).read_bytes()
        # pure=False: the same firmware run twice is two runs, never a cached result.
        future = self.client.submit(run_on_worker, request, firmware, pure=False)
        outcome, files = future.result()
        for name, data in files.items():  # beside the firmware, as a local run leaves them
            (Path(request.executable).parent / name).write_bytes(data)
        if "attribution" in outcome.info:
            outcome.info["attribution"] = str(funcmap.files(Path(request.executable))[2])
        outcome.info["farm"] = self.url
        return outcome

    def close(self) -> None:
        self.client.close()  # type: ignore[no-untyped-call]
