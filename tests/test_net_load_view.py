"""The load view's network-stack tables (reports/document/net_load.py) from
stored-shaped results: the change against net-idle with its mean per state,
a failed case left out of the mean, and the counts summed per build."""

from __future__ import annotations

from rtosmeter.measure import Unit
from rtosmeter.model import CaseResult, Distribution, RunView
from rtosmeter.reports.document.cells import Cell
from rtosmeter.reports.document.load import latency_section
from rtosmeter.reports.document.net_load import against_net_idle, counts_section

T = "qemu-mps2-an386"


def _case(profile: str, case_id: str, total: int, status: str = "ok", sent: int = 0,
          delivered: int = 0) -> CaseResult:
    meta = {} if profile == "default" else {"net.sent": str(sent), "net.read": str(sent),
                                            "net.delivered": str(delivered)}
    return CaseResult("riot", T, profile, "tm_sched", case_id, status,
                      counts={"total": [total, total]}, meta=meta)


def _view(cases: list[CaseResult]) -> RunView:
    return RunView(1, "", "", "done", {}, {}, [], cases, [], [])


def test_change_against_net_idle_and_the_mean_per_state() -> None:
    view = _view([
        _case("default", "tm.cooperative", 1000), _case("default", "tm.sync", 2000),
        _case("default+net-idle", "tm.cooperative", 1000),
        _case("default+net-idle", "tm.sync", 2000),
        _case("default+net-accept:230", "tm.cooperative", 900, sent=70, delivered=70),
        _case("default+net-accept:230", "tm.sync", 1700, sent=69, delivered=69),
        _case("default+net-reject:230", "tm.cooperative", 990, sent=70),
        _case("default+net-reject:230", "tm.sync", 1500, "failed", sent=69),
    ])
    sec = against_net_idle(view, T)
    assert sec is not None and sec.headers == ["case", "port", "net-accept:230", "net-reject:230"]
    rows = {(str(r[0]), str(r[1])): r for r in sec.rows}
    acc, rej = rows[("tm.cooperative", "riot")][2:]
    assert isinstance(acc, Cell) and acc.text == "-10.0 %"
    assert isinstance(rej, Cell) and rej.text == "-1.0 %"
    failed = rows[("tm.sync", "riot")][3]
    assert isinstance(failed, Cell) and failed.flag == "fail"
    mean_acc, mean_rej = rows[("mean (the study's PD)", "riot")][2:]
    assert isinstance(mean_acc, Cell) and mean_acc.text == "-12.5 %"  # (-10 - 15) / 2
    assert isinstance(mean_rej, Cell) and mean_rej.text == "-1.0 %" and mean_rej.sub == "1 test"
    counts = counts_section(view, T)
    assert counts is not None
    by = {str(r[1]): r for r in counts.rows}
    sent, delivered = by["net-accept:230"][2], by["net-accept:230"][5]
    matching = by["net-reject:230"][-1]
    assert isinstance(sent, Cell) and sent.text == "139"
    assert isinstance(delivered, Cell) and delivered.text == "139"
    assert isinstance(matching, Cell) and matching.text == "1 of 2" and matching.flag == "fail"


def test_no_table_without_net_idle() -> None:
    view = _view([_case("default", "tm.sync", 2000),
                  _case("default+net-accept:230", "tm.sync", 1700, sent=69, delivered=69)])
    assert against_net_idle(view, T) is None
    assert counts_section(view, T) is not None


def test_a_failed_loaded_latency_case_is_marked() -> None:
    def dist(p50: float) -> Distribution:
        return Distribution(n=10, cold=p50, mean=p50, std=0.0, min=p50, p1=p50, p25=p50,
                            p50=p50, p75=p50, p99=p50, max=p50, jitter=0.0, series="create",
                            what="create", unit=Unit.INSTRUCTIONS, overhead=0.0)

    idle = CaseResult("riot", T, "default", "lat_lifecycle", "lat.thread.lifecycle", "ok",
                      distributions=[dist(100.0)])
    loaded = CaseResult("riot", T, "default+net-accept:230", "lat_lifecycle",
                        "lat.thread.lifecycle", "failed", distributions=[dist(110.0)])
    sec = latency_section(_view([idle, loaded]), T)
    assert sec is not None
    cell = sec.rows[0][3]
    assert isinstance(cell, Cell) and cell.text == "+10.0 %" and cell.flag == "fail"


def test_an_adapted_stack_is_marked_at_every_figure() -> None:
    """NetX Duo's builds say their adaptation (CFG stand_in.NET, attached to
    every case under a net-* load): † at each change, mean and count row."""
    adapted = {"NET": "adapted: no 6LoWPAN in NetX Duo; uncompressed IPv6"}
    cases = [_case("default", "tm.sync", 2000), _case("default+net-idle", "tm.sync", 2000),
             _case("default+net-accept:230", "tm.sync", 1900, sent=69, delivered=69)]
    for c in cases:
        c.port = "threadx"
        if c.profile != "default":
            c.stand_ins = adapted
    sec = against_net_idle(_view(cases), T)
    assert sec is not None
    change, mean = (r[2] for r in sec.rows)
    assert isinstance(change, Cell) and change.text == "-5.0 %†"
    assert isinstance(mean, Cell) and mean.text == "-5.0 %†"
    counts = counts_section(_view(cases), T)
    assert counts is not None and {str(r[1]) for r in counts.rows} == {"net-idle†",
                                                                       "net-accept:230†"}
