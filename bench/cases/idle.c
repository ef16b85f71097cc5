/* Group "idle": how the system idles (docs/idle.md). Each case marks the
 * windows the rmcycles plugin's idle figures cover (DBG #1 opens one, DBG
 * #2 closes it; META idle_windows names them in order): time asleep and
 * awake in virtual time, wake-ups and their causes. In a profile whose idle
 * spins (default) the windows hold no sleep; in `lowpower` the kernel's own
 * idle sleeps with WFI, tickless where it has it.
 *
 * idle.system    one second with nothing to do: the runner sleeps and the
 *                kernel idles (bare metal, which has no kernel tick: WFI
 *                until a one-second timer interrupt, or a spin without WFI).
 * idle.sampling  the sampling application of the 2021 study (Marques §6.2,
 *                docs/benchmarks.md §5) at its low rates, 100, 200
 *                and 1000 Hz, one second each: the target's periodic timer
 *                samples into a 50-sample buffer, a full buffer wakes the
 *                processing task (a fixed computation), its result goes
 *                through a queue to the sending task, which writes it to a
 *                transmit register; no task of ours idles, the kernel does.
 *                Bare metal (no kernel tick) is the study's floor: the
 *                main loop processes and sends a full buffer, else WFI.
 *                COUNT samples and buffers_sent per rate (the period).
 */
#include "rm_case_util.h"

#define WINDOW_TICKS_S 1u /* seconds per window */
#define BUF_SAMPLES 50u
#define PROC_WORK 200u /* rm_spin units: as app.sampling */

static const uint32_t RATES_HZ[] = {100u, 200u, 1000u};
#define SAMPLING_CAPS                                                                      \
    (RM_CAP_THREAD | RM_CAP_SEM | RM_CAP_QUEUE | RM_CAP_ISR_SIGNAL | RM_CAP_PREEMPTIVE)

#if defined(__arm__) && !defined(__ARM_ARCH_6M__)
#define WINDOW_OPEN() __asm volatile("dbg #1" ::: "memory")
#define WINDOW_CLOSE() __asm volatile("dbg #2" ::: "memory")
#else /* the host, and ARMv6-M, which has no DBG: no idle windows (the case still runs) */
#define WINDOW_OPEN() ((void)0)
#define WINDOW_CLOSE() ((void)0)
#endif

static volatile uint32_t fired;

RM_ISR(on_second)
{
    fired++;
}

/* Bare metal: the idle loop is ours. */
static void bare_idle_second(void)
{
    uint32_t seen = fired;
    if (rm_target_periodic_start((uint32_t)(RM_TS_HZ), on_second) != 0) {
        rm_unsupported("the target has no periodic timer interrupt (rm_target_periodic_start)");
        return;
    }
    WINDOW_OPEN();
    while (fired == seen) {
#if defined(__arm__) && !defined(RM_NO_WFI)
        __asm volatile("dsb\n wfi" ::: "memory");
#endif
    }
    WINDOW_CLOSE();
    rm_target_periodic_stop();
}

#define HOST_NO_IDLE "a host process has no WFI to sleep in: idle figures come from QEMU"

static void run_system(const rm_case_t *c)
{
    (void)c;
#if !defined(__arm__)
    rm_unsupported(HOST_NO_IDLE);
    return;
#endif
    rm_meta_str("idle_windows", "1s");
    uint32_t hz = rm_tick_hz();
    if (hz == 0u) { /* no kernel tick: bare metal */
        bare_idle_second();
        return;
    }
    WINDOW_OPEN();
    RM_TRY(rm_thread_sleep(WINDOW_TICKS_S * hz));
    WINDOW_CLOSE();
    rm_meta("ticks_slept", WINDOW_TICKS_S * hz);
}

RM_CASE(idle_system, "idle.system", RM_CAP_IDLE_WFI, run_system, NULL);

static uint32_t buf[2][BUF_SAMPLES];
static volatile uint32_t fill_idx, fill_n, full_idx, samples, sent, sampling_tx, sampling_stop;
static volatile bool sampling_on;
static rm_obj_t full_sem, result_q;
static rm_thread_t threads[2]; /* sender, processing */

RM_ISR(on_sample)
{
    if (!sampling_on)
        return;
    samples++;
    buf[fill_idx][fill_n] = rm_ts(); /* the sensor register */
    if (++fill_n == BUF_SAMPLES) {
        full_idx = fill_idx;
        fill_idx ^= 1u;
        fill_n = 0u;
        (void)rm_isr_sem_signal(full_sem);
    }
}

static void processing_task(void *arg)
{
    (void)arg;
    for (;;) {
        if (rm_sem_wait(full_sem, NULL, RM_FOREVER) != RM_OK)
            continue;
        const uint32_t *s = buf[full_idx];
        rm_msg_t m = {{0u, 0u, 0u, 0u}};
        for (uint32_t i = 0; i < BUF_SAMPLES; i++)
            m.w[i & 3u] += s[i];
        rm_spin(PROC_WORK);
        (void)rm_queue_signal(result_q, &m);
    }
}

