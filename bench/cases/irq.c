/* Interrupt responsiveness (catalog section 3), in the form that needs no
 * task, so it also runs on bare metal as the floor for every RTOS:
 *   irq.latency         rm_irq_trigger() until the handler's first line
 *   irq.latency_jitter  differences between consecutive latency samples
 *   irq.max_rate        a periodic timer interrupt at rising rate; the
 *                       highest rate at which no event is lost
 * Under QEMU, exception entry and exit cost no virtual time, so the emulated
 * latency is the length of the software path (trigger + dispatch), not a
 * hardware latency. lat.isr.entry/lat.isr.return live with the latency
 * family; the task forms of these cases are for the RTOS ports.
 */
#include <stddef.h>

#include "rtosmeter/bench.h"

/* ---- irq.latency / irq.latency_jitter ------------------------------------ */
static volatile uint32_t irq_t1;
static volatile uint32_t irq_hits;

static void on_irq_stamp(void)
{
    irq_t1 = rm_ts(); /* the handler's first line */
    irq_hits++;
}

/* One trigger-to-handler interval; false if the handler did not run. */
static bool one_latency(uint32_t *ticks)
{
    uint32_t before = irq_hits;
    uint32_t t0 = rm_ts();
    if (rm_irq_trigger() != RM_OK)
        return false;
    /* A real interrupt is taken at once; allow a short grace for targets
     * where the trigger is asynchronous (host signals). */
    for (uint32_t spin = 0; irq_hits == before; spin++) {
        if (spin > 1000000u)
            return false;
    }
    *ticks = irq_t1 - t0;
    return true;
}

static void run_latency(const rm_case_t *c)
{
    (void)c;
    rm_irq_set_handler(on_irq_stamp);
    rm_meta("tasks", 0u);
    rm_series_t s;
    rm_series_open(&s, "latency", "rm_irq_trigger() until the handler's first line");
    for (uint32_t i = 0; i < (uint32_t)(RM_SAMPLES); i++) {
        uint32_t ticks;
        if (!one_latency(&ticks)) {
            rm_irq_set_handler(NULL);
            rm_fail("the benchmark interrupt was not taken after rm_irq_trigger()");
            return;
        }
        rm_series_add(&s, ticks);
    }
    rm_series_close(&s);
    rm_irq_set_handler(NULL);
}

static void run_latency_jitter(const rm_case_t *c)
{
    (void)c;
    rm_irq_set_handler(on_irq_stamp);
    rm_meta("tasks", 0u);
    /* Differences, not intervals: the harness must not subtract the
     * timestamp overhead from this series (it cancels in a difference). */
    rm_series_t s;
    rm_series_open(&s, "delta",
                   "|latency[i] - latency[i-1]| of consecutive irq.latency samples");
    uint32_t prev = 0, largest = 0;
    for (uint32_t i = 0; i <= (uint32_t)(RM_SAMPLES); i++) {
        uint32_t ticks;
        if (!one_latency(&ticks)) {
            rm_irq_set_handler(NULL);
            rm_fail("the benchmark interrupt was not taken after rm_irq_trigger()");
            return;
        }
        if (i > 0) {
            uint32_t d = ticks > prev ? ticks - prev : prev - ticks;
            largest = d > largest ? d : largest;
            rm_series_add(&s, d);
        }
        prev = ticks;
    }
    rm_series_close(&s);
    rm_meta("max_delta_ticks", largest);
    rm_irq_set_handler(NULL);
}

/* ---- irq.max_rate ---------------------------------------------------------- */
/* The target's periodic timer (targets/common/cortex-m/cm.h declares it);
 * a target without one keeps this weak default and the case is unsupported. */
typedef void (*rm_periodic_fn_t)(void);
int rm_target_periodic_start(uint32_t period_ticks, rm_periodic_fn_t fn);
void rm_target_periodic_stop(void);
__attribute__((weak)) int rm_target_periodic_start(uint32_t period_ticks,
                                                   rm_periodic_fn_t fn)
{
    (void)period_ticks, (void)fn;
    return RM_ENOTSUP;
}
__attribute__((weak)) void rm_target_periodic_stop(void) {}

