"""RAM like with like (reports/_ram.py): the answer compares the kernel's
own RAM where the ports declared their stacks, heaps and object slots, says
so, and marks a system whose footprint holds them; the footprint section
breaks RAM down by part. Footprints as the recorder (record.py) stores them
(rtosmeter.footprint, asdict), in a real SQLite store, read by load_run."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from _datahalf import craft

from rtosmeter.analysis import load_run
from rtosmeter.model import RunView
from rtosmeter.protocol import parse_stream
from rtosmeter.reports import html, markdown
from rtosmeter.reports import json as json_report
from rtosmeter.reports.document import answer as _answer
from rtosmeter.reports.document import answer_text as _words
from rtosmeter.reports.document.ram import COMPARED, LABEL_SPLIT
from rtosmeter.store import Store

T = "qemu-mps2-an386"
# The parts of two real firmwares (lat_sem, gcc, an386): ThreadX keeps static
# stacks and a byte pool, FreeRTOS its stacks inside heap_4's array.
THREADX = {"flash": 12547, "ram": 101568, "declared": True,
           "parts": {"kernel": [7017, 448], "benchmark": [1436, 92], "framework": [2676, 609],
                     "startup": [668, 204], "libc": [720, 28], "objects": [0, 9984],
                     "stacks": [0, 73728], "heaps": [0, 16384], "other": [30, 91]},
           "reserved": [{"name": ".stack", "kind": "stacks", "ram": 8192, "part": "startup"},
                        {"name": "rm_tx_stacks", "kind": "stacks", "ram": 63488,
                         "part": "kernel"},
                        {"name": "rm_tx_free_memory", "kind": "heaps", "ram": 16384,
                         "part": "kernel"}]}
FREERTOS = {"flash": 13899, "ram": 274728, "declared": True,
            "parts": {"kernel": [8652, 840], "benchmark": [1076, 21], "framework": [2748, 2145],
                      "startup": [668, 204], "libc": [720, 28], "objects": [0, 1024],
                      "stacks": [0, 8192], "heaps": [0, 262144], "other": [35, 130]},
            "reserved": [{"name": "ucHeap", "kind": "heaps", "ram": 262144, "part": "kernel"}]}
# A run stored before the split: stacks and heap inside the kernel part.
OLD = {"flash": 13899, "ram": 274728, "parts": {"kernel": [8652, 264008]}}


def _view(db: Path, footprints: Mapping[str, Mapping[str, Any]]) -> RunView:
    with Store.open(db) as st:
        run = st.create_run({"name": "test"}, {"machine": "x86_64"}, "0.1.0")
        for port, fp in footprints.items():
            data = craft(port, T, 25_000_000, [9, 2, 2],
                         latency=[("lat.sem.pass", {"take": [90] + [40] * 200})],
                         cfg={"heap_bytes": "262144"} if port == "freertos" else None)
            parsed = parse_stream(data)
            b = st.add_build(run, port, T, "default", {"compiler": "gcc 12.2"})
            st.add_execution(run, b, "g", status="ok", exit_code=0, wall_s=0.1,
                             runner={"runner": "qemu", "icount_shift": 6}, stream=data,
                             footprint=fp, parsed=parsed)
        st.finish_run(run)
        return load_run(st, run)


def test_the_answer_compares_the_kernel_alone(tmp_path: Path) -> None:
    view = _view(tmp_path / "r.sqlite", {"freertos": FREERTOS, "threadx": THREADX})
    (a,) = _answer.answers(view)
    rows = dict(_words.glance_rows(a))
    assert rows[LABEL_SPLIT] == ["840 (of 274,728)", "448 (of 101,568)"]
    words = _words.sentences(a)
    assert f"RAM compared: {COMPARED} (median over 1 firmware; the footprint section breaks " \
        "the whole down)." in words
    assert not any("the RAM figure holds a 262,144 B heap" in w for w in words)
    doc = json.loads(json_report.render(view))["answer"][0]["ram"]
    assert doc[f"threadx/{T}/default"] == {"kernel": 448, "total": 101568, "declared": True,
                                           "firmwares": 1}


def test_the_footprint_section_breaks_ram_down(tmp_path: Path) -> None:
    view = _view(tmp_path / "r.sqlite", {"freertos": FREERTOS, "threadx": THREADX})
    md = markdown.render(view)
    assert f"RAM on {T} by part" in md
    lines = {ln.split("|")[1].strip(): [c.strip() for c in ln.split("|")[2:-1]]
             for ln in md.splitlines() if ln.startswith("| ") and "RAM" not in ln}
    assert lines["stacks (threads, kernel, main)"] == ["8,192", "73,728"]
    assert lines["heaps and pools"] == ["262,144", "16,384"]
    # the kernel's code in small text
    assert lines["kernel (RTOS and port data)"] == ["840 <sub>Flash 8,652</sub>",
                                                    "448 <sub>Flash 7,017</sub>"]
    assert lines["total"] == ["274,728 <sub>Flash 13,899</sub>",
                              "101,568 <sub>Flash 12,547</sub>"]
    assert "threadx: stacks .stack 8,192, rm_tx_stacks 63,488; heaps rm_tx_free_memory " \
        "16,384" in md
    page = html.render(view)
    assert f"<h3>RAM on {T} by part" in page
    assert '<th scope="row">kernel (RTOS and port data)</th><td class="">840 ' in page


def test_a_footprint_stored_unsplit_is_shown_whole_and_marked(tmp_path: Path) -> None:
    view = _view(tmp_path / "r.sqlite", {"freertos": OLD, "threadx": THREADX})
    (a,) = _answer.answers(view)
    assert dict(_words.glance_rows(a))[LABEL_SPLIT] == ["274,728 ‡ (whole firmware)",
                                                         "448 (of 101,568)"]
    assert any(w.startswith("‡ freertos: the whole firmware's RAM, stacks and heaps included")
               for w in _words.sentences(a))
    assert "freertos: stacks, heaps and object slots not told apart" in markdown.render(view)
    # Both unsplit: the whole RAM, and the heap a port reserves, as before.
    view = _view(tmp_path / "old.sqlite", {"freertos": OLD, "threadx": OLD})
    (a,) = _answer.answers(view)
    assert dict(_words.glance_rows(a))["RAM bytes (median firmware)"] == [
        "274,728 ‡ (12,584 without the heap)", "274,728"]
