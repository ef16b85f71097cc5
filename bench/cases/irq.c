/* Interrupt responsiveness (catalog section 3). Every case has a form that
 * needs no task, so bare metal runs it as the floor for every RTOS, and a
 * task form that a port with threads runs in the same case (the body is
 * picked from rm_port_caps(), never from a port name).
 *
 *   irq.latency         rm_irq_trigger() until the handler's first line.
 *     series latency      no tasks: the runner triggers back to back
 *     series latency@N    N = 1, 4, 8 busy tasks (RM_PRIO_MIN+1, equal
 *                         priority: a little work, then yield; task 0 also
 *                         gives a pacing semaphore) under a measuring task
 *                         M (RM_PRIO_MIN+2), which takes one sample each
 *                         time it is woken, i.e. once per round of the N
 *                         tasks, right after the kernel switched to it;
 *                         a port without THREAD, SEM, PREEMPTIVE gives
 *                         META load=skipped, load_missing=<caps mask>
 *   irq.latency_jitter  |latency[i] - latency[i-1]|, series delta and
 *                       delta@N (sub=0: the overhead cancels in a
 *                       difference); META max_delta_ticks[@N]
 *   irq.blocking        latency while 4 tasks hammer kernel calls whose
 *                       critical sections mask interrupts (H0 semaphore
 *                       give/take, H1 queue send/receive, H2 resumes H3,
 *                       H3 suspends itself; each then yields).
 *     series latency      under that load
 *     series baseline     the same measurement with no task (idle)
 *                       With the target's periodic timer (META trigger=
 *                       periodic) the interrupt arrives asynchronously, so
 *                       it can land inside a critical section; a sample is
 *                       the handler's first line minus the timer's ideal
 *                       expiry (t0 + k*period, t0 read just before the
 *                       timer is started: the constant start-up path is in
 *                       every sample, loaded or not). Without one (the
 *                       host: trigger=software) the measuring task triggers
 *                       the benchmark interrupt itself, which can never land
 *                       in another task's critical section: the load shows
 *                       only through the kernel state it leaves.
 *   irq.max_rate        a periodic timer interrupt at rising rate (x1.25 a
 *                       step, RATE_EVENTS events each); the highest rate at
 *                       which no event is lost (lost = raised - handled).
 *                       Task form (THREAD, SEM, ISR_SIGNAL): the handler
 *                       gives a semaphore, a counting task (RM_PRIO_MIN+1)
 *                       takes it and records the event; handled = that
 *                       task's count when the step ends. No-task form (bare
 *                       metal): handled = the handler's own count. META
 *                       max_rate_hz and max_rate_period_ticks (the inverse:
 *                       worst-case response) as the reports read them.
 *                       Under a cycle counter (--unit cycles) the timer
 *                       still runs in emulated time, so the steps and their
 *                       events (duration, raised) are counted in the
 *                       target's own time (rm_target_vtime), and each
 *                       step's period_ticks is the estimated cycles the
 *                       counter advanced per event raised: max_rate_hz is
 *                       events per second of estimated time (RM_TS_HZ
 *                       cycles a second), META rate_time=estimated,
 *                       timer_hz the fastest lossless rate in emulated time.
 *
 * Interrupt safety: handlers call only rm_ts, rm_spin, rm_isr_* and the
 * target's periodic start/stop. Every handler, the periodic timer's too, is
 * an RM_ISR, so the port's RM_PORT_ISR_ENTER/EXIT wrap it exactly as they
 * wrap the benchmark interrupt. The benchmark interrupt is never triggered
 * while the periodic timer runs.
 * Under QEMU, exception entry and exit cost no virtual time, so emulated
 * latencies are the length of the software path, not hardware latencies.
 */
#include <stddef.h>

#include "rm_case_util.h"

#define PRIO_LOAD (RM_PRIO_MIN + 1)
#define PRIO_MEASURE (RM_PRIO_MIN + 2)

static uint32_t caps_now(void)
{
    return rm_port_caps() & (uint32_t)(RM_PORT_CAPS);
}


