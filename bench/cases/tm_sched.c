/* Throughput group "tm_sched": the scheduler tests of Thread-Metric.
 * tm.cooperative: 5 equal-priority threads count and yield; a deterministic
 * round-robin keeps the 5 counters within 1 of their mean.
 * tm.preemptive: 5 threads at 5 priorities; the lowest resumes the next one
 * up, each counts, resumes the next and suspends itself, so control falls
 * back down the chain; the counters stay within 1 of their mean.
 * Loop bodies as in Thread-Metric's tm_cooperative_scheduling_test.c and
 * tm_preemptive_scheduling_test.c, calling Thread-Metric's services through
 * rtosmeter's porting layer (bench/core/tm_porting_layer.c: real functions
 * in their own translation unit, as Thread-Metric's rules require); they run
 * for ever, and the runner stops them after the report (rm_stop_threads).
 */
#include "rm_case_util.h"

#define N_THREADS 5u
_Static_assert(N_THREADS <= TM_MAX_THREADS, "the porting layer holds TM_MAX_THREADS");

static volatile uint32_t cnt[N_THREADS];

/* arg: the thread's index in cnt[] (an index, not a pointer: a pointer
 * to a volatile counter would lose its qualifier through void *). */
static void coop_thread(void *arg)
{
    volatile uint32_t *mine = &cnt[(uintptr_t)arg];
    for (;;) {
        tm_thread_relinquish();
        (*mine)++;
    }
}

/* Both tests: create the 5 threads (thread i at base_prio + i * step; all
 * but thread 0 suspended when `chain`), let the reporter count periods,
 * stop them, check the counters' spread. */
static void run_threads(rm_entry_t entry, int base_prio, int step, bool chain)
{
    for (unsigned i = 0; i < N_THREADS; i++) {
        cnt[i] = 0u;
        tm_thread_array[i] = NULL;
    }
    rm_meta("threads", N_THREADS);
    for (unsigned i = 0; i < N_THREADS; i++) {
        unsigned flags = chain && i > 0u ? RM_THREAD_SUSPENDED : 0u;
        int rc = rm_thread_create(&tm_thread_array[i], "tm", entry, (void *)(uintptr_t)i,
                                  base_prio + (int)i * step, flags);
        if (rc != RM_OK) {
            rm_fatal("rm_thread_create", rc);
            rm_stop_threads(tm_thread_array, N_THREADS);
            return;
        }
    }
    uint32_t final[N_THREADS];
    rm_tm_report(cnt, N_THREADS, final);
    rm_stop_threads(tm_thread_array, N_THREADS);
    rm_tm_check_within_1("counters_within_1_of_mean", final, N_THREADS);
}

static void run_cooperative(const rm_case_t *c)
{
    (void)c;
    if (rm_yield_supported()) {
        run_threads(coop_thread, RM_PRIO_MIN + 5, 0, false);
    }
}

/* Thread i (0 = lowest priority): thread 0 resumes thread 1 and counts;
 * threads 1..3 resume the next one up, count and suspend themselves;
 * thread 4 counts and suspends itself. */
static void preempt_thread(void *arg)
{
    int i = (int)(uintptr_t)arg;
    volatile uint32_t *mine = &cnt[i];
    if (i == 0) {
        for (;;) {
            (void)tm_thread_resume(1);
            (*mine)++;
        }
    }
    if (i + 1 == (int)N_THREADS) {
        for (;;) {
            (*mine)++;
            (void)tm_thread_suspend(i);
        }
    }
    for (;;) {
        (void)tm_thread_resume(i + 1);
        (*mine)++;
        (void)tm_thread_suspend(i);
    }
}

static void run_preemptive(const rm_case_t *c)
{
    (void)c;
    /* Threads 1..4 start suspended, as in Thread-Metric: the lowest starts
     * the chain. Priorities RM_PRIO_MIN+1 .. RM_PRIO_MIN+5. */
    run_threads(preempt_thread, RM_PRIO_MIN + 1, 1, true);
}

RM_CASE(tm_cooperative, "tm.cooperative", RM_CAP_THREAD, run_cooperative, NULL);
RM_CASE(tm_preemptive, "tm.preemptive", RM_CAP_THREAD | RM_CAP_SUSPEND | RM_CAP_PREEMPTIVE, run_preemptive, NULL);
