/* Zephyr on native_sim (target host): the cases withdrawn there, and why.
 *
 * native_sim's simulated time advances only while the CPU idles: a thread
 * that busy-waits for time to pass (a tick, another thread's sleep) never
 * sees it pass, and a less urgent thread that never blocks starves the idle
 * thread, so a sleep never ends. Cases whose bodies do either would hang,
 * so the port ends them as unsupported with the reason (through
 * rm_port_case_body, before the shared body runs). Found by running every
 * group on native_sim (ports/zephyr/port.toml lists the withdrawn cases).
 */
#include <string.h>

#include "rtosmeter/bench.h"

struct withdrawn {
    const char *prefix; /* a case ID, or a prefix ending in '.' */
    const char *reason;
};

#define RM_NSIM_STILL "native_sim: simulated time stands still while code runs, and "
#define RM_NSIM_SW_TICK                                                                    \
    RM_NSIM_STILL "the .tick series spin while a thread sleeps a tick: the tick never comes"

static const struct withdrawn withdrawn[] = {
    /* Thread-Metric: the counting threads never block, so the idle thread
     * never runs and the reporter's sleep never ends. */
    {"tm.", RM_NSIM_STILL "the Thread-Metric threads never block: the reporter's sleep "
            "never ends"},
    /* rm_pass.h: B spins, ready, while A sleeps one tick (.tick series).
     * Only the kinds Zephyr has: the others stay unsupported for their cap. */
    {"sw.sem", RM_NSIM_SW_TICK},
    {"sw.mutex", RM_NSIM_SW_TICK},
    {"sw.event", RM_NSIM_SW_TICK},
    {"sw.mailbox", RM_NSIM_SW_TICK},
    {"sw.queue", RM_NSIM_SW_TICK},
    {"sw.fifo", RM_NSIM_SW_TICK},
    {"sw.lifo", RM_NSIM_SW_TICK},
    {"sw.stream", RM_NSIM_SW_TICK},
    {"sw.condvar", RM_NSIM_SW_TICK},
    {"sw.poll_signal", RM_NSIM_SW_TICK},
    {"sw.stack", RM_NSIM_SW_TICK},
    {"lat.jitter.periodic", RM_NSIM_STILL "the background threads never block: the "
                            "periodic thread's sleep never ends"},
    /* Its unit of work is timed with rm_spin: 0 here, then divided by. */
    {"app.schedulability", RM_NSIM_STILL "the case's unit of work (rm_spin) times as 0: "
                           "its workload levels cannot be derived"},
    {NULL, NULL},
};

static const char *withdrawn_reason;

static void withdrawn_body(void)
{
    rm_unsupported(withdrawn_reason);
}

rm_port_body_t rm_port_case_body(const char *id)
{
    for (const struct withdrawn *w = withdrawn; w->prefix != NULL; w++) {
        size_t n = strlen(w->prefix);
        if (strncmp(id, w->prefix, n) == 0 && (w->prefix[n - 1u] == '.' || id[n] == '\0')) {
            withdrawn_reason = w->reason;
            return withdrawn_body;
        }
    }
    return NULL;
}
