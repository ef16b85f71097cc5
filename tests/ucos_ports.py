"""What the tests of the µC/OS-II and µC/OS-III ports share (not a test module).

Both ports run the same checks: every group on QEMU MPS2-AN386 (default
kernel profile, twice: the streams are bit-identical under -icount), the
vendor profile on the Cortex-M7, and the Cortex-M0 (micro:bit, 16 KiB of RAM).
"""

from __future__ import annotations

import re
from pathlib import Path

from rtos_ports import (
    MEASURING_GROUPS,
    assert_port_measures_alone,
    assert_reruns_identical,
    assert_tm_loops_call_layer,
    build_folder,
    call_to_closing_read,
    case_passes,
    check_streams,
    run_port,
)

from rtosmeter.catalog import Catalog
from rtosmeter.protocol import ParsedStream

# The cases that need more than the 12 threads of the Cortex-M0 build
# (ports/ucos*/port.c: 16 KiB of RAM) fail there, saying why.
M0_TOO_MANY_THREADS = {"lat.thread.lifecycle": "15 and 20 other threads need > 12 threads"}


def run_an386(tmp_path: Path, port: str, tree: str, catalog: Catalog,
              exceptions: dict[str, str] | None = None) -> dict[str, ParsedStream]:
    """All groups on an386 (quick profile), then each firmware again: the
    second QEMU run must give the same stream, byte for byte."""
    first = run_port(tmp_path, port, "qemu-mps2-an386", tree)
    streams = check_streams(first, catalog, port, exceptions)
    case_passes(streams["lat_ipc"], "lat.mutex.inheritance")
    case_passes(streams["tm_sched"], "tm.preemptive")
    case_passes(streams["tm_ipc"], "tm.message")
    assert_reruns_identical(tmp_path, port, "qemu-mps2-an386", first)
    assert assert_measures_alone(build_folder(tmp_path, port, "qemu-mps2-an386")) >= 40
    # tm.* by Thread-Metric's rules: every loop calls out into its porting layer.
    assert assert_tm_loops_call_layer(build_folder(tmp_path, port, "qemu-mps2-an386")) == 9
    return streams


# What may lie between a measured call and the closing read (rm_port_inline.h,
# "Status"): the load of the status µC/OS stores through the call's `err`
# out-parameter into the return register, which any caller of the kernel
# needs; and in a mailbox, queue, LIFO or task-queue wait, the receiver's copy
# of the 16-byte message µC/OS hands over by pointer (a test of the pointer, ldm,
# stm, the pointer kept on the stack: what a kernel that copies messages does
# inside its call; CFG queue).
ERR_LOAD = re.compile(r"^ldr[bh]?(\.w)?\s+r0, \[sp, #\d+\]")
MESSAGE_BODY = re.compile(r"(mailbox|queue|lifo|thread_msg)")
MESSAGE_COPY = re.compile(r"^(cbn?z|cmp|beq|bne|ldm\w*|stm\w*|ldr|str)(\.[nw])?\s")


def _unexplained(body: str, between: list[str]) -> list[str]:
    """What of `between` is none of the above."""
    rest = between[:-1] if between and ERR_LOAD.match(between[-1]) else list(between)
    if MESSAGE_BODY.search(body) and len(rest) <= 6 and all(MESSAGE_COPY.match(x) for x in rest):
        return []
    return rest


def assert_measures_alone(build: Path) -> int:
    """assert_port_measures_alone with what each body keeps allowed, and
    each such instruction one of the above."""
    elves = [build / f"rm_{g}.elf" for g in MEASURING_GROUPS if (build / f"rm_{g}.elf").is_file()]
    found = [(body, callee, between) for elf in elves
             for body, calls in call_to_closing_read(elf).items()
             for callee, between in calls]
    odd = [(body, callee, between) for body, callee, between in found
           if _unexplained(body, between)]
    assert not odd, f"neither the status load, the block nor the message copy: {odd}"
    allowed: dict[str, tuple[int, str]] = {}
    for body, _, between in found:
        most = max(len(between), allowed.get(body, (0, ""))[0])
        allowed[body] = (most, "the err load or the message copy")
    return assert_port_measures_alone(build, allowed)


def signal_wait_kinds(parsed: ParsedStream) -> set[str]:
    """The sw.<kind> cases that ran with all four scenarios measured."""
    kinds = set()
    for case in parsed.cases:
        if case.id.startswith("sw.") and case.status == "ok":
            names = set(case.series)
            assert {"s1", "s2", "s3", "s4"} <= names, (case.id, names)
            kinds.add(case.id.removeprefix("sw."))
    return kinds


def run_m0(tmp_path: Path, port: str, tree: str, catalog: Catalog,
           exceptions: dict[str, str] | None = None) -> dict[str, ParsedStream]:
    streams = check_streams(run_port(tmp_path, port, "qemu-microbit", tree), catalog, port,
                            {**M0_TOO_MANY_THREADS, **(exceptions or {})})
    life = next(c for c in streams["lat_lifecycle"].cases if c.id == "lat.thread.lifecycle")
    assert life.status == "failed" and "rm_thread_create (other threads)" in life.reason, life
    assert streams["tm_sched"].config["ucos.arch"] == "ARMv6-M"
    return streams
