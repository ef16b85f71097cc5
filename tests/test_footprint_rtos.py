"""RAM like with like on real RTOS firmware (needs the trees): FreeRTOS keeps
its stacks in heap_4's array, ThreadX in static arrays with a byte pool
beside them. A run stores each firmware's split; every declared stack, heap
and object slot lands in its part with the size `arm-none-eabi-nm -S` gives
it, the parts add up to the RAM, and no large RAM object stays in the kernel
part undeclared."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from rtos_ports import build_folder, run_port

from rtosmeter.definitions import Definitions, project_root
from rtosmeter.footprint import footprint
from rtosmeter.store import Store

T = "qemu-mps2-an386"
TREES = {"freertos": ("RTOSMETER_FREERTOS", "tasks.c"),
         "threadx": ("RTOSMETER_THREADX", "common/inc/tx_api.h")}
# What each port must hold apart: a rename in the port that its port.toml
# misses fails here, not silently in the report.
MUST = {"freertos": {"ucHeap": "heaps", "thread_slots": "objects"},
        "threadx": {"rm_tx_stacks": "stacks", "rm_tx_runner_stack": "stacks",
                    "rm_tx_free_memory": "heaps", "rm_tx_threads": "objects"}}
LARGE = 1024  # a RAM object this large left in the kernel part is a reservation missed

pytestmark = [pytest.mark.rtos]


def _nm(elf: Path) -> dict[str, int]:
    out = subprocess.run(["arm-none-eabi-nm", "--size-sort", "-S", str(elf)],
                         capture_output=True, text=True, check=True).stdout
    return {f[3]: int(f[1], 16) for ln in out.splitlines()
            if len(f := ln.split()) == 4 and f[2] in "bBdD"}


@pytest.mark.parametrize("port", sorted(TREES))
def test_reservations_land_where_nm_says(port: str, tmp_path: Path) -> None:
    env, probe = TREES[port]
    tree = os.environ.get(env, "")
    if not tree or not (Path(tree) / probe).is_file():
        pytest.skip(f"{env} is not set to an RTOS tree")
    if shutil.which("arm-none-eabi-nm") is None:
        pytest.fail("arm-none-eabi-nm is required: run scripts/install.sh")
    run_port(tmp_path, port, T, tree, profile="default", bench="lat.sem.*")
    with Store.open(tmp_path / "rtosmeter.sqlite") as st:
        run = st.latest_run()
        assert run is not None
        (ex,) = st.executions(run.id)
    stored = ex.footprint
    elf = build_folder(tmp_path, port, T, "default") / f"rm_{ex.group}.elf"
    nm = _nm(elf)
    rules = Definitions.load(project_root()).port(port).reservations
    assert rules is not None
    declared = {name: kind for name in nm if (kind := rules.kind(name)) is not None}
    assert MUST[port].items() <= declared.items()
    stack_section = next(s["size"] for s in stored["sections"] if s["name"] == ".stack")
    want = {kind: sum(nm[n] for n, k in declared.items() if k == kind)
            for kind in ("stacks", "heaps", "objects")}
    want["stacks"] += stack_section
    assert {k: stored["parts"][k][1] for k in want} == want
    assert stored["declared"] is True
    assert {(r["name"], r["kind"], r["ram"]) for r in stored["reserved"]} == {
        *((n, k, nm[n]) for n, k in declared.items()), (".stack", "stacks", stack_section)}
    assert sum(r for _, r in stored["parts"].values()) == stored["ram"]
    # What stays in the kernel part is the kernel's own data: nothing large.
    parts = footprint(elf).symbols
    left = {n: size for n, size in nm.items() if n not in declared and size >= LARGE
            and parts.get(n, ("kernel", 0))[0] == "kernel"}
    assert not left, f"{port}: large RAM objects in the kernel part, not declared: {left}"
