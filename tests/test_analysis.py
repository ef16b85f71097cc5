"""A stored run -> RunView: units, overhead subtraction, checks, normalised
throughput, errors; and the time and memory for a million stored samples."""

from __future__ import annotations

import math
import statistics
import time
import tracemalloc
from pathlib import Path

import pytest
from _datahalf import craft, store_run

from rtosmeter.analysis import load_run, not_run_here
from rtosmeter.protocol import StreamWriter, parse_stream
from rtosmeter.sample_units import unit_for
from rtosmeter.scores import floor_checks, normalise_throughput
from rtosmeter.store import Store
from rtosmeter.vocabulary import FLOOR_CHECK, family, is_interrupt_rate

HOST = {"runner": "host"}
QEMU = {"runner": "qemu", "icount_shift": 6}


def test_units() -> None:
    h = unit_for({"hz": "1000000000"}, HOST)
    assert (h.label, h.per_tick, h.deterministic) == ("ns (host clock)", 1.0, False)
    q = unit_for({"hz": "25000000"}, QEMU)
    # one tick = 40 virtual ns; one instruction = 2**6 = 64 virtual ns
    assert (q.label, q.per_tick, q.deterministic) == ("instructions (QEMU icount)", 0.625, True)
    n = unit_for({"hz": "25000000"}, {"runner": "qemu", "icount_shift": None})
    assert n.label == "timer ticks @25 MHz (host-timed, noisy)" and n.per_tick == 1.0
    d = unit_for({"hz": "64000000", "ts": "DWT", "unit": "cycles"}, {"runner": "board"})
    assert d.label == "cycles (DWT)"


def test_overhead_subtracted_and_converted(tmp_path: Path) -> None:
    calib = [99, 10, 12, 11, 11]  # warm median 11
    lat = [500, 20, 30, 5, 111]
    data = craft("freertos", "qemu-mps2-an386", 25_000_000, calib,
                 latency=[("lat.sem.pass", {"take": lat})])
    run = store_run(tmp_path / "r.sqlite", [(data, QEMU)])
    with Store.open(tmp_path / "r.sqlite") as st:
        view = load_run(st, run)
    case = next(c for c in view.cases if c.case_id == "lat.sem.pass")
    (d,) = case.distributions
    warm = [max(v - 11, 0) * 0.625 for v in lat[1:]]  # [5.625, 11.875, 0, 62.5]
    assert d.unit.label == "instructions (QEMU icount)"
    assert d.cold == (500 - 11) * 0.625
    assert d.n == 4
    assert d.mean == pytest.approx(statistics.fmean(warm))
    assert d.std == pytest.approx(statistics.stdev(warm))
    assert d.p50 == pytest.approx(statistics.median(warm))
    assert (d.min, d.max) == (0.0, 62.5) and d.jitter == 62.5
    assert d.overhead == 11 * 0.625
    calib_d = next(c for c in view.cases if c.case_id == "calib.overhead").distributions[0]
    assert calib_d.overhead == 0 and calib_d.p50 == 11 * 0.625  # reported raw
    assert view.builds[0].runner["unit"] == "instructions (QEMU icount)"
    assert view.builds[0].config["compiler"] == "gcc 12.2"


def test_throughput_normalised_per_target(tmp_path: Path) -> None:
    a = craft("posix", "host", 10**9, [5, 5], throughput={"tm.sync": [100, 100, 100]})
    b = craft("baremetal", "host", 10**9, [5, 5], throughput={"tm.sync": [240, 250, 260]})
    c = craft("freertos", "qemu-mps2-an386", 25_000_000, [5, 5],
              throughput={"tm.sync": [7, 7, 7]})
    run = store_run(tmp_path / "r.sqlite", [(a, HOST), (b, HOST), (c, QEMU)])
    with Store.open(tmp_path / "r.sqlite") as st:
        view = load_run(st, run)
    norm = {(n.target, n.system): n for n in normalise_throughput(view.cases)}
    slow = norm[("host", "posix/host/default")]
    fast = norm[("host", "baremetal/host/default")]
    assert (slow.score, fast.score) == (100, 250)
    assert slow.percent_of_best == 40.0 and fast.percent_of_best == 100.0
    assert slow.multiple_of_slowest == 1.0 and fast.multiple_of_slowest == 2.5
    alone = norm[("qemu-mps2-an386", "freertos/qemu-mps2-an386/default")]
    assert (alone.percent_of_best, alone.multiple_of_slowest) == (100.0, 1.0)


