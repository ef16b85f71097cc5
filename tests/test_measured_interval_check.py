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


# A pointer-passing queue's wait (uC/OS-II's pass_queue_a shape, plugin
# counted): the receiver's copy of the message (ldmia/stmia) lies between the
# call and the `dbg` marker; a return (a pop that loads pc) ends a body.
MESSAGE_COPY = """
000017ac <pass_queue_a>:
    17d8:\tdbg\t#0
    17dc:\tldr\tr3, [r5, #0]
    17ea:\tbl\t22fc <OSQPend>
    17ee:\tcbz\tr0, 1810 <pass_queue_a+0x64>
    17f0:\tldmia\tr0, {r0, r1, r2, r3}
    17f2:\tstmia.w\tr6, {r0, r1, r2, r3}
    17f6:\tldrb.w\tr0, [sp, #7]
    17fa:\tdbg\t#0
    17fe:\tldr\tr2, [r5, #0]
    1840:\tbl\t6b4 <rm_case_done>
    1844:\tpop\t{r4, r5, r6, pc}
    1846:\tdbg\t#0
"""


def test_a_copy_is_counted_and_a_return_ends_the_interval() -> None:
    assert closing_read_gaps(MESSAGE_COPY) == {"pass_queue_a": [(
        "OSQPend", ["cbz\tr0, 1810 <pass_queue_a+0x64>", "ldmia\tr0, {r0, r1, r2, r3}",
                    "stmia.w\tr6, {r0, r1, r2, r3}", "ldrb.w\tr0, [sp, #7]"])]}
