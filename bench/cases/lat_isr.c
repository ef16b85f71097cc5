/* Latency group "lat_isr": the benchmark interrupt seen from the kernel.
 * lat.isr.entry: trigger until the handler's first line (one task running).
 * lat.isr.to_task: A waits (suspended; blocked on a semaphore when the port
 * can signal from an interrupt), B spins and triggers; the handler resumes
 * or gives to A; trigger until A runs.
 * lat.isr.return: a handler that changes nothing; its last line until the
 * interrupted task continues.
 */
#include "rm_case_util.h"

static volatile uint32_t t_isr, isr_hits;
static rm_thread_t tt_threads[2]; /* [0] = B (triggers), [1] = A */
static rm_obj_t tt_sem;
static volatile bool tt_armed, tt_stop;
static volatile uint32_t tt_t0;
static rm_series_t tt_series;

RM_ISR(isr_stamp_first)
{
    t_isr = rm_ts();
    isr_hits++;
}

RM_ISR(isr_stamp_last)
{
    isr_hits++;
    t_isr = rm_ts();
}

/* entry and return: the runner triggers RM_SAMPLES times with handler h,
 * which stamps t_isr. Recorded: t_isr - trigger call (entry), or trigger
 * return - t_isr (return, from_handler_end). */
static void runner_trigger_loop(rm_isr_t h, const char *name, const char *what,
                                bool from_handler_end)
{
    rm_series_t s;
    RM_TRY(rm_irq_set_handler(h));
    rm_series_open(&s, name, what);
    for (uint32_t i = 0; i < (uint32_t)(RM_SAMPLES); i++) {
        uint32_t hits = isr_hits;
        uint32_t t0 = rm_ts();
        rm_irq_trigger();
        uint32_t t1 = rm_ts();
        if (isr_hits == hits) {
            rm_fail("the interrupt handler did not run before the trigger returned");
            break;
        }
        rm_series_add(&s, from_handler_end ? t1 - t_isr : t_isr - t0);
    }
    rm_series_close(&s);
    (void)rm_irq_set_handler(NULL);
}

static void run_entry(const rm_case_t *c)
{
    (void)c;
    runner_trigger_loop(isr_stamp_first, "entry", "trigger until the handler's first line",
                        false);
}

static void run_return(const rm_case_t *c)
{
    (void)c;
    runner_trigger_loop(isr_stamp_last, "return",
                        "handler's last line until the interrupted task continues", true);
}

/* ---- lat.isr.to_task --------------------------------------------------- */
/* Two forms, each with its own handler and A (chosen outside the intervals):
 * A suspends itself and the handler resumes it, or A takes a semaphore the
 * handler gives. */
RM_ISR(isr_resume_a)
{
    (void)rm_isr_resume(tt_threads[1]);
}

RM_ISR(isr_give_a)
{
    (void)rm_isr_sem_signal(tt_sem);
}

static inline __attribute__((always_inline)) void tt_a_body(bool use_sem)
{
    rm_thread_t self = tt_threads[1];
    rm_obj_t sem = tt_sem;
    for (uint32_t i = 0; i < (uint32_t)(RM_SAMPLES); i++) {
        tt_armed = true;
        rm_raw_t raw = use_sem ? rm_sem_wait_raw(sem, NULL, RM_FOREVER)
                               : rm_thread_suspend_raw(self);
        uint32_t t1 = rm_ts();
        RM_SETTLE_RAW(raw);
        int rc = use_sem ? rm_sem_wait_rc(raw, RM_FOREVER) : rm_thread_suspend_rc(raw);
        if (rc != RM_OK) {
            rm_fatal("wait for the interrupt (A)", rc);
            break;
        }
        rm_series_add(&tt_series, t1 - tt_t0);
    }
    tt_stop = true;
    rm_finish();
}

static void tt_a_resume(void *arg)
{
    (void)arg;
    tt_a_body(false);
}

static void tt_a_sem(void *arg)
{
    (void)arg;
    tt_a_body(true);
}

static void tt_b(void *arg)
{
    (void)arg;
    while (!tt_stop) {
        if (tt_armed) { /* A is waiting: raise the interrupt */
            tt_armed = false;
            tt_t0 = rm_ts();
            rm_irq_trigger();
        }
    }
    rm_park();
}

static void to_task_once(bool use_sem)
{
    tt_stop = tt_armed = false;
    tt_threads[0] = tt_threads[1] = NULL;
    tt_sem = NULL;
    int rc = use_sem ? rm_obj_create(&tt_sem, RM_OBJ_SEM, NULL, 0u) : RM_OK;
    if (rc == RM_OK) {
        rc = rm_thread_create(&tt_threads[1], "A", use_sem ? tt_a_sem : tt_a_resume, NULL,
                              RM_PRIO_MIN + 2, 0);
    }
    if (rc == RM_OK) {
        rc = rm_thread_create(&tt_threads[0], "B", tt_b, NULL, RM_PRIO_MIN + 1, 0);
    }
    if (rc == RM_OK) {
        rc = rm_irq_set_handler(use_sem ? isr_give_a : isr_resume_a);
    }
    if (rc == RM_OK) {
        rm_series_open(&tt_series, use_sem ? "sem" : "resume",
                       use_sem ? "trigger until A (blocked on a semaphore given by the handler) runs"
                               : "trigger until A (resumed by the handler) runs");
        rm_case_wait_done();
        rm_series_close(&tt_series);
    } else {
        rm_fatal("set-up of lat.isr.to_task", rc);
    }
    tt_stop = true;
    rm_delete_threads(tt_threads, 2u);
    (void)rm_irq_set_handler(NULL);
    rm_delete_obj(&tt_sem);
}

static void run_to_task(const rm_case_t *c)
{
    (void)c;
    to_task_once(false);
    if ((RM_PORT_CAPS & (RM_CAP_ISR_SIGNAL | RM_CAP_SEM)) == (RM_CAP_ISR_SIGNAL | RM_CAP_SEM)) {
        if (!rm_case_failed()) {
            to_task_once(true);
        }
    } else {
        rm_meta_str("sem", "skipped: port lacks ISR_SIGNAL or SEM");
    }
}

RM_CASE(isr_entry, "lat.isr.entry", RM_CAP_IRQ, run_entry, NULL);
RM_CASE(isr_to_task, "lat.isr.to_task", RM_CAP_THREAD | RM_CAP_IRQ | RM_CAP_ISR_RESUME | RM_CAP_SUSPEND | RM_CAP_PREEMPTIVE, run_to_task, NULL);
RM_CASE(isr_return, "lat.isr.return", RM_CAP_IRQ, run_return, NULL);
