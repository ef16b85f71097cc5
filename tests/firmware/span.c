/* Test firmware (bare metal): a measurement that spans its samples, as
 * lat.jitter.periodic's, without a kernel. The target's periodic timer
 * fires every millisecond of the counter; its handler's first line is an
 * activation. Two series of the time between activations:
 *   plain  rm_series_open: a full batch is written by the rm_series_add that
 *          filled it, while the timer runs, so the next period holds the
 *          write (the fault of issue 27 §3, kept as the control);
 *   span   rm_series_open_span: the timer is stopped across the write and
 *          restarted, its first activation not a sample.
 * Both take RM_SAMPLES samples (several batches).
 */
#include "rtosmeter/bench.h"

static volatile uint32_t stamp, seq;

RM_ISR(on_timer)
{
    stamp = rm_ts(); /* the handler's first line: the activation */
    seq++;
}

/* The next activation after `seen`; false when none came in 100 periods. */
static bool next(uint32_t seen, uint32_t period, uint32_t *at)
{
    for (uint32_t t0 = rm_ts(); seq == seen;) {
        if (rm_ts() - t0 > 100u * period) {
            return false;
        }
    }
    *at = stamp;
    return true;
}

/* Activations into s until n samples or, for a span series, a full
 * buffer; true when the timer ran. */
static bool measure(rm_series_t *s, uint32_t period, uint32_t *n, bool span)
{
    uint32_t seen = seq, last;
    if (rm_target_periodic_start(period, on_timer) != 0 || !next(seen, period, &last)) {
        return false;
    }
    seen = seq;
    while (*n < (uint32_t)(RM_SAMPLES) && !(span && rm_series_full(s))) {
        uint32_t now;
        if (!next(seen, period, &now)) {
            break;
        }
        seen = seq;
        rm_series_add(s, now - last);
        last = now;
        ++*n;
    }
    rm_target_periodic_stop();
    return true;
}

static void run_span(const rm_case_t *c)
{
    (void)c;
    uint32_t period = (uint32_t)(RM_TS_HZ) / 1000u;
    rm_meta("period_ts", period);
    rm_series_t s;
    uint32_t n = 0u;
    rm_series_open(&s, "plain", "time between two timer activations, written inside");
    bool ran = measure(&s, period, &n, false);
    rm_series_close(&s);
    rm_series_open_span(&s, "span", "time between two timer activations, paused to write");
    for (n = 0u; ran && n < (uint32_t)(RM_SAMPLES);) {
        ran = measure(&s, period, &n, true);
        rm_series_flush(&s);
    }
    rm_series_close(&s);
    if (!ran) {
        rm_fail("the periodic timer did not run");
    }
}

RM_CASE(span, "selftest.span", 0, run_span, NULL);
