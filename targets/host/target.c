/* Host target: the timestamp is CLOCK_MONOTONIC in ns (wrapping modulo
 * 2^32, about 4.3 s, which is plenty for one interval), the console is
 * stdout written with write(2), and the "software interrupt" line, used
 * only by a port that does not provide its own, is a signal (SIGUSR1)
 * whose handler calls the installed benchmark handler.
 */
#ifndef _GNU_SOURCE /* a kernel's build may pass it (ThreadX on Linux) */
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "rtosmeter/bench.h"

static void (*volatile bench_isr)(void);

static void on_sigusr1(int sig)
{
    (void)sig;
    void (*isr)(void) = bench_isr;
    if (isr != NULL) {
        isr();
    }
}

void rm_target_irq_set_vector(void (*isr)(void))
{
    bench_isr = isr;
}

void rm_target_init(void)
{
    /* A deep pipe keeps a slow reader from blocking a measuring thread in
     * write(2) in the middle of a case (ignored when stdout is a file). */
    (void)fcntl(1, F_SETPIPE_SZ, 1 << 20);
    struct sigaction sa = {0};
    sa.sa_handler = on_sigusr1;
    sigemptyset(&sa.sa_mask);
    (void)sigaction(SIGUSR1, &sa, NULL);
}

uint32_t rm_ts(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint32_t)((uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec);
}

/* rm_ts() is CLOCK_MONOTONIC in ns; the host's core clock is not ours to tell. */
uint32_t rm_target_ts_hz(void)
{
    return 1000000000u;
}

void rm_target_write(const char *s, size_t n)
{
    while (n > 0u) {
        ssize_t w = write(1, s, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return; /* reader gone: nothing left to report to */
        }
        s += w;
        n -= (size_t)w;
    }
}

void rm_target_irq_trigger(void)
{
    (void)raise(SIGUSR1);
}

_Noreturn void rm_target_exit(int status)
{
    exit(status);
}
