"""--farm on loopback engines: a Dask cluster and a labgrid coordinator with two exporters.

Everything runs for real on 127.0.0.1: the engines' own servers (dask
scheduler and workers; labgrid-coordinator and labgrid-exporter) as child
processes that each fixture stops by PID, real QEMU runs of real firmware,
the real store. Emulated runs are deterministic (-icount), so a farm's
streams must equal a local run's byte for byte.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import invoke
from cortexm_firmware import have_toolchain

import rtosmeter.farm.labgrid  # noqa: F401  (before labgrid: it turns off gRPC's fork handlers)
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.errors import UserError
from rtosmeter.store import Store

pytest.importorskip("distributed")
pytest.importorskip("labgrid")
pytestmark = pytest.mark.skipif(not have_toolchain(), reason="needs arm-none-eabi-gcc and QEMU")

BIN = Path(sys.executable).parent
TARGET = "qemu-mps2-an386"
BENCH = "lat.isr.*,tm.basic*"  # two groups: lat_isr, tm_basic


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_listening(proc: subprocess.Popen[bytes], port: int) -> None:
    """Until the server accepts connections: a loaded machine starts it late."""
    while proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"server on port {port} exited with status {proc.returncode}")


class Children:
    """Servers a fixture starts, each in its own process group, stopped by PID."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, *cmd: str) -> subprocess.Popen[bytes]:
        log = (self.folder / f"{name}.log").open("wb")
        proc = subprocess.Popen([str(BIN / cmd[0]), *cmd[1:]], cwd=self.folder,
                                stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                start_new_session=True)
        self.procs.append(proc)
        return proc

    @staticmethod
    def stop(proc: subprocess.Popen[bytes]) -> None:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    def stop_all(self) -> None:
        for proc in self.procs:
            self.stop(proc)


def _streams(out: Path, run_id: int | None = None) -> dict[str, bytes]:
    with Store.open(out / "rtosmeter.sqlite") as store:
        rid = run_id or store.runs()[-1].id
        return {e.group: store.stream(e.id) for e in store.executions(rid)}


def _runners(out: Path) -> list[dict[str, str]]:
    with Store.open(out / "rtosmeter.sqlite") as store:
        return [e.runner for e in store.executions(store.runs()[-1].id)]