def test_checks_unsupported_and_errors(tmp_path: Path) -> None:
    good = craft("posix", "host", 10**9, [5, 5, 5],
                 latency=[("lat.mutex.inheritance", {"lock": [9, 9, 9]})],
                 checks={"m_did_not_run": (1, 0)},
                 unsupported={"lat.notify.s1": "POSIX has no task notification"})
    cut = good[: good.find(b"END id=lat.mutex")]  # dies before the END
    run = store_run(tmp_path / "r.sqlite", [(good, HOST), (cut, HOST)])
    with Store.open(tmp_path / "r.sqlite") as st:
        view = load_run(st, run)
    inh = [c for c in view.cases if c.case_id == "lat.mutex.inheritance"]
    assert [c.status for c in inh] == ["failed", "incomplete"]
    assert "check m_did_not_run failed: got 1, want 0" in inh[0].reason
    assert not inh[0].checks[0].ok
    uns = next(c for c in view.cases if c.status == "unsupported")
    assert uns.reason == "POSIX has no task notification"
    assert any("without BYE" in e and "posix/host/default g" in e for e in view.errors)


def test_fault_and_failed_execution_reported(tmp_path: Path) -> None:
    w = StreamWriter()
    w.record("HELLO", dict(v=1, port="freertos", target="qemu-mps2-an385", group="g",
                           ts="t", unit="ticks", hz=25_000_000, samples=1, batch=1,
                           tm_period=1, tm_periods=1, profile="default"))
    w.record("CASE", {"id": "lat.a"})
    w.record("FAULT", {"pc": "1", "lr": "2", "psr": "3", "cfsr": "4", "hfsr": "5",
                       "mmfar": "6", "bfar": "7"})
    w.record("BYE", {"cases": 1, "status": 3})
    data = w.getvalue()
    with Store.open(tmp_path / "r.sqlite") as st:
        run = st.create_run({}, {}, "0.1")
        b = st.add_build(run, "freertos", "qemu-mps2-an385", "default", {})
        st.add_execution(run, b, "g", status="failed", error="exit code 3", exit_code=3,
                         runner=QEMU, stream=data, parsed=parse_stream(data))
        b2 = st.add_build(run, "zephyr", "qemu-mps2-an385", "default", {}, status="failed",
                          error="cmake failed")
        assert b2
        view = load_run(st, run)
    assert view.cases[0].status == "failed" and "CPU fault" in view.cases[0].reason
    text = "\n".join(view.errors)
    assert "zephyr/qemu-mps2-an385/default: build failed: cmake failed" in text
    assert "freertos/qemu-mps2-an385/default g: failed: exit code 3" in text
    assert "CPU fault during case lat.a" in text


@pytest.mark.slow
def test_million_samples_fast_and_small(tmp_path: Path) -> None:
    rng_vals = [(i * 7919) % 5000 + 100 for i in range(10_000)]
    cases = [(f"lat.case{i}", {"a": rng_vals, "b": rng_vals[::-1]}) for i in range(50)]
    data = craft("posix", "host", 10**9, [30] * 1000, latency=cases)
    run = store_run(tmp_path / "r.sqlite", [(data, HOST)])
    with Store.open(tmp_path / "r.sqlite") as st:
        n = sum(s.samples.size for s in st.iter_series(run))
        assert n >= 1_000_000
        tracemalloc.start()
        t0 = time.perf_counter()
        view = load_run(st, run)
        elapsed = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert len(view.cases) == 51
    d = view.cases[1].distributions[0]
    assert d.n == 9999 and not math.isnan(d.p99)
    assert elapsed < 5.0, elapsed
    assert peak < 200 * 2**20, peak


