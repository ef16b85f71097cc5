/* Bare-metal port: no RTOS, the floor every RTOS is compared to.
 *
 * Design decisions:
 * - main() calls rm_target_init() and then rm_runner_main(NULL) directly: no
 *   threads, no kernel tick (rm_tick_hz() stays the core's default 0), so
 *   SysTick is unused. Only cases that need no more than IRQ run here
 *   (port.toml caps); they never call rm_case_wait_done().
 * - The benchmark interrupt: the case's handler is the target's vector (the
 *   core's default connect; no enter/exit hooks), raised by the target's
 *   inline trigger.
 * - There is no idle loop, so WFI never runs (RM_NO_WFI holds trivially).
 */
#include "rtosmeter/bench.h"

void rm_port_describe(void)
{
    rm_emit_cfg("kernel", "none (bare metal)");
    rm_emit_cfg("tick", "none");
    rm_emit_cfg("threads", "none: runner called from main()");
}

int main(void)
{
    rm_target_init();
    rm_runner_main(NULL);
    return 0; /* not reached: the runner ends with rm_target_exit() */
}
