/* Target layer for NuttX's sim (target "host"): NuttX runs as one Linux
 * process, its tasks switched by NuttX on the process's own thread. The
 * timestamp is the host's CLOCK_MONOTONIC in ns (sim's host_gettime, as the
 * host target reads it), the console is the process's stdout written
 * directly (host_uart_puts: nothing buffered in NuttX's serial driver when
 * the run ends), and exit is host_abort (what the sim's board_power_off
 * calls), which exits the process with the status. The sim has no software-triggered interrupt line: the port
 * withdraws IRQ, ISR_RESUME and ISR_SIGNAL (ports/nuttx/port.c), and the
 * interrupt calls below do nothing.
 */
#include <nuttx/config.h>

#include <stdbool.h>

#include "rtosmeter/bench.h"

/* The sim's host-side calls (arch/sim/src/sim/posix), compiled against the
 * host's C library; the sim's own drivers declare them the same way. */
uint64_t host_gettime(bool rtc);
int host_uart_puts(int fd, const char *buf, size_t size);
void host_abort(int status);

void rm_target_init(void)
{
}

uint32_t rm_ts(void)
{
    return (uint32_t)host_gettime(false);
}

void rm_target_write(const char *s, size_t n)
{
    while (n > 0u) {
        int w = host_uart_puts(1, s, n);
        if (w <= 0)
            return; /* reader gone: nothing left to report to */
        s += w;
        n -= (size_t)w;
    }
}

void rm_target_irq_trigger(void)
{
}

void rm_target_irq_set_vector(void (*isr)(void))
{
    (void)isr;
}

_Noreturn void rm_target_exit(int status)
{
    host_abort(status);
    for (;;) {
    }
}
