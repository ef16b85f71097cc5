"""studies/ungurean2020: the study file loads, and its scenario mapping still
matches what bench/cases/signal_wait.c measures as s1..s4 (a renumbered
series would silently compare the wrong scenario)."""

from __future__ import annotations

import re

from rtosmeter.catalog import load_catalog
from rtosmeter.definitions import Definitions
from rtosmeter.studies import definition

# The paper's four scenarios (§3) in its order, as signal_wait.c's header words them.
PAPER_ORDER = {
    "s1": "signal with switch",
    "s2": "wait with switch",
    "s3": "signal, no switch",
    "s4": "wait, no switch",
}


def test_scenarios_map_to_the_series_of_the_same_meaning() -> None:
    defs = Definitions.load()
    study = definition.load("ungurean2020", defs, load_catalog(defs.root))
    header = (defs.root / "bench" / "cases" / "signal_wait.c").read_text()
    said = dict(re.findall(r"^ \*\s+(s[1-4]) ([a-z, ]+?):", header, re.MULTILINE))
    assert said == PAPER_ORDER
    for op in study.operations:
        assert op.case.startswith("sw."), op.id
        assert op.series == op.id.split("-")[0], op.id


def test_mailbox_findings_read_the_native_mailbox_else_the_queue() -> None:
    """A finding on mailboxes compares the sN-mbq operations: a kernel whose
    port has a mailbox (MAILBOX in its caps: rt-thread, uC/OS-II) runs its
    own (sw.mailbox, per_system), every other its message queue (sw.queue),
    so no kernel is left out and none is measured with a stand-in it need not."""
    defs = Definitions.load()
    study = definition.load("ungurean2020", defs, load_catalog(defs.root))
    mailbox = [f for f in study.findings if "mailbox" in f.text and f.kind != "untestable"]
    assert mailbox
    native = {s.label for s in study.systems
              if "MAILBOX" in defs.port(s.port.split("@")[0]).caps}
    assert native == {"rt-thread", "uC/OS-II"}
    for f in mailbox:
        ops = [study.operation(o) for o in f.operations if o.endswith("-mbq")]
        assert ops, f.id
        for op in ops:
            for s in study.systems:
                m = op.mapping(s.label)
                own = "sw.mailbox" if s.label in native else "sw.queue"
                assert m.case == own, (f.id, s.label)
                assert m.series == op.series, (f.id, s.label)
