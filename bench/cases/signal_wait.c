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

static void sw_series(rm_obj_kind_t kind, bool tick)
{
    uint32_t n = tick ? TICK_SAMPLES : (uint32_t)(RM_SAMPLES);
    const rm_pass_t s1 = {(int)kind, RM_FOREVER, NULL, NULL, tick ? "s1.tick" : "s1",
                          "L's signal until H (waiting) runs", n, false, tick};
    const rm_pass_t s2 = {(int)kind, S2_TIMEOUT, tick ? "s2.tick" : "s2",
                          "H's wait (with timeout) until L runs", NULL, NULL, n, tick, false};
    if (!rm_pass_run(&s1) || !rm_pass_run(&s2)) {
        return;
    }
    rm_nocs_t s34 = {kind, tick ? "s3.tick" : "s3", "signal, nobody waiting",
                     tick ? "s4.tick" : "s4", "wait on a signalled object", n, tick};
    if (kind == RM_OBJ_CONDVAR) {
        s34.wait_name = NULL; /* reported once below */
    }
    (void)rm_nocs_run(&s34);
}

static void run_sw(const rm_case_t *c)
{
    rm_obj_kind_t kind = (rm_obj_kind_t)(uintptr_t)c->param;
    rm_meta("tick_samples", TICK_SAMPLES);
    if (kind == RM_OBJ_CONDVAR) {
        rm_meta_str("s4", "impossible: a condition variable has no state to be signalled");
    }
    sw_series(kind, false);
    if (!rm_case_failed()) {
        sw_series(kind, true);
    }
}

#define SW_NEEDS (RM_CAP_THREAD | RM_CAP_PREEMPTIVE)
#define KIND(k) ((const void *)(uintptr_t)(k))

RM_CASE(sw_sem, "sw.sem", SW_NEEDS | RM_CAP_SEM, run_sw, KIND(RM_OBJ_SEM));
RM_CASE(sw_mutex, "sw.mutex", SW_NEEDS | RM_CAP_MUTEX | RM_CAP_SUSPEND, run_sw, KIND(RM_OBJ_MUTEX));
RM_CASE(sw_event, "sw.event", SW_NEEDS | RM_CAP_EVENT, run_sw, KIND(RM_OBJ_EVENT));
RM_CASE(sw_mailbox, "sw.mailbox", SW_NEEDS | RM_CAP_MAILBOX, run_sw, KIND(RM_OBJ_MAILBOX));
RM_CASE(sw_queue, "sw.queue", SW_NEEDS | RM_CAP_QUEUE, run_sw, KIND(RM_OBJ_QUEUE));
RM_CASE(sw_fifo, "sw.fifo", SW_NEEDS | RM_CAP_FIFO, run_sw, KIND(RM_OBJ_FIFO));
RM_CASE(sw_lifo, "sw.lifo", SW_NEEDS | RM_CAP_LIFO, run_sw, KIND(RM_OBJ_LIFO));
RM_CASE(sw_stream, "sw.stream", SW_NEEDS | RM_CAP_STREAM, run_sw, KIND(RM_OBJ_STREAM));
RM_CASE(sw_msgbuf, "sw.msgbuf", SW_NEEDS | RM_CAP_MSGBUF, run_sw, KIND(RM_OBJ_MSGBUF));
RM_CASE(sw_notify, "sw.notify", SW_NEEDS | RM_CAP_NOTIFY, run_sw, KIND(RM_OBJ_NOTIFY));
RM_CASE(sw_condvar, "sw.condvar", SW_NEEDS | RM_CAP_CONDVAR, run_sw, KIND(RM_OBJ_CONDVAR));
RM_CASE(sw_thread_msg, "sw.thread_msg", SW_NEEDS | RM_CAP_THREAD_MSG, run_sw, KIND(RM_OBJ_THREAD_MSG));
RM_CASE(sw_thread_flags, "sw.thread_flags", SW_NEEDS | RM_CAP_THREAD_FLAGS, run_sw, KIND(RM_OBJ_THREAD_FLAGS));
RM_CASE(sw_poll_signal, "sw.poll_signal", SW_NEEDS | RM_CAP_POLL_SIGNAL, run_sw, KIND(RM_OBJ_POLL_SIGNAL));
