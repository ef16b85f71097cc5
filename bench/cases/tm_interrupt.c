/* Throughput group "tm_interrupt": the interrupt tests of Thread-Metric.
 * tm.interrupt: a thread raises the benchmark interrupt; the handler counts
 * and gives a semaphore (interrupt-safe call); the thread takes it and
 * counts. tm.interrupt_preempt: a low thread raises the interrupt; the
 * handler resumes a suspended higher thread, which counts and suspends
 * itself. Handler and thread counts must agree within 1.
 */
#include "rm_case_util.h"

/* cnt[0]: the triggering thread's loops (an array for rm_tm_report). */
static volatile uint32_t cnt[1];
static volatile uint32_t isr_count;  /* handler runs */
static volatile uint32_t high_count; /* tm.interrupt_preempt: the high thread's runs */
static volatile bool stop;
static rm_obj_t sem;
static rm_thread_t threads[2];

static void isr_give(void)
{
    isr_count++;
    (void)rm_isr_signal(sem, NULL);
}

static void irq_thread(void *arg)
{
    (void)arg;
    while (!stop) {
        if (rm_irq_trigger() != RM_OK) {
            rm_fail("rm_irq_trigger failed");
            break;
        }
        if (rm_obj_wait(sem, NULL, RM_FOREVER) != RM_OK) {
            rm_fail("semaphore take failed");
            break;
        }
        cnt[0]++;
    }
    rm_park();
}

static void run_interrupt(const rm_case_t *c)
{
    (void)c;
    stop = false;
    cnt[0] = 0u;
    isr_count = 0u;
    threads[0] = NULL;
    RM_TRY(rm_obj_create(&sem, RM_OBJ_SEM, NULL, 0u));
    rm_irq_set_handler(isr_give);
    int rc = rm_thread_create(&threads[0], "irq", irq_thread, NULL, RM_PRIO_MIN + 1, 0);
    if (rc == RM_OK) {
        uint32_t final[1], handler;
        volatile uint32_t *const extra[1] = {&isr_count};
        rm_tm_report_ex(cnt, 1u, final, extra, 1u, &handler);
        stop = true;
        rm_delete_threads(threads, 1u);
        rm_meta("handler", handler);
        rm_check_within_1("handler_thread_within_1", handler, final[0]);
    } else {
        rm_fatal("rm_thread_create", rc);
    }
    rm_irq_set_handler(NULL);
    rm_delete_obj(&sem);
}

static void isr_resume(void)
{
    isr_count++;
    (void)rm_isr_resume(threads[1]);
}

static void low_thread(void *arg)
{
    (void)arg;
    while (!stop) {
        if (rm_irq_trigger() != RM_OK) {
            rm_fail("rm_irq_trigger failed");
            break;
        }
        cnt[0]++;
    }
    rm_park();
}

static void high_thread(void *arg)
{
    (void)arg;
    for (;;) {
        (void)rm_thread_suspend(rm_thread_self());
        if (stop) {
            rm_park();
        }
        high_count++;
    }
}

static void run_interrupt_preempt(const rm_case_t *c)
{
    (void)c;
    stop = false;
    cnt[0] = 0u;
    isr_count = 0u;
    high_count = 0u;
    threads[0] = threads[1] = NULL;
    rm_irq_set_handler(isr_resume);
    int rc = rm_thread_create(&threads[1], "high", high_thread, NULL, RM_PRIO_MIN + 2, 0);
    if (rc == RM_OK) {
        rc = rm_thread_create(&threads[0], "low", low_thread, NULL, RM_PRIO_MIN + 1, 0);
    }
    if (rc == RM_OK) {
        uint32_t final[1], ex[2];
        volatile uint32_t *const extra[2] = {&isr_count, &high_count};
        rm_tm_report_ex(cnt, 1u, final, extra, 2u, ex);
        stop = true;
        rm_delete_threads(threads, 2u);
        uint32_t handler = ex[0], high = ex[1];
        rm_meta("handler", handler);
        rm_meta("high", high);
        rm_check_within_1("handler_high_within_1", handler, high);
        rm_check_within_1("low_high_within_1", final[0], high);
    } else {
        rm_fatal("rm_thread_create", rc);
        stop = true;
        rm_delete_threads(threads, 2u);
    }
    rm_irq_set_handler(NULL);
}

RM_CASE(tm_interrupt, "tm.interrupt", RM_CAP_THREAD | RM_CAP_IRQ | RM_CAP_ISR_SIGNAL | RM_CAP_SEM, run_interrupt, NULL);
RM_CASE(tm_interrupt_preempt, "tm.interrupt_preempt", RM_CAP_THREAD | RM_CAP_IRQ | RM_CAP_ISR_RESUME | RM_CAP_SUSPEND | RM_CAP_PREEMPTIVE, run_interrupt_preempt, NULL);
