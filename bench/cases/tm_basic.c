/* Throughput group "tm_basic": tm.basic, Thread-Metric's basic processing
 * test (tm_basic_processing_test.c): one pass over an array of 1,024
 * volatile words, each replaced by (word + counter) ^ word, then the counter
 * is incremented. No kernel call, so it should score the same on every RTOS
 * of one target and compiler; a port that differs from bare metal by more
 * than 1 % steals time (tick handler cost, idle, ...). Its one addition to
 * Thread-Metric's loop is the stop flag, read once per pass of 1,024 words.
 *
 * Two execution models, one measured loop (basic_loop, not inlined, so both
 * run the very same machine code):
 * - with threads: one thread runs the loop, the runner is the reporter
 *   (rm_tm_report: it sleeps a period, then reads the counter);
 * - without threads (bare metal): the runner runs the loop itself, and the
 *   target's periodic timer interrupt is the reporter: at the end of each
 *   RM_TM_PERIOD_MS period it snapshots the counter, and after the last it
 *   stops the timer and the loop. The counts are emitted afterwards.
 */
#include <stddef.h>

#include "rm_case_util.h"

#define BASIC_WORDS 1024u

static volatile uint32_t basic_count[1];
static volatile bool basic_stop;
static volatile uint32_t basic_array[BASIC_WORDS];

/* The measured loop. */
__attribute__((noinline)) static void basic_loop(void)
{
    for (uint32_t i = 0; i < BASIC_WORDS; i++) {
        basic_array[i] = 0u;
    }
    while (!basic_stop) {
        uint32_t counter = basic_count[0];
        for (uint32_t i = 0; i < BASIC_WORDS; i++) {
            basic_array[i] = (basic_array[i] + counter) ^ basic_array[i];
        }
        basic_count[0] = counter + 1u;
    }
}

static void basic_thread(void *arg)
{
    (void)arg;
    basic_loop();
    rm_park();
}

static void run_threads(void)
{
    rm_thread_t t[1] = {NULL};
    RM_TRY(rm_thread_create(&t[0], "basic", basic_thread, NULL, RM_PRIO_MIN + 1, 0));
    uint32_t final[1];
    rm_tm_report(basic_count, 1u, final);
    basic_stop = true;
    rm_delete_threads(t, 1u);
}

/* ---- without threads: the periodic interrupt is the reporter ------------ */
#define BASIC_PERIOD_TS ((uint64_t)(RM_TS_HZ) * (RM_TM_PERIOD_MS) / 1000u)

static volatile uint32_t bm_snap[RM_TM_PERIODS];
static volatile uint32_t bm_period;
/* Under --unit cycles the period is BASIC_PERIOD_TS estimated cycles, not
 * emulated time (as rm_tm_report's, rm_case_util.h): the timer interrupts
 * BM_SLICES times a period of emulated time, and the period ends at the
 * first slice the cycle counter has advanced that far; each count is scaled
 * to exactly BASIC_PERIOD_TS by the cycles its period took (bm_spent). */
#define BM_SLICES 100u
static uint32_t bm_t0, bm_spent[RM_TM_PERIODS];

static void on_period_end(void)
{
    bm_snap[bm_period] = basic_count[0];
    if (++bm_period >= (uint32_t)(RM_TM_PERIODS)) {
        rm_target_periodic_stop();
        basic_stop = true;
    }
}

static void on_slice(void)
{
    uint32_t now = rm_ts();
    if (now - bm_t0 < (uint32_t)BASIC_PERIOD_TS) {
        return;
    }
    bm_spent[bm_period] = now - bm_t0;
    bm_t0 = now;
    on_period_end();
}

/* "port lacks THREAD: <why>" when the port withdrew THREAD at run time. */
static const char *no_timer_reason(void)
{
    static char why[160] = "port lacks THREAD: ";
    const char *note = rm_port_caps_note();
    if (note == NULL) {
        return "port lacks THREAD and the target has no periodic timer for the period "
               "(rm_target_periodic_start)";
    }
    size_t n = 19u; /* strlen("port lacks THREAD: ") */
    while (*note != '\0' && n < sizeof why - 1u) {
        why[n++] = *note++;
    }
    why[n] = '\0';
    return why;
}

static void run_runner_loop(void)
{
    bm_period = 0u;
    bm_t0 = rm_ts();
    bool clock = rm_ts_is_clock();
    if (BASIC_PERIOD_TS > 0xFFFFFFFFu ||
        rm_target_periodic_start((uint32_t)(clock ? BASIC_PERIOD_TS : BASIC_PERIOD_TS / BM_SLICES),
                                 clock ? on_period_end : on_slice) != 0) {
        rm_unsupported(no_timer_reason()); /* before any record: a plain UNSUP */
        return;
    }
    basic_loop(); /* until the last period ends */
    /* Records only now: writing them would take time from the periods. */
    rm_meta("array_words", BASIC_WORDS);
    rm_meta_str("reporter", "periodic timer interrupt (no threads)");
    uint32_t last = 0u;
    for (uint32_t p = 0; p < (uint32_t)(RM_TM_PERIODS); p++) {
        uint32_t count = bm_snap[p] - last;
        rm_count("total", p + 1u,
                 clock ? count
                       : (uint32_t)(((uint64_t)count * BASIC_PERIOD_TS + bm_spent[p] / 2u)
                                    / bm_spent[p]));
        last = bm_snap[p];
    }
}

static void run_basic(const rm_case_t *c)
{
    (void)c;
    basic_stop = false;
    basic_count[0] = 0u;
    if ((rm_port_caps() & RM_CAP_THREAD) != 0u) {
        rm_meta("array_words", BASIC_WORDS);
        run_threads();
    } else {
        run_runner_loop();
    }
}

/* needs 0: the body picks the execution model from the port's caps. */
RM_CASE(tm_basic, "tm.basic", 0, run_basic, NULL);
