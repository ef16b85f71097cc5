/* Latency group "lat_jitter": lat.jitter.periodic. A runs every P kernel
 * ticks (drift-free sleep_until); under it, a suspend/resume pair (B1, B2,
 * as in lat.suspend_resume) and C, which gives and takes its own semaphore,
 * keep the kernel busy (B2 and C share the lowest priority and yield to each
 * other so both run). Series "period": time between two activations of A;
 * "deviation": |activation - ideal time| with the ideal derived from the
 * first activation, the kernel ticks since and the counter's declared
 * frequency.
 *
 * Both series span the measurement (rm_series_open_span): a record written
 * between two activations would lie inside the next period (a 256-sample
 * record takes some 100,000 instructions, six ticks at 1 kHz), so A writes
 * them only when a buffer is full, and then resumes on the next period
 * boundary: that activation is not a sample (its period holds the pause),
 * and the deviations stay on the grid of the first activation.
 */
#include "rm_case_util.h"

#define JITTER_PERIOD 1u /* ticks */
#define JITTER_SAMPLES ((uint32_t)(RM_SAMPLES) < 1000u ? (uint32_t)(RM_SAMPLES) : 1000u)

static rm_thread_t j_threads[4]; /* B2 (resumes B1), C, B1, A */
static rm_obj_t j_sem;
static volatile bool j_stop;

static void j_b1(void *arg) /* suspends itself, B2 resumes it */
{
    (void)arg;
    for (;;) {
        (void)rm_thread_suspend(j_threads[2]);
        if (j_stop) {
            rm_park();
        }
    }
}

static void j_b2(void *arg)
{
    (void)arg;
    while (!j_stop) {
        (void)rm_thread_resume(j_threads[2]);
        (void)rm_thread_yield();
    }
    rm_park();
}

static void j_c(void *arg)
{
    (void)arg;
    while (!j_stop) {
        (void)rm_sem_signal(j_sem, NULL);
        (void)rm_sem_wait(j_sem, NULL, RM_FOREVER);
        (void)rm_thread_yield();
    }
    rm_park();
}

/* One period of A in counter ticks (what "ideal" means in the series). */
static uint64_t ideal_period_ts(void)
{
    return (uint64_t)(RM_TS_HZ) * JITTER_PERIOD / rm_tick_hz();
}

static void j_a(void *arg)
{
    (void)arg;
    rm_series_t period, dev;
    uint64_t ideal = ideal_period_ts();
    rm_series_open_span(&period, "period", "time between two activations of A");
    rm_series_open_span(&dev, "deviation", "|activation - ideal activation time| of A");
    uint32_t wake = rm_tick_count();
    (void)rm_thread_sleep_until(&wake, JITTER_PERIOD);
    uint32_t first = rm_ts(), last = first, wake0 = wake;
    for (uint32_t n = 0; n < JITTER_SAMPLES && !rm_case_failed();) {
        bool pause = rm_series_full(&period);
        if (pause) { /* write, then resume on the next boundary of the grid */
            rm_series_flush(&period);
            rm_series_flush(&dev);
            int32_t behind = (int32_t)(rm_tick_count() - wake);
            wake += behind > 0 ? (uint32_t)behind / JITTER_PERIOD * JITTER_PERIOD : 0u;
        }
        if (rm_thread_sleep_until(&wake, JITTER_PERIOD) != RM_OK) {
            rm_fail("rm_thread_sleep_until failed");
            break;
        }
        uint32_t now = rm_ts();
        if (!pause) {
            rm_series_add(&period, now - last);
            uint64_t periods = (wake - wake0) / JITTER_PERIOD;
            int64_t d = (int64_t)(uint32_t)(now - first) - (int64_t)(ideal * periods);
            rm_series_add(&dev, (uint32_t)(d < 0 ? -d : d));
            n++;
        }
        last = now;
    }
    rm_series_close(&period);
    rm_series_close(&dev);
    j_stop = true;
    rm_finish();
}

static void run_jitter(const rm_case_t *c)
{
    (void)c;
    if (!rm_ts_is_clock()) { /* the deviation series is from an ideal in RM_TS_HZ */
        rm_unsupported(RM_TS_NOT_A_CLOCK);
        return;
    }
    if (rm_tick_hz() == 0u) {
        rm_unsupported("port has no kernel tick rate");
        return;
    }
    j_stop = false;
    for (unsigned i = 0; i < 4u; i++) {
        j_threads[i] = NULL;
    }
    RM_TRY(rm_obj_create(&j_sem, RM_OBJ_SEM, NULL, 0u));
    rm_meta("period_ticks", JITTER_PERIOD);
    rm_meta("ideal_period_ts", (uint32_t)ideal_period_ts());
    int rc = rm_thread_create(&j_threads[3], "A", j_a, NULL, RM_PRIO_MIN + 4, 0);
    if (rc == RM_OK) {
        rc = rm_thread_create(&j_threads[2], "B1", j_b1, NULL, RM_PRIO_MIN + 2, 0);
    }
    if (rc == RM_OK) {
        rc = rm_thread_create(&j_threads[1], "C", j_c, NULL, RM_PRIO_MIN + 1, 0);
    }
    if (rc == RM_OK) {
        rc = rm_thread_create(&j_threads[0], "B2", j_b2, NULL, RM_PRIO_MIN + 1, 0);
    }
    if (rc == RM_OK) {
        rm_case_wait_done();
    } else {
        rm_fatal("rm_thread_create", rc);
    }
    j_stop = true;
    rm_delete_threads(j_threads, 4u);
    rm_delete_obj(&j_sem);
}

RM_CASE(jitter_periodic, "lat.jitter.periodic", RM_CAP_THREAD | RM_CAP_SUSPEND | RM_CAP_SEM | RM_CAP_SLEEP_UNTIL | RM_CAP_PREEMPTIVE, run_jitter, NULL);