def _run(out: Path, farm: str | None, insecure: bool = True) -> None:
    summary = run_campaign(RunOptions(out=out, ports=("baremetal",), targets=(TARGET,),
                                      bench=BENCH, farm=farm, insecure=insecure, quiet=True))
    assert (summary.executions, summary.failed) == (2, 0)


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One campaign folder for every run of this module: built once."""
    return tmp_path_factory.mktemp("campaign")


@pytest.fixture(scope="module")
def local(out: Path) -> dict[str, bytes]:
    _run(out, None)
    return _streams(out)


# ---- Dask -------------------------------------------------------------------


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory: pytest.TempPathFactory
                 ) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    kids = Children(tmp_path_factory.mktemp("dask"))
    port = _free_port()
    kids.start("scheduler", "dask", "scheduler", "--host", "127.0.0.1", "--port", str(port),
               "--no-dashboard")
    workers = [kids.start(f"worker{i}", "dask", "worker", f"tcp://127.0.0.1:{port}",
                          "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1")
               for i in range(2)]
    from distributed import Client

    with Client(f"tcp://127.0.0.1:{port}", timeout=60) as client:
        client.wait_for_workers(2, timeout=60)
    yield f"dask://127.0.0.1:{port}", workers
    kids.stop_all()


@pytest.mark.slow
def test_dask_cluster_matches_local_run(local: dict[str, bytes], dask_cluster, out: Path
                                        ) -> None:  # type: ignore[no-untyped-def]
    url, _ = dask_cluster
    _run(out, url)
    assert _streams(out) == local  # byte for byte
    assert all(r["farm"] == url and r["runner"] == "qemu" for r in _runners(out))


@pytest.mark.slow
def test_dask_run_goes_on_after_a_worker_is_lost(local: dict[str, bytes], dask_cluster,
                                                  out: Path) -> None:  # type: ignore[no-untyped-def]
    url, workers = dask_cluster
    killer = threading.Timer(0.5, Children.stop, (workers[0],))  # mid-run, by PID
    killer.start()
    try:
        _run(out, url)
    finally:
        killer.join()
    assert workers[0].poll() is not None
    assert _streams(out) == local


@pytest.mark.slow
def test_dask_without_scheduler_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"no Dask scheduler answers at 127\.0\.0\.1:\d+.*--farm"):
        _run(tmp_path, f"dask://127.0.0.1:{_free_port()}?timeout=1")


def _certificates(folder: Path) -> dict[str, Path]:
    """A CA, and a certificate and key it signed for 127.0.0.1 (the
    scheduler's, the workers' and the client's alike), with openssl."""
    def ssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=test CA",
        "-keyout", "ca.key", "-out", "ca.pem")
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "node.key",
        "-out", "node.csr")
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    ssl("x509", "-req", "-in", "node.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "node.pem")
    return {"ca": folder / "ca.pem", "cert": folder / "node.pem", "key": folder / "node.key"}


@pytest.mark.slow
def test_dask_over_tls_matches_local_run(local: dict[str, bytes], out: Path,
                                         tmp_path: Path) -> None:
    """The cluster of the docs (docs/boards.md): every party's certificate
    signed by one CA, rtosmeter connecting with ?ca=&cert=&key=."""
    files = _certificates(tmp_path)
    tls = ["--tls-ca-file", str(files["ca"]), "--tls-cert", str(files["cert"]),
           "--tls-key", str(files["key"])]
    kids = Children(tmp_path)
    port = _free_port()
    try:
        kids.start("scheduler", "dask", "scheduler", "--host", "127.0.0.1", "--port", str(port),
                   "--protocol", "tls", "--no-dashboard", *tls)
        kids.start("worker", "dask", "worker", f"tls://127.0.0.1:{port}", "--nthreads", "1",
                   "--no-dashboard", "--host", "127.0.0.1", *tls)
        url = (f"dask://127.0.0.1:{port}?ca={files['ca']}&cert={files['cert']}"
               f"&key={files['key']}")
        deadline = time.monotonic() + 60
        while True:  # the scheduler and its worker up
            try:
                _run(out, url, insecure=False)
                break
            except UserError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(1)
        assert _streams(out) == local
        assert all(r["farm"] == url for r in _runners(out))
        with pytest.raises(UserError, match="over plain TCP"):  # and never without TLS
            _run(out, f"dask://127.0.0.1:{port}", insecure=False)
    finally:
        kids.stop_all()


@pytest.mark.parametrize("url,why", [
    ("dask://127.0.0.1:1", "over plain TCP, and run results come back as pickles"),
    ("dask://127.0.0.1:1?ca=a.pem", "gives ca but not cert, key"),
    ("dask://127.0.0.1:1?ca=/no/ca.pem&cert=/no/c.pem&key=/no/k.pem",
     "ca=/no/ca.pem: no such file"),
])
def test_dask_needs_tls_or_insecure(tmp_path: Path, url: str, why: str) -> None:
    """Results are unpickled: a plain tcp:// scheduler was trusted blindly."""
    from rtosmeter.farm import open_farm

    with pytest.raises(UserError, match=re.escape(why)) as info:
        open_farm(url)
    assert "--farm" in info.value.message
    assert "--insecure" in info.value.message or "no such file" in why or "gives" in why
    result = invoke("run", "--out", str(tmp_path), "--farm", url, "--port", "baremetal")
    assert result.exit_code == 1 and why in result.stderr


def test_bad_farm_address_names_the_option(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"'ftp://x' is not a farm address in --farm"):
        _run(tmp_path, "ftp://x")


# ---- labgrid ----------------------------------------------------------------

EXPORTER = """emu:
  NetworkService:
    address: 127.0.0.1
    username: rtosmeter
"""
# A client that acquires every place it is given, then dies without releasing.
CRASHING_CLIENT = """
import os, signal, sys
from rtosmeter.farm.labgrid import LabgridFarm
from labgrid.remote.generated import labgrid_coordinator_pb2 as pb
farm = LabgridFarm("", sys.argv[1], int(sys.argv[2]))
async def acquire(place):
    await farm.session.stub.AcquirePlace(pb.AcquirePlaceRequest(placename=place))
for place in sys.argv[3:]:
    farm._call(acquire(place))
os.kill(os.getpid(), signal.SIGKILL)
"""


class Lab:
    """A loopback coordinator, two exporters, and a QEMU-kind place on each, tagged
    board=TARGET; administered through the coordinator's own API, in a session of its
    own per call (labgrid allows one session at a time in a process: the farm's)."""

    def __init__(self, folder: Path) -> None:
        self.kids = Children(folder)
        self.folder = folder
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.places = {"rm-a": "exp1", "rm-b": "exp2"}

    def start(self) -> None:
        folder = self.folder
        coordinator = self.kids.start("coordinator", "labgrid-coordinator", "-l", self.address)
        _wait_listening(coordinator, self.port)
        for name in ("exp1", "exp2"):
            (folder / f"{name}.yaml").write_text(EXPORTER)
            self.kids.start(name, "labgrid-exporter", "-c", self.address, "-n", name,
                            f"{name}.yaml")
        for place, exporter in self.places.items():
            self.call("AddPlace", "AddPlaceRequest", name=place)
            self.call("AddPlaceMatch", "AddPlaceMatchRequest", placename=place,
                      pattern=f"{exporter}/emu/*")
            self.call("SetPlaceTags", "SetPlaceTagsRequest", placename=place,
                      tags={"board": TARGET})

    def call(self, method: str, request: str, **fields: object) -> object:
        from labgrid.remote.generated import labgrid_coordinator_pb2 as pb

        from rtosmeter.farm.labgrid import LabgridFarm

        admin = LabgridFarm("", "127.0.0.1", self.port)

        async def rpc() -> object:
            return await getattr(admin.session.stub, method)(getattr(pb, request)(**fields))

        try:
            return admin._call(rpc())
        finally:
            admin.close()

    def acquired(self) -> dict[str, object]:
        from labgrid.remote.common import Place

        reply = self.call("GetPlaces", "GetPlacesRequest")
        places = {p.name: Place.from_pb2(p) for p in reply.places}  # type: ignore[attr-defined]
        return {name: places[name].acquired for name in self.places}

    def reservations(self) -> int:
        reply = self.call("GetReservations", "GetReservationsRequest")
        return len(reply.reservations)  # type: ignore[attr-defined]

    def stop(self) -> None:
        self.kids.stop_all()


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    lab = Lab(tmp_path_factory.mktemp("labgrid"))
    try:  # a lab that fails to come up is stopped too
        lab.start()
        yield lab
    finally:
        lab.stop()


@pytest.mark.slow
def test_labgrid_reserve_acquire_run_release(local: dict[str, bytes], lab: Lab,
                                             out: Path) -> None:
    _run(out, f"labgrid://{lab.address}")
    assert _streams(out) == local
    assert {r["place"] for r in _runners(out)} <= set(lab.places)
    assert lab.acquired() == {"rm-a": None, "rm-b": None}  # released
    assert lab.reservations() == 0  # cancelled


@pytest.mark.slow
def test_labgrid_two_clients_compete_for_the_places(lab: Lab, out: Path, tmp_path: Path
                                                    ) -> None:
    url = f"labgrid://{lab.address}"
    other = subprocess.Popen(  # a second rtosmeter, its own process and labgrid session
        [str(BIN / "rtosmeter"), "run", "--port", "baremetal", "--target", TARGET,
         "--bench", BENCH, "--out", str(tmp_path), "--farm", url],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _run(out, url)
    finally:
        _, err = other.communicate(timeout=600)
    assert other.returncode == 0, err.decode()
    held = [(float(r["held_from"]), float(r["held_until"]), r["place"])
            for folder in (out, tmp_path) for r in _runners(folder)]
    assert len(held) == 4
    for i, (a0, a1, pa) in enumerate(held):  # a place is never held by two runs at once
        for b0, b1, pb in held[i + 1:]:
            assert pa != pb or a1 <= b0 or b1 <= a0, held
    assert _streams(out) == _streams(tmp_path)


@pytest.mark.slow
def test_labgrid_place_left_by_a_crashed_client_is_recovered(lab: Lab, out: Path) -> None:
    crashed = subprocess.run([sys.executable, "-c", CRASHING_CLIENT, "127.0.0.1",
                              str(lab.port), *lab.places], capture_output=True, timeout=120,
                             check=False)
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr.decode()
    assert all(lab.acquired().values())  # left acquired by a client that is gone
    summary = run_campaign(RunOptions(out=out, ports=("baremetal",), targets=(TARGET,),
                                      bench=BENCH, farm=f"labgrid://{lab.address}?wait=2",
                                      quiet=True))
    assert summary.failed == 2
    with Store.open(out / "rtosmeter.sqlite") as store:
        error = store.executions(store.runs()[-1].id)[0].error
    assert f"no place with board={TARGET} came free within 2 s" in error
    assert f"labgrid-client -x {lab.address} -p rm-a release --kick" in error
    for place in lab.places:  # what `release --kick` does
        lab.call("ReleasePlace", "ReleasePlaceRequest", placename=place)
    _run(out, f"labgrid://{lab.address}")
    assert lab.reservations() == 0


def test_a_bad_dask_timeout_is_a_clear_error() -> None:
    from rtosmeter.farm import open_farm

    with pytest.raises(UserError, match="timeout"):
        open_farm("dask://127.0.0.1:8786?timeout=0", insecure=True)


def _attribution(out: Path) -> list[tuple[str, str, str, int, int]]:
    """(case, series, function, instructions, calls) of the folder's last run."""
    with Store.open(out / "rtosmeter.sqlite") as store:
        run_id = store.runs()[-1].id
        rows = store.conn.execute(
            "SELECT c.case_id, s.name, a.function, a.instructions, a.calls FROM attribution a "
            "JOIN series s ON s.id = a.series_id JOIN cases c ON c.id = s.case_row "
            "JOIN executions e ON e.id = c.execution_id WHERE e.run_id = ? "
            "ORDER BY 1, 2, 3", (run_id,)).fetchall()
    return [(str(c), str(s), str(f), int(i), int(n)) for c, s, f, i, n in rows]


@pytest.mark.slow
def test_a_dask_worker_attributes_like_a_local_run(dask_cluster, tmp_path: Path
                                                   ) -> None:  # type: ignore[no-untyped-def]
    """--attribute rides in the request: the worker's plugin writes the
    attribution beside its copy of the firmware, and it comes back with
    the outcome, so the store holds the same breakdowns as a local run."""
    url, _ = dask_cluster
    for where, farm in (("local", None), ("dask", url)):
        summary = run_campaign(RunOptions(out=tmp_path / where, ports=("baremetal",),
                                          targets=(TARGET,), bench=BENCH, farm=farm,
                                          insecure=True, attribute=True, quiet=True))
        assert (summary.executions, summary.failed) == (2, 0)
    local = _attribution(tmp_path / "local")
    assert local, "the local run stored no attribution"
    assert _attribution(tmp_path / "dask") == local