/* ---- the measurement: trigger until the handler's first line ----------- */
static volatile uint32_t irq_t1;
static volatile uint32_t irq_hits;

RM_ISR(on_irq_stamp)
{
    irq_t1 = rm_ts(); /* the handler's first line */
    irq_hits++;
}

/* One trigger-to-handler interval; false if the handler did not run. */
static bool one_latency(uint32_t *ticks)
{
    uint32_t before = irq_hits;
    uint32_t t0 = rm_ts();
    rm_irq_trigger();
    /* A real interrupt is taken at once; allow a short grace for targets
     * where the trigger is asynchronous (host signals). */
    for (uint32_t spin = 0; irq_hits == before; spin++) {
        if (spin > 1000000u)
            return false;
    }
    *ticks = irq_t1 - t0;
    return true;
}

static const char NOT_TAKEN[] = "the benchmark interrupt was not taken after rm_irq_trigger()";

/* Consecutive samples into a latency series, or their differences into a
 * delta series (one more sample than differences). */
typedef struct sampler {
    rm_series_t *s;
    bool diff;
    uint32_t prev, largest, n;
} sampler_t;

static void sampler_add(sampler_t *sp, uint32_t ticks)
{
    if (!sp->diff) {
        rm_series_add(sp->s, ticks);
    } else if (sp->n > 0u) {
        uint32_t d = ticks > sp->prev ? ticks - sp->prev : sp->prev - ticks;
        sp->largest = d > sp->largest ? d : sp->largest;
        rm_series_add(sp->s, d);
    }
    sp->prev = ticks;
    sp->n++;
}

static uint32_t sampler_needed(const sampler_t *sp)
{
    return (uint32_t)(RM_SAMPLES) + (sp->diff ? 1u : 0u);
}

/* The runner alone, back to back. */
static bool sample_no_tasks(sampler_t *sp)
{
    while (sp->n < sampler_needed(sp)) {
        uint32_t ticks;
        if (!one_latency(&ticks)) {
            rm_fail(NOT_TAKEN);
            return false;
        }
        sampler_add(sp, ticks);
    }
    return true;
}

/* ---- load tasks ------------------------------------------------------------ */
#define LOAD_MAX 8u
#define BUSY_WORK 32u /* rm_spin() units per round of a busy task */

static rm_thread_t load_threads[1u + LOAD_MAX]; /* [0] = M, then the load */
static volatile bool load_stop;
static volatile uint32_t load_rounds[LOAD_MAX];
static rm_obj_t pace_sem;      /* load task 0 gives it once a round; M takes it */
static sampler_t *m_sampler;

/* M: one sample each time load task 0 wakes it. */
static void measure_task(void *arg)
{
    (void)arg;
    while (m_sampler->n < sampler_needed(m_sampler) && !rm_case_failed()) {
        int rc = rm_sem_wait(pace_sem, NULL, RM_FOREVER);
        uint32_t ticks;
        if (rc != RM_OK) {
            rm_fatal("rm_sem_wait(pace) (M)", rc);
        } else if (!one_latency(&ticks)) {
            rm_fail(NOT_TAKEN);
        } else {
            sampler_add(m_sampler, ticks);
        }
    }
    load_stop = true;
    rm_finish();
}

static void busy_task(void *arg)
{
    uint32_t i = (uint32_t)(uintptr_t)arg;
    while (!load_stop) {
        rm_spin(BUSY_WORK);
        load_rounds[i]++;
        if (i == 0u) {
            (void)rm_sem_signal(pace_sem, NULL);
        }
        (void)rm_thread_yield();
    }
    rm_park();
}

/* irq.blocking's hammers: kernel calls with critical sections, then yield. */
static rm_obj_t ham_sem, ham_queue;

