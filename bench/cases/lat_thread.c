/* Latency group "lat_thread": context switches by the thread API.
 * lat.suspend_resume: A suspends itself, B runs and resumes A (A's suspend
 * until B runs; B's resume until A runs). lat.yield: two equal-priority
 * threads yield to each other (one yield-to-other switch per sample).
 */
#include "rm_pass.h"

RM_PASS_SUSPEND_RESUME()

static void run_suspend_resume(const rm_case_t *c)
{
    (void)c;
    const rm_pass_t p = {.kind = RM_OBJ_SEM, .a = pass_suspend_a, .b = pass_suspend_b,
                         .suspend = true, .timeout = RM_FOREVER, .block_name = "suspend",
                         .block_what = "A's suspend of itself until B runs",
                         .release_name = "resume", .release_what = "B's resume of A until A runs",
                         .samples = RM_SAMPLES, .tick_block = false, .tick_release = false};
    (void)rm_pass_run(&p);
}

static rm_thread_t y_threads[2];
static rm_series_t y_series;
static volatile uint32_t y_mark, y_count;
static volatile bool y_stop, y_started;

/* Y1 stamps y_mark and yields; Y0, arriving, records the interval, then
 * yields back. One recorder: with time slicing (vendor profiles) a tick can
 * switch threads anywhere, and two recorders could both add the last
 * sample. Y0 never stamps, so each sample is one switch from Y1 to Y0. */
static void yield_thread(void *arg)
{
    const bool recorder = (uintptr_t)arg == 0u;
    while (!y_stop) {
        uint32_t now = rm_ts();
        if (recorder && y_started) {
            rm_series_add(&y_series, now - y_mark);
            if (++y_count >= (uint32_t)(RM_SAMPLES)) {
                y_stop = true;
                rm_finish();
            }
        }
        if (!recorder) {
            y_started = true;
            y_mark = rm_ts();
        }
        (void)rm_thread_yield_raw(); /* its status: nothing to translate */
    }
    rm_park();
}

static void run_yield(const rm_case_t *c)
{
    (void)c;
    if (!rm_yield_supported()) {
        return;
    }
    y_stop = y_started = false;
    y_count = 0u;
    y_threads[0] = y_threads[1] = NULL;
    int rc = rm_thread_create(&y_threads[0], "Y0", yield_thread, (void *)0, RM_PRIO_MIN + 1, 0);
    if (rc == RM_OK) {
        rc = rm_thread_create(&y_threads[1], "Y1", yield_thread, (void *)1, RM_PRIO_MIN + 1, 0);
    }
    if (rc == RM_OK) {
        rm_series_open(&y_series, "yield", "one thread's yield until the other runs");
        rm_case_wait_done();
        rm_series_close(&y_series);
    } else {
        rm_fatal("rm_thread_create", rc);
    }
    y_stop = true;
    rm_delete_threads(y_threads, 2u);
}

RM_CASE(suspend_resume, "lat.suspend_resume", RM_CAP_THREAD | RM_CAP_SUSPEND | RM_CAP_PREEMPTIVE, run_suspend_resume, NULL);
RM_CASE(yield, "lat.yield", RM_CAP_THREAD, run_yield, NULL);