#define RATE_EVENTS 100u  /* periods per rate step */
#define RATE_WORK 8u      /* rm_spin() units of work in the handler */
#define RATE_START_HZ 1000u
#define RATE_MAX_STEPS 40u

static volatile uint32_t rate_handled;
static volatile uint32_t rate_t_start;
static volatile uint32_t rate_t_stop;
static volatile uint32_t rate_duration;
static volatile bool rate_running;

/* The handler records the event and does fixed work; it also stops the
 * timer when the step's time is up, because at saturation the handler runs
 * back to back and the main loop never gets the CPU to stop it. */
static void on_periodic(void)
{
    uint32_t now = rm_ts();
    rate_handled++;
    rm_spin(RATE_WORK);
    if (rate_running && now - rate_t_start >= rate_duration) {
        rm_target_periodic_stop();
        rate_t_stop = now;
        rate_running = false;
    }
}

/* One step at `period` ticks; returns the events raised (due by the stop
 * time) and sets *handled. */
static bool rate_step(uint32_t period, uint32_t *raised, uint32_t *handled)
{
    rate_handled = 0;
    rate_duration = period * RATE_EVENTS;
    rate_running = true;
    rate_t_start = rm_ts();
    if (rm_target_periodic_start(period, on_periodic) != 0)
        return false;
    while (rate_running) {
        /* Wait for the handler to stop the timer. */
    }
    *handled = rate_handled;
    *raised = (rate_t_stop - rate_t_start) / period;
    return true;
}

static void run_max_rate(const rm_case_t *c)
{
    (void)c;
    uint32_t hz = (uint32_t)(RM_TS_HZ);
    uint32_t period = hz / RATE_START_HZ;
    uint32_t best = 0, worst_lost = 0;
    if (period < 2u) {
        rm_unsupported("the timestamp counter is too slow for a 1 kHz start rate");
        return;
    }
    rm_meta("events_per_step", RATE_EVENTS);
    rm_meta("handler_work", RATE_WORK);
    rm_meta("tasks", 0u);
    uint32_t steps = 0;
    bool lossy = false;
    for (uint32_t step = 0; step < RATE_MAX_STEPS && period >= 2u; step++) {
        uint32_t raised, handled;
        if (!rate_step(period, &raised, &handled)) {
            rm_unsupported("the target has no periodic timer interrupt "
                           "(rm_target_periodic_start)");
            return;
        }
        steps++;
        rm_count("period_ticks", step, period);
        rm_count("raised", step, raised);
        rm_count("handled", step, handled);
        /* The stop time falls between two events: one event of slack. */
        uint32_t lost = raised > handled + 1u ? raised - handled : 0u;
        if (lost == 0u) {
            best = period;
        } else {
            worst_lost = lost;
            lossy = true;
            break; /* the first rate that loses events ends the ramp */
        }
        period = period * 4u / 5u; /* rate x1.25 per step */
    }
    rm_meta("steps", steps);
    if (best == 0u) {
        rm_fail("events were lost even at the start rate");
        return;
    }
    rm_meta("max_rate_period_ticks", best); /* the inverse: worst response */
    rm_meta("max_rate_hz", hz / best);
    /* lossy == false: no loss up to the fastest rate tried (a lower bound). */
    rm_meta("loss_found", lossy ? 1u : 0u);
    rm_meta("lost_at_next_step", worst_lost);
}

RM_CASE(irq_latency, "irq.latency", RM_CAP_IRQ, run_latency, NULL);
RM_CASE(irq_latency_jitter, "irq.latency_jitter", RM_CAP_IRQ, run_latency_jitter, NULL);
RM_CASE(irq_max_rate, "irq.max_rate", RM_CAP_IRQ, run_max_rate, NULL);
