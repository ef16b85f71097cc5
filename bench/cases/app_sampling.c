/* Application group "app_sampling": app.sampling, the sampling application
 * of the 2021 study (docs/benchmarks.md §5). The target's periodic
 * timer interrupt samples a "sensor" (a read of the timestamp counter, a
 * device register on every target) at rate f into a 50-sample buffer; a
 * full buffer goes to the processing task (a fixed computation over the
 * samples), whose result goes through a queue to the sending task, which
 * writes it to a transmit register (a volatile word standing for a device
 * FIFO, as in bench/core/load.c). Double buffering: the handler fills one
 * buffer while the processing task reads the other; a sample that finds
 * both taken is lost. An idle task at the lowest priority counts idle time
 * by reading the counter in a loop (no WFI: emulated time must not skip):
 * a loop delta within IDLE_GAP_FACTOR times its shortest is idle time, a
 * longer one was preempted (the handler, the tick, a task).
 *
 * For each rate of RATES_HZ, then a bisection between the last rate with no
 * lost sample and the first with one, the case reports per step (COUNT,
 * the step number as the period): rate_hz, lost samples, idle and window
 * time (counter ticks); for the rates 1 kHz, 10 kHz, 100 kHz and 1 MHz, the series handler.<f>hz (the
 * handler's first line to its last) and e2e.<f>hz (the last sample of a buffer
 * until the sending task has written its result). META max_rate_hz: the
 * highest rate with no lost sample (loss_found 0: none lost up to the
 * fastest rate the timer can raise, a lower bound).
 *
 * Priorities: processing above sending above idle; the runner (the most
 * urgent) waits on a semaphore the sending task gives after the last buffer.
 *
 * A rate whose handler path (the kernel's dispatch included) is longer than
 * the period leaves no time to any task: the interrupt is pending again as
 * it returns, the processing task never frees a buffer and the runner never
 * sees its timeout (NuttX's dispatch on mps2-an500 under -icount at 200 kHz).
 * So the handler ends the step itself once it has lost STORM_LOST samples
 * (a whole step's worth); the step then counts as starved, like a timeout.
 * The check is on the loss path only: a step without loss runs as before.
 *
 * Under a cycle counter (--unit cycles, --as-board) the timer still samples
 * in emulated time: rate_hz is the timer's rate in emulated time (a period
 * of RM_TS_HZ / f timestamp units is 1 / f s of emulated time on every
 * target), and each step also gives est_hz, the samples per second of
 * estimated time (samples x RM_TS_HZ / the step's window in cycles); META
 * max_rate_hz is the best step's est_hz (rate_time=estimated) and timer_hz
 * its rate_hz. idle_ticks, window_ticks and the series are cycles.
 */
#include "rm_case_util.h"

#define BUF_SAMPLES 50u
#define BUFFERS_PER_STEP 10u /* buffers handed over per rate */
#define PROC_WORK 200u       /* rm_spin units: the processing task's computation */
#define BISECT_STEPS 8u
#define IDLE_GAP_FACTOR 2u
#define SAMPLING_CAPS (RM_CAP_THREAD | RM_CAP_SEM | RM_CAP_QUEUE | RM_CAP_ISR_SIGNAL | RM_CAP_PREEMPTIVE)
#define H_SAMPLES 512u /* handler times kept per step (the first ones) */
#define STORM_LOST (BUFFERS_PER_STEP * BUF_SAMPLES) /* the handler ends a step here */

static const uint32_t RATES_HZ[] = {1000u,   2000u,   5000u,   10000u,  20000u,
                                    50000u,  100000u, 200000u, 500000u, 1000000u};

static uint32_t buf[2][BUF_SAMPLES];
static volatile uint32_t fill_idx, fill_n; /* the buffer the handler fills, and how far */
static volatile bool spare_free;           /* the other buffer is the handler's to take */
static volatile uint32_t full_idx, t_full; /* the buffer handed over; its last sample's time */
static volatile uint32_t samples, lost, handed, sent, h_n;
static volatile bool step_on, starved; /* starved: the handler ended the step */
static uint32_t h_time[H_SAMPLES];
static uint32_t e2e_time[BUFFERS_PER_STEP];
static volatile uint32_t idle_ticks, idle_gap;
static volatile uint32_t sampling_tx; /* the transmit register */
static rm_obj_t full_sem, step_done, result_q;
static rm_thread_t threads[3]; /* sender, processing, idle */

