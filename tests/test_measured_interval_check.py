"""The disassembly check of tests/rtos_ports.py (closing_read_gaps) on
excerpts of real firmware (`arm-none-eabi-objdump -d --no-show-raw-insn`):
it finds the closing timer read when the compiler schedules an instruction
between the timer's load and its inversion, and counts what lies between
the call's return and the load."""

from __future__ import annotations

from rtos_ports import closing_read_gaps

# Contiki-NG's run_pool on qemu-mps2-an386 (rm_lat_memory.elf): memb_alloc's
# pointer is copied (`mov r1, r0`) after the timer read, before its `mvns`.
CONTIKI_POOL = """
00001330 <run_pool>:
    138c:\tldr.w\tr4, [r8, #4]
    1390:\tmvns\tr4, r4
    1392:\tmov\tr0, sl
    1394:\tbl\t1670 <memb_alloc>
    1398:\tldr.w\tr5, [r8, #4]
    139c:\tmov\tr1, r0
    139e:\tmvns\tr5, r5
    13a0:\tcmp\tr0, #0
    13a2:\tbne.n\t1360 <run_pool+0x30>
"""

# NuttX's lifecycle_pass before the raw-status porting layer: the status
# translation of nxsig_kill inside the interval.
NUTTX_TRANSLATED = """
0000c688 <lifecycle_pass>:
    c700:\tbl\t9a10 <nxsig_kill>
    c704:\tsubs\tr3, r0, #0
    c706:\tit\tne
    c708:\tmovne\tr3, #1
    c70a:\tnegs\tr3, r3
    c70c:\tstr\tr3, [sp, #96]\t@ 0x60
    c70e:\tldr\tr2, [r5, #4]
    c710:\tmvns\tr2, r2
"""


def test_a_read_split_from_its_inversion_is_found() -> None:
    assert closing_read_gaps(CONTIKI_POOL) == {"run_pool": [("memb_alloc", [])]}


def test_instructions_before_the_read_are_counted() -> None:
    gaps = closing_read_gaps(NUTTX_TRANSLATED)
    assert [len(between) for _, between in gaps["lifecycle_pass"]] == [5]


def test_an_inverted_register_not_loaded_after_the_call_is_no_read() -> None:
    # mvn of a register the interval did not load: not the timer read.
    dis = CONTIKI_POOL.replace("ldr.w\tr5, [r8, #4]", "ldr.w\tr6, [r8, #4]")
    assert closing_read_gaps(dis) == {}
