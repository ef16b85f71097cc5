/* Start-up glue of the Thread-Metric reference build: what Thread-Metric
 * leaves to the platform, done with rtosmeter's own target code.
 *
 * - main: rtosmeter's target initialisation (console UART, timestamp timer,
 *   the benchmark interrupt's priority and enable), the test's handler as
 *   the benchmark vector, then the kernel.
 * - The console: the reporter's printf reaches the target's UART through
 *   newlib's _write. Each "Time Period Total" line is one report; after
 *   TM_REF_PERIODS of them the firmware exits (semihosting), so a run ends
 *   by itself after a fixed amount of virtual time.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rtosmeter/bench.h"
#include "tm_api.h"

#ifndef TM_REF_PERIODS
#define TM_REF_PERIODS 2
#endif

void tm_main(void); /* each tm_*_test.c defines it (as tm_main()) */

/* The handler of whichever interrupt test this is (weak: the other tests
 * define neither). */
extern void tm_interrupt_handler(void) __attribute__((weak));
extern void tm_interrupt_preemption_handler(void) __attribute__((weak));

/* newlib stubs (nosys.specs leaves them failing); newlib's own
 * declarations of these are internal, so they are declared here. */
int _write(int fd, const char *buf, int len);
int _isatty(int fd);

/* Line-buffered stdout in a static buffer: one _write per printed line and
 * no heap for stdio. */
static char tm_ref_stdout_buf[256];

static void tm_ref_platform_init(void)
{
    (void)setvbuf(stdout, tm_ref_stdout_buf, _IOLBF, sizeof tm_ref_stdout_buf);
    rm_target_init();
    if (tm_interrupt_handler != NULL)
        rm_target_irq_set_vector(tm_interrupt_handler);
    else if (tm_interrupt_preemption_handler != NULL)
        rm_target_irq_set_vector(tm_interrupt_preemption_handler);
}

#if defined(TM_REF_threadx)
#include "tx_api.h"

int main(void)
{
    tm_ref_platform_init();
    tx_kernel_enter(); /* never returns */
    return 0;
}

void tx_application_define(void *first_unused_memory)
{
    (void)first_unused_memory;
    tm_main();
}
#elif defined(TM_REF_freertos)
int main(void)
{
    tm_ref_platform_init();
    tm_main(); /* tm_initialize starts the scheduler: never returns */
    return 0;
}
#else
#error "TM_REF_threadx or TM_REF_freertos must be defined (CMakeLists.txt)"
#endif

/* Counts reports by matching this text across _write calls (a line may in
 * principle arrive in pieces). */
static const char tm_ref_marker[] = "Time Period Total";
static size_t tm_ref_matched;
static unsigned tm_ref_reports;

int _write(int fd, const char *buf, int len)
{
    (void)fd;
    rm_target_write(buf, (size_t)len);
    for (int i = 0; i < len; i++) {
        if (buf[i] == tm_ref_marker[tm_ref_matched]) {
            if (++tm_ref_matched == sizeof tm_ref_marker - 1u) {
                tm_ref_matched = 0;
                tm_ref_reports++;
            }
        } else {
            tm_ref_matched = buf[i] == tm_ref_marker[0] ? 1u : 0u;
        }
    }
    /* Exit after the line that completes the last report. */
    if (tm_ref_reports >= (unsigned)TM_REF_PERIODS && len > 0 && buf[len - 1] == '\n')
        rm_target_exit(0);
    return len;
}

int _isatty(int fd)
{
    (void)fd;
    return 1;
}

/* The start-up's fault handlers report through this (rtosmeter's stream
 * writer is not linked): one line for the harness, then exit status 3, as
 * rtosmeter's firmware does. */
_Noreturn void rm_report_fault(const rm_fault_t *f)
{
    static const char hex[] = "0123456789abcdef";
    char line[] = "FAULT pc=00000000 lr=00000000 psr=00000000\n";
    const uint32_t v[3] = {f->pc, f->lr, f->psr};
    for (unsigned k = 0; k < 3u; k++) {
        char *at = strchr(line, '=');
        for (unsigned j = 0; j < (unsigned)k; j++)
            at = strchr(at + 1, '=');
        for (unsigned d = 0; d < 8u; d++)
            at[1 + d] = hex[(v[k] >> (28u - 4u * d)) & 0xFu];
    }
    rm_target_write(line, sizeof line - 1u);
    rm_target_exit(3);
}
