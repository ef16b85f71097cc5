/* Throughput group "tm_ipc": the kernel-object tests of Thread-Metric, one
 * thread each, with Thread-Metric's loop bodies (thread_metric_readme.txt,
 * tm_*_test.c): what a loop checks is what Thread-Metric checks, no more.
 *   tm.message: send a 16-byte message to a queue and receive it back (both
 *     without waiting); stop if the last word differs; increment the last
 *     word; count. The whole message is compared once, after the run.
 *   tm.sync: take a semaphore, give it (the give's status is checked), count.
 *   tm.memory: allocate a 128-byte block from a fixed-block pool, free it
 *     (the free's status is checked), count.
 * The loops call Thread-Metric's services through rtosmeter's porting layer
 * (bench/core/tm_porting_layer.c: real functions in their own translation
 * unit, as Thread-Metric's rules require), by object id as tm_api.h does.
 * The loops run for ever (no stop flag): the runner stops the thread after
 * the report (rm_stop_threads). A failed check ends the loop and parks the
 * thread; the count then stands still and the case fails.
 */
#include "rm_case_util.h"

/* The loops' state in one place: one address reaches the count and the
 * messages, as with Thread-Metric's globals (separate statics cost the
 * message loop a second literal load per iteration). */
static struct {
    rm_msg_t sent, received;
    volatile uint32_t cnt[1];
} st;
static volatile bool failed;

static void message_thread(void *arg)
{
    (void)arg;
    for (;;) {
        (void)tm_queue_send(0, &st.sent);
        (void)tm_queue_receive(0, &st.received);
        if (st.received.w[3] != st.sent.w[3]) {
            break;
        }
        st.sent.w[3]++;
        st.cnt[0]++;
    }
    failed = true;
    rm_park();
}

static void sync_thread(void *arg)
{
    (void)arg;
    for (;;) {
        (void)tm_semaphore_get(0);
        if (tm_semaphore_put(0) != TM_SUCCESS) {
            break;
        }
        st.cnt[0]++;
    }
    failed = true;
    rm_park();
}

static void memory_thread(void *arg)
{
    (void)arg;
    void *blk = NULL;
    for (;;) {
        (void)tm_memory_pool_allocate(0, &blk);
        if (tm_memory_pool_deallocate(0, blk) != TM_SUCCESS) {
            break;
        }
        st.cnt[0]++;
    }
    failed = true;
    rm_park();
}

/* One reporter for the three: start the thread, report, stop, delete. */
static void tm_one_thread(rm_entry_t body, const char *what_failed)
{
    failed = false;
    st.cnt[0] = 0u;
    tm_thread_array[0] = NULL;
    RM_TRY(rm_thread_create(&tm_thread_array[0], "tm", body, NULL, RM_PRIO_MIN + 1, 0));
    uint32_t final[1];
    rm_tm_report(st.cnt, 1u, final);
    rm_stop_threads(tm_thread_array, 1u);
    if (failed) {
        rm_fail(what_failed);
    }
}

static void run_message(const rm_case_t *c)
{
    (void)c;
    const rm_msg_t first = {{0x11112222u, 0x33334444u, 0x55556666u, 0x77778888u}};
    st.sent = first;
    RM_TRY(tm_queue_create(0));
    tm_one_thread(message_thread, "a received message's last word differed from the sent one");
    rm_delete_obj(&tm_queue_array[0]);
    /* The full comparison, once: the last message received is the last one
     * sent (the thread was stopped after its increment, or before it). */
    uint32_t lag = st.sent.w[3] - st.received.w[3];
    bool intact = st.received.w[0] == first.w[0] && st.received.w[1] == first.w[1] &&
                  st.received.w[2] == first.w[2] && lag <= 1u;
    rm_check("message_intact", intact, intact ? 0u : 1u, 0u);
}

static void run_sync(const rm_case_t *c)
{
    (void)c;
    RM_TRY(tm_semaphore_create(0));
    tm_one_thread(sync_thread, "semaphore give failed");
    rm_delete_obj(&tm_semaphore_array[0]);
}

static void run_memory(const rm_case_t *c)
{
    (void)c;
    RM_TRY(tm_memory_pool_create(0)); /* once per firmware: port.h has no pool delete */
    tm_one_thread(memory_thread, "pool free failed");
}

RM_CASE(tm_message, "tm.message", RM_CAP_THREAD | RM_CAP_QUEUE, run_message, NULL);
RM_CASE(tm_sync, "tm.sync", RM_CAP_THREAD | RM_CAP_SEM, run_sync, NULL);
RM_CASE(tm_memory, "tm.memory", RM_CAP_THREAD | RM_CAP_POOL, run_memory, NULL);
