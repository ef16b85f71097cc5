"""Boards shared through a labgrid coordinator (`--farm labgrid://HOST:PORT`).

Each board of a lab is a labgrid place tagged `board=<target name>`,
matching the resources an exporter offers for it. For each run rtosmeter
creates a reservation filtered on that tag, waits until the coordinator
allocates a place, acquires it, runs the board runner, and releases the
place and cancels the reservation in every case, an exception included.
Places are labgrid's locks: two rtosmeters (or a person with
labgrid-client) never hold one board at once. Optional place tags say how
to reach the board from here: `probe_uid=<probe serial>`, or
`gdb=<host>_<port>` for a GDB server on the exporter's host (tag values
cannot hold ':'). A client that crashed leaves its place acquired; the
wait then ends with the `release --kick` command that frees it.

labgrid's client session runs on asyncio in a thread of its own (one
session per process, as labgrid wants); runs call into it from the
executor's threads (execute.py).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Coroutine
from dataclasses import replace
from typing import Any, TypeVar

from rtosmeter.errors import UserError
from rtosmeter.runners import run_once
from rtosmeter.runners.base import RunOutcome, RunRequest

T = TypeVar("T")
# gRPC's fork handlers run in every child the harness forks (QEMU, CMake) before
# it execs, and crash it there (SIGSEGV, no output) while gRPC's threads work.
# gRPC reads this when it is first imported: before labgrid is.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")


class LabgridFarm:
    def __init__(self, url: str, host: str, port: int, wait_s: float = 600.0) -> None:
        self.url = url
        self.address = f"{host}:{port}"
        self.wait_s = wait_s
        self.loop = asyncio.new_event_loop()
        self.session: Any = None
        self.failure: Exception | None = None
        ready = threading.Event()
        self.thread = threading.Thread(target=self._serve, args=(ready,), name="rm-labgrid",
                                       daemon=True)
        self.thread.start()
        ready.wait()
        if self.failure is not None:
            raise UserError(f"no labgrid coordinator answers at {self.address} "
                            f"({self.failure})", "--farm", "Start one (labgrid-coordinator -l "
                            "HOST:PORT) or check the address") from self.failure

    def _serve(self, ready: threading.Event) -> None:
        """The session's thread: gRPC's channel must be made on the loop that runs it."""
        from labgrid.remote.client import start_session

        asyncio.set_event_loop(self.loop)
        try:
            self.session = start_session(self.address, loop=self.loop)
        except Exception as exc:  # labgrid raises its own errors and gRPC's
            self.failure = exc
            self.loop.close()
            return
        finally:
            ready.set()
        self.loop.run_forever()

    def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def run(self, request: RunRequest) -> RunOutcome:
        board = request.target.name
        started = time.monotonic()
        try:
            place, token = self._call(self._acquire(board))
        except UserError as exc:
            return RunOutcome(b"", "error", None, f"Error: {exc.message}",
                              time.monotonic() - started, {"runner": request.target.kind,
                                                           "farm": self.url})
        held_from = time.time()  # after acquiring, until before releasing
        try:
            outcome = run_once(self._reach(request, place))
            held_until = time.time()
        finally:
            self._call(self._release(place, token))
        outcome.info.update(farm=self.url, place=place, held_from=f"{held_from:.6f}",
                            held_until=f"{held_until:.6f}")
        return outcome

    def _reach(self, request: RunRequest, place: str) -> RunRequest:
        """The request with the probe the place's tags name (boards only)."""
        tags = self.session.places[place].tags
        board = dict(request.target.board)
        if "probe_uid" in tags:
            board["uid"] = tags["probe_uid"]
        if "gdb" in tags:
            board.update(probe="gdb", gdb=tags["gdb"].replace("_", ":"))
        return replace(request, target=replace(request.target, board=board))

    async def _acquire(self, board: str) -> tuple[str, str]:
        from labgrid.remote.common import Reservation, ReservationState
        from labgrid.remote.generated import labgrid_coordinator_pb2 as pb

        stub = self.session.stub
        response = await stub.CreateReservation(pb.CreateReservationRequest(
            filters={"main": pb.Reservation.Filter(filter={"board": board})}, prio=0.0))
        token = response.reservation.token
        until = time.monotonic() + self.wait_s
        try:
            while True:
                polled = await stub.PollReservation(pb.PollReservationRequest(token=token))
                reservation = Reservation.from_pb2(polled.reservation)
                if reservation.state is ReservationState.allocated:
                    break
                if reservation.state is not ReservationState.waiting:
                    raise UserError(f"labgrid reservation for board={board} ended "
                                    f"({reservation.state.name})", self.url,
                                    f"Add a place tagged board={board} (labgrid-client "
                                    f"-x {self.address} -p NAME set-tags board={board})")
                if time.monotonic() >= until:
                    raise UserError(self._busy_message(board), self.url,
                                    "Wait, or free a place whose holder crashed")
                await asyncio.sleep(0.2)
            place = reservation.allocations["main"][0]
            await stub.AcquirePlace(pb.AcquirePlaceRequest(placename=place))
        except BaseException:
            await stub.CancelReservation(pb.CancelReservationRequest(token=token))
            raise
        return place, token

    def _busy_message(self, board: str) -> str:
        tagged = {name: p for name, p in self.session.places.items()
                  if p.tags.get("board") == board}
        if not tagged:
            return (f"no labgrid place is tagged board={board} at {self.address}: tag the "
                    f"board's place (labgrid-client -x {self.address} -p NAME set-tags "
                    f"board={board})")
        held = "; ".join(f"{name} acquired by {p.acquired}" for name, p in tagged.items())
        kick = " / ".join(f"labgrid-client -x {self.address} -p {name} release --kick"
                          for name in tagged)
        return (f"no place with board={board} came free within {self.wait_s:g} s ({held}); "
                f"if its holder crashed, free it with: {kick}")

    async def _release(self, place: str, token: str) -> None:
        from labgrid.remote.generated import labgrid_coordinator_pb2 as pb

        stub = self.session.stub
        try:
            await stub.ReleasePlace(pb.ReleasePlaceRequest(placename=place))
        finally:
            await stub.CancelReservation(pb.CancelReservationRequest(token=token))

    def close(self) -> None:
        try:
            self._call(self.session.stop())
            self._call(self.session.close())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=5)
