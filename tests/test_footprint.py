"""Footprints of real firmware: bare-metal irq group on qemu-mps2-an385,
built with arm-none-eabi-gcc (GNU ld's map) and with Clang (ld.lld's map),
checked against arm-none-eabi-size and the ELF's own symbols."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

from rtosmeter.definitions import Definitions, project_root
from rtosmeter.footprint import Reservations, Reserved, _map_entries, footprint, origin

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cortexm_firmware as fw

pytestmark = pytest.mark.skipif(not fw.have_toolchain(),
                                reason="needs arm-none-eabi-gcc, cmake, ninja, qemu-system-arm")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """The irq firmware built with a toolchain, once per toolchain."""
    cache: dict[str, Path] = {}

    def get(toolchain: str) -> Path:
        if toolchain not in cache:
            cache[toolchain] = fw.build(tmp_path_factory.mktemp(f"fp-{toolchain}"),
                                        "qemu-mps2-an385", ["irq"], toolchain=toolchain,
                                        cases=fw.ROOT / "bench" / "cases")["irq"]
        return cache[toolchain]
    return get


@pytest.fixture(params=["gcc", "clang"])
def elf(built: Callable[[str], Path], request: pytest.FixtureRequest) -> Path:
    return built(request.param)


def _lld_merged_strings(elf: Path) -> int:
    """Flash bytes of the string literals ld.lld merged across objects: its
    map lists them as `<internal>`, from no object (GNU ld's keeps them per
    object), so they count as `other`."""
    text = elf.with_suffix(".map").read_text()
    return sum(int(ln.split()[2], 16) for ln in text.splitlines()
               if "<internal>:(.rodata" in ln)


def _size_berkeley(elf: Path) -> tuple[int, int, int]:
    out = subprocess.run(["arm-none-eabi-size", "-B", str(elf)], capture_output=True,
                         text=True, check=True).stdout.splitlines()[1].split()
    return int(out[0]), int(out[1]), int(out[2])  # text, data, bss


def _symbol_size(elf: Path, name: str) -> int:
    with elf.open("rb") as f:
        symtab = ELFFile(f).get_section_by_name(".symtab")
        return int(symtab.get_symbol_by_name(name)[0]["st_size"])  # type: ignore[union-attr]


@pytest.mark.skipif(shutil.which("arm-none-eabi-size") is None, reason="binutils absent")
@pytest.mark.slow
def test_totals_agree_with_size(elf: Path) -> None:
    fp = footprint(elf)
    text, data, _ = _size_berkeley(elf)
    assert fp.flash == text + data  # everything with contents is in Flash
    sysv = subprocess.run(["arm-none-eabi-size", "-A", str(elf)], capture_output=True,
                          text=True, check=True).stdout
    sizes = {ln.split()[0]: int(ln.split()[1]) for ln in sysv.splitlines()[2:] if ln.strip()
             and len(ln.split()) == 3}
    assert fp.ram == sizes[".data"] + sizes[".bss"] + sizes[".stack"]
    assert sum(f for f, _ in fp.parts.values()) == fp.flash
    assert sum(r for _, r in fp.parts.values()) == fp.ram


@pytest.mark.slow
def test_parts_follow_the_objects(elf: Path) -> None:
    fp = footprint(elf)
    assert fp.map_file.endswith("rm_irq.map")
    assert fp.symbols["series_buf"] == ("framework", _symbol_size(elf, "series_buf"))
    assert fp.symbols["run_max_rate"][0] == "benchmark"
    assert fp.symbols["Reset_Handler"][0] == "startup"
    assert fp.symbols["main"][0] == "kernel"  # the bare-metal port owns main()
    # The main stack the start-up reserves (mps2.ld: 8 KiB) is a stack.
    stack = next(s.size for s in fp.sections if s.name == ".stack")
    assert stack >= 0x2000 and fp.parts["stacks"] == (0, stack)
    assert [(r.name, r.kind, r.ram) for r in fp.reserved] == [(".stack", "stacks", stack)]
    assert fp.parts["benchmark"][0] > 0 and fp.parts["framework"][0] > 0
    # only alignment fill, and with ld.lld the strings it merged
    assert fp.parts.get("other", (0, 0))[0] < 64 + _lld_merged_strings(elf)


def nm_sizes(elf: Path) -> dict[str, int]:
    """RAM objects (.bss, .data) by name, as `arm-none-eabi-nm --size-sort -S` lists them."""
    out = subprocess.run(["arm-none-eabi-nm", "--size-sort", "-S", str(elf)],
                         capture_output=True, text=True, check=True).stdout
    return {f[3]: int(f[1], 16) for ln in out.splitlines()
            if len(f := ln.split()) == 4 and f[2] in "bBdD"}


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("arm-none-eabi-nm") is None, reason="binutils absent")
def test_declared_symbols_move_to_their_part(elf: Path) -> None:
    """A declared symbol's RAM (nm's size) leaves the part that held it for
    its own; Flash and the totals stay; a glob matches; each byte moves once
    (a symbol named under two kinds goes to the first)."""
    nm = nm_sizes(elf)
    plain = footprint(elf)
    rules = Reservations(stacks=("series_buf",), heaps=("series_buf", "out_b?f"),
                         objects=("no_such_symbol",))
    fp = footprint(elf, reservations=rules)
    moved = nm["series_buf"] + nm["out_buf"]
    assert fp.parts["stacks"][1] == plain.parts["stacks"][1] + nm["series_buf"]
    assert fp.parts["heaps"] == (0, nm["out_buf"])
    assert "objects" not in fp.parts
    framework = plain.parts["framework"]
    assert fp.parts["framework"] == (framework[0], framework[1] - moved)
    assert (fp.flash, fp.ram) == (plain.flash, plain.ram)
    assert sum(r for _, r in fp.parts.values()) == fp.ram
    assert Reserved("series_buf", "stacks", nm["series_buf"], "framework") in fp.reserved
    assert Reserved("out_buf", "heaps", nm["out_buf"], "framework") in fp.reserved


@pytest.mark.slow
def test_the_bare_metal_port_declares_only_the_main_stack(elf: Path) -> None:
    """ports/baremetal/port.toml [footprint]: nothing but the main stack
    section is reserved; the port's own RAM stays kernel."""
    port = Definitions.load(project_root()).port("baremetal")
    assert port.reservations is not None
    fp = footprint(elf, reservations=port.reservations)
    assert [r.name for r in fp.reserved] == [".stack"]
    assert fp.parts == footprint(elf).parts


