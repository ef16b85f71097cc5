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


def test_mailbox_findings_compare_the_queue_every_kernel_has() -> None:
    """Only rt-thread and uC/OS-II have a mailbox (sw.mailbox): a finding on
    mailboxes compares the sN-mbq operations (sw.queue), which every
    system's port measures, or it would leave four kernels out."""
    defs = Definitions.load()
    study = definition.load("ungurean2020", defs, load_catalog(defs.root))
    mailbox = [f for f in study.findings if "mailbox" in f.text and f.kind != "untestable"]
    assert mailbox
    for f in mailbox:
        cases = {study.operation(op).case for op in f.operations}
        assert "sw.queue" in cases and "sw.mailbox" not in cases, f.id