static void sending_task(void *arg)
{
    (void)arg;
    for (;;) {
        rm_msg_t m;
        if (rm_queue_wait(result_q, &m, RM_FOREVER) != RM_OK)
            continue;
        for (uint32_t i = 0; i < RM_MSG_SIZE / sizeof(uint32_t); i++)
            sampling_tx = m.w[i];
        sent++;
    }
}

static volatile uint32_t full_pending; /* bare metal: buffers the loop has to process */

/* The processing and the sending of one full buffer: what the two tasks do. */
static void process_and_send(const uint32_t *s)
{
    rm_msg_t m = {{0u, 0u, 0u, 0u}};
    for (uint32_t i = 0; i < BUF_SAMPLES; i++)
        m.w[i & 3u] += s[i];
    rm_spin(PROC_WORK);
    for (uint32_t i = 0; i < RM_MSG_SIZE / sizeof(uint32_t); i++)
        sampling_tx = m.w[i];
    sent++;
}

RM_ISR(on_sample_bare)
{
    if (!sampling_on)
        return;
    buf[fill_idx][fill_n] = rm_ts();
    if (++fill_n == BUF_SAMPLES) {
        full_idx = fill_idx;
        fill_idx ^= 1u;
        fill_n = 0u;
        full_pending++;
    }
    if (++samples == sampling_stop)
        sampling_on = false;
}

/* Bare metal: one second of samples at `hz`, the main loop idle in WFI. */
static bool bare_rate(uint32_t hz)
{
    sampling_stop = hz * WINDOW_TICKS_S;
    sampling_on = true;
    WINDOW_OPEN();
    if (rm_target_periodic_start((uint32_t)(RM_TS_HZ) / hz, on_sample_bare) != 0) {
        WINDOW_CLOSE();
        return false;
    }
    uint32_t done = 0u;
    while (sampling_on || done != full_pending) {
        if (done != full_pending) {
            process_and_send(buf[full_idx]);
            done++;
        } else {
#if defined(__arm__) && !defined(RM_NO_WFI)
            __asm volatile("dsb\n wfi" ::: "memory");
#endif
        }
    }
    rm_target_periodic_stop();
    WINDOW_CLOSE();
    return true;
}

static void run_sampling(const rm_case_t *c)
{
    (void)c;
#if !defined(__arm__)
    rm_unsupported(HOST_NO_IDLE);
    return;
#endif
    rm_meta_str("idle_windows", "100hz,200hz,1000hz");
    rm_meta("buffer_samples", BUF_SAMPLES);
    rm_meta("processing_work", PROC_WORK);
    if (rm_tick_hz() == 0u) { /* bare metal */
        for (uint32_t r = 0; r < sizeof RATES_HZ / sizeof RATES_HZ[0]; r++) {
            fill_idx = fill_n = samples = sent = full_pending = 0u;
            if (!bare_rate(RATES_HZ[r])) {
                rm_unsupported("the target has no periodic timer interrupt "
                               "(rm_target_periodic_start)");
                return;
            }
            rm_count("rate_hz", r, RATES_HZ[r]);
            rm_count("samples", r, samples);
            rm_count("buffers_sent", r, sent);
        }
        return;
    }
    if (!rm_has_caps(SAMPLING_CAPS)) {
        rm_unsupported("needs THREAD, SEM, QUEUE, ISR_SIGNAL and PREEMPTIVE: the processing "
                       "and sending tasks (a kernel without threads idles in its own loop, "
                       "which a loop of ours would replace)");
        return;
    }
    RM_TRY(rm_obj_create(&full_sem, RM_OBJ_SEM, NULL, 0u));
    RM_TRY(rm_obj_create(&result_q, RM_OBJ_QUEUE, NULL, 0u));
    RM_TRY(rm_thread_create(&threads[0], "send", sending_task, NULL, RM_PRIO_MIN + 2, 0));
    RM_TRY(rm_thread_create(&threads[1], "process", processing_task, NULL, RM_PRIO_MIN + 3, 0));
    for (uint32_t r = 0; r < sizeof RATES_HZ / sizeof RATES_HZ[0]; r++) {
        fill_idx = fill_n = samples = sent = 0u;
        sampling_on = true;
        WINDOW_OPEN();
        if (rm_target_periodic_start((uint32_t)(RM_TS_HZ) / RATES_HZ[r], on_sample) != 0) {
            WINDOW_CLOSE();
            rm_unsupported("the target has no periodic timer interrupt "
                           "(rm_target_periodic_start)");
            break;
        }
        RM_TRY(rm_thread_sleep(WINDOW_TICKS_S * rm_tick_hz()));
        rm_target_periodic_stop();
        WINDOW_CLOSE();
        sampling_on = false;
        (void)rm_thread_sleep(2u); /* the last buffer's way out, outside the window */
        rm_count("rate_hz", r, RATES_HZ[r]);
        rm_count("samples", r, samples);
        rm_count("buffers_sent", r, sent);
    }
    rm_stop_threads(threads, 2u);
    rm_delete_obj(&result_q);
    rm_delete_obj(&full_sem);
}

RM_CASE(idle_sampling, "idle.sampling", RM_CAP_IDLE_WFI, run_sampling, NULL);