static void hammer_task(void *arg)
{
    uint32_t i = (uint32_t)(uintptr_t)arg;
    rm_msg_t msg = {{i, 1u, 2u, 3u}};
    while (!load_stop) {
        int rc = RM_OK;
        switch (i) {
        case 0u:
            rc = rm_sem_signal(ham_sem, NULL);
            if (rc == RM_OK)
                rc = rm_sem_wait(ham_sem, NULL, RM_NO_WAIT);
            if (pace_sem != NULL) /* software trigger: M samples once a round */
                (void)rm_sem_signal(pace_sem, NULL);
            break;
        case 1u:
            rc = rm_queue_signal(ham_queue, &msg);
            if (rc == RM_OK)
                rc = rm_queue_wait(ham_queue, &msg, RM_NO_WAIT);
            break;
        case 2u:
            (void)rm_thread_resume(load_threads[4]); /* H3; ready already: no-op */
            break;
        default: /* H3 */
            rc = rm_thread_suspend(load_threads[4]);
            break;
        }
        if (rc != RM_OK) {
            rm_fatal("kernel call of a load task", rc);
            load_stop = true;
        }
        load_rounds[i]++;
        (void)rm_thread_yield();
    }
    rm_park();
}

/* Creates n load tasks running `body` (arg = index) and, when `m` is set,
 * the measuring task M with the pacing semaphore. The runner then waits. */
static int load_start(unsigned n, rm_entry_t body, sampler_t *m)
{
    load_stop = false;
    for (unsigned i = 0; i <= LOAD_MAX; i++) {
        load_threads[i] = NULL;
    }
    for (unsigned i = 0; i < LOAD_MAX; i++) {
        load_rounds[i] = 0u;
    }
    pace_sem = NULL;
    m_sampler = m;
    int rc = RM_OK;
    if (m != NULL) {
        rc = rm_obj_create(&pace_sem, RM_OBJ_SEM, NULL, 0u);
        if (rc == RM_OK)
            rc = rm_thread_create(&load_threads[0], "M", measure_task, NULL, PRIO_MEASURE, 0);
    }
    for (unsigned i = 0; i < n && rc == RM_OK; i++) {
        rc = rm_thread_create(&load_threads[1u + i], "load", body, (void *)(uintptr_t)i,
                              PRIO_LOAD, 0);
    }
    return rc;
}

static void load_end(void)
{
    load_stop = true;
    rm_delete_threads(load_threads, 1u + LOAD_MAX);
    rm_delete_obj(&pace_sem);
}

/* ---- irq.latency / irq.latency_jitter ------------------------------------ */
static const uint32_t LOAD_NS[] = {1u, 4u, 8u};
#define LOAD_CAPS (RM_CAP_THREAD | RM_CAP_SEM | RM_CAP_PREEMPTIVE)

/* A capability mask as a META value, "0x" and 8 hex digits: the target
 * writes the number, the host names the bits (RM_CAPS), as for UNSUP. */
static void meta_mask(const char *key, uint32_t mask)
{
    char hex[11] = "0x";
    for (unsigned i = 9; i >= 2u; i--, mask >>= 4)
        hex[i] = "0123456789abcdef"[mask & 15u];
    hex[10] = '\0';
    rm_meta_str(key, hex);
}

/* "latency@4" and the like, for the series names and META keys. */
static const char *at_name(const char *base, uint32_t n)
{
    static char buf[24];
    size_t k = 0;
    while (*base != '\0' && k < sizeof buf - 4u)
        buf[k++] = *base++;
    buf[k++] = '@';
    buf[k++] = (char)('0' + n % 10u); /* N < 10 */
    buf[k] = '\0';
    return buf;
}

