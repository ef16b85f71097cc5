/* Test firmware: a case that never ends (no WFI: it spins), after it has
 * written a few records, to check that a hang is killed and kept. */
#include "rtosmeter/bench.h"

static void run_hang(const rm_case_t *c)
{
    (void)c;
    rm_meta("before_hang", 1u);
    for (;;) {
        __asm volatile("" ::: "memory");
    }
}

RM_CASE(hang, "selftest.hang", 0, run_hang, NULL);