@pytest.mark.slow
def test_without_map_everything_is_other(elf: Path, tmp_path: Path) -> None:
    copy = tmp_path / "fw.elf"
    shutil.copy(elf, copy)
    fp = footprint(copy)
    stack = next(s.size for s in fp.sections if s.name == ".stack")
    # The main stack is a section of its own: a stack without a map too.
    assert fp.parts == {"other": (fp.flash, fp.ram - stack), "stacks": (0, stack)}
    assert fp.map_file == ""
    # Declared symbols come from the ELF: they leave `other` without a map too.
    buf = nm_sizes(copy)["series_buf"]
    fp = footprint(copy, reservations=Reservations(heaps=("series_buf",)))
    assert fp.parts == {"other": (fp.flash, fp.ram - stack - buf), "stacks": (0, stack),
                        "heaps": (0, buf)}


def test_origin_of_objects() -> None:
    assert origin("CMakeFiles/rm_core.dir/core/stream.c.obj") == "framework"
    assert origin("CMakeFiles/rm_irq.dir/cases/irq.c.obj") == "benchmark"
    assert origin("CMakeFiles/rm_target.dir/work/targets/x/startup.c.obj") == "startup"
    assert origin("/usr/lib/arm-none-eabi/lib/thumb/v7-m/nofp/libc_nano.a(libc_a-memset.o)") \
        == "libc"
    assert origin("freertos_kernel/libfreertos_kernel.a(tasks.c.obj)") == "kernel"


BOARDS = {  # target -> (Flash, RAM) of the chip, from its link.ld
    "frdm-k64f": (1024 << 10, 192 << 10),
    "b-l475e-iot01a": (1024 << 10, 96 << 10),
    "nrf52840dk": (1024 << 10, 256 << 10),
    "stm32f407": (1024 << 10, 128 << 10),
    "nucleo-l053r8": (64 << 10, 8 << 10),
}


@pytest.mark.parametrize("target", sorted(BOARDS))
@pytest.mark.slow
def test_every_board_target_builds_and_fits(target: str,
                                            tmp_path_factory: pytest.TempPathFactory) -> None:
    elf = fw.build(tmp_path_factory.mktemp(target), target, ["irq"],
                   cases=fw.ROOT / "bench" / "cases")["irq"]
    fp = footprint(elf)
    flash, ram = BOARDS[target]
    assert 0 < fp.flash <= flash and 0 < fp.ram <= ram
    assert fp.parts["startup"][0] > 0 and fp.parts["benchmark"][0] > 0