# ---- the floor check: tm.basic against bare metal -----------------------------

DATA = Path(__file__).parent / "data"


def _store_as(path: Path, streams: list[tuple[str, bytes]]) -> int:
    """Each (port name, stream) stored as one build of that port (host
    runner); "port+clang" stores it as built with the clang toolchain."""
    with Store.open(path) as st:
        run = st.create_run({"name": "test"}, {}, "0.1.0")
        for name, data in streams:
            parsed = parse_stream(data)
            port, _, toolchain = name.partition("+")
            b = st.add_build(run, port, parsed.header["target"], "default", {},
                             axes={"toolchain": toolchain or "gcc"})
            st.add_execution(run, b, parsed.header["group"], status="ok", runner=HOST,
                             stream=data, parsed=parsed)
        st.finish_run(run)
    return run


def test_floor_check_on_a_recorded_stream_renamed_to_baremetal(tmp_path: Path) -> None:
    """The same recorded tm.basic stored as posix and as the bare-metal floor:
    0 % apart, so the derived check passes."""
    data = (DATA / "posix-host-tm_basic.rmstream").read_bytes()
    run = _store_as(tmp_path / "r.sqlite", [("posix", data), ("baremetal", data)])
    with Store.open(tmp_path / "r.sqlite") as st:
        view = load_run(st, run)
    (cal,) = floor_checks(view.cases)
    assert (cal.port, cal.floor, cal.deviation, cal.ok) == ("posix", cal.score, 0.0, True)
    posix = next(c for c in view.cases if c.port == "posix" and c.case_id == "tm.basic")
    check = next(k for k in posix.checks if k.name == FLOOR_CHECK)
    assert check.ok and check.got == check.want == round(cal.score)
    floor = next(c for c in view.cases if c.port == "baremetal" and c.case_id == "tm.basic")
    assert all(k.name != FLOOR_CHECK for k in floor.checks)  # the floor is not checked


def test_floor_check_flags_more_than_one_percent(tmp_path: Path) -> None:
    q = "qemu-mps2-an386"
    streams = [(p, craft(p, q, 25_000_000, [5, 5], throughput={"tm.basic": counts}))
               for p, counts in (("baremetal", [1000, 1000, 1000]),
                                 ("freertos", [995, 995, 995]),  # -0.5 %: fine
                                 ("threadx", [980, 980, 980]))]  # -2 %: flagged
    streams.append(("posix", craft("posix", "host", 10**9, [5, 5],
                                   throughput={"tm.basic": [7, 7, 7]})))
    run = _store_as(tmp_path / "r.sqlite", streams)
    with Store.open(tmp_path / "r.sqlite") as st:
        view = load_run(st, run)
    cals = {c.port: c for c in floor_checks(view.cases)}
    assert cals["freertos"].deviation == pytest.approx(-0.005) and cals["freertos"].ok
    assert cals["threadx"].deviation == pytest.approx(-0.02) and cals["threadx"].ok is False
    assert cals["posix"].floor is None and cals["posix"].ok is None  # another target
    assert cals["posix"].describe() == "no bare-metal floor in this run"
    tx = next(c for c in view.cases if c.port == "threadx" and c.case_id == "tm.basic")
    assert tx.status == "ok"  # flagged, not failed: the count is still a measurement
    assert [(k.name, k.ok, k.got, k.want) for k in tx.checks] == [
        (FLOOR_CHECK, False, 980, 1000)]
    from rtosmeter.reports import table
    text = table.render(view)
    row = next(ln for ln in text.splitlines() if "within 1 % of bare metal" in ln
               and "-2.00" in ln)
    assert "✗ -2.00 % vs bare metal" in row and "-0.50 % vs bare metal" in row
    assert "the floor" in row
    assert "no bare-metal floor in this run" in text


