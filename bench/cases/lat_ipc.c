/* Latency group "lat_ipc": semaphore, queue and mutex, each without a
 * context switch (".nocs": the call alone) and with one (".pass": A blocks,
 * B releases), plus lat.mutex.inheritance (Rhealstone's deadlock break).
 */
#include "rm_pass.h"

RM_PASS_KIND(sem, SEM)
RM_NOCS_KIND(sem, SEM)
RM_PASS_KIND(queue, QUEUE)
RM_NOCS_KIND(queue, QUEUE)
RM_PASS_KIND(mutex, MUTEX)
RM_NOCS_KIND(mutex, MUTEX)

static void run_sem_nocs(const rm_case_t *c)
{
    (void)c;
    const rm_nocs_t p = {.signal_name = "give", .signal_what = "give, no task waiting",
                         .wait_name = "take", .wait_what = "take of an available semaphore",
                         .samples = RM_SAMPLES, .tick = false};
    (void)nocs_sem(&p);
}

static void run_sem_pass(const rm_case_t *c)
{
    (void)c;
    const rm_pass_t p = {.kind = RM_OBJ_SEM, .a = pass_sem_a, .b = pass_sem_b, .suspend = false,
                         .timeout = RM_FOREVER, .block_name = "take",
                         .block_what = "A's take (blocks) until B runs",
                         .release_name = "give", .release_what = "B's give until A runs",
                         .samples = RM_SAMPLES, .tick_block = false, .tick_release = false};
    (void)rm_pass_run(&p);
}

static void run_queue_nocs(const rm_case_t *c)
{
    (void)c;
    const rm_nocs_t p = {.signal_name = "send", .signal_what = "send 16 B to an empty queue",
                         .wait_name = "receive", .wait_what = "receive 16 B from the queue",
                         .samples = RM_SAMPLES, .tick = false};
    (void)nocs_queue(&p);
}

static void run_queue_pass(const rm_case_t *c)
{
    (void)c;
    const rm_pass_t p = {.kind = RM_OBJ_QUEUE, .a = pass_queue_a, .b = pass_queue_b, .suspend = false,
                         .timeout = RM_FOREVER, .block_name = "receive",
                         .block_what = "A's receive (blocks) until B runs",
                         .release_name = "send", .release_what = "B's send until A runs",
                         .samples = RM_SAMPLES, .tick_block = false, .tick_release = false};
    (void)rm_pass_run(&p);
}

static void run_mutex_nocs(const rm_case_t *c)
{
    (void)c;
    const rm_nocs_t p = {.signal_name = "unlock", .signal_what = "unlock, nobody waiting",
                         .wait_name = "lock", .wait_what = "lock of a free mutex",
                         .samples = RM_SAMPLES, .tick = false};
    (void)nocs_mutex(&p);
}

/* The lock and unlock that most published mutex figures time (Zephyr's
 * latency_measure, vendors' tables): of a mutex the runner already holds,
 * each lock nesting one level deeper. */
static void run_mutex_recursive(const rm_case_t *c)
{
    (void)c;
    const rm_nocs_t p = {.signal_name = "unlock", .signal_what = "unlock of a nested lock",
                         .wait_name = "lock", .wait_what = "lock of a mutex the runner holds",
                         .samples = RM_SAMPLES, .tick = false};
    (void)rm_nocs_body(&p, RM_OBJ_MUTEX, rm_mutex_signal_raw, rm_mutex_signal_rc,
                       rm_mutex_wait_raw, rm_mutex_wait_rc, true);
}

static void run_mutex_pass(const rm_case_t *c)
{
    (void)c;
    const rm_pass_t p = {.kind = RM_OBJ_MUTEX, .a = pass_mutex_a, .b = pass_mutex_b, .suspend = false,
                         .timeout = RM_FOREVER, .block_name = "lock",
                         .block_what = "A's lock (B holds it) until B runs",
                         .release_name = "unlock", .release_what = "B's unlock until A runs",
                         .samples = RM_SAMPLES, .tick_block = false, .tick_release = false};
    (void)rm_pass_run(&p);
}

/* ---- lat.mutex.inheritance -------------------------------------------- */
/* L (low) holds the mutex and resumes H; H makes M (medium) ready, then
 * requests the mutex: L must run next with H's priority (not M), unlock,
 * and H runs. M counts its runs; they must not change in between. */
static rm_thread_t inh_threads[3]; /* L, M, H */
static rm_obj_t inh_mutex;
static rm_series_t inh_req, inh_unl;
static volatile uint32_t inh_t0, inh_t2, inh_m_runs, inh_violations, inh_min_prio;
static volatile bool inh_stop;

