"""The Apache Mynewt port (ports/mynewt), built with newt on the `native`
BSP and run for real on the host: the semaphore and suspend/resume cases
(self-suspension stands in for the task suspend Mynewt lacks, marked
stand_in.SUSPEND), tm.sync, and the signal/wait group (os_sem, os_mutex with
priority inheritance, os_eventq as FIFO). Four newt builds: a few minutes.

Needs the mynewt-core tree in RTOSMETER_MYNEWT, newt (on PATH, in
RTOSMETER_NEWT or <tree>/../mynewt-newt/newt) and Mbed TLS v3.6.6
(RTOSMETER_MYNEWT_MBEDTLS, <tree>/mbedtls or <tree>/../mynewt-mbedtls); CI has none of
them: the test skips, saying so.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from rtos_ports import case_passes, check_streams, need, run_port, tree_marks

from rtosmeter.catalog import load_catalog
from rtosmeter.definitions import project_root

TREE = os.environ.get("RTOSMETER_MYNEWT", "")
BENCH = "lat.sem.*,lat.suspend_resume,tm.sync,sw.*"  # four groups, run whole
GROUPS = ["lat_ipc", "lat_thread", "signal_wait", "tm_ipc"]
# Mynewt needs one priority per task and has no yield: the cases built on
# yielding say so (unsupported, with rm_yield_supported's reason).
EQUAL_PRIORITIES = {"lat.yield": "no yield"}


def _newt() -> str | None:
    hints = [os.environ.get("RTOSMETER_NEWT", ""), str(Path(TREE) / ".." / "mynewt-newt" / "newt")]
    return shutil.which("newt") or next(
        (str(Path(h) / "newt") for h in hints if h and (Path(h) / "newt").is_file()), None)


def _mbedtls() -> Path:
    env = os.environ.get("RTOSMETER_MYNEWT_MBEDTLS", "")
    fetched = Path(TREE) / "mbedtls"  # `rtosmeter sources fetch mynewt`
    if env:
        return Path(env)
    return fetched if fetched.is_dir() else Path(TREE) / ".." / "mynewt-mbedtls"


pytestmark = [
    *tree_marks("RTOSMETER_MYNEWT", "kernel/os/src/os_sched.c",
                "https://github.com/apache/mynewt-core"),
    pytest.mark.skipif(bool(TREE) and _newt() is None,
                       reason="newt not found: build it from apache/mynewt-newt "
                              "(go build -o newt/newt ./newt) and set RTOSMETER_NEWT"),
    pytest.mark.skipif(bool(TREE) and not (_mbedtls() / "library" / "aes.c").is_file(),
                       reason="Mbed TLS not found: set RTOSMETER_MYNEWT_MBEDTLS to "
                              "Mbed-TLS/mbedtls v3.6.6"),
]


def test_native_cases(tmp_path: Path) -> None:
    need("cmake", "ninja", "gcc")
    catalog = load_catalog(project_root())
    raw = run_port(tmp_path, "mynewt", "host", TREE, bench=BENCH)
    streams = check_streams(raw, catalog, "mynewt", EQUAL_PRIORITIES, GROUPS)
    cfg = streams["lat_ipc"].config
    assert cfg["kernel"].startswith("Apache Mynewt")
    assert "os_sched_wakeup" in cfg["stand_in.SUSPEND"]
    for group, case_id in (("lat_ipc", "lat.sem.nocs"), ("lat_ipc", "lat.sem.pass"),
                           ("lat_thread", "lat.suspend_resume"), ("tm_ipc", "tm.sync"),
                           ("signal_wait", "sw.sem")):
        case = next(c for c in streams[group].cases if c.id == case_id)
        assert case.status == "ok" and (case.series or case.counts), case
    assert "no yield" in next(c for c in streams["lat_thread"].cases if c.id == "lat.yield").reason
    case_passes(streams["lat_ipc"], "lat.mutex.inheritance")
    sw = {c.id: c for c in streams["signal_wait"].cases}
    assert (sw["sw.mutex"].status, sw["sw.fifo"].status) == ("ok", "ok")