def test_floor_check_holds_per_toolchain(tmp_path: Path) -> None:
    """Each port is held to the bare-metal floor built with its own compiler:
    Clang's faster loop is no deviation of a Clang-built kernel."""
    q = "qemu-mps2-an386"
    streams = [(p, craft(p.partition("+")[0], q, 25_000_000, [5, 5],
                         throughput={"tm.basic": counts}))
               for p, counts in (("baremetal", [1000] * 3), ("baremetal+clang", [1200] * 3),
                                 ("freertos", [1000] * 3), ("freertos+clang", [1150] * 3))]
    run = _store_as(tmp_path / "r.sqlite", streams)
    with Store.open(tmp_path / "r.sqlite") as st:
        view = load_run(st, run)
    cals = {c.system: c for c in floor_checks(view.cases)}
    assert cals[f"freertos/{q}/default"].deviation == 0.0
    clang = cals[f"freertos/{q}/default+clang"]
    assert clang.floor == 1200 and clang.deviation == pytest.approx(-50 / 1200)
    assert clang.ok is False


def test_families_and_not_run_here(tmp_path: Path) -> None:
    w = StreamWriter()
    w.record("HELLO", dict(v=1, port="baremetal", target="qemu-mps2-an386", group="irq",
                           ts="t", unit="ticks", hz=25_000_000, samples=1, batch=1,
                           tm_period=100, tm_periods=3, profile="default"))
    w.record("CASE", {"id": "irq.max_rate"})
    for step, (name, value) in enumerate([("raised", 100), ("handled", 100)]):
        w.record("COUNT", {"name": name, "period": step, "value": value})
    w.record("META", {"k": "max_rate_hz", "v": "1000"})
    w.record("END", {"id": "irq.max_rate", "status": "ok"})
    w.record("UNSUP", {"id": "sw.sem", "reason": "port lacks SEM"})
    w.record("BYE", {"cases": 2, "status": 0})
    data = w.getvalue()
    with Store.open(tmp_path / "r.sqlite") as st:
        run = st.create_run({}, {}, "0.1")
        b = st.add_build(run, "baremetal", "qemu-mps2-an386", "default", {})
        st.add_execution(run, b, "irq", status="ok", runner=QEMU, stream=data,
                         parsed=parse_stream(data))
        st.add_build(run, "threadx", "qemu-mps2-an386", "default", {}, status="unsupported",
                     error="RTOS source tree for threadx not found")
        st.add_build(run, "zephyr", "host", "default", {}, status="skipped",
                     error="host: missing cmake")
        view = load_run(st, run)
    rate = next(c for c in view.cases if c.case_id == "irq.max_rate")
    assert family(rate) == "other" and is_interrupt_rate(rate)
    assert normalise_throughput(view.cases) == []  # counts, but not Thread-Metric
    assert family(next(c for c in view.cases if c.case_id == "sw.sem")) == "latency"
    assert view.errors == []
    assert not_run_here(view) == [
        ("threadx/qemu-mps2-an386/default", "unsupported", "RTOS source tree for threadx "
         "not found"), ("zephyr/host/default", "skipped", "host: missing cmake")]