static void inh_low(void *arg)
{
    (void)arg;
    rm_obj_t mutex = inh_mutex;
    while (!inh_stop) {
        if (rm_mutex_wait(mutex, NULL, RM_FOREVER) != RM_OK) {
            rm_fail("mutex lock (L) failed");
            rm_finish();
        }
        (void)rm_thread_resume(inh_threads[2]); /* H runs, blocks on the mutex */
        uint32_t t1 = rm_ts();
        rm_series_add(&inh_req, t1 - inh_t0);
        if ((RM_PORT_CAPS & RM_CAP_PRIO_QUERY) != 0) {
            int p = rm_thread_priority(inh_threads[0]);
            if ((uint32_t)p < inh_min_prio) {
                inh_min_prio = (uint32_t)p;
            }
        }
        inh_t2 = rm_ts();
        (void)rm_mutex_signal(mutex, NULL); /* H runs */
    }
    rm_park();
}

static void inh_medium(void *arg)
{
    (void)arg;
    for (;;) {
        (void)rm_thread_suspend(inh_threads[1]);
        inh_m_runs++;
    }
}

static void inh_high(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < (uint32_t)(RM_SAMPLES); i++) {
        (void)rm_thread_suspend(inh_threads[2]); /* until L holds the mutex */
        uint32_t m = inh_m_runs;
        rm_obj_t mutex = inh_mutex;
        (void)rm_thread_resume(inh_threads[1]); /* M ready, not running */
        inh_t0 = rm_ts();
        rm_raw_t raw = rm_mutex_wait_raw(mutex, NULL, RM_FOREVER);
        uint32_t t3 = rm_ts();
        RM_SETTLE_RAW(raw);
        if (rm_mutex_wait_rc(raw, RM_FOREVER) != RM_OK) {
            rm_fail("mutex lock (H) failed");
            break;
        }
        rm_series_add(&inh_unl, t3 - inh_t2);
        if (inh_m_runs != m) {
            inh_violations++;
        }
        (void)rm_mutex_signal(inh_mutex, NULL);
    }
    inh_stop = true;
    rm_finish();
}

static void run_mutex_inheritance(const rm_case_t *c)
{
    (void)c;
    inh_stop = false;
    inh_m_runs = inh_violations = 0u;
    inh_min_prio = 0xFFFFFFFFu;
    inh_threads[0] = inh_threads[1] = inh_threads[2] = NULL;
    const int pl = RM_PRIO_MIN + 1, pm = RM_PRIO_MIN + 2, ph = RM_PRIO_MIN + 3;
    RM_TRY(rm_obj_create(&inh_mutex, RM_OBJ_MUTEX, NULL, 0u));
    int rc = rm_thread_create(&inh_threads[2], "H", inh_high, NULL, ph, 0);
    if (rc == RM_OK) {
        rc = rm_thread_create(&inh_threads[1], "M", inh_medium, NULL, pm, 0);
    }
    if (rc == RM_OK) {
        rc = rm_thread_create(&inh_threads[0], "L", inh_low, NULL, pl, 0);
    }
    if (rc == RM_OK) {
        rm_series_open(&inh_req, "request", "H's lock request until L runs (inherited)");
        rm_series_open(&inh_unl, "unlock", "L's unlock until H runs");
        rm_case_wait_done();
        rm_series_close(&inh_req);
        rm_series_close(&inh_unl);
    } else {
        rm_fatal("rm_thread_create", rc);
    }
    inh_stop = true;
    rm_delete_threads(inh_threads, 3u);
    rm_delete_obj(&inh_mutex);
    rm_check("medium_did_not_run", inh_violations == 0u, inh_violations, 0u);
    if ((RM_PORT_CAPS & RM_CAP_PRIO_QUERY) != 0) {
        rm_check("low_inherited_high_priority", inh_min_prio >= (uint32_t)ph, inh_min_prio,
                 (uint32_t)ph);
    }
}

RM_CASE(sem_nocs, "lat.sem.nocs", RM_CAP_SEM, run_sem_nocs, NULL);
RM_CASE(sem_pass, "lat.sem.pass", RM_CAP_THREAD | RM_CAP_SEM | RM_CAP_PREEMPTIVE, run_sem_pass, NULL);
RM_CASE(queue_nocs, "lat.queue.nocs", RM_CAP_QUEUE, run_queue_nocs, NULL);
RM_CASE(queue_pass, "lat.queue.pass", RM_CAP_THREAD | RM_CAP_QUEUE | RM_CAP_PREEMPTIVE, run_queue_pass, NULL);
RM_CASE(mutex_nocs, "lat.mutex.nocs", RM_CAP_MUTEX, run_mutex_nocs, NULL);
RM_CASE(mutex_recursive, "lat.mutex.recursive", RM_CAP_MUTEX | RM_CAP_MUTEX_RECURSIVE, run_mutex_recursive, NULL);
RM_CASE(mutex_pass, "lat.mutex.pass", RM_CAP_THREAD | RM_CAP_MUTEX | RM_CAP_SUSPEND | RM_CAP_PREEMPTIVE, run_mutex_pass, NULL);
RM_CASE(mutex_inheritance, "lat.mutex.inheritance", RM_CAP_THREAD | RM_CAP_MUTEX | RM_CAP_MUTEX_INHERIT | RM_CAP_SUSPEND | RM_CAP_PREEMPTIVE, run_mutex_inheritance, NULL);