/* Hand the full buffer to the processing task (the spare is free). */
static inline __attribute__((always_inline)) void hand_over(void)
{
    spare_free = false;
    full_idx = fill_idx;
    fill_idx ^= 1u;
    fill_n = 0u;
    if (++handed == BUFFERS_PER_STEP) {
        step_on = false;
        rm_target_periodic_stop();
    }
    (void)rm_isr_sem_signal(full_sem);
}

RM_ISR(on_sample)
{
    uint32_t t0 = rm_ts();
    uint32_t value = rm_ts(); /* the sensor register */
    if (!step_on)
        return;
    samples++;
    if (fill_n == BUF_SAMPLES) { /* still full: the spare was taken */
        if (!spare_free) {
            if (++lost == STORM_LOST) { /* no task runs any more: end the step */
                step_on = false;
                starved = true;
                rm_target_periodic_stop();
                (void)rm_isr_sem_signal(step_done);
            }
            return;
        }
        hand_over();
    }
    if (step_on) {
        buf[fill_idx][fill_n] = value;
        if (++fill_n == BUF_SAMPLES) {
            t_full = t0;
            if (spare_free)
                hand_over();
        }
    }
    uint32_t n = h_n;
    if (n < H_SAMPLES) {
        h_time[n] = rm_ts() - t0;
        h_n = n + 1u;
    }
}

static void processing_task(void *arg)
{
    (void)arg;
    for (;;) {
        if (rm_sem_wait(full_sem, NULL, RM_FOREVER) != RM_OK)
            continue;
        const uint32_t *s = buf[full_idx];
        rm_msg_t m = {{handed, t_full, 0u, 0u}};
        uint32_t lo = UINT32_MAX, hi = 0u;
        for (uint32_t i = 0; i < BUF_SAMPLES; i++) {
            m.w[2] += s[i];
            lo = s[i] < lo ? s[i] : lo;
            hi = s[i] > hi ? s[i] : hi;
        }
        m.w[3] = hi - lo;
        rm_spin(PROC_WORK);
        spare_free = true; /* done with the samples: the handler may refill it */
        (void)rm_queue_signal(result_q, &m);
    }
}

static void sending_task(void *arg)
{
    (void)arg;
    for (;;) {
        rm_msg_t m;
        rm_raw_t raw = rm_queue_wait_raw(result_q, &m, RM_FOREVER);
        uint32_t now = rm_ts(); /* the end of the sample's way, before the status test */
        RM_SETTLE_RAW(raw);
        if (rm_queue_wait_rc(raw, RM_FOREVER) != RM_OK)
            continue;
        for (uint32_t i = 0; i < RM_MSG_SIZE / sizeof(uint32_t); i++)
            sampling_tx = m.w[i];
        uint32_t k = sent;
        if (k < BUFFERS_PER_STEP)
            e2e_time[k] = now - m.w[1];
        sent = k + 1u;
        if (k + 1u == BUFFERS_PER_STEP)
            (void)rm_sem_signal(step_done, NULL);
    }
}

/* The idle loop, shared by the idle task and its calibration: counts the
 * loop deltas up to idle_gap, returns the shortest delta seen. */
__attribute__((noinline)) static uint32_t idle_loop(uint32_t iterations)
{
    uint32_t last = rm_ts(), shortest = UINT32_MAX;
    for (uint32_t i = 0; i < iterations; i++) {
        uint32_t t = rm_ts();
        uint32_t d = t - last;
        last = t;
        shortest = i != 0u && d < shortest ? d : shortest; /* the first holds the set-up */
        idle_ticks += d <= idle_gap ? d : 0u; /* no branch: every pass is as long */
    }
    return shortest;
}

