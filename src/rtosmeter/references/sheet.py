"""The error table as a Sheet (reports/document/sheet.py), rendered by every
format compare, study and explain use: the references, then the mean
absolute errors per core and per kind."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rtosmeter.model import FAIL_MARK
from rtosmeter.references.errors import Compared, absolute_errors, our_figure
from rtosmeter.references.run import CYCLES, INSTRUCTIONS, View, board_for
from rtosmeter.reports.document.cells import Cell, Section
from rtosmeter.reports.document.sheet import Sheet

if TYPE_CHECKING:
    from rtosmeter.board_memory import BoardMemory
    from rtosmeter.model import RunView
    from rtosmeter.references.model import Reference

HEADERS = ["reference", "kernel", "core", "case · series", "kind", "confidence", "published",
           "ours: instructions", "ours: cycles", "ours: as on the board", "ratio"]
NUMERIC = 6  # the columns from "published" on


def compare(refs: list[Reference], runs: dict[str, list[RunView]],
            boards: dict[str, BoardMemory], fallback: BoardMemory | None,
            not_run: dict[str, str]) -> list[Compared]:
    """Each reference with ours from the runs of its views."""
    out = []
    for ref in refs:
        if ref.id in not_run:
            out.append(Compared(ref, why=not_run[ref.id]))
            continue
        instructions, why = our_figure(runs.get(INSTRUCTIONS, []), ref)
        cycles, why_cycles = our_figure(runs.get(CYCLES, []), ref)
        board = board_for(ref, boards, fallback)
        board_cycles, name, clock = None, "", 0
        if board is not None:
            board_cycles, _ = our_figure(runs.get(View(CYCLES, board).name, []), ref)
            name, clock = board.board, board.clock_hz
        out.append(Compared(ref, instructions, cycles, board_cycles, name, clock,
                            why or why_cycles))
    return out


def _count(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def _published(ref: Reference) -> str:
    unit = "cycles" if ref.unit == "cycles" else "µs"
    clock = f" at {ref.clock_hz / 1e6:g} MHz" if ref.clock_hz else ""
    return f"{ref.value:,.6g} {unit}{clock}"


def _row(row: Compared) -> list[str | Cell]:
    ref = row.ref
    scale = f" x{ref.scale:g}" if ref.scale != 1 else ""
    what = "per pass" if ref.figure == "per_iteration" else ref.series or "(first)"
    series = f"{ref.case} · {what}{scale}"
    core = ref.core + ("*" if ref.core_stated else "")
    head: list[str | Cell] = [Cell(ref.id, title=ref.operation), ref.port, core, series,
                              ref.kind, ref.confidence, _published(ref)]
    if row.ratio is None and row.why:
        return [*head, Cell(row.why, flag="dim", span=4), "", "", ""]
    board: str | Cell = "no board target"
    if row.board_cycles is not None:
        us = row.board_us
        board = Cell(_count(row.board_cycles), f"{row.board}, {us:.2f} µs" if us else row.board)
    ratio: str | Cell = "-" if row.ratio is None else f"{row.ratio:.2f}"
    if row.ratio is not None and row.why:  # a count kept although its check failed
        ratio = Cell(f"{row.ratio:.2f}", flag="fail", title=row.why)
    return [*head, _count(row.instructions), _count(row.cycles), board, ratio]


def _errors_section(rows: list[Compared], key: str, title: str) -> Section:
    section = Section(title, [key, "mean absolute error", "references"], numeric=1)
    for name, (mae, n) in absolute_errors(rows, key).items():
        section.rows.append([name, f"{mae:.0f} %", str(n)])
    for name, (mae, n) in absolute_errors(rows, "all").items():
        section.rows.append([name, f"{mae:.0f} %", str(n)])
    return section


def sheet(rows: list[Compared]) -> Sheet:
    """The table of references and the tables of errors (per core, kind, confidence)."""
    compared = [r for r in rows if r.ratio is not None]
    overall = absolute_errors(rows, "all").get("all")
    headline = (f"{len(compared)} of {len(rows)} published figures compared; mean absolute "
                f"error {overall[0]:.0f} %" if overall else
                f"0 of {len(rows)} published figures compared")
    table = Section("Published figures and ours", HEADERS, numeric=NUMERIC)
    table.rows = [_row(r) for r in rows]
    notes = [
        "ratio = ours (as on the board when a board target stands for the source's, else "
        "the core's cycle model with no wait state) x the reference's scale / published; "
        "the error is |ratio - 1|.",
        "* the source does not name the core: inferred (the reference file says how).",
        f"{FAIL_MARK} a throughput case whose check failed: its count is kept, as in "
        "`rtosmeter report`.",
        "References only measure the error: no model parameter is fitted to them.",
    ]
    notes += list(dict.fromkeys(f"{r.ref.title}: {r.ref.source}" for r in rows))
    data = {"references": [
        {"id": r.ref.id, "port": r.ref.port, "core": r.ref.core, "case": r.ref.case,
         "series": r.ref.series, "kind": r.ref.kind, "confidence": r.ref.confidence,
         "published_cycles": r.ref.published_cycles, "instructions": r.instructions,
         "cycles": r.cycles, "board": r.board, "board_cycles": r.board_cycles,
         "ratio": r.ratio, "why": r.why, "source": r.ref.source} for r in rows],
        "mae_percent": {k: {n: v[0] for n, v in absolute_errors(rows, k).items()}
                        for k in ("core", "kind", "confidence", "all")}}
    errors = [_errors_section(rows, "core", "Error per core"),
              _errors_section(rows, "kind", "Error per kind of operation"),
              _errors_section(rows, "confidence", "Error per confidence of the mapping")]
    return Sheet("validate", "validate", "Published references: our estimates' error",
                 [headline], [table, *errors], notes, data=data)
