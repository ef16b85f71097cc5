/* Throughput group "tm_interrupt": the interrupt tests of Thread-Metric,
 * with its loop bodies (tm_interrupt_processing_test.c and
 * tm_interrupt_preemption_processing_test.c).
 * tm.interrupt: a thread raises the benchmark interrupt; the handler counts
 * and gives a semaphore (interrupt-safe call); the thread takes it (without
 * waiting: the handler has run when the trigger returns), stops if the take
 * failed, and counts.
 * tm.interrupt_preempt: a low thread raises the interrupt and counts; the
 * handler counts and resumes a suspended higher thread, which counts and
 * suspends itself. Handler and thread counts must agree within 1.
 * Threads and handlers call Thread-Metric's services through rtosmeter's
 * porting layer (bench/core/tm_porting_layer.c: real functions in their own
 * translation unit, as Thread-Metric's rules require); the interrupt is
 * raised inline (rm_irq_trigger), as Thread-Metric's TM_CAUSE_INTERRUPT is
 * a macro: "an instruction that generates an interrupt".
 * The loops run for ever; the runner stops them after the report.
 */
#include "rm_case_util.h"

/* cnt[0]: the triggering thread's loops (an array for rm_tm_report). */
static volatile uint32_t cnt[1];
static volatile uint32_t high_count; /* tm.interrupt_preempt: the high thread's runs */
static volatile uint32_t handler_count;
static volatile bool failed;

/* The layer's ids. tm.interrupt: thread 0 takes semaphore 0, which the
 * handler gives. tm.interrupt_preempt: thread 0 is the low thread, thread 1
 * the high one, which the handler resumes. */
RM_ISR(isr_give)
{
    handler_count++;
    (void)tm_isr_semaphore_put(0);
}

static void irq_thread(void *arg)
{
    (void)arg;
    for (;;) {
        rm_irq_trigger();
        if (tm_semaphore_get(0) != TM_SUCCESS) {
            break;
        }
        cnt[0]++;
    }
    failed = true;
    rm_park();
}

static void run_interrupt(const rm_case_t *c)
{
    (void)c;
    cnt[0] = 0u;
    handler_count = 0u;
    failed = false;
    tm_thread_array[0] = NULL;
    /* Created empty: Thread-Metric's creates it holding 1 and takes it
     * once before the loop, the same start. */
    RM_TRY(rm_obj_create(&tm_semaphore_array[0], RM_OBJ_SEM, NULL, 0u));
    int rc = rm_irq_set_handler(isr_give);
    if (rc == RM_OK) {
        rc = rm_thread_create(&tm_thread_array[0], "irq", irq_thread, NULL, RM_PRIO_MIN + 1, 0);
    }
    if (rc == RM_OK) {
        uint32_t final[1], handler;
        volatile uint32_t *const extra[1] = {&handler_count};
        rm_tm_report_ex(cnt, 1u, final, extra, 1u, &handler);
        rm_stop_threads(tm_thread_array, 1u);
        rm_meta("handler", handler);
        rm_check_within_1("handler_thread_within_1", handler, final[0]);
        if (failed) {
            rm_fail("the semaphore the handler gave could not be taken");
        }
    } else {
        rm_fatal("rm_irq_set_handler/rm_thread_create", rc);
    }
    (void)rm_irq_set_handler(NULL);
    rm_delete_obj(&tm_semaphore_array[0]);
}

RM_ISR(isr_resume)
{
    handler_count++;
    (void)tm_isr_thread_resume(1);
}

static void low_thread(void *arg)
{
    (void)arg;
    for (;;) {
        rm_irq_trigger();
        cnt[0]++;
    }
}

static void high_thread(void *arg)
{
    (void)arg;
    for (;;) {
        (void)tm_thread_suspend(1);
        high_count++;
    }
}

static void run_interrupt_preempt(const rm_case_t *c)
{
    (void)c;
    cnt[0] = 0u;
    handler_count = 0u;
    high_count = 0u;
    tm_thread_array[0] = tm_thread_array[1] = NULL;
    int rc = rm_irq_set_handler(isr_resume);
    if (rc == RM_OK) {
        rc = rm_thread_create(&tm_thread_array[1], "high", high_thread, NULL, RM_PRIO_MIN + 2,
                              0);
    }
    if (rc == RM_OK) {
        rc = rm_thread_create(&tm_thread_array[0], "low", low_thread, NULL, RM_PRIO_MIN + 1, 0);
    }
    if (rc == RM_OK) {
        uint32_t final[1], ex[2];
        volatile uint32_t *const extra[2] = {&handler_count, &high_count};
        rm_tm_report_ex(cnt, 1u, final, extra, 2u, ex);
        rm_stop_threads(tm_thread_array, 2u);
        uint32_t handler = ex[0], high = ex[1];
        rm_meta("handler", handler);
        rm_meta("high", high);
        rm_check_within_1("handler_high_within_1", handler, high);
        rm_check_within_1("low_high_within_1", final[0], high);
    } else {
        rm_fatal("rm_irq_set_handler/rm_thread_create", rc);
        rm_stop_threads(tm_thread_array, 2u);
    }
    (void)rm_irq_set_handler(NULL);
}

RM_CASE(tm_interrupt, "tm.interrupt", RM_CAP_THREAD | RM_CAP_IRQ | RM_CAP_ISR_SIGNAL | RM_CAP_SEM, run_interrupt, NULL);
RM_CASE(tm_interrupt_preempt, "tm.interrupt_preempt", RM_CAP_THREAD | RM_CAP_IRQ | RM_CAP_ISR_RESUME | RM_CAP_SUSPEND | RM_CAP_PREEMPTIVE, run_interrupt_preempt, NULL);
