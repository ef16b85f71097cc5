"""The Contiki-NG port (ports/contiki), built by Contiki-NG's own make for
its `native` platform (MAKE_NET_NULLNET, MAKE_ROUTING_NULLROUTING) and run
for real on the host: every group, with the Thread-Metric tests adapted to
processes (the port's own bodies, rm_port_case_body) and the rest either
measured (lat.pool: memb, lat.heap: heapmem) or unsupported with port.toml's
reason. The first test needs no tree: the analysis attaches a port's
stand_in.<case id> to that case, which is how reports show the adaptation.

Needs the tree in RTOSMETER_CONTIKI (CI has none: those tests skip, saying so).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _datahalf import craft, store_run
from rtos_ports import (
    assert_port_measures_alone,
    assert_reruns_identical,
    build_folder,
    case_passes,
    check_streams,
    need,
    run_port,
    tree_marks,
)

from rtosmeter.analysis import load_run
from rtosmeter.catalog import Catalog, load_catalog
from rtosmeter.definitions import project_root
from rtosmeter.store import Store

TREE = os.environ.get("RTOSMETER_CONTIKI", "")
ADAPTED = ("tm.cooperative", "tm.preemptive", "tm.message", "tm.sync", "tm.memory")
# Without threads tm.basic needs the target's periodic timer, which the host lacks.
NO_TIMER = {"tm.basic": "the host target has no periodic timer"}
TREE_MARKS = tree_marks("RTOSMETER_CONTIKI", "os/sys/process.c",
                        "https://github.com/contiki-ng/contiki-ng")


def test_a_case_stand_in_marks_that_case_only(tmp_path: Path) -> None:
    """CFG stand_in.tm.cooperative marks tm.cooperative, not tm.sync."""
    how = "5 processes, each counts then PROCESS_PAUSE()"
    data = craft("contiki", "host", 10**9, [30, 30, 30],
                 throughput={"tm.cooperative": [100, 100, 100], "tm.sync": [50, 50, 50]},
                 cfg={"stand_in.tm.cooperative": how}, period_ms=100)
    view = load_run(Store.open(tmp_path / "r.sqlite"),
                    store_run(tmp_path / "r.sqlite", [(data, {"runner": "host"})]))
    got = {c.case_id: c.stand_ins for c in view.cases}
    assert got["tm.cooperative"] == {"tm.cooperative": how}
    assert got["tm.sync"] == {}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(project_root())


@TREE_MARKS[0]
@TREE_MARKS[1]
def test_native_cases(tmp_path: Path, catalog: Catalog) -> None:
    need("cmake", "ninja", "make", "gcc")
    raw = run_port(tmp_path, "contiki", "host", TREE)
    streams = check_streams(raw, catalog, "contiki", NO_TIMER)
    cfg = streams["tm_sched"].config
    assert cfg["kernel"].startswith("Contiki-NG processes")
    for case_id in ADAPTED:  # each adaptation is said, and each adapted test counted
        assert cfg[f"stand_in.{case_id}"], case_id
        group = "tm_sched" if case_id in ("tm.cooperative", "tm.preemptive") else "tm_ipc"
        case = next(c for c in streams[group].cases if c.id == case_id)
        assert case.status == "ok" and all(c.value > 0 for c in case.counts), case
    case_passes(streams["tm_sched"], "tm.cooperative")  # 5 counters within 1 of their mean
    case_passes(streams["tm_sched"], "tm.preemptive")
    case_passes(streams["tm_ipc"], "tm.message")
    basic = next(c for c in streams["tm_basic"].cases if c.id == "tm.basic")
    assert basic.status == "unsupported" and "periodic timer" in basic.reason
    memory = {c.id: c for c in streams["lat_memory"].cases}
    assert set(memory["lat.pool"].series) == {"acquire", "release"}
    assert set(memory["lat.heap"].series) == {"alloc", "free"}


QEMU_TARGET = "qemu-mps2-an386"
QEMU_BENCH = "tm.*,lat.pool,lat.heap"  # tm_basic, tm_interrupt, tm_ipc, tm_sched, lat_memory


@TREE_MARKS[0]
@TREE_MARKS[1]
def test_qemu_mps2_cases_and_deterministic(tmp_path: Path, catalog: Catalog) -> None:
    """On QEMU tm.basic runs too (the target's periodic timer ends its
    periods), a firmware run twice under -icount gives the same stream, and
    the measured calls are alone in their intervals (the disassembly)."""
    need("make", "arm-none-eabi-gcc", "qemu-system-arm")
    raw = run_port(tmp_path, "contiki", QEMU_TARGET, TREE, bench=QEMU_BENCH)
    groups = ["lat_memory", "tm_basic", "tm_interrupt", "tm_ipc", "tm_sched"]
    streams = check_streams(raw, catalog, "contiki", groups=groups)
    case_passes(streams["tm_sched"], "tm.cooperative")
    basic = next(c for c in streams["tm_basic"].cases if c.id == "tm.basic")
    assert basic.status == "ok" and all(c.value > 0 for c in basic.counts), basic
    # Counted in exact instructions: the platform links with the target's
    # mps2.ld, which places the plugin's counter word.
    assert build_folder(tmp_path, "contiki", QEMU_TARGET).name == "quick@instructions"
    assert_reruns_identical(tmp_path, "contiki", QEMU_TARGET, raw)
    # lat.pool and lat.heap: between each call (memb_*, heapmem_*) and the
    # closing read (the plugin's dbg #0 marker), nothing (the block pointer is
    # copied after it).
    assert assert_port_measures_alone(build_folder(tmp_path, "contiki", QEMU_TARGET)) == 4