static void run_latency_body(bool diff)
{
    const char *base = diff ? "delta" : "latency";
    const char *what = diff ? "|latency[i] - latency[i-1]| of consecutive irq.latency samples"
                            : "rm_irq_trigger() until the handler's first line";
    RM_TRY(rm_irq_set_handler(on_irq_stamp));
    rm_meta("tasks", 0u);
    rm_series_t s;
    sampler_t sp = {&s, diff, 0u, 0u, 0u};
    if (diff) {
        rm_series_open_diff(&s, base, what);
    } else {
        rm_series_open(&s, base, what);
    }
    bool ok = sample_no_tasks(&sp);
    rm_series_close(&s);
    if (diff && ok)
        rm_meta("max_delta_ticks", sp.largest);
    if (!ok || !rm_has_caps(LOAD_CAPS)) {
        if (ok) {
            rm_meta_str("load", "skipped");
            meta_mask("load_missing", LOAD_CAPS & ~caps_now());
        }
        (void)rm_irq_set_handler(NULL);
        return;
    }
    rm_meta("busy_work", BUSY_WORK);
    for (size_t j = 0; j < sizeof LOAD_NS / sizeof LOAD_NS[0] && !rm_case_failed(); j++) {
        uint32_t n = LOAD_NS[j];
        sampler_t lp = {&s, diff, 0u, 0u, 0u};
        if (diff) {
            rm_series_open_diff(&s, at_name(base, n), what);
        } else {
            rm_series_open(&s, at_name(base, n), what);
        }
        int rc = load_start(n, busy_task, &lp);
        if (rc == RM_OK) {
            rm_case_wait_done();
        } else {
            rm_fatal("set-up of the busy tasks", rc);
        }
        load_end();
        rm_series_close(&s);
        if (diff && !rm_case_failed())
            rm_meta(at_name("max_delta_ticks", n), lp.largest);
    }
    (void)rm_irq_set_handler(NULL);
}

static void run_latency(const rm_case_t *c)
{
    (void)c;
    run_latency_body(false);
}

static void run_latency_jitter(const rm_case_t *c)
{
    (void)c;
    run_latency_body(true);
}

/* ---- irq.blocking ----------------------------------------------------------- */
#define BLK_CHUNK 64u   /* timer events per start: a fresh t0, a small buffer */
#define BLK_HAMMERS 4u
#define BLK_RATE_HZ 25000u /* about 40 us between events */

static volatile uint32_t blk_stamp[BLK_CHUNK];
static volatile uint32_t blk_n, blk_want;
static rm_obj_t blk_done;

/* The periodic timer's handler. */
RM_ISR(on_blk_tick)
{
    uint32_t now = rm_ts();
    uint32_t k = blk_n;
    if (k >= blk_want)
        return; /* after the stop: nothing more to record */
    blk_stamp[k] = now;
    blk_n = k + 1u;
    if (k + 1u == blk_want) {
        rm_target_periodic_stop();
        (void)rm_isr_sem_signal(blk_done);
    }
}

/* RM_SAMPLES timer-to-handler samples into s, in chunks; the runner blocks
 * on blk_done meanwhile, so the load (if any) runs. Returns RM_ENOTSUP when
 * the target has no periodic timer, another code on a failure. */
static int blk_periodic_series(rm_series_t *s, uint32_t period, uint32_t *late)
{
    uint32_t timeout = rm_tick_hz() != 0u ? rm_tick_hz() : 1000u; /* a second */
    for (uint32_t done = 0; done < (uint32_t)(RM_SAMPLES);) {
        uint32_t left = (uint32_t)(RM_SAMPLES) - done;
        blk_want = left < BLK_CHUNK ? left : BLK_CHUNK;
        blk_n = 0u;
        uint32_t t0 = rm_ts();
        int rc = rm_target_periodic_start(period, on_blk_tick);
        if (rc != RM_OK)
            return rc;
        rc = rm_sem_wait(blk_done, NULL, timeout);
        if (rc != RM_OK) {
            rm_target_periodic_stop();
            return rc;
        }
        /* Event j is due at t0 + c + (j+1)*period (c: the constant start-up
         * path); its slot is (stamp - t0) / period as long as c + latency
         * stays under one period. A later slot: an event was late by more
         * than a period, or merged with the next (counted in `late`). */
        uint32_t expect = 1u;
        for (uint32_t j = 0; j < blk_want; j++) {
            uint32_t d = blk_stamp[j] - t0;
            uint32_t slot = d / period;
            if (slot > expect)
                *late += slot - expect;
            expect = slot + 1u;
            rm_series_add(s, d - slot * period);
        }
        done += blk_want;
    }
    return RM_OK;
}

