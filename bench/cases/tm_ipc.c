/* Throughput group "tm_ipc": the kernel-object tests of Thread-Metric, one
 * thread each. tm.message: send a 16-byte message to a queue, receive it
 * back, check it is intact, count. tm.sync: take and give a semaphore,
 * count. tm.memory: allocate a 128-byte block from a fixed-block pool and
 * free it, count.
 */
#include "rm_case_util.h"

static volatile uint32_t cnt[1];
static volatile uint32_t bad_messages;
static volatile bool stop;
static rm_obj_t obj;
static rm_pool_t pool;
static rm_thread_t threads[1];

static void message_thread(void *arg)
{
    (void)arg;
    rm_msg_t out = {{0u, 0x11111111u, 0x22222222u, 0x33333333u}};
    rm_msg_t in;
    while (!stop) {
        out.w[0]++;
        if (rm_obj_signal(obj, &out) != RM_OK || rm_obj_wait(obj, &in, RM_FOREVER) != RM_OK) {
            rm_fail("queue send/receive failed");
            break;
        }
        if (in.w[0] != out.w[0] || in.w[1] != out.w[1] || in.w[2] != out.w[2] ||
            in.w[3] != out.w[3]) {
            bad_messages++;
        }
        cnt[0]++;
    }
    rm_park();
}

static void sync_thread(void *arg)
{
    (void)arg;
    while (!stop) {
        if (rm_obj_wait(obj, NULL, RM_FOREVER) != RM_OK || rm_obj_signal(obj, NULL) != RM_OK) {
            rm_fail("semaphore take/give failed");
            break;
        }
        cnt[0]++;
    }
    rm_park();
}

static void memory_thread(void *arg)
{
    (void)arg;
    void *blk;
    while (!stop) {
        if (rm_pool_alloc(pool, &blk) != RM_OK || rm_pool_free(pool, blk) != RM_OK) {
            rm_fail("pool alloc/free failed");
            break;
        }
        cnt[0]++;
    }
    rm_park();
}

/* One reporter for the three: start the thread, report, stop, delete. */
static void tm_one_thread(rm_entry_t body)
{
    stop = false;
    cnt[0] = 0u;
    threads[0] = NULL;
    RM_TRY(rm_thread_create(&threads[0], "tm", body, NULL, RM_PRIO_MIN + 1, 0));
    uint32_t final[1];
    rm_tm_report(cnt, 1u, final);
    stop = true;
    rm_delete_threads(threads, 1u);
}

static void run_message(const rm_case_t *c)
{
    (void)c;
    bad_messages = 0u;
    RM_TRY(rm_obj_create(&obj, RM_OBJ_QUEUE, NULL, 0u));
    tm_one_thread(message_thread);
    rm_delete_obj(&obj);
    rm_check("message_intact", bad_messages == 0u, bad_messages, 0u);
}

static void run_sync(const rm_case_t *c)
{
    (void)c;
    RM_TRY(rm_obj_create(&obj, RM_OBJ_SEM, NULL, 1u));
    tm_one_thread(sync_thread);
    rm_delete_obj(&obj);
}

static void run_memory(const rm_case_t *c)
{
    (void)c;
    if (pool == NULL) { /* port.h has no pool delete: one pool per firmware */
        RM_TRY(rm_pool_create(&pool, RM_BLOCK_SIZE, 4u));
    }
    tm_one_thread(memory_thread);
}

RM_CASE(tm_message, "tm.message", RM_CAP_THREAD | RM_CAP_QUEUE, run_message, NULL);
RM_CASE(tm_sync, "tm.sync", RM_CAP_THREAD | RM_CAP_SEM, run_sync, NULL);
RM_CASE(tm_memory, "tm.memory", RM_CAP_THREAD | RM_CAP_POOL, run_memory, NULL);
