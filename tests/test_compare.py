"""`compare`: recorded real host streams, stored through the real Store; the
"slowed" run is the same streams with one port's samples scaled by a known
factor (and its throughput counts divided by it)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from rtosmeter import compare as C
from rtosmeter.cli import cli
from rtosmeter.commands.common import STORE_NAME
from rtosmeter.commands.compare import compare as compare_command
from rtosmeter.compare_within import compare_within
from rtosmeter.protocol import ParsedStream, parse_stream
from rtosmeter.store import Store

DATA = Path(__file__).parent / "data"
SLOW_CASE = "lat.sem.pass"
SLOW_TM = "tm.sync"


def _streams() -> list[tuple[bytes, ParsedStream]]:
    paths = sorted(DATA.glob("posix-host-*.rmstream"))
    assert paths, "tests/data/posix-host-*.rmstream are missing"
    return [(p.read_bytes(), parse_stream(p.read_bytes())) for p in paths]


def _slowed(data: bytes, parsed: ParsedStream, slow: float) -> ParsedStream:
    """`parsed` with SLOW_CASE's samples times `slow` and SLOW_TM's counts over it."""
    if slow == 1.0:
        return parsed
    parsed = parse_stream(data)  # a fresh copy to modify
    for case in parsed.cases:
        if case.id == SLOW_CASE:
            for s in case.series.values():
                s.samples = [int(v * slow) for v in s.samples]
        if case.id == SLOW_TM:
            case.counts = [type(c)(c.name, c.period, int(c.value / slow)) for c in case.counts]
    return parsed


def store_systems(store: Store, systems: dict[tuple[str, str, str], float],
                  streams: list[tuple[bytes, ParsedStream]] | None = None) -> int:
    """One run of the recorded streams for each (port, target, profile),
    slowed by its factor."""
    run = store.create_run({"campaign": "test"}, {}, "0.1.0")
    for (port, target, profile), slow in systems.items():
        build = store.add_build(run, port, target, profile, {"opt_flags": "-O2"})
        for data, parsed in streams or _streams():
            store.add_execution(run, build, parsed.header["group"], status="ok",
                                runner={"runner": "host"}, stream=data,
                                parsed=_slowed(data, parsed, slow))
    store.finish_run(run)
    return run


def store_run(store: Store, slow: float = 1.0) -> int:
    """Ports `posix` and `other`; with `slow`, `other` is slowed by that factor
    in SLOW_CASE (every sample) and SLOW_TM (every count)."""
    return store_systems(store, {("posix", "host", "default"): 1.0,
                                 ("other", "host", "default"): slow})


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("compare")
    with Store.open(out / STORE_NAME) as store:
        assert store_run(store) == 1
        assert store_run(store) == 2
        assert store_run(store, slow=1.5) == 3
    return out


def test_recorded_streams_have_the_cases_we_slow() -> None:
    ids = {c.id for _, p in _streams() for c in p.cases if c.status == "ok"}
    assert SLOW_CASE in ids and SLOW_TM in ids


@pytest.mark.slow
def test_identical_runs_pass(out: Path) -> None:
    with Store.open(out / STORE_NAME) as store:
        comp = C.compare_runs(store, 1, 2, 10.0, 0.01)
    assert comp.changes and all(c.verdict == "same" for c in comp.changes)
    assert comp.regressions == []
    result = CliRunner().invoke(compare_command, ["1", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_slowed_port_is_a_regression(out: Path) -> None:
    with Store.open(out / STORE_NAME) as store:
        comp = C.compare_runs(store, 1, 3, 10.0, 0.01)
    bad = {(c.port, c.case_id) for c in comp.regressions}
    assert ("other", SLOW_TM) in bad
    assert ("other", SLOW_CASE) in bad
    assert all(c.port == "other" and c.case_id in (SLOW_CASE, SLOW_TM)
               for c in comp.regressions)
    for c in comp.regressions:
        assert c.worse_pct > 10 and c.p_value is not None
        # Latency: 4,000 samples, significant. Throughput: a few periods, too
        # few for the test, so the size decides (and says so).
        assert c.p_value < comp.alpha or (c.family == "throughput" and not c.powered)
        if c.family == "latency":
            # Hodges-Lehmann shift of a x1.5 scaling: about half the median.
            assert c.ci is not None and c.shift is not None
            assert c.ci[0] <= c.shift <= c.ci[1]
            assert 0.3 < c.change_pct / 100 < 0.7
    # posix was untouched in run 3: identical.
    assert all(c.verdict == "same" for c in comp.changes if c.port == "posix")

    runner = CliRunner()
    result = runner.invoke(compare_command, ["1", "3", "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "REGRESSION" in result.output and SLOW_CASE in result.output
    md = runner.invoke(compare_command, ["1", "3", "--out", str(out), "--format", "md"])
    assert md.exit_code == 2 and "| **REGRESSION** |" in md.output
    # Above the size of the change, it is no longer a regression.
    loose = runner.invoke(compare_command, ["1", "3", "--out", str(out), "--threshold", "90"])
    assert loose.exit_code == 0, loose.output
    # The other direction is an improvement, not a regression.
    back = runner.invoke(compare_command, ["3", "1", "--out", str(out), "--format", "md"])
    assert back.exit_code == 0 and "improved" in back.output


def test_deterministic_runs_compare_exactly() -> None:
    key = ("p", "qemu", "default", "", "lat.x", "a")
    a = np.array([100.0, 100.0, 101.0])
    same = C.compare_samples(key, "latency", "instructions (QEMU icount)", a, a.copy(), True,
                             10, 0.01)
    assert same.verdict == "same" and same.p_value is None
    # Exact, so significant; the threshold is a count (the percentage is for noise).
    small = C.compare_samples(key, "latency", "instructions", a, a + 1, True, 10, 0.01, 1)
    assert small.verdict == "changed"
    one = C.compare_samples(key, "latency", "instructions", a, a + 1, True, 10, 0.01)
    assert one.verdict == "regression"  # 1 % worse, but every instruction is real
    big = C.compare_samples(key, "latency", "instructions", a, a * 1.2, True, 10, 0.01, 1)
    assert big.verdict == "regression"


def test_hodges_lehmann_matches_brute_force() -> None:
    rng = np.random.default_rng(7)
    a = rng.integers(0, 50, 300).astype(float)
    b = rng.integers(5, 60, 250).astype(float)
    diffs = np.sort((b[None, :] - a[:, None]).ravel())
    ks = [1, 17, len(diffs) // 2, len(diffs)]
    assert C.pairwise_order_statistics(a, b, ks) == [diffs[k - 1] for k in ks]
    est, (lo, hi) = C.hodges_lehmann(a, b)
    assert est == float(np.median(diffs)) and lo <= est <= hi


def test_compare_sees_the_figures_the_report_shows(out: Path) -> None:
    """compare's samples are the analysis' samples: same overhead rule (none for
    calib.overhead and for sub=0 difference series such as irq.latency_jitter's
    delta), same unit, so a report and a comparison never disagree."""
    with Store.open(out / STORE_NAME) as store:
        run = C.load_samples(store, 1)
    checked = 0
    for case in run.view.cases:
        if case.case_id == "calib.overhead":  # one per firmware: not a compared figure
            continue
        for d in case.distributions:
            key = (*C.system_of(case), case.case_id, d.series)
            if key in run.samples and d.n:
                assert run.samples[key].mean() == pytest.approx(d.mean), key
                checked += 1
    assert checked > 50
    jitter = [c for c in run.view.cases if c.case_id == "irq.latency_jitter"]
    assert jitter and all(d.overhead == 0.0 for c in jitter for d in c.distributions)


@pytest.mark.slow
def test_runs_with_nothing_in_common_are_an_error(tmp_path: Path) -> None:
    """An empty run (a bad --source once left one) or two runs of different
    systems compare nothing: exit 1 with a message, never "identical"."""
    with Store.open(tmp_path / STORE_NAME) as store:
        store_run(store)
        empty = store.create_run({"campaign": "test"}, {}, "0.1.0")
        store.finish_run(empty)
        other = store.create_run({"campaign": "test"}, {}, "0.1.0")
        build = store.add_build(other, "zephyr", "host", "default", {})
        data, parsed = _streams()[0]
        store.add_execution(other, build, parsed.header["group"], status="ok",
                            runner={"runner": "host"}, stream=data, parsed=parsed)
        store.finish_run(other)
    for refs, message in (((1, empty), f"Error: run {empty} holds no results in compare."),
                          ((1, other), f"Error: run 1 and run {other} have no case in common")):
        result = CliRunner().invoke(cli, ["compare", *map(str, refs), "--out", str(tmp_path)])
        assert result.exit_code == 1, result.output
        assert result.output.startswith(message), result.output
        assert "identical" not in result.output


@pytest.mark.slow
def test_runs_of_two_measurement_methods_are_not_compared(tmp_path: Path) -> None:
    """The recorded streams predate CFG `method` (method 1: a generic layer
    between the timestamps); the same streams stamped method=2, as firmware
    of today sends, must not be compared with them: exit 1, naming both."""
    with Store.open(tmp_path / STORE_NAME) as store:
        store_run(store)
        new = store.create_run({"campaign": "test"}, {}, "0.1.0")
        for port in ("posix", "other"):
            build = store.add_build(new, port, "host", "default", {"opt_flags": "-O2"})
            for data, parsed in _streams():
                parsed.config["method"] = "2"
                store.add_execution(new, build, parsed.header["group"], status="ok",
                                    runner={"runner": "host"}, stream=data, parsed=parsed)
        store.finish_run(new)
    result = CliRunner().invoke(cli, ["compare", "1", str(new), "--out", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "measurement method 1" in result.output and "with method 2" in result.output
    same = CliRunner().invoke(cli, ["compare", str(new), str(new), "--out", str(tmp_path)])
    assert same.exit_code == 0, same.output


@pytest.fixture(scope="module")
def within(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run 1: six systems, all alike. Run 2: the same with the B side of each
    `--by` below slowed (vendor, V2, other, host2)."""
    out = tmp_path_factory.mktemp("within")
    streams = [s for s in _streams() if {c.id for c in s[1].cases} & {SLOW_CASE, SLOW_TM}]
    base = {("posix", "host", "default"): 1.0, ("posix", "host", "vendor"): 1.5,
            ("posix@V1", "host", "default"): 1.0, ("posix@V2", "host", "default"): 1.5,
            ("other", "host", "default"): 1.5, ("posix", "host2", "default"): 1.5}
    with Store.open(out / STORE_NAME) as store:
        assert store_systems(store, dict.fromkeys(base, 1.0), streams) == 1
        assert store_systems(store, base, streams) == 2
    return out


