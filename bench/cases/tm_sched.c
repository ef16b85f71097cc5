/* Throughput group "tm_sched": the scheduler tests of Thread-Metric.
 * tm.cooperative: 5 equal-priority threads count and yield; a deterministic
 * round-robin keeps the 5 counters within 1 of their mean.
 * tm.preemptive: 5 threads at 5 priorities; the lowest resumes the next one
 * up, each counts, resumes the next and suspends itself, so control falls
 * back down the chain; the counters stay within 1 of their mean.
 */
#include "rm_case_util.h"

#define N_THREADS 5u

static volatile uint32_t cnt[N_THREADS];
static volatile bool stop;
static rm_thread_t threads[N_THREADS];

/* arg: the thread's index in cnt[] (an index, not a pointer: a pointer
 * to a volatile counter would lose its qualifier through void *). */
static void coop_thread(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    while (!stop) {
        cnt[i]++;
        (void)rm_thread_yield();
    }
    rm_park();
}

/* Both tests: start the 5 threads (thread i at base_prio + i * step), let
 * the reporter count periods, stop them, check the counters' spread. */
static void run_threads(rm_entry_t entry, int base_prio, int step)
{
    stop = false;
    for (unsigned i = 0; i < N_THREADS; i++) {
        cnt[i] = 0u;
        threads[i] = NULL;
    }
    rm_meta("threads", N_THREADS);
    for (unsigned i = 0; i < N_THREADS; i++) {
        int rc = rm_thread_create(&threads[i], "tm", entry, (void *)(uintptr_t)i,
                                  base_prio + (int)i * step, 0);
        if (rc != RM_OK) {
            rm_fatal("rm_thread_create", rc);
            stop = true;
            rm_delete_threads(threads, N_THREADS);
            return;
        }
    }
    uint32_t final[N_THREADS];
    rm_tm_report(cnt, N_THREADS, final);
    stop = true;
    rm_delete_threads(threads, N_THREADS);
    rm_tm_check_within_1("counters_within_1_of_mean", final, N_THREADS);
}

static void run_cooperative(const rm_case_t *c)
{
    (void)c;
    run_threads(coop_thread, RM_PRIO_MIN + 5, 0);
}

/* Thread i (0 = lowest priority). */
static void preempt_thread(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    if (i == 0u) {
        while (!stop) {
            cnt[0]++;
            (void)rm_thread_resume(threads[1]);
        }
        rm_park();
    }
    for (;;) {
        (void)rm_thread_suspend(rm_thread_self());
        if (stop) {
            rm_park();
        }
        cnt[i]++;
        if (i + 1u < N_THREADS) {
            (void)rm_thread_resume(threads[i + 1u]);
        }
    }
}

static void run_preemptive(const rm_case_t *c)
{
    (void)c;
    /* The higher threads run first and suspend themselves; then the lowest
     * starts the chain. Priorities RM_PRIO_MIN+1 .. RM_PRIO_MIN+5. */
    run_threads(preempt_thread, RM_PRIO_MIN + 1, 1);
}

RM_CASE(tm_cooperative, "tm.cooperative", RM_CAP_THREAD, run_cooperative, NULL);
RM_CASE(tm_preemptive, "tm.preemptive", RM_CAP_THREAD | RM_CAP_SUSPEND | RM_CAP_PREEMPTIVE, run_preemptive, NULL);
