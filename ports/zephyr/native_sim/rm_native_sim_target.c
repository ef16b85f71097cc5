/* Target layer for Zephyr's native_sim (target "host" of ports/zephyr):
 * Zephyr runs as one Linux process (the native simulator), its threads
 * switched by Zephyr with simulated time. The result stream goes to the
 * process's stdout through the simulator's host trampoline (nsi_host_write:
 * the embedded side has no host C library), and the run ends through
 * posix_exit(), which exits the process with the status. rm_ts() and the
 * interrupt trigger are inline (rm_target_inline.h); the benchmark line's
 * vector is connected by the port (irq_connect_dynamic). No periodic or
 * load timer: the cases that need one say unsupported (target.h weak
 * defaults).
 */
#include <zephyr/kernel.h>

#include "rtosmeter/bench.h"

long nsi_host_write(int fd, void *buffer, unsigned long size); /* nsi_host_trampolines.h */
void posix_exit(int exit_code);                               /* posix_board_if.h */

void rm_target_init(void)
{
}

/* rm_ts() is the simulated clock in ns (rm_target_inline.h). */
uint32_t rm_target_ts_hz(void)
{
    return RM_NSIM_NS_PER_CYCLE * CONFIG_SYS_CLOCK_HW_CYCLES_PER_SEC;
}

void rm_target_write(const char *s, size_t n)
{
    while (n > 0u) {
        long w = nsi_host_write(1, (void *)(uintptr_t)s, n);
        if (w <= 0)
            return; /* reader gone: nothing left to report to */
        s += w;
        n -= (size_t)w;
    }
}

_Noreturn void rm_target_exit(int status)
{
    posix_exit(status);
    CODE_UNREACHABLE;
}