@pytest.mark.parametrize("stream, runner", [
    ("baremetal-qemu-mps2-an386-irq.rmstream", QEMU),
    ("posix-host-irq.rmstream", HOST),
])
def test_sub0_series_keeps_its_overhead(tmp_path: Path, stream: str,
                                        runner: dict[str, object]) -> None:
    """irq.latency_jitter's `delta` (SERIES sub=0) is a difference of two
    intervals: the overhead cancels in it, so none is subtracted; irq.latency
    in the same firmware has it subtracted."""
    data = (DATA / stream).read_bytes()
    parsed = parse_stream(data)
    delta = parsed.case("irq.latency_jitter").series["delta"]
    assert not delta.subtract, f"{stream} predates SERIES sub=0: record it again"
    run = store_run(tmp_path / "r.sqlite", [(data, runner)])
    with Store.open(tmp_path / "r.sqlite") as st:
        view = load_run(st, run)
    unit = unit_for(parsed.header, runner)
    jitter = next(c for c in view.cases if c.case_id == "irq.latency_jitter")
    d = next(d for d in jitter.distributions if d.series == "delta")
    assert d.overhead == 0.0
    warm = [v * unit.per_tick for v in delta.samples[1:]]
    assert d.p50 == pytest.approx(statistics.median(warm))
    assert d.mean == pytest.approx(statistics.fmean(warm)) and d.mean > 0
    assert d.max == pytest.approx(max(warm))
    lat = next(d for c in view.cases if c.case_id == "irq.latency" for d in c.distributions
               if d.series == "latency")
    calib = parsed.case("calib.overhead").series["overhead"].samples
    overhead = statistics.median(calib[1:])
    assert overhead > 0 and lat.overhead == pytest.approx(overhead * unit.per_tick)
    raw = parsed.case("irq.latency").series["latency"].samples[1:]
    assert lat.p50 == pytest.approx(max(statistics.median(raw) - overhead, 0) * unit.per_tick)


def test_empty_build_setting_does_not_hide_the_streams(tmp_path: Path) -> None:
    """The build's config wins over the stream's CFG, except where it is empty
    (a CMake cache entry that was not set): then the firmware's word shows."""
    data = craft("posix", "host", 10**9, [5, 5])  # CFG compiler=gcc 12.2
    parsed = parse_stream(data)
    with Store.open(tmp_path / "r.sqlite") as st:
        run = st.create_run({}, {}, "0.1")
        b = st.add_build(run, "posix", "host", "default", {"compiler": "", "opt_flags": "-O2"})
        st.add_execution(run, b, "g", status="ok", runner=HOST, stream=data, parsed=parsed)
        b2 = st.add_build(run, "other", "host", "default", {"compiler": "clang 16"})
        st.add_execution(run, b2, "g", status="ok", runner=HOST, stream=data, parsed=parsed)
        view = load_run(st, run)
    assert parsed.config["compiler"] == "gcc 12.2"
    assert view.builds[0].config["compiler"] == "gcc 12.2"
    assert view.builds[0].config["opt_flags"] == "-O2"
    assert view.builds[1].config["compiler"] == "clang 16"


def test_the_unit_says_whether_the_run_was_emulated() -> None:
    assert unit_for({"hz": "25000000"}, {"runner": "qemu", "icount_shift": 6}).emulated
    noisy = unit_for({"hz": "25000000"}, {"runner": "qemu"})  # --no-icount: still QEMU
    assert noisy.emulated and not noisy.deterministic
    assert not unit_for({"hz": "1000000000"}, {"runner": "host"}).emulated


STAND_IN = {"stand_in.POOL": "queue of free block pointers (no block pool)",
            "stand_in.EVENT": "a flag word under a mutex"}


def test_stand_ins_attach_to_the_cases_that_need_them(tmp_path: Path) -> None:
    """A port's CFG stand_in.<CAP> marks exactly the cases whose catalog
    needs name that capability: tm.memory and lat.pool need POOL, tm.sync
    does not; no case here needs EVENT."""
    data = craft("freertos", "qemu-mps2-an386", 25_000_000, [2, 2, 2],
                 latency=[("lat.pool", {"acquire": [90, 70, 70]})],
                 throughput={"tm.memory": [9866, 9866, 9866], "tm.sync": [15588] * 3},
                 cfg=STAND_IN, period_ms=100)
    view = load_run(Store.open(tmp_path / "r.sqlite"),
                    store_run(tmp_path / "r.sqlite", [(data, QEMU)]))
    got = {c.case_id: c.stand_ins for c in view.cases}
    pool = {"POOL": STAND_IN["stand_in.POOL"]}
    assert (got["tm.memory"], got["lat.pool"], got["tm.sync"]) == (pool, pool, {})
    assert got["calib.overhead"] == {}


