/* Test firmware: a deliberately bad pointer. On the MPS2 machines a read
 * from 0xF0000000 is a precise BusFault; the FAULT record names its PC. */
#include "rtosmeter/bench.h"

__attribute__((noinline)) void selftest_bad_read(void);
__attribute__((noinline)) void selftest_bad_read(void)
{
    volatile uint32_t *bad = (volatile uint32_t *)0xF0000000u;
    rm_meta("value", *bad);
}

static void run_fault(const rm_case_t *c)
{
    (void)c;
    rm_meta("before", 1u);
    selftest_bad_read();
}

RM_CASE(fault, "selftest.fault", 0, run_fault, NULL);