static void run_blocking(const rm_case_t *c)
{
    (void)c;
    if (!rm_yield_supported()) { /* the hammers take turns by yielding */
        return;
    }
    uint32_t period = ((uint32_t)(RM_TS_HZ) / BLK_RATE_HZ) | 1u; /* odd: no lock-step */
    rm_series_t loaded, base;
    rm_meta("load_tasks", BLK_HAMMERS);
    rm_meta_str("load", "H0 sem give/take, H1 queue send/receive, H2 resumes H3, "
                        "H3 suspends itself; each then yields");
    RM_TRY(rm_obj_create(&blk_done, RM_OBJ_SEM, NULL, 0u));
    rm_series_open(&loaded, "latency", "interrupt until the handler's first line, 4 tasks "
                                       "hammering kernel calls");
    rm_series_open(&base, "baseline", "the same with no task (idle)");
    uint32_t late = 0u;
    /* The periodic form needs a clock (slots from RM_TS_HZ); else the
     * software trigger, back to back. */
    int rc = period >= 2u && rm_ts_is_clock() ? blk_periodic_series(&base, period, &late)
                                               : RM_ENOTSUP;
    bool periodic = rc == RM_OK;
    if (rc != RM_OK && rc != RM_ENOTSUP) {
        rm_fatal("periodic timer (baseline)", rc);
    }
    if (!periodic && !rm_case_failed()) { /* software trigger, back to back */
        rc = rm_irq_set_handler(on_irq_stamp);
        sampler_t sp = {&base, false, 0u, 0u, 0u};
        if (rc != RM_OK)
            rm_fatal("rm_irq_set_handler", rc);
        else
            (void)sample_no_tasks(&sp);
    }
    rm_meta_str("trigger", periodic ? "periodic" : "software");
    if (periodic)
        rm_meta("period_ticks", period);
    if (!rm_case_failed()) {
        sampler_t mp = {&loaded, false, 0u, 0u, 0u};
        rc = rm_obj_create(&ham_sem, RM_OBJ_SEM, NULL, 0u);
        if (rc == RM_OK)
            rc = rm_obj_create(&ham_queue, RM_OBJ_QUEUE, NULL, 0u);
        if (rc == RM_OK)
            rc = load_start(BLK_HAMMERS, hammer_task, periodic ? NULL : &mp);
        if (rc != RM_OK) {
            rm_fatal("set-up of the load tasks", rc);
        } else if (periodic) {
                    rc = blk_periodic_series(&loaded, period, &late);
            if (rc != RM_OK)
                rm_fatal("periodic timer (under load)", rc);
        } else {
            rm_case_wait_done();
        }
        /* H2 first: it resumes H3 (rm_delete_threads' order rule). */
        rm_thread_t h2 = load_threads[3];
        load_threads[3] = NULL;
        load_stop = true;
        rm_delete_threads(&h2, 1u);
        load_end();
        for (uint32_t i = 0; i < BLK_HAMMERS; i++)
            rm_meta(at_name("rounds", i), load_rounds[i]);
    }
    rm_series_close(&loaded);
    rm_series_close(&base);
    if (periodic)
        rm_meta("late_events", late);
    (void)rm_irq_set_handler(NULL);
    rm_delete_obj(&ham_queue);
    rm_delete_obj(&ham_sem);
    rm_delete_obj(&blk_done);
}

/* ---- irq.max_rate ---------------------------------------------------------- */
/* The target's optional periodic timer (target.h); without one the core's
 * weak default returns RM_ENOTSUP and the case ends as unsupported. */
#define RATE_EVENTS 100u  /* periods per rate step */
#define RATE_WORK 8u      /* rm_spin() units of work in the handler */
#define RATE_START_HZ 1000u
#define RATE_MAX_STEPS 40u
#define RATE_TASK_CAPS (RM_CAP_THREAD | RM_CAP_SEM | RM_CAP_ISR_SIGNAL | RM_CAP_PREEMPTIVE)

