"""Estimates as on a board: every board target declares its flash memory
system ([memory] in target.toml), the plugin's memory system charges the
flash wait per line that neither prefetch nor a cache hides (real firmware,
real QEMU), and `run --as-board` records and labels the board's estimate."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rtosmeter import qemu_binary, qemu_plugin
from rtosmeter.board_memory import QEMU_FOR_CPU, memory_of, read_memory
from rtosmeter.definitions import Definitions, load_target
from rtosmeter.errors import UserError
from rtosmeter.measure import Unit
from rtosmeter.protocol import parse_stream

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cortexm_firmware as fw

ROOT = Path(__file__).resolve().parent.parent
# board: (core, clock, wait states, accelerator words)
BOARDS = {"b-l475e-iot01a": ("cortex-m4", 80_000_000, 4, "ART"),
          "stm32f407": ("cortex-m4", 168_000_000, 5, "ART"),
          "frdm-k64f": ("cortex-m4", 120_000_000, 4, "FMC"),
          "nrf52840dk": ("cortex-m4", 64_000_000, 2, "instruction cache"),
          "nucleo-l053r8": ("cortex-m0plus", 32_000_000, 1, "no cache")}


def test_every_board_declares_its_memory_system() -> None:
    defs = Definitions.load()
    boards = {t.name for t in defs.targets.values() if t.kind == "board"}
    assert boards == set(BOARDS)
    for name, (cpu, hz, ws, words) in BOARDS.items():
        mem = memory_of(name.upper())  # any case
        assert (mem.cpu, mem.clock_hz, mem.ws) == (cpu, hz, ws)
        assert words in mem.accelerator
        assert mem.qemu_target == QEMU_FOR_CPU[cpu]
        label = mem.label()
        assert label.startswith(f"cycles (estimated as on {name}:")
        assert f"{ws} ws at {hz / 1e6:g} MHz" in label
        # every value is cited beside it in the file
        text = (defs.targets[name].file).read_text()
        memory = text[text.index("[memory]"):]
        for key in ("clock_hz", "flash_wait_states", "flash_line_bytes", "prefetch"):
            line = next(ln for ln in memory.splitlines() if ln.startswith(key))
            assert "#" in line, f"{name}: {key} has no source"
    l053 = memory_of("nucleo-l053r8")
    assert l053.spec(12).cpu == "m0plus" and l053.icache == l053.dcache == 0


def test_a_bad_memory_table_names_the_file(tmp_path: Path) -> None:
    src = (ROOT / "targets" / "stm32f407" / "target.toml").read_text()
    path = tmp_path / "stm32f407" / "target.toml"
    path.parent.mkdir()
    path.write_text(src.replace("flash_line_bytes = 16", "flash_line_bytes = 12"))
    with pytest.raises(UserError, match="flash_line_bytes = 12") as e:
        read_memory(load_target(path))
    assert str(path) in str(e.value)
    path.write_text(src.replace("icache_bytes = 1024", "icache_bytes = 1000"))
    with pytest.raises(UserError, match="icache_bytes = 1000"):
        read_memory(load_target(path))
    with pytest.raises(UserError, match="unknown board 'nucleo'"):
        memory_of("nucleo")
    qemu = Definitions.load().targets["qemu-mps2-an386"]
    with pytest.raises(UserError, match="not a board"):
        read_memory(qemu)


@pytest.fixture(scope="module")
def sequences_elf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    subprocess.run(["make", "-s", "-C", str(qemu_plugin.PLUGIN_DIR)], check=True)
    spec = qemu_plugin.PluginSpec(Unit.INSTRUCTIONS)
    return fw.build(tmp_path_factory.mktemp("mem"), "qemu-mps2-an386", ["cycles"],
                    extra=qemu_plugin.build_defines(spec, 6))["cycles"]


def _run(elf: Path, args: list[str], tmp: Path) -> tuple[dict[str, list[int]], dict[str, object]]:
    so = qemu_plugin.plugin_path()
    assert so is not None
    counter = qemu_plugin.counter_address(elf)
    assert counter is not None
    summary = tmp / "s.json"
    spec = qemu_plugin.PluginSpec(Unit.CYCLES, "m4")
    cmd = [qemu_binary.chosen(), "-M", "mps2-an386", "-nographic", "-monitor", "none", "-serial",
           "stdio", "-semihosting-config", "enable=on,target=native", "-icount",
           "shift=6,align=off,sleep=off", "-plugin",
           ",".join([str(so), *spec.args(counter, summary)[:-2], *args,
                     f"counter=0x{counter:x}", f"out={summary}"]),
           "-kernel", str(elf)]
    proc = subprocess.run(cmd, capture_output=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    case = parse_stream(proc.stdout).case("selftest.sequences")
    return ({n: list(s.samples) for n, s in case.series.items()},
            json.loads(summary.read_text()))


@pytest.mark.slow
@pytest.mark.skipif(not fw.have_toolchain(), reason="needs the cross toolchain and QEMU")
def test_the_flash_wait_is_charged_per_line_prefetch_and_cache_hide_it(
        sequences_elf: Path, tmp_path: Path) -> None:
    base, _ = _run(sequences_elf, [], tmp_path)
    # no prefetch, no cache: 100 NOPs (200 bytes) cross 12 or 13 16-byte lines, 5 each
    bare, summary = _run(sequences_elf, ["ws=5", "line=16"], tmp_path)
    assert summary["ws"] == 5
    extra = {b - a for a, b in zip(base["nops"], bare["nops"], strict=True)}
    assert extra <= {60, 65} and len(extra) == 1
    # prefetch: straight-line code waits for nothing
    pre, _ = _run(sequences_elf, ["ws=5", "line=16", "prefetch=1"], tmp_path)
    assert pre["nops"] == base["nops"]
    # a loop that straddles two lines refetches them each iteration without a
    # cache (the fetch buffer holds one line); with one, no iteration waits
    cached, _ = _run(sequences_elf, ["ws=5", "line=16", "prefetch=1", "icache=1024",
                                     "ways=4"], tmp_path)
    assert pre["loop32_odd"][0] > cached["loop32_odd"][0] == base["loop32_odd"][0]
    # the SVC handler's line: missed the first time, cached after
    svc = cached["svc"]
    assert svc[0] > svc[1] == svc[-1] == base["svc"][1]
    # the flat rule (ws on every refill) is what no memory system gives
    flat, _ = _run(sequences_elf, ["ws=5"], tmp_path)
    assert flat["loop16"][1] > cached["loop16"][1] == base["loop16"][1]


@pytest.mark.slow
@pytest.mark.skipif(not fw.have_toolchain(), reason="needs the cross toolchain and QEMU")
def test_run_and_report_as_a_board(tmp_path: Path) -> None:
    """run --as-board picks the QEMU machine of the board's core, records the
    board and its memory system, labels every figure with it, and report
    --as-board shows µs at the board's clock (and refuses another board)."""
    from conftest import invoke

    from rtosmeter.store import Store

    out = tmp_path / "out"
    res = invoke("run", "--port", "baremetal", "--as-board", "B-L475E-IOT01A",
                 "--bench", "lat.isr.*", "--out", str(out), "-j", "1")
    assert res.exit_code == 0, res.output
    with Store.open(out / "rtosmeter.sqlite") as st:
        (ex,) = st.executions(1)
        assert ex.runner["as_board"] == "b-l475e-iot01a"
        assert ex.runner["memory"] == "line=8,icache=1024,dcache=256,ways=4,prefetch=1"
        assert ex.runner["ws"] == "4" and ex.runner["machine"] == "mps2-an386"
        assert ex.hello["unit"].startswith("cycles (estimated as on b-l475e-iot01a:")
    md = invoke("report", "--out", str(out), "--as-board", "b-l475e-iot01a", "--format", "md")
    assert md.exit_code == 0, md.output
    assert "in µs (estimated at 80 MHz from cycles; cycles (estimated as on b-l475e-iot01a" \
        in md.output
    other = invoke("report", "--out", str(out), "--as-board", "stm32f407")
    assert other.exit_code == 1 and "was not estimated as on stm32f407" in other.stderr
    wrong = invoke("run", "--port", "baremetal", "--as-board", "nucleo-l053r8",
                   "--target", "qemu-mps2-an386", "--out", str(tmp_path / "w"))
    assert wrong.exit_code == 1 and "estimated on qemu-microbit" in wrong.stderr


