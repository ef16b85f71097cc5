"""`rtosmeter validate` on FreeRTOS's published Thread-Metric figures
(references/freertos-thread-metric-stm32l432.toml): a real build and QEMU run
of the port in three views, the B-L475E-IOT01A's estimate among them. Needs
the tree in RTOSMETER_FREERTOS; skipped, naming it, without."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import invoke
from rtos_ports import tree_marks

from rtosmeter.definitions import project_root

pytestmark = tree_marks("RTOSMETER_FREERTOS", "tasks.c",
                        "https://github.com/FreeRTOS/FreeRTOS-Kernel")

FILE = project_root() / "references" / "freertos-thread-metric-stm32l432.toml"


def test_freertos_thread_metric_references_get_ours_as_on_the_l475(tmp_path: Path) -> None:
    folder = tmp_path / "refs"
    folder.mkdir()
    shutil.copy(FILE, folder / FILE.name)
    result = invoke("validate", "--references", str(folder), "--out", str(tmp_path / "out"),
                    "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = {r["id"]: r for r in data["references"]}
    assert set(rows) == {"freertos1031.tm_cooperative", "freertos1031.tm_preemptive",
                         "freertos1031.tm_message", "freertos1031.tm_sync"}
    for row in rows.values():
        assert row["board"] == "b-l475e-iot01a"
        assert row["board_cycles"] >= row["instructions"] > 0
        assert row["ratio"] == row["board_cycles"] / row["published_cycles"]
    switches = [rows[i]["ratio"] for i in ("freertos1031.tm_cooperative",
                                           "freertos1031.tm_preemptive")]
    expected = sum(abs(x - 1) for x in switches) / 2 * 100
    assert abs(data["mae_percent"]["kind"]["switch"] - expected) < 1e-9
