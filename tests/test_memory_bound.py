"""Memory per campaign, whatever the firmware sends: two executions of one
run flood their stream up to the cap (64 MiB each) with records that are
valid, checksummed and in sequence, through the real host runner, recorder,
store and reports. The flooding executables are real programs run in place
of the built firmware; the figure is the child process's peak RSS."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUDGET_MIB = 256  # over the same run with honest firmware (issue 34: 1.83 GB, 2.84 GB for two)

# A firmware that floods: HELLO announcing huge series, one case, then one
# kind of record forever (valid checksums, sequence in order) until the
# runner stops it at the stream cap.
FLOODER = r'''#!{python}
import sys, zlib
kind = sys.argv[0].rsplit("-", 1)[1]
out = sys.stdout.buffer
seq = 0
def rec(body):
    global seq
    line = b"@RM %d %s " % (seq, body)
    seq += 1
    return line + b"*%08x\n" % zlib.crc32(line)
out.write(rec(b"HELLO v=1 port=posix target=host group=g ts=c unit=ns hz=1000000000 "
              b"samples=9000000000000000000 batch=1 tm_period=1 tm_periods=1 profile=default"))
out.write(rec(b"CASE id=lat.flood"))
out.write(rec(b"SERIES id=0 name=s what=w"))
i, chunk = 0, []
while True:
    if kind == "series":
        chunk.append(rec(b"SERIES id=%d name=s%d what=w" % (i + 1, i)))
    elif kind == "samples":  # 1,000 samples a record, every one a valid index
        chunk.append(rec(b"S 0 %d %s" % (i * 1000, b"1" * 1000)))
    elif kind == "counts":
        chunk.append(rec(b"COUNT name=c%d period=%d value=%d" % (i % 7, i, i)))
    i += 1
    if len(chunk) == 1000:
        out.write(b"".join(chunk))
        chunk = []
'''

CHILD = textwrap.dedent("""
    import json, resource, sys
    from dataclasses import replace
    from pathlib import Path
    from rtosmeter.catalog import load_catalog
    from rtosmeter.commands.report import load_view
    from rtosmeter.definitions import Definitions
    from rtosmeter.plan import Selection, make_plan
    from rtosmeter.reports import markdown, table
    from rtosmeter.runners import run_once
    from rtosmeter.runs import execute
    from rtosmeter.store import Store

    root, out, tmp = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    defs = Definitions.load(root)
    catalog = load_catalog(root)
    plan = make_plan(defs, catalog, defs.campaign(None),
                     Selection(("posix",), ("host",), "lat.isr.*,tm.basic", "quick", 1))

    def peak():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    def report():
        view = load_view(out, "latest")
        table.render(view)
        markdown.render(view)

    kinds = iter(sys.argv[4:])
    def flood(req):
        return run_once(replace(req, executable=tmp / f"flood-{next(kinds)}"))

    with Store.open(out / "rtosmeter.sqlite") as store:
        honest = execute(defs, catalog, store, out, plan, quiet=True)
        report()
        normal = peak()
        flooded = execute(defs, catalog, store, out, plan, quiet=True, run=flood)
        report()
        with_flood = peak()
        ex = store.executions(flooded.run_id)
    print(json.dumps({"normal": normal, "flood": with_flood, "executions": honest.executions,
                      "flooded": [(e.status, e.error) for e in ex]}))
""")


@pytest.mark.slow
@pytest.mark.parametrize("kinds", [("series", "samples"), ("counts", "samples")])
def test_two_flooding_executions_stay_within_the_budget(tmp_path: Path,
                                                         kinds: tuple[str, str]) -> None:
    for kind in set(kinds):
        exe = tmp_path / f"flood-{kind}"
        exe.write_text(FLOODER.replace("{python}", sys.executable))
        exe.chmod(0o755)
    proc = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), str(tmp_path / "out"),
                           str(tmp_path), *kinds], capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]
    figures = json.loads(proc.stdout.splitlines()[-1])
    over = figures["flood"] - figures["normal"]
    print(f"peak RSS: honest run {figures['normal']:.0f} MiB, with two flooding executions "
          f"({' and '.join(kinds)}) {figures['flood']:.0f} MiB: {over:.0f} MiB over")
    assert figures["executions"] == 2
    assert [s for s, _ in figures["flooded"]] == ["failed", "failed"], figures["flooded"]
    errors = [e for _, e in figures["flooded"]]
    assert all("wrote more than 64 MiB of stream" in e for e in errors), errors
    assert over <= BUDGET_MIB
