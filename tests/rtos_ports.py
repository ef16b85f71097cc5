"""What the tests of the third-party RTOS ports share (not a test module).

Each port test builds and runs its port for real through `run_campaign` (the
code behind `rtosmeter run`) against the tree its environment variable names,
and checks the streams against the catalog and the port's port.toml.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from _datahalf import parse_named

from rtosmeter.catalog import Catalog
from rtosmeter.commands.run import RunOptions, run_campaign
from rtosmeter.definitions import Definitions, project_root
from rtosmeter.measure import Unit
from rtosmeter.protocol import ParsedStream
from rtosmeter.qemu_plugin import PluginSpec
from rtosmeter.runners import run_once
from rtosmeter.runners.base import RunRequest
from rtosmeter.runners.qemu import QemuOptions
from rtosmeter.store import Store

ROOT = project_root()
SECTIONS_1_2 = ("tm.", "lat.", "sw.")  # docs/benchmarks.md throughput, latency, signal/wait


def tree_marks(env: str, probe: str, clone_hint: str) -> list[pytest.MarkDecorator]:
    """Skip the module, saying why, unless `env` names a tree holding `probe`."""
    tree = os.environ.get(env, "")
    return [pytest.mark.rtos, pytest.mark.skipif(
        not tree or not (Path(tree) / probe).is_file(),
        reason=f"{env} is not set to an RTOS tree (e.g. git clone {clone_hint})")]


def need(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is required: run scripts/install.sh")


def run_port(out: Path, port: str, target: str, tree: str, profile: str = "quick",
             bench: str | None = None) -> dict[str, bytes]:
    """`rtosmeter run --port P --target T --profile X --source P=tree`: group -> stream."""
    summary = run_campaign(RunOptions(
        out=out, ports=(port,), targets=(target,), profile=profile, bench=bench,
        sources={port: Path(tree)}, jobs=2, quiet=True))
    with Store.open(out / "rtosmeter.sqlite") as store:
        return {e.group: store.stream(e.id) for e in store.executions(summary.run_id)}


def assert_reruns_identical(out: Path, port: str, target: str, first: dict[str, bytes],
                            profile: str = "quick") -> None:
    """Under -icount the same firmware gives the same stream, byte for byte:
    each firmware of `first` (run_port's) run once more. Counted by the QEMU
    plugin (folder `<profile>@instructions`, the default unit) on the MPS2
    machines, by every port (those with their RTOS's own link place the
    counter through its hooks); elsewhere (qemu-microbit) by the target's
    timer."""
    builds = out / "build" / port / target
    counted = builds / f"{profile}@instructions"
    build, plugin = (counted, PluginSpec(Unit.INSTRUCTIONS)) if counted.is_dir() else (
        builds / profile, None)
    spec = Definitions.load(project_root()).target(target)
    for group, data in first.items():
        again = run_once(RunRequest(build / f"rm_{group}.elf", spec,
                                    options=QemuOptions(plugin=plugin)))
        assert again.stream == data, f"{group}: two QEMU runs of one firmware differ"


def check_streams(raw: dict[str, bytes], catalog: Catalog, port: str,
                  exceptions: dict[str, str] | None = None,
                  groups: list[str] | None = None) -> dict[str, ParsedStream]:
    """Every catalog case of each group is present; each case of sections 1-2
    is ok with passing checks and data, or unsupported for capabilities that
    port.toml gives a reason for. Cases in `exceptions` (id -> why) need only
    be present and intact."""
    streams = {group: parse_named(data) for group, data in raw.items()}
    port_toml = (ROOT / "ports" / port / "port.toml").read_text()
    assert set(streams) == set(groups or catalog.groups)
    for group, parsed in streams.items():
        assert parsed.complete and not parsed.errors and parsed.fault is None, (group, parsed)
        ids = {c.id for c in parsed.cases}
        for entry in catalog.cases:
            if entry.group == group:
                assert entry.id in ids, f"{entry.id} missing from the {group} stream"
        for pc in parsed.cases:
            if not pc.id.startswith(SECTIONS_1_2) or pc.id in (exceptions or {}):
                continue
            if pc.status == "unsupported":
                missing = pc.reason.removeprefix("port lacks ").split(", ")
                assert all(f'{m} = "' in port_toml for m in missing), (pc.id, pc.reason)
                continue
            assert pc.status == "ok", (group, pc.id, pc.status, pc.reason)
            assert all(ch.ok for ch in pc.checks), (pc.id, pc.checks)
            assert pc.series or pc.counts, pc.id
    return streams


def case_passes(parsed: ParsedStream, case_id: str) -> None:
    pc = next(c for c in parsed.cases if c.id == case_id)
    assert pc.status == "ok" and pc.checks and all(c.ok for c in pc.checks), (case_id, pc)


# ---- the measured intervals in the disassembly -------------------------------
# The bodies that time a port's calls (bench/cases): the no-switch and pass
# bodies of every kind (lat.mutex.recursive's own), lat.mutex.inheritance's unlock, lat.isr.to_task,
# lat.pool / lat.heap and lat.thread.lifecycle.
MEASURING = re.compile(r"^(run_\w+_nocs|run_mutex_recursive|nocs_\w+|pass_\w+_a|inh_high|"
                       r"tt_a_\w+|run_pool|run_heap|lifecycle_pass)$")
MEASURING_GROUPS = ("lat_ipc", "lat_isr", "lat_memory", "lat_lifecycle", "signal_wait")
_INSN = re.compile(r"^\s+[0-9a-f]+:\t(.*)$")
_CALL = re.compile(r"^bl\s+[0-9a-f]+ <([\w.]+)>")
# Where an interval cannot continue: an unconditional branch, a call, a
# return (a pop or ldm that loads pc: another ldm is a copy), the literal
# pool after the code. A conditional branch (a status
# test) is counted as an instruction of the interval: its fall-through goes on.
_LEAVES = re.compile(r"^(b(\.[nw])?|bx|blx?|tb[bh]|\.word)[\s.]|^(pop|ldm\w*)(\.w)?\s.*\bpc\}")
# The cases' own calls that an opening read follows, never a closing one:
# a series opened before the loop, the loop's test, a ".tick" series' sleep.
_BEFORE_OPENING = ("rm_series", "rm_case_failed", "rm_thread_sleep")
# The MPS2 timer read's inversion of the register it loaded.
_INVERT = re.compile(r"^mvns?(\.w)?\s+\w+,\s*(\w+)$")


def _timer_read(between: list[str], insn: str) -> int | None:
    """Where the MPS2 timer read is in `between` when `insn` inverts its
    value: the load of the register `insn` inverts (the compiler may put
    other instructions between the load and its inversion)."""
    inverted = _INVERT.match(insn)
    if inverted is None:
        return None
    load = re.compile(rf"^ldr(\.w)?\s+{inverted.group(2)},")
    return next((k for k in range(len(between) - 1, -1, -1) if load.match(between[k])), None)


def build_folder(out: Path, port: str, target: str, profile: str = "quick") -> Path:
    """Where run_port's firmware is: plugin-counted (`<profile>@instructions`)
    on the MPS2 machines, else (qemu-microbit) counted by the target's timer."""
    builds = out / "build" / port / target
    counted = builds / f"{profile}@instructions"
    return counted if counted.is_dir() else builds / profile


def call_to_closing_read(elf: Path) -> dict[str, list[tuple[str, list[str]]]]:
    """For each measuring body of a Cortex-M firmware: every call that the
    closing timestamp read follows (a measured call), with the instructions
    between the call's return and that read. The read is the QEMU plugin's
    `dbg #0` marker, or the target timer's load and its inversion (`mvn`:
    targets/mps2), whose load is the read itself."""
    need("arm-none-eabi-objdump", "arm-none-eabi-nm")
    dis = subprocess.run(["arm-none-eabi-objdump", "-d", "--no-show-raw-insn", str(elf)],
                         capture_output=True, text=True, check=True).stdout
    symbols = subprocess.run(["arm-none-eabi-nm", str(elf)],
                             capture_output=True, text=True, check=True).stdout
    weak = {line.split()[-1] for line in symbols.splitlines() if " W " in line}
    return closing_read_gaps(dis, weak)


def closing_read_gaps(dis: str, weak: set[str] | frozenset[str] = frozenset()
                      ) -> dict[str, list[tuple[str, list[str]]]]:
    """call_to_closing_read on `objdump -d --no-show-raw-insn` output.
    Calls of `weak` functions (bench/core/port_defaults.c: the calls of the
    capabilities a port lacks, in bodies that never run) and translators
    (`_rc`, called after a closing read) are no measured calls."""
    found: dict[str, list[tuple[str, list[str]]]] = {}
    for block in dis.split("\n\n"):
        name = re.search(r"<([\w.]+)>:\n", block)
        if name is None or not MEASURING.match(name.group(1)):
            continue
        insns = [m.group(1).strip() for m in map(_INSN.match, block.splitlines()) if m]
        for i, insn in enumerate(insns):
            call = _CALL.match(insn)
            if (call is None or call.group(1).startswith(_BEFORE_OPENING)
                    or call.group(1).endswith("_rc") or call.group(1) in weak):
                continue
            between: list[str] = []
            read: int | None = None
            for later in insns[i + 1:]:
                if later.startswith("dbg"):
                    break
                read = _timer_read(between, later)
                if read is not None:
                    del between[read:]  # the timer read, and what the compiler put after it
                    break
                if _LEAVES.match(later):
                    between = []
                    break
                between.append(later)
            else:
                continue  # the body ends first: not a measured call
            if later.startswith("dbg") or read is not None:
                found.setdefault(name.group(1), []).append((call.group(1), between))
    return found


def assert_measured_calls_alone(elf: Path,
                                allowed: dict[str, tuple[int, str]] | None = None) -> int:
    """Nothing of rtosmeter's between a measured call's return and the closing
    timestamp read (port.h: the status is translated after it). `allowed`:
    body -> how many instructions it may keep there, and why (an allocator's
    block pointer copied into the caller's variable: the call's result; a
    pointer-passing kernel's 16-byte message copy, the receiver's part of the
    operation). Returns how many measured calls were checked."""
    allowed = allowed or {}
    seen = call_to_closing_read(elf)
    assert seen, f"{elf.name}: no measuring body found"
    extra = {f"{body}: {callee}": between for body, calls in seen.items()
             for callee, between in calls
             if len(between) > allowed.get(body, (0, ""))[0]}
    assert not extra, (
        f"{elf.name}: instructions between a measured call and the closing read: {extra}")
    return sum(len(calls) for calls in seen.values())


def assert_port_measures_alone(build: Path,
                               allowed: dict[str, tuple[int, str]] | None = None) -> int:
    """assert_measured_calls_alone on every firmware of MEASURING_GROUPS in a
    build folder (build_folder()); how many measured calls it checked."""
    elves = [build / f"rm_{g}.elf" for g in MEASURING_GROUPS if (build / f"rm_{g}.elf").is_file()]
    assert elves, f"no firmware of {MEASURING_GROUPS} in {build}"
    return sum(assert_measured_calls_alone(elf, allowed) for elf in elves)


# ---- Thread-Metric's loops call its porting layer ----------------------------
# Each tm.* loop body (bench/cases/tm_*.c) and the services it must call
# through bench/core/tm_porting_layer.c, Thread-Metric's rule (its readme,
# section 2.2): real functions in their own translation unit.
TM_LOOPS = {
    "rm_tm_ipc": {"message_thread": {"tm_queue_send", "tm_queue_receive"},
                  "sync_thread": {"tm_semaphore_get", "tm_semaphore_put"},
                  "memory_thread": {"tm_memory_pool_allocate", "tm_memory_pool_deallocate"}},
    "rm_tm_sched": {"coop_thread": {"tm_thread_relinquish"},
                    "preempt_thread": {"tm_thread_resume", "tm_thread_suspend"}},
    "rm_tm_interrupt": {"irq_thread": {"tm_semaphore_get"},
                        "isr_give": {"tm_isr_semaphore_put"},
                        "high_thread": {"tm_thread_suspend"},
                        "isr_resume": {"tm_isr_thread_resume"}},
}
_ADDR_INSN = re.compile(r"^\s+([0-9a-f]+):\t(.*)$")
_ANY_CALL = re.compile(r"^(bl|b(\.w|\.n)?)\s+[0-9a-f]+ <([\w.]+)>")
# A branch (conditional too, cbz/cbnz included) to an address of the same function.
_LOCAL_BRANCH = re.compile(r"^(b\w*|cbn?z\s+\w+,)(\.[nw])?\s+([0-9a-f]+) <([\w.]+)\+0x")


@dataclass(frozen=True)
class TmCalls:
    """A function's calls and tail calls: all, and those inside its
    Thread-Metric loops (the spans a backward branch closes that call a tm_*
    service; parking after a failed check, rm_park's own loop, is not one)."""

    made: frozenset[str]
    in_loops: frozenset[str]


def tm_loop_calls(dis: str, ends: dict[str, int]) -> dict[str, TmCalls]:
    """Function -> its TmCalls, from `objdump -d --no-show-raw-insn`; `ends`:
    function -> the address after its last byte (`nm -S`), so that the
    padding objdump decodes after a function is not read as code."""
    found: dict[str, TmCalls] = {}
    for block in dis.split("\n\n"):
        name = re.search(r"<([\w.]+)>:\n", block)
        if name is None:
            continue
        end = ends.get(name.group(1), 1 << 32)
        insns = [(addr, m.group(2).strip())
                 for m in map(_ADDR_INSN.match, block.splitlines())
                 if m and (addr := int(m.group(1), 16)) < end]
        loops = [(int(b.group(3), 16), addr) for addr, insn in insns
                 if (b := _LOCAL_BRANCH.match(insn)) and b.group(4) == name.group(1)
                 and int(b.group(3), 16) < addr]
        calls = [(addr, c.group(3)) for addr, insn in insns
                 if (c := _ANY_CALL.match(insn)) and c.group(3) != name.group(1)]
        in_loops: set[str] = set()
        for lo, hi in loops:
            inside = {callee for addr, callee in calls if lo <= addr <= hi}
            if any(callee.startswith("tm_") for callee in inside):
                in_loops |= inside  # a Thread-Metric loop, not rm_park's own
        found[name.group(1)] = TmCalls(frozenset(c for _, c in calls), frozenset(in_loops))
    return found


def assert_tm_loops_call_layer(build: Path) -> int:
    """Every tm.* loop body of the build's tm firmware calls its Thread-Metric
    services out of line (bench/core/tm_porting_layer.c), and its loops call
    nothing else (no kernel function directly); the layer's functions are in
    the ELF, not inlined away. Handlers have no loop: only their service
    call is checked.
    Returns how many loop bodies were checked."""
    need("arm-none-eabi-objdump", "arm-none-eabi-nm")
    checked = 0
    for group, loops in TM_LOOPS.items():
        elf = build / f"{group}.elf"
        assert elf.is_file(), f"no {elf.name} in {build}"
        dis = subprocess.run(["arm-none-eabi-objdump", "-d", "--no-show-raw-insn", str(elf)],
                             capture_output=True, text=True, check=True).stdout
        sizes = subprocess.run(["arm-none-eabi-nm", "-S", "--defined-only", str(elf)],
                               capture_output=True, text=True, check=True).stdout
        ends = {f[3]: (int(f[0], 16) & ~1) + int(f[1], 16)
                for f in (line.split() for line in sizes.splitlines()) if len(f) == 4}
        calls = tm_loop_calls(dis, ends)
        for body, services in loops.items():
            # the compiler may clone a body (preempt_thread.part.0, ...): all count
            parts = [c for fn, c in calls.items() if fn == body or fn.startswith(body + ".")]
            made = set().union(*(c.made for c in parts))
            assert services <= made, (
                f"{elf.name}: {body} does not call {sorted(services - made)} through the "
                f"porting layer (it calls {sorted(made)})")
            other = {c for part in parts for c in part.in_loops if not c.startswith("tm_")}
            assert not other, f"{elf.name}: {body}'s loop calls {sorted(other)} outside the layer"
            assert all(s in calls for s in services), f"{elf.name}: a tm_* service is inlined"
            checked += 1
    return checked