def test_instructions_per_iteration_under_deterministic_emulation(tmp_path: Path) -> None:
    """100 ms at one instruction per 64 ns (icount shift 6) is 1,562,500
    instructions: a count of 15,625 per period is 100 per iteration. A
    host-timed run has no such figure."""
    emu = craft("threadx", "qemu-mps2-an386", 25_000_000, [2, 2, 2],
                throughput={"tm.sync": [15625, 15625, 15625]}, period_ms=100)
    host = craft("posix", "host", 10**9, [50, 50, 50], throughput={"tm.sync": [10, 10, 10]})
    view = load_run(Store.open(tmp_path / "r.sqlite"),
                    store_run(tmp_path / "r.sqlite", [(emu, QEMU), (host, HOST)]))
    sync = {c.port: c for c in view.cases if c.case_id == "tm.sync"}
    assert sync["threadx"].per_iteration == pytest.approx(100.0)
    assert sync["threadx"].per_iteration_unit == "instructions (QEMU icount)"
    assert sync["posix"].per_iteration is None


def test_timings_not_meaningful_show_no_figure_in_any_format(tmp_path: Path) -> None:
    """A stream whose CFG `timing` says its clock does not measure the code
    (Zephyr's native_sim) keeps its cases' status and sample counts but no
    figure: "not meaningful" in the terminal, Markdown and HTML, null in JSON,
    empty in CSV, with the reason in the unit; a run beside it keeps its own."""
    import csv
    import io
    import json

    from rtosmeter.reports import csv as csv_report
    from rtosmeter.reports import html, markdown, table
    from rtosmeter.reports import json as json_report

    why = "native_sim: simulated time stands still while code runs"
    void = craft("zephyr", "host", 1_000_000, [0, 0, 0],
                 latency=[("lat.sem.nocs", {"give": [0, 0, 7777], "take": [0, 0, 0]})],
                 throughput={"tm.sync": [31337, 31337, 31337]},
                 cfg={"timing": f"not meaningful: {why}"})
    real = craft("posix", "host", 10**9, [50, 50, 50],
                 latency=[("lat.sem.nocs", {"give": [900, 911, 922], "take": [800, 801, 802]})])
    view = load_run(Store.open(tmp_path / "r.sqlite"),
                    store_run(tmp_path / "r.sqlite", [(void, HOST), (real, HOST)]))
    sem = {c.port: c for c in view.cases if c.case_id == "lat.sem.nocs"}
    assert sem["zephyr"].status == "ok" and sem["zephyr"].timing_void == why
    assert [d.n for d in sem["zephyr"].distributions] == [2, 2]  # the run is kept
    assert all(math.isnan(d.p50) for d in sem["zephyr"].distributions)
    assert sem["posix"].timing_void == "" and sem["posix"].distributions[0].p50 > 0
    sync = next(c for c in view.cases if c.case_id == "tm.sync")
    assert sync.counts == {} and sync.score is None
    outputs = {"text": table.render(view), "markdown": markdown.render(view),
               "html": html.render(view)}
    for name, out in outputs.items():
        assert "not meaningful" in out, name
        assert "7,777" not in out and "31,337" not in out, name
    doc = json.loads(json_report.render(view))
    zrows = [r for r in doc["results"] if r["port"] == "zephyr"]
    assert zrows and all(r["p50"] is None and r["max"] is None for r in zrows)
    assert all(r["unit"] == f"not meaningful ({why})" for r in zrows if r["series"])
    rows = [r for r in csv.DictReader(io.StringIO(csv_report.render(view)))
            if r["port"] == "zephyr"]
    assert rows and all(r["max"] == "" for r in rows)