def test_study_run_takes_the_board(tmp_path: Path) -> None:
    """study run --as-board plans every campaign as on the board: an unknown
    board is refused by name before anything is built."""
    from conftest import invoke

    res = invoke("study", "run", "beningo2024", "--as-board", "nucleo", "--no-rerun",
                 "--out", str(tmp_path))
    assert res.exit_code == 1 and "unknown board 'nucleo'" in res.stderr, res.output


@pytest.mark.parametrize(("text", "what"), [
    ("ws = inf\nprefetch = true\ndiv = 12\n", "must be an integer"),
    ("ws = 1.9\nprefetch = true\ndiv = 12\n", "must be an integer"),
    ('ws = "٣"\nprefetch = true\ndiv = 12\n', "must be an integer"),
    ('ws = 2\nprefetch = "false"\ndiv = 12\n', "must be true or false"),
    ("ws = 99\nprefetch = true\ndiv = 12\n", "'ws'"),
    ("ws = 2\nprefetch = true\ndiv = 12\nws_extra = 1\n", "unknown key 'ws_extra'"),
])
def test_a_calibration_is_read_through_the_checked_reader(tmp_path: Path, text: str,
                                                          what: str) -> None:
    """A calibration.toml's numbers are checked as every file's: none is
    coerced (1.9 -> 1, "false" -> true) or applied when out of range."""
    import dataclasses

    from rtosmeter.board_memory import board_named

    (tmp_path / "calibration.toml").write_text(text, encoding="utf-8")
    board = dataclasses.replace(board_named(Definitions.load(ROOT), "b-l475e-iot01a"),
                                dir=tmp_path)
    with pytest.raises(UserError) as err:
        read_memory(board)
    assert what in str(err.value) and str(tmp_path / "calibration.toml") in str(err.value)
