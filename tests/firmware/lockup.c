/* Test firmware: a fault inside the fault handler (both overridden here),
 * which the CPU cannot escalate: QEMU reports a lockup. */
#include "rtosmeter/bench.h"

static void bad_read(void)
{
    volatile uint32_t *bad = (volatile uint32_t *)0xF0000000u;
    (void)*bad;
}

void HardFault_Handler(void);
void BusFault_Handler(void);
void HardFault_Handler(void) { bad_read(); for (;;) {} }
void BusFault_Handler(void) { bad_read(); for (;;) {} }

static void run_lockup(const rm_case_t *c)
{
    (void)c;
    rm_meta("before", 1u);
    bad_read();
}

RM_CASE(lockup, "selftest.lockup", 0, run_lockup, NULL);