@pytest.fixture(scope="module")
def elf_m0(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same firmware for the Cortex-M0 (Thumb-1 only: the larger code)."""
    return fw.build(tmp_path_factory.mktemp("fp-m0"), "qemu-microbit", ["irq"],
                    cases=fw.ROOT / "bench" / "cases")["irq"]


@pytest.mark.parametrize("core", ["m3", "m0"])
@pytest.mark.slow
def test_framework_cost_is_within_the_goal(core: str, request: pytest.FixtureRequest) -> None:
    """scripts/bench_footprint.py: bench/core + start-up <= 4 KiB Flash, 1 KiB RAM,
    on the Cortex-M3 (qemu-mps2-an385) and the Cortex-M0 (qemu-microbit)."""
    elf: Path = (request.getfixturevalue("built")("gcc") if core == "m3"
                 else request.getfixturevalue("elf_m0"))
    script = fw.ROOT / "scripts" / "bench_footprint.py"
    proc = subprocess.run([sys.executable, str(script), "--check", str(elf)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = {ln.split()[0]: [int(x) for x in ln.split()[1:3]]
            for ln in proc.stdout.splitlines()
            if ln.split() and ln.split()[0] in ("framework", "startup", "total")}
    flash, ram = rows["total"]
    assert 0 < flash <= 4096 and 0 < ram <= 1024
    # The script's parts add up, and agree with the attribution it reads.
    assert rows["framework"][0] + rows["startup"][0] == flash
    fp = footprint(elf)
    assert rows["framework"][0] == fp.parts["framework"][0]
    assert rows["startup"][0] == fp.parts["startup"][0]
    # The vector table is start-up Flash (needed hardware, counted honestly).
    vectors = next(s.size for s in fp.sections if s.name == ".vectors")
    assert rows["startup"][0] > vectors >= 16 * 4


def test_lld_map_entries() -> None:
    """ld.lld's map: output sections, input sections ("object:(section)") and
    symbols told apart by indentation; the linker's own sections and script
    assignments are no object's."""
    text = "\n".join([
        "     VMA      LMA     Size Align Out     In      Symbol",
        "       0        0        0     1 __rm_stack_size = 0x2000",
        "       0        0       c0     4 .vectors",
        "       0        0       c0     4         CMakeFiles/rm_target.dir/s.c.obj:(.vectors)",
        "       0        0       c0     1                 rm_cm_vectors",
        "      c0       c0       20     4 .rodata",
        "      c0       c0       18     1         <internal>:(.rodata)",
        "      d8       d8        8     4         lib/libc_nano.a(lib_a-x.o):(.rodata.x)",
        "      d8       d8        8     1                 x",
    ])
    assert _map_entries(text) == [
        (".vectors", ".vectors", 0, 0xc0, "CMakeFiles/rm_target.dir/s.c.obj"),
        (".rodata", ".rodata.x", 0xd8, 8, "lib/libc_nano.a(lib_a-x.o)")]


def test_merged_strings_are_not_counted_twice() -> None:
    """ld merges a string into the tail of another section's string and the map
    then lists two input sections that overlap; each byte counts once."""
    text = "\n".join([
        "Linker script and memory map",
        "",
        ".rodata         0x00001000       0x30",
        " .rodata.a      0x00001000       0x20 a.o",
        " .rodata.b      0x00001018       0x18 b.o",
        "",
    ])
    entries = _map_entries(text)
    assert entries == [(".rodata", ".rodata.a", 0x1000, 0x18, "a.o"),
                       (".rodata", ".rodata.b", 0x1018, 0x18, "b.o")]
    assert sum(e.size for e in entries) == 0x30


def test_network_objects_are_told_apart_by_file_name() -> None:
    r = Reservations(network=("uip*.o", "*/gnrc_*/*"), declared=False)
    assert r.is_network("build/rm-mps2/obj/uip6.o")
    assert r.is_network("/x/riot-bin/gnrc_sixlowpan/gnrc_sixlowpan.o")
    assert not r.is_network("/x/riot-bin/core/gnrc_like_name.o")
    assert not r.is_network("build/rm-mps2/obj/process.o")
    assert not Reservations().is_network("build/rm-mps2/obj/uip6.o")