/* Stopped by a flag before it is deleted, as every spinning case thread:
 * on POSIX a delete completes at the thread's next blocking call. */
static volatile bool idle_stop;

static void idle_task(void *arg)
{
    (void)arg;
    while (!idle_stop)
        (void)idle_loop(1024u);
    rm_park();
}

/* "handler.1000hz" and the like. */
static const char *hz_name(const char *base, uint32_t hz)
{
    static char name[32];
    char digits[10];
    unsigned n = 0, k = 0;
    do {
        digits[n++] = (char)('0' + hz % 10u);
        hz /= 10u;
    } while (hz != 0u && n < sizeof digits);
    while (*base != '\0' && k < sizeof name - sizeof digits - 4u)
        name[k++] = *base++;
    name[k++] = '.';
    while (n > 0u)
        name[k++] = digits[--n];
    name[k++] = 'h';
    name[k++] = 'z';
    name[k] = '\0';
    return name;
}

/* After a step that timed out: let the tasks finish what they hold, then
 * empty the semaphores and the queue, so the next step starts clean. */
static void sampling_drain(void)
{
    (void)rm_thread_sleep(10u);
    while (rm_sem_wait(full_sem, NULL, RM_NO_WAIT) == RM_OK) {
    }
    rm_msg_t m;
    while (rm_queue_wait(result_q, &m, RM_NO_WAIT) == RM_OK) {
    }
    (void)rm_thread_sleep(2u);
    while (rm_sem_wait(step_done, NULL, RM_NO_WAIT) == RM_OK) {
    }
}

static uint32_t last_window; /* the last step's window (counter ticks) */

static uint32_t step_est_hz(void)
{
    return (uint32_t)((uint64_t)samples * (RM_TS_HZ) / (last_window ? last_window : 1u));
}

/* One rate: true when it ran (lost, idle, window filled in). */
static bool sampling_step(uint32_t hz, uint32_t step, bool series)
{
    uint32_t period = (uint32_t)(RM_TS_HZ) / hz;
    fill_idx = 0u;
    fill_n = 0u;
    spare_free = true;
    samples = lost = handed = sent = h_n = 0u;
    starved = false;
    step_on = true;
    uint32_t t0 = rm_ts();
    /* A snapshot, not a reset: the idle task may be preempted between
     * reading and writing back the sum, and would undo a reset. */
    uint32_t idle0 = idle_ticks;
    if (rm_target_periodic_start(period, on_sample) != 0) {
        step_on = false;
        return false;
    }
    uint32_t timeout = rm_tick_hz() != 0u ? 2u * rm_tick_hz() : 2000u; /* two seconds */
    int rc = rm_sem_wait(step_done, NULL, timeout);
    uint32_t window = rm_ts() - t0, idle = idle_ticks - idle0;
    if (!rm_ts_is_clock())
        last_window = window;
    if (rc == RM_ETIMEOUT || (rc == RM_OK && starved)) {
        /* the handler starved the tasks: every buffer not sent is lost */
        step_on = false;
        rm_target_periodic_stop();
        lost += (BUFFERS_PER_STEP - sent) * BUF_SAMPLES;
        sampling_drain();
    } else if (rc != RM_OK) {
        rm_target_periodic_stop();
        rm_fatal("wait for the last buffer of a rate step", rc);
        return false;
    }
    rm_count("rate_hz", step, hz);
    rm_count("samples", step, samples);
    rm_count("lost", step, lost);
    rm_count("idle_ticks", step, idle);
    rm_count("window_ticks", step, window);
    if (!rm_ts_is_clock()) /* samples per second of estimated time */
        rm_count("est_hz", step, step_est_hz());
    if (series) {
        rm_series_t s;
        /* a series holds at most RM_SAMPLES (HELLO announces it) */
        uint32_t n = h_n < (uint32_t)(RM_SAMPLES) ? h_n : (uint32_t)(RM_SAMPLES);
        rm_series_open(&s, hz_name("handler", hz), "the sampling handler, first line to last");
        for (uint32_t i = 0; i < n; i++)
            rm_series_add(&s, h_time[i]);
        rm_series_close(&s);
        rm_series_open(&s, hz_name("e2e", hz), "last sample of a buffer until its result "
                                                "is written by the sending task");
        for (uint32_t i = 0; i < BUFFERS_PER_STEP; i++)
            rm_series_add(&s, e2e_time[i]);
        rm_series_close(&s);
    }
    return true;
}