static volatile uint32_t rate_handled;     /* handler runs */
static volatile uint32_t rate_recorded;    /* events the task recorded */
static volatile uint32_t rate_rec_at_stop; /* rate_recorded when the step ended */
static volatile uint32_t rate_t_start;
static volatile uint32_t rate_t_stop;
static volatile uint32_t rate_duration;
static volatile uint32_t rate_c_start, rate_c_stop; /* the counter: cycles (--unit cycles) */
static volatile bool rate_running;
static rm_obj_t rate_event, rate_done; /* task form only */
static rm_thread_t rate_thread[1];

/* The handler records the event (no-task form) or signals the task, and
 * does fixed work; it also stops the timer when the step's time is up,
 * because at saturation the handler runs back to back and nothing else gets
 * the CPU to stop it. */
RM_ISR(on_periodic)
{
    /* Under a cycle counter, time in the target's own clock (rm_case_util.h):
     * a constant condition, folded away under a clock. */
    uint32_t now = rm_ts_is_clock() ? rm_ts() : rm_target_vtime();
    rate_handled++;
    rm_spin(RATE_WORK);
    if (rate_event != NULL)
        (void)rm_isr_sem_signal(rate_event);
    if (rate_running && now - rate_t_start >= rate_duration) {
        rm_target_periodic_stop();
        rate_t_stop = now;
        if (!rm_ts_is_clock())
            rate_c_stop = rm_ts();
        rate_rec_at_stop = rate_recorded;
        rate_running = false;
        if (rate_done != NULL)
            (void)rm_isr_sem_signal(rate_done);
    }
}

/* The recording task: one count per semaphore take. */
static void rate_task(void *arg)
{
    (void)arg;
    for (;;) {
        if (rm_sem_wait(rate_event, NULL, RM_FOREVER) == RM_OK)
            rate_recorded++;
    }
}

/* One step at `period` ticks: the events raised (due by the stop time) and
 * handled (task form: recorded by the task when the step ended). Under a
 * cycle counter the step is timed in the target's own time (`tperiod`, the
 * period in its units) and *cycles is what the counter advanced over it. */
static int rate_step(uint32_t period, uint32_t *raised, uint32_t *handled, uint32_t *cycles)
{
    bool clock = rm_ts_is_clock();
    uint32_t tperiod = clock ? period : rm_vtime_of(period);
    rate_handled = 0u;
    rate_recorded = 0u;
    rate_duration = tperiod * RATE_EVENTS;
    rate_running = true;
    rate_c_start = rm_ts();
    rate_t_start = clock ? rate_c_start : rm_target_vtime();
    if (tperiod == 0u || rm_target_periodic_start(period, on_periodic) != 0)
        return RM_ENOTSUP;
    if (rate_done != NULL) {
        int rc = rm_sem_wait(rate_done, NULL, RM_FOREVER);
        if (rc != RM_OK)
            return rc;
        /* Let the task drain what is left before the next step. */
        for (uint32_t i = 0; rate_recorded != rate_handled && i < 1000u; i++)
            (void)rm_thread_sleep(1u);
        *handled = rate_rec_at_stop;
    } else {
        while (rate_running) {
            /* Wait for the handler to stop the timer. */
        }
        *handled = rate_handled;
    }
    *raised = (rate_t_stop - rate_t_start) / tperiod;
    *cycles = clock ? 0u : rate_c_stop - rate_c_start;
    return RM_OK;
}