@pytest.mark.parametrize(("by", "a", "b"), [
    ("profile", "default", "vendor"), ("version", "V1", "V2"), ("port", "posix", "other"),
    ("target", "host", "host2")])
@pytest.mark.slow
def test_compare_within_one_run(within: Path, by: str, a: str, b: str) -> None:
    """`--by` sets two slices of one run against each other with the
    statistics of two runs: the slowed slice regresses in exactly the slowed
    cases, the other direction improves, equal slices are identical."""
    # Profiles are configurations: their differences gate only with --gate.
    args = ["--out", str(within), "--by", by, a, b] + ["--gate"] * (by == "profile")
    result = CliRunner().invoke(cli, ["compare", "2", *args, "--format", "md"])
    assert result.exit_code == 2, result.output
    assert f"run 2 {by} {a} → run 2 {by} {b}" in result.output
    assert f"{a}→{b}" in result.output  # the merged coordinate names both sides
    with Store.open(within / STORE_NAME) as store:
        comp = compare_within(store, 2, by, a, b, 10.0, 0.01)
        assert {c.case_id for c in comp.regressions} == {SLOW_CASE, SLOW_TM}
        assert len(comp.regressions) == len({(c.case_id, c.series) for c in comp.regressions})
        back = compare_within(store, 2, by, b, a, 10.0, 0.01)
        assert not back.regressions and {c.case_id for c in back.improvements} == {
            SLOW_CASE, SLOW_TM}
        even = compare_within(store, 1, by, a, b, 10.0, 0.01)
        assert even.changes and all(c.verdict == "same" for c in even.changes)
    ok = CliRunner().invoke(cli, ["compare", "1", *args])
    assert ok.exit_code == 0, ok.output
    as_json = CliRunner().invoke(cli, ["compare", "2", *args, "--format", "json"])
    assert as_json.exit_code == 2, as_json.output
    doc = json.loads(as_json.stdout)
    assert doc["a"] == f"run 2 {by} {a}" and doc["regressions"] == len(comp.regressions)
    assert {c["case_id"] for c in doc["changes"] if c["verdict"] == "regression"} == {
        SLOW_CASE, SLOW_TM}


@pytest.mark.slow
def test_compare_within_names_what_is_wrong(out: Path) -> None:
    for args, message in (
            (["--by", "profile", "default", "vendor"], "run 1 has no profile 'vendor'"),
            (["--by", "port", "posix", "posix"], "names 'posix' twice"),
            (["2", "--by", "port", "posix", "other"], "two runs were given")):
        result = CliRunner().invoke(cli, ["compare", "1", *args, "--out", str(out)])
        assert result.exit_code == 1 and message in result.output, result.output
