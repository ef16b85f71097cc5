/* Test firmware (tests/test_runner_qemu.py): a known instruction sequence,
 * 1000 NOPs between two timestamp reads, measured like any interval so the
 * test can check the exact instruction count through the whole pipeline. */
#include "rtosmeter/bench.h"

#define NOPS_1000 ".rept 1000\n nop\n .endr\n"

static void run_nops(const rm_case_t *c)
{
    (void)c;
    rm_series_t s;
    rm_series_open(&s, "nops", "1000 NOPs between two rm_ts() reads");
    for (uint32_t i = 0; i < (uint32_t)(RM_SAMPLES); i++) {
        uint32_t t0 = rm_ts();
        __asm volatile(NOPS_1000 ::: "memory");
        uint32_t t1 = rm_ts();
        rm_series_add(&s, t1 - t0);
    }
    rm_series_close(&s);
}

RM_CASE(nops, "selftest.nops", 0, run_nops, NULL);
