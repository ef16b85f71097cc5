/* Throughput group "tm_basic": tm.basic, the calibration of the throughput
 * family. One thread runs a fixed arithmetic loop over a small array with no
 * kernel call, so it should score the same on every RTOS of one target and
 * compiler; a port that differs from bare metal by more than 1 % steals
 * time (tick handler cost, idle, ...). The reporter is the runner.
 */
#include "rm_case_util.h"

#define BASIC_WORDS 64u

static volatile uint32_t basic_count[1];
static volatile bool basic_stop;
static volatile uint32_t basic_sink;

static void basic_thread(void *arg)
{
    (void)arg;
    uint32_t a[BASIC_WORDS];
    for (uint32_t i = 0; i < BASIC_WORDS; i++) {
        a[i] = i * 2654435761u;
    }
    while (!basic_stop) {
        /* Thread-Metric's "basic processing": a few ALU operations per
         * element; the result is kept so nothing can be optimised out. */
        uint32_t acc = 0u;
        for (uint32_t i = 0; i < BASIC_WORDS; i++) {
            a[i] = (a[i] + i) ^ (acc >> 3);
            acc += a[i];
        }
        basic_sink = acc;
        basic_count[0]++;
    }
    rm_park();
}

static void run_basic(const rm_case_t *c)
{
    (void)c;
    rm_thread_t t[1] = {NULL};
    basic_stop = false;
    basic_count[0] = 0u;
    rm_meta("array_words", BASIC_WORDS);
    RM_TRY(rm_thread_create(&t[0], "basic", basic_thread, NULL, RM_PRIO_MIN + 1, 0));
    uint32_t final[1];
    rm_tm_report(basic_count, 1u, final);
    basic_stop = true;
    rm_delete_threads(t, 1u);
}

RM_CASE(tm_basic, "tm.basic", RM_CAP_THREAD, run_basic, NULL);