static void max_rate_ramp(bool task_form)
{
    uint32_t hz = (uint32_t)(RM_TS_HZ);
    uint32_t period = hz / RATE_START_HZ;
    uint32_t best = 0, worst_lost = 0;
    /* Stop-time slack: one event; the task form one more, the event the
     * stopping handler has just signalled (the task cannot have seen it). */
    uint32_t slack = task_form ? 2u : 1u;
    uint32_t steps = 0;
    bool lossy = false;
    uint32_t best_timer = 0u; /* cycles: the best step's timer period (timestamp units) */
    for (uint32_t step = 0; step < RATE_MAX_STEPS && period >= 2u; step++) {
        uint32_t raised = 0u, handled = 0u, cycles = 0u;
        int rc = rate_step(period, &raised, &handled, &cycles);
        if (rc == RM_ENOTSUP) {
            rm_unsupported("the target has no periodic timer interrupt "
                           "(rm_target_periodic_start)");
            return;
        }
        if (rc != RM_OK) {
            rm_fatal("wait for the end of a rate step", rc);
            return;
        }
        steps++;
        /* Under a cycle counter: the estimated cycles per event raised. */
        uint32_t per_event = rm_ts_is_clock() ? period : cycles / (raised != 0u ? raised : 1u);
        rm_count("period_ticks", step, per_event);
        rm_count("raised", step, raised);
        rm_count("handled", step, handled);
        if (task_form)
            rm_count("handler_runs", step, rate_handled);
        uint32_t lost = raised > handled + slack ? raised - handled : 0u;
        if (lost == 0u) {
            best = per_event;
            best_timer = period;
        } else {
            worst_lost = lost;
            lossy = true;
            break; /* the first rate that loses events ends the ramp */
        }
        period = period * 4u / 5u; /* rate x1.25 per step */
    }
    rm_meta("steps", steps);
    rm_meta("loss_slack", slack); /* lost = raised - handled once above this */
    if (best == 0u) {
        rm_fail("events were lost even at the start rate");
        return;
    }
    rm_meta("max_rate_period_ticks", best); /* the inverse: worst response */
    rm_meta("max_rate_hz", hz / best);
    if (!rm_ts_is_clock()) { /* best is estimated cycles; the timer's rate was emulated time */
        rm_meta_str("rate_time", "estimated");
        rm_meta("timer_hz", hz / best_timer);
    }
    /* lossy == false: no loss up to the fastest rate tried (a lower bound). */
    rm_meta("loss_found", lossy ? 1u : 0u);
    rm_meta("lost_at_next_step", worst_lost);
}

static void run_max_rate(const rm_case_t *c)
{
    (void)c;
    if (!rm_ts_is_clock() && rm_target_vtime_hz() == 0u) {
        rm_unsupported(RM_TS_NO_VTIME);
        return;
    }
    if ((uint32_t)(RM_TS_HZ) / RATE_START_HZ < 2u) {
        rm_unsupported("the timestamp counter is too slow for a 1 kHz start rate");
        return;
    }
    bool task_form = rm_has_caps(RATE_TASK_CAPS);
    rm_meta("events_per_step", RATE_EVENTS);
    rm_meta("handler_work", RATE_WORK);
    rm_meta("tasks", task_form ? 1u : 0u);
    rm_meta_str("recorded_by", task_form ? "a task woken by a semaphore the handler gives"
                                         : "the handler (no tasks)");
    rate_event = rate_done = NULL;
    rate_thread[0] = NULL;
    if (task_form) {
        RM_TRY(rm_obj_create(&rate_event, RM_OBJ_SEM, NULL, 0u));
        RM_TRY(rm_obj_create(&rate_done, RM_OBJ_SEM, NULL, 0u));
        RM_TRY(rm_thread_create(&rate_thread[0], "recorder", rate_task, NULL, PRIO_LOAD, 0));
    }
    max_rate_ramp(task_form);
    (void)rm_irq_set_handler(NULL);
    rm_delete_threads(rate_thread, 1u);
    rm_delete_obj(&rate_event);
    rm_delete_obj(&rate_done);
}

/* irq.max_rate stays last: it may end unsupported after its META (no
 * periodic timer), which the host tests expect just before BYE. */
RM_CASE(irq_latency, "irq.latency", RM_CAP_IRQ, run_latency, NULL);
RM_CASE(irq_latency_jitter, "irq.latency_jitter", RM_CAP_IRQ, run_latency_jitter, NULL);
RM_CASE(irq_blocking, "irq.blocking", RM_CAP_THREAD | RM_CAP_SUSPEND | RM_CAP_SEM | RM_CAP_QUEUE | RM_CAP_ISR_SIGNAL | RM_CAP_IRQ | RM_CAP_PREEMPTIVE, run_blocking, NULL);
RM_CASE(irq_max_rate, "irq.max_rate", RM_CAP_IRQ, run_max_rate, NULL);
