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
 *
 * Under a cycle counter (--unit cycles, --as-board) the period is still the
 * kernel's tick, which runs in emulated time: "period" is then the
 * estimated cycles the core spent between two activations (one tick of
 * emulated time, not RM_TS_HZ / tick_hz: the reports keep it in cycles,
 * never converted at a clock, sample_units.TICK_SET), and the ideal is the
 * mean period of JITTER_WARM activations before the series (META
 * ideal_period_ts, ideal_from=warm-up mean). Where the tick falls in
 * cycles is not observable (the counter is read by our code only), so
 * "deviation" is each period's distance from that ideal, |period - ideal|:
 * how much estimated time a period gained or lost, bounded by the
 * activation's lateness on both sides rather than measured from a grid.
 */
#include "rm_case_util.h"

#define JITTER_PERIOD 1u /* ticks */
#define JITTER_WARM 32u /* activations that set the ideal under a cycle counter */
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

/* One period of A in counter ticks (what "ideal" means in the series); under
 * a cycle counter, measured by A (j_warm_up) before the series. */
static uint64_t ideal_period_ts(void)
{
    return (uint64_t)(RM_TS_HZ) * JITTER_PERIOD / rm_tick_hz();
}

/* Under a cycle counter: the mean cycles of JITTER_WARM periods of A, under
 * the same load, from the activation at *wake. */
static uint32_t j_warm_up(uint32_t *wake)
{
    uint32_t t0 = rm_ts();
    for (uint32_t i = 0; i < JITTER_WARM; i++) {
        (void)rm_thread_sleep_until(wake, JITTER_PERIOD);
    }
    return (rm_ts() - t0) / JITTER_WARM;
}

static void j_a(void *arg)
{
    (void)arg;
    rm_series_t period, dev;
    bool clock = rm_ts_is_clock();
    uint64_t ideal = clock ? ideal_period_ts() : 0u;
    rm_series_open_span(&period, "period", "time between two activations of A");
    rm_series_open_span(&dev, "deviation",
                        clock ? "|activation - ideal activation time| of A"
                              : "|period - ideal period| of A (estimated cycles)");
    uint32_t wake = rm_tick_count();
    (void)rm_thread_sleep_until(&wake, JITTER_PERIOD);
    if (!clock) {
        ideal = j_warm_up(&wake);
    }
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
            uint64_t periods = clock ? (wake - wake0) / JITTER_PERIOD : 1u;
            int64_t d = clock ? (int64_t)(uint32_t)(now - first) - (int64_t)(ideal * periods)
                              : (int64_t)(uint32_t)(now - last) - (int64_t)ideal;
            rm_series_add(&dev, (uint32_t)(d < 0 ? -d : d));
            n++;
        }
        last = now;
    }
    rm_series_close(&period);
    rm_series_close(&dev);
    if (!clock) { /* the ideal A measured: the mean of its warm-up */
        rm_meta("ideal_period_ts", (uint32_t)ideal);
        rm_meta_str("ideal_from", "warm-up mean (cycles of a tick of emulated time)");
    }
    j_stop = true;
    rm_finish();
}

static void run_jitter(const rm_case_t *c)
{
    (void)c;
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
    if (rm_ts_is_clock()) { /* else A measures it (j_warm_up) and writes it after the series */
        rm_meta("ideal_period_ts", (uint32_t)ideal_period_ts());
    }
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
