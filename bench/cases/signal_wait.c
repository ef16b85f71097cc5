/* Latency group "signal_wait": the four signal/wait scenarios for every IPC
 * object kind of port.h, one case per kind (sw.<kind>):
 *   s1 signal with switch: H waits forever, L signals; L's signal until H runs
 *   s2 wait with switch: H waits (timeout) on an object that is not ready,
 *      L is ready; H's wait until L runs
 *   s3 signal, no switch: the signal call alone, nobody waiting
 *   s4 wait, no switch: the wait on an already signalled object alone
 * Each also as s1.tick .. s4.tick: every signal/wait starts right after a
 * 1-tick sleep, so the kernel tick's interference shows (fewer samples:
 * each costs a tick). A scenario a kind cannot have is reported with
 * META <scenario>="impossible: ..." and skipped.
 */
#include "rm_pass.h"

#define S2_TIMEOUT 1000u /* ticks: s2 waits "with a timeout" that never expires */
#define TICK_SAMPLES ((uint32_t)(RM_SAMPLES) / 8u < 16u ? 16u : (uint32_t)(RM_SAMPLES) / 8u)

/* One kind's measured bodies, chosen by the case outside every interval. */
typedef struct sw_kind {
    rm_obj_kind_t kind;
    rm_entry_t a, b;
    bool (*nocs)(const rm_nocs_t *p);
} sw_kind_t;

#define SW_KIND(K, k)                                                      \
    RM_PASS_KIND(k, K)                                                     \
    RM_NOCS_KIND(k, K)                                                     \
    static const sw_kind_t sw_##k = {RM_OBJ_##K, pass_##k##_a, pass_##k##_b, nocs_##k};
RM_KINDS(SW_KIND)

static void sw_series(const sw_kind_t *k, bool tick)
{
    uint32_t n = tick ? TICK_SAMPLES : (uint32_t)(RM_SAMPLES);
    const rm_pass_t s1 = {k->kind, k->a, k->b, false, RM_FOREVER, NULL, NULL,
                          tick ? "s1.tick" : "s1", "L's signal until H (waiting) runs", n,
                          false, tick};
    const rm_pass_t s2 = {k->kind, k->a, k->b, false, S2_TIMEOUT, tick ? "s2.tick" : "s2",
                          "H's wait (with timeout) until L runs", NULL, NULL, n, tick, false};
    if (!rm_pass_run(&s1) || !rm_pass_run(&s2)) {
        return;
    }
    rm_nocs_t s34 = {tick ? "s3.tick" : "s3", "signal, nobody waiting",
                     tick ? "s4.tick" : "s4", "wait on a signalled object", n, tick};
    if (k->kind == RM_OBJ_CONDVAR) {
        s34.wait_name = NULL; /* reported once below */
    }
    (void)k->nocs(&s34);
}

static void run_sw(const rm_case_t *c)
{
    const sw_kind_t *k = c->param;
    rm_meta("tick_samples", TICK_SAMPLES);
    if (k->kind == RM_OBJ_CONDVAR) {
        rm_meta_str("s4", "impossible: a condition variable has no state to be signalled");
    }
    sw_series(k, false);
    if (!rm_case_failed()) {
        sw_series(k, true);
    }
}

#define SW_NEEDS (RM_CAP_THREAD | RM_CAP_PREEMPTIVE)

RM_CASE(sw_sem, "sw.sem", SW_NEEDS | RM_CAP_SEM, run_sw, &sw_sem);
RM_CASE(sw_mutex, "sw.mutex", SW_NEEDS | RM_CAP_MUTEX | RM_CAP_SUSPEND, run_sw, &sw_mutex);
RM_CASE(sw_event, "sw.event", SW_NEEDS | RM_CAP_EVENT, run_sw, &sw_event);
RM_CASE(sw_mailbox, "sw.mailbox", SW_NEEDS | RM_CAP_MAILBOX, run_sw, &sw_mailbox);
RM_CASE(sw_queue, "sw.queue", SW_NEEDS | RM_CAP_QUEUE, run_sw, &sw_queue);
RM_CASE(sw_fifo, "sw.fifo", SW_NEEDS | RM_CAP_FIFO, run_sw, &sw_fifo);
RM_CASE(sw_lifo, "sw.lifo", SW_NEEDS | RM_CAP_LIFO, run_sw, &sw_lifo);
RM_CASE(sw_stream, "sw.stream", SW_NEEDS | RM_CAP_STREAM, run_sw, &sw_stream);
RM_CASE(sw_msgbuf, "sw.msgbuf", SW_NEEDS | RM_CAP_MSGBUF, run_sw, &sw_msgbuf);
RM_CASE(sw_notify, "sw.notify", SW_NEEDS | RM_CAP_NOTIFY, run_sw, &sw_notify);
RM_CASE(sw_condvar, "sw.condvar", SW_NEEDS | RM_CAP_CONDVAR, run_sw, &sw_condvar);
RM_CASE(sw_thread_msg, "sw.thread_msg", SW_NEEDS | RM_CAP_THREAD_MSG, run_sw, &sw_thread_msg);
RM_CASE(sw_thread_flags, "sw.thread_flags", SW_NEEDS | RM_CAP_THREAD_FLAGS, run_sw, &sw_thread_flags);
RM_CASE(sw_poll_signal, "sw.poll_signal", SW_NEEDS | RM_CAP_POLL_SIGNAL, run_sw, &sw_poll_signal);
RM_CASE(sw_stack, "sw.stack", SW_NEEDS | RM_CAP_STACK, run_sw, &sw_stack);