static void sampling_search(void)
{
    uint32_t step = 0u, best = 0u, worst = 0u, best_est = 0u;
    for (size_t i = 0; i < sizeof RATES_HZ / sizeof RATES_HZ[0] && !rm_case_failed(); i++) {
        uint32_t hz = RATES_HZ[i];
        if ((uint32_t)(RM_TS_HZ) / hz < 2u || !sampling_step(hz, step++, i % 3u == 0u))
            break;
        if (lost != 0u) {
            worst = hz;
            break;
        }
        best = hz;
        best_est = rm_ts_is_clock() ? 0u : step_est_hz(); /* folded away under a clock */
    }
    /* Bisection between the last rate without loss and the first with one. */
    for (uint32_t k = 0; k < BISECT_STEPS && best != 0u && worst != 0u && !rm_case_failed(); k++) {
        uint32_t mid = best + (worst - best) / 2u;
        if (mid == best || !sampling_step(mid, step++, false))
            break;
        if (lost != 0u) {
            worst = mid;
        } else {
            best = mid;
            best_est = rm_ts_is_clock() ? 0u : step_est_hz(); /* folded away under a clock */
        }
    }
    if (rm_case_failed())
        return;
    if (best == 0u) {
        rm_fail("samples were lost even at the lowest rate");
        return;
    }
    if (rm_ts_is_clock()) {
        rm_meta("max_rate_hz", best);
    } else { /* the best step's rate in estimated time; the timer's in emulated time */
        rm_meta("max_rate_hz", best_est);
        rm_meta_str("rate_time", "estimated");
        rm_meta("timer_hz", best);
    }
    rm_meta("loss_found", worst != 0u ? 1u : 0u);
}

static void run_sampling(const rm_case_t *c)
{
    (void)c;
    idle_gap = 0u;
    uint32_t shortest = idle_loop(1000u);
    idle_gap = IDLE_GAP_FACTOR * shortest;
    rm_meta("buffer_samples", BUF_SAMPLES);
    rm_meta("buffers_per_rate", BUFFERS_PER_STEP);
    rm_meta("processing_work", PROC_WORK);
    rm_meta("idle_gap_ticks", idle_gap);
    rm_meta("storm_lost", STORM_LOST);
    if (rm_target_periodic_start((uint32_t)(RM_TS_HZ) / RATES_HZ[0], on_sample) != 0) {
        rm_unsupported("the target has no periodic timer interrupt (rm_target_periodic_start)");
        return;
    }
    rm_target_periodic_stop(); /* step_on is false: the handler did nothing */
    idle_stop = false;
    RM_TRY(rm_obj_create(&full_sem, RM_OBJ_SEM, NULL, 0u));
    RM_TRY(rm_obj_create(&step_done, RM_OBJ_SEM, NULL, 0u));
    RM_TRY(rm_obj_create(&result_q, RM_OBJ_QUEUE, NULL, 0u));
    RM_TRY(rm_thread_create(&threads[0], "send", sending_task, NULL, RM_PRIO_MIN + 2, 0));
    RM_TRY(rm_thread_create(&threads[1], "process", processing_task, NULL, RM_PRIO_MIN + 3, 0));
    RM_TRY(rm_thread_create(&threads[2], "idle", idle_task, NULL, RM_PRIO_MIN, 0));
    sampling_search();
    idle_stop = true;
    rm_stop_threads(threads, 3u);
    rm_delete_obj(&result_q);
    rm_delete_obj(&step_done);
    rm_delete_obj(&full_sem);
}

RM_CASE(app_sampling, "app.sampling", SAMPLING_CAPS, run_sampling, NULL);
