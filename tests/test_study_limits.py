"""Where emulation cannot answer a finding, from the real study files: the
line follows the figures the finding reads and the run's unit."""

from __future__ import annotations

from rtosmeter.catalog import load_catalog
from rtosmeter.definitions import Definitions, project_root
from rtosmeter.studies import definition
from rtosmeter.studies.figures import natural_stat
from rtosmeter.studies.limits import (
    INTERRUPT,
    NETWORK,
    POWER,
    SIZES,
    SPREAD,
    TIMES,
    emulation_limit,
)


def test_each_kind_of_figure_names_what_emulation_lacks() -> None:
    defs = Definitions.load(project_root())
    catalog = load_catalog(defs.root)
    lines: dict[str, set[str]] = {}
    for study in definition.load_all(defs, catalog):
        for f in study.findings:
            if f.kind == "untestable" or f.emulation:
                continue
            stats = {f.stat or natural_stat(study, op) for op in f.operations}
            cases = {c for op in f.operations for c in study.operation(op).cases}
            own = next((study.operation(op).unit for op in f.operations
                        if study.operation(op).unit), "")
            for run_unit in ("instructions", "cycles"):
                line = emulation_limit(study, f, run_unit)
                unit = own or run_unit  # an operation of a unit of its own is read in it
                if stats <= {"flash", "ram"}:
                    assert line == SIZES, (study.name, f.id)
                elif "power" in stats:
                    assert line == POWER, (study.name, f.id)
                else:
                    assert TIMES[unit] in line, (study.name, f.id, line)
                    assert (SPREAD in line) == bool(stats & {"std", "jitter", "min", "max",
                                                             "p1", "p99"}), (study.name, f.id)
                    irq = any(c.startswith(("irq.", "lat.isr", "tm.interrupt")) for c in cases)
                    assert line.endswith(INTERRUPT) == irq or "virtual" in line, (f.id, line)
                lines.setdefault(run_unit, set()).add(line)
            assert emulation_limit(study, f, "") == "none: measured on the board"
    # the five studies' findings reach sizes, spreads, interrupts and the network
    seen = "\n".join(lines["instructions"])
    assert all(part in seen for part in (SIZES, SPREAD, INTERRUPT, NETWORK,
                                         TIMES["instructions"]))
    assert "exception entry and exit" in TIMES["cycles"]
