/* Test firmware: the program ends with status 5 in the middle of a case,
 * before its BYE record. */
#include "rtosmeter/bench.h"

static void run_early(const rm_case_t *c)
{
    (void)c;
    rm_meta("before_exit", 1u);
    rm_target_exit(5);
}

RM_CASE(early, "selftest.early_exit", 0, run_early, NULL);
