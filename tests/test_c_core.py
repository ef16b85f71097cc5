"""The C benchmark core, cases and POSIX port, built and run for real on the host.

Builds every host group with CMake (as the build contract says), runs the
executables and checks the streams with a small independent decoder: CRCs
(zlib.crc32), contiguous sequence numbers, BYE last, every catalog id exactly
once and in source order, the throughput checks, the lifecycle layouts,
UNSUP with the mask of a missing capability, the POSIX port's CFG lines and
its SCHED_OTHER fallback, and a clang build with -Werror.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

# Sample and escape decoding come from the harness parser, itself checked
# against a slow reference decoder in test_protocol.py.
from rtosmeter.protocol import decode_samples, parse_stream, unescape

ROOT = Path(__file__).resolve().parents[1]
GROUPS = [
    "tm_basic",
    "tm_sched",
    "tm_interrupt",
    "tm_ipc",
    "lat_thread",
    "lat_ipc",
    "lat_memory",
    "lat_isr",
    "lat_jitter",
    "lat_lifecycle",
    "signal_wait",
    "irq",
]
SAMPLES = 256

# Every test here builds and runs the host firmware: slow.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("cmake") is None or shutil.which("ninja") is None,
        reason="cmake and ninja are needed to build the host executables",
    ),
]


def cap_bits() -> dict[str, int]:
    text = (ROOT / "bench/include/rtosmeter/port.h").read_text()
    return {m[1]: int(m[2]) for m in re.finditer(r"X\((\w+), (\d+), \"", text)}


def catalog_ids(group: str) -> list[str]:
    text = (ROOT / "bench/cases" / f"{group}.c").read_text()
    return re.findall(r'^RM_CASE\(\w+, "([^"]+)"', text, flags=re.M)


def write_config(cfg_dir: Path, caps: list[str]) -> None:
    bits = cap_bits()
    mask = " | ".join(f"RM_CAP_{c}" for c in caps) or "0"
    assert all(c in bits for c in caps)
    cfg_dir.mkdir(parents=True, exist_ok=True)
    (cfg_dir / "rm_build_config.h").write_text(
        "/* written by tests/test_c_core.py */\n"
        '#define RM_PORT_NAME "posix"\n#define RM_TARGET_NAME "host"\n'
        '#define RM_PROFILE "test"\n'
        f"#define RM_PORT_CAPS ({mask})\n"
        '#define RM_TS_NAME "CLOCK_MONOTONIC"\n#define RM_TS_UNIT "ns (host clock)"\n'
        "#define RM_TS_HZ 1000000000u\n"
        f"#define RM_SAMPLES {SAMPLES}\n#define RM_BATCH 100\n"
        "#define RM_TM_PERIOD_MS 50\n#define RM_TM_PERIODS 2\n"
    )


def all_groups() -> list[str]:
    """Every group file in bench/cases (including ones this file does not run)."""
    return sorted(p.stem for p in (ROOT / "bench/cases").glob("*.c"))


def build(tmp: Path, caps: list[str], groups: list[str], cc: str | None = None) -> Path:
    write_config(tmp / "cfg", caps)
    out = tmp / "build"
    env = dict(os.environ)
    if cc is not None:
        env["CC"] = cc  # CMake picks the C compiler from CC on first configure
    proc = subprocess.run(
        [
            "cmake",
            "-S",
            str(ROOT / "bench"),
            "-B",
            str(out),
            "-G",
            "Ninja",
            f"-DRM_TARGET_DIR={ROOT / 'targets/host'}",
            f"-DRM_PORT_DIR={ROOT / 'ports/posix'}",
            f"-DRM_CONFIG_DIR={tmp / 'cfg'}",
            f"-DRM_GROUPS={';'.join(groups)}",
            "-DRM_OPT_FLAGS=-O2",
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = subprocess.run(["cmake", "--build", str(out), "-j", "2"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    return out


@dataclass
class Case:
    id: str
    status: str
    reason: str = ""
    series: dict[str, list[int]] = field(default_factory=dict)
    checks: dict[str, bool] = field(default_factory=dict)
    meta: dict[str, str] = field(default_factory=dict)
    series_fields: dict[str, dict[str, str]] = field(default_factory=dict)


@dataclass
class Stream:
    records: list[tuple[str, list[str]]]
    cases: list[Case]
    exit_code: int
    cfg: dict[str, str] = field(default_factory=dict)


def unsup_reason(kv: dict[str, str]) -> str:
    """An UNSUP's reason: its own (rm_unsupported), or the missing mask named
    with RM_CAPS of port.h, as the harness does ("port lacks A, B: note")."""
    if "missing" not in kv:
        return kv["reason"]
    assert re.fullmatch(r"[0-9a-f]{8}", kv["missing"]), kv
    mask = int(kv["missing"], 16)
    names = {bit: name for name, bit in cap_bits().items()}
    assert mask and all(b in names for b in range(32) if mask >> b & 1), kv
    text = "port lacks " + ", ".join(names[b] for b in sorted(names) if mask >> b & 1)
    return f"{text}: {kv['note']}" if "note" in kv else text


def decode(data: bytes, exit_code: int) -> Stream:
    """An independent reader: asserts the framing, returns records and cases."""
    records: list[tuple[str, list[str]]] = []
    lines = [ln for ln in data.split(b"\n") if ln.startswith(b"@RM ")]
    for seq, line in enumerate(lines):
        body, crc = line.rsplit(b" *", 1)
        assert zlib.crc32(body + b" ") == int(crc, 16), f"bad CRC: {line[:80]!r}"
        parts = body.decode("ascii").split(" ")
        assert int(parts[1]) == seq, f"sequence gap at {line[:40]!r}"
        records.append((parts[2], parts[3:]))
    cases: list[Case] = []
    cfg: dict[str, str] = {}
    cur: Case | None = None
    ids: dict[str, str] = {}
    for rtype, f in records:
        kv = dict(p.split("=", 1) for p in f if "=" in p)
        kv = {k: unescape(v) for k, v in kv.items()}
        if rtype == "CFG":
            assert cur is None and not cases, "CFG after the first case"
            cfg[kv["k"]] = kv["v"]
        elif rtype == "CASE":
            assert cur is None
            cur = Case(kv["id"], "open")
        elif rtype == "UNSUP":  # alone, or ending the open case of that id
            assert cur is None or cur.id == kv["id"]
            if cur is not None:  # rm_unsupported(): a reason, never a mask
                assert "missing" not in kv, kv
                cur.status, cur.reason = "unsupported", kv["reason"]
                cases.append(cur)
                cur, ids = None, {}
            else:
                cases.append(Case(kv["id"], "unsupported", unsup_reason(kv)))
        elif rtype == "SERIES":
            assert cur is not None
            ids[kv["id"]] = kv["name"]
            cur.series[kv["name"]] = []
            cur.series_fields[kv["name"]] = kv
        elif rtype == "S":
            assert cur is not None
            samples = cur.series[ids[f[0]]]
            assert int(f[1]) == len(samples), "sample index skips"
            samples.extend(decode_samples(f[2]))
        elif rtype == "CHECK":
            assert cur is not None
            cur.checks[kv["name"]] = kv["ok"] == "1"
        elif rtype == "META":
            assert cur is not None
            cur.meta[kv["k"]] = kv["v"]
        elif rtype == "FAIL":
            assert cur is not None
            cur.reason = kv["reason"]
        elif rtype == "END":
            assert cur is not None and kv["id"] == cur.id
            cur.status = kv["status"]
            cases.append(cur)
            cur, ids = None, {}
    return Stream(records, cases, exit_code, cfg)


def run(exe: Path) -> Stream:
    proc = subprocess.run([str(exe)], capture_output=True, timeout=120)
    return decode(proc.stdout, proc.returncode)


def prio_max() -> int:
    text = (ROOT / "bench/include/rtosmeter/port.h").read_text()
    m = re.search(r"^#define RM_PRIO_MAX (\d+)", text, flags=re.M)
    assert m
    return int(m[1])


@pytest.fixture(scope="module")
def posix_caps() -> list[str]:
    caps: list[str] = tomllib.loads((ROOT / "ports/posix/port.toml").read_text())["caps"]
    return caps


@pytest.fixture(scope="module")
def host_build(tmp_path_factory: pytest.TempPathFactory, posix_caps: list[str]) -> Path:
    return build(tmp_path_factory.mktemp("host"), posix_caps, GROUPS)


@pytest.fixture(scope="module")
def streams(host_build: Path) -> dict[str, Stream]:
    return {g: run(host_build / f"rm_{g}") for g in GROUPS}


def test_every_stream_is_framed_and_ends_with_bye(streams: dict[str, Stream]) -> None:
    for group, s in streams.items():
        assert s.records[0][0] == "HELLO", group
        assert f"group={group}" in s.records[0][1]
        assert s.records[-1][0] == "BYE", group
        bye = dict(p.split("=") for p in s.records[-1][1])
        assert int(bye["cases"]) == len(s.cases)
        assert int(bye["status"]) == s.exit_code == 0, (group, [c.reason for c in s.cases])


def test_calibration_first_and_every_catalog_id_once(streams: dict[str, Stream]) -> None:
    for group, s in streams.items():
        assert s.cases[0].id == "calib.overhead"
        assert len(s.cases[0].series["overhead"]) == SAMPLES
        seen = sorted(c.id for c in s.cases[1:])
        assert seen == sorted(catalog_ids(group)), group


def test_cases_run_in_source_order(streams: dict[str, Stream]) -> None:
    # GCC places a file's RM_CASE entries in reverse; the runner must not care.
    for group, s in streams.items():
        assert [c.id for c in s.cases[1:]] == catalog_ids(group), group


def test_supported_cases_pass_and_give_full_series(
    streams: dict[str, Stream], posix_caps: list[str]
) -> None:
    for s in streams.values():
        for c in s.cases:
            if c.id == "irq.max_rate":  # the host target has no periodic timer
                assert c.status == "unsupported" and "periodic timer" in c.reason, c
                continue
            if c.status == "unsupported":
                assert c.reason.startswith("port lacks ")
                missing = c.reason.removeprefix("port lacks ").split(", ")
                assert not set(missing) & set(posix_caps), c
                continue
            assert c.status == "ok", (c.id, c.reason)
            for name, samples in c.series.items():
                assert len(samples) in (SAMPLES, max(16, SAMPLES // 8), 256, 1000), (c.id, name)


def test_scheduler_checks(streams: dict[str, Stream]) -> None:
    by_id = {c.id: c for s in streams.values() for c in s.cases}
    assert by_id["tm.cooperative"].checks == {"counters_within_1_of_mean": True}
    assert by_id["tm.preemptive"].checks == {"counters_within_1_of_mean": True}
    assert by_id["tm.interrupt"].checks == {"handler_thread_within_1": True}
    assert all(by_id["tm.interrupt_preempt"].checks.values())
    assert by_id["tm.message"].checks == {"message_intact": True}
    assert by_id["lat.mutex.inheritance"].checks["medium_did_not_run"]
    sw = by_id["sw.condvar"]
    assert sw.meta["s4"].startswith("impossible:") and "s4" not in sw.series
    assert {"s1", "s2", "s3", "s4", "s1.tick", "s4.tick"} <= set(by_id["sw.sem"].series)
    life = by_id["lat.thread.lifecycle"].series
    assert {"create", "start", "suspend", "resume", "delete", "create@20", "delete@5"} <= set(life)


def test_missing_capability_is_unsup_with_reason(tmp_path: Path, posix_caps: list[str]) -> None:
    caps = [c for c in posix_caps if c not in ("SEM", "MUTEX_INHERIT")]
    out = build(tmp_path, caps, ["lat_ipc"])
    s = run(out / "rm_lat_ipc")
    by_id = {c.id: c for c in s.cases}
    assert by_id["lat.sem.nocs"].status == "unsupported"
    assert by_id["lat.sem.nocs"].reason == "port lacks SEM"
    assert by_id["lat.mutex.inheritance"].reason == "port lacks MUTEX_INHERIT"
    # The target writes the mask only (no names, no note: nothing was withdrawn).
    unsup = {f[0]: f[1:] for t, f in s.records if t == "UNSUP"}
    assert unsup["id=lat.sem.nocs"] == [f"missing={1 << cap_bits()['SEM']:08x}"]
    assert by_id["lat.queue.nocs"].status == "ok"
    assert s.records[-1][0] == "BYE" and s.exit_code == 0


def test_recorded_streams_parse_with_the_harness_parser(streams: dict[str, Stream]) -> None:
    for group in GROUPS:
        path = ROOT / "tests/data" / f"posix-host-{group}.rmstream"
        if not path.exists():
            continue
        parsed = parse_stream(path.read_bytes())
        assert parsed.complete and not parsed.errors, (group, parsed.errors[:3])
        assert sorted(c.id for c in parsed.cases) == sorted(["calib.overhead", *catalog_ids(group)])


def test_lifecycle_covers_counts_gaps_and_says_where_it_clamped(
    streams: dict[str, Stream],
) -> None:
    case = next(c for c in streams["lat_lifecycle"].cases if c.id == "lat.thread.lifecycle")
    calls = ["create", "start", "suspend", "resume", "delete"]
    loaded = max(16, SAMPLES // 8)
    top = prio_max() - 1  # the other threads stay below X (RM_PRIO_MAX)
    want_series: dict[str, int] = {call: SAMPLES for call in calls}
    want_clamped: dict[str, str] = {}
    for gap in range(1, 6):
        for n in (5, 10, 15, 20):
            suffix = f"@{n}" if gap == 1 else f"@{n}/g{gap}"
            want_series.update({call + suffix: loaded for call in calls})
            clamped = sum(1 for i in range(n) if 1 + i * gap > top)
            if clamped:
                want_clamped[f"clamped@{n}/g{gap}"] = str(clamped)
    assert {k: len(v) for k, v in case.series.items()} == want_series
    assert {k: v for k, v in case.meta.items() if k.startswith("clamped@")} == want_clamped
    assert want_clamped["clamped@20/g5"] == "14" and "clamped@20/g1" not in want_clamped
    assert case.meta["x_prio"] == str(prio_max())
    assert case.meta["loaded_samples"] == str(loaded)


def test_posix_cfg_records_cpu_and_rt_throttling(streams: dict[str, Stream]) -> None:
    cfg = streams["lat_memory"].cfg
    # The port pins itself to the last CPU it is allowed on (inherited from us).
    assert cfg["cpu"] == str(max(os.sched_getaffinity(0)))
    for key in ("sched_rt_runtime_us", "sched_rt_period_us"):
        proc_file = Path("/proc/sys/kernel") / key
        if proc_file.exists():
            assert cfg[key] == proc_file.read_text().strip()
        else:
            assert cfg[key].startswith("unknown (")


def fifo_denied_prefix() -> list[str]:
    """A command prefix under which SCHED_FIFO is refused, or skip.

    RLIMIT_RTPRIO 0 (prlimit) refuses it to an unprivileged process; root
    must also lose CAP_SYS_NICE (setpriv) for the limit to count."""
    if shutil.which("prlimit") is None or shutil.which("chrt") is None:
        pytest.skip("prlimit and chrt (util-linux) are needed to refuse SCHED_FIFO")
    prefix = ["prlimit", "--rtprio=0"]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("setpriv (util-linux) is needed to drop CAP_SYS_NICE as root")
        prefix += ["setpriv", "--inh-caps=-sys_nice", "--bounding-set=-sys_nice"]
    if subprocess.run([*prefix, "true"], capture_output=True).returncode != 0:
        pytest.skip(f"cannot run commands under {' '.join(prefix)} here")
    if subprocess.run([*prefix, "chrt", "-f", "1", "true"], capture_output=True).returncode == 0:
        pytest.skip(f"SCHED_FIFO is still allowed under {' '.join(prefix)}")
    return prefix


FALLBACK_GROUPS = ["lat_memory", "lat_ipc", "tm_sched", "tm_basic", "lat_thread", "irq",
                   "signal_wait"]


def test_posix_without_sched_fifo_reports_rt_cases_unsupported(host_build: Path) -> None:
    """Without SCHED_FIFO the port withdraws THREAD, SUSPEND, PREEMPTIVE, IRQ...
    at run time: every case that needs real priorities is UNSUP with the
    reason, the single-thread cases still run, and nothing crashes or hangs."""
    prefix = fifo_denied_prefix()
    for group in FALLBACK_GROUPS:
        proc = subprocess.run(
            [*prefix, str(host_build / f"rm_{group}")], capture_output=True, timeout=60
        )
        s = decode(proc.stdout, proc.returncode)
        stderr = proc.stderr.decode()
        assert "warning: SCHED_FIFO not permitted" in stderr, stderr
        assert "results are not comparable" in stderr
        assert re.fullmatch(r"SCHED_OTHER \(fallback: .+\)", s.cfg["sched"]), s.cfg["sched"]
        assert s.records[-1][0] == "BYE" and s.exit_code == 0, (group, proc.returncode)
        assert [c.id for c in s.cases[1:]] == catalog_ids(group)
        for c in s.cases:
            if c.status == "ok":
                continue
            assert c.status == "unsupported", (group, c)
            if c.id == "irq.max_rate" and "THREAD" not in c.reason and "IRQ" not in c.reason:
                continue  # no periodic timer on the host, whatever the policy
            if c.reason == "port lacks MUTEX_RECURSIVE":
                continue  # the port's mutex does not nest, whatever the policy
            assert "SCHED_FIFO refused (" in c.reason, c
            assert "run as root or raise RLIMIT_RTPRIO / grant CAP_SYS_NICE" in c.reason, c
        by_id = {c.id: c for c in s.cases}
        if group == "lat_ipc":
            assert by_id["lat.sem.nocs"].status == by_id["lat.queue.nocs"].status == "ok"
            assert by_id["lat.sem.pass"].reason.startswith("port lacks THREAD, PREEMPTIVE: ")
        if group == "tm_basic":  # no threads and no periodic timer: unsupported
            assert by_id["tm.basic"].reason.startswith("port lacks THREAD: SCHED_FIFO refused")
        if group == "lat_memory":
            assert [c.status for c in s.cases] == ["ok"] * len(s.cases)


def test_unsupported_after_start_ends_the_case(streams: dict[str, Stream]) -> None:
    # irq.max_rate writes META, then finds the host has no periodic timer:
    # it ends as unsupported (UNSUP with its id, no END), not failed, and
    # the irq firmware exits 0.
    s = streams["irq"]
    types = [r[0] for r in s.records]
    case_at = next(i for i, r in enumerate(s.records)
                   if r[0] == "CASE" and "id=irq.max_rate" in r[1])
    unsup_at = types.index("UNSUP", case_at)
    assert "META" in types[case_at:unsup_at] and "END" not in types[case_at:unsup_at]
    assert types[unsup_at + 1] == "BYE" and s.exit_code == 0
    c = next(c for c in s.cases if c.id == "irq.max_rate")
    assert c.status == "unsupported" and c.meta["events_per_step"] == "100"
    assert c.reason == "the target has no periodic timer interrupt (rm_target_periodic_start)"


def test_jitter_series_is_marked_no_subtraction(streams: dict[str, Stream]) -> None:
    by_id = {c.id: c for c in streams["irq"].cases}
    assert by_id["irq.latency_jitter"].series_fields["delta"]["sub"] == "0"
    assert "sub" not in by_id["irq.latency"].series_fields["latency"]


def test_hello_carries_the_period_in_ms_ticks_and_the_tick_rate(
    streams: dict[str, Stream],
) -> None:
    hello = dict(p.split("=", 1) for p in streams["tm_basic"].records[0][1])
    # RM_TM_PERIOD_MS 50 at the POSIX port's emulated 1000 Hz tick
    assert (hello["tm_period_ms"], hello["tick_hz"], hello["tm_period"]) == ("50", "1000", "50")
    counts = [r for r in streams["tm_basic"].records if r[0] == "COUNT"]
    assert len(counts) == 2


def test_normal_run_records_sched_fifo(streams: dict[str, Stream]) -> None:
    probe = subprocess.run(["chrt", "-f", "1", "true"], capture_output=True)
    if shutil.which("chrt") is None or probe.returncode != 0:
        pytest.skip("SCHED_FIFO is not permitted to this user: the port falls back")
    assert streams["lat_memory"].cfg["sched"] == "SCHED_FIFO"


@pytest.mark.skipif(shutil.which("clang") is None, reason="clang is not installed")
def test_every_group_builds_with_clang_and_werror(tmp_path: Path, posix_caps: list[str]) -> None:
    groups = all_groups()
    out = build(tmp_path, posix_caps, groups, cc="clang")  # RM_WARN_FLAGS has -Werror
    cache = (out / "CMakeCache.txt").read_text()
    assert re.search(r"^CMAKE_C_COMPILER:\w+=.*clang", cache, flags=re.M)
    assert all((out / f"rm_{g}").exists() for g in groups)
    s = run(out / "rm_lat_memory")
    assert s.cfg["compiler"].startswith("clang ") and s.exit_code == 0
