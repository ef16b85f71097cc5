/* The benchmark interrupt for ThreadX's Linux port (host target only).
 *
 * ThreadX on Linux simulates interrupts with pthreads: an "ISR" thread calls
 * _tx_thread_context_save (which stops the running ThreadX thread with
 * SIGUSR1), runs the handler, then _tx_thread_context_restore (which resumes
 * it or switches to a more urgent thread), exactly as ThreadX's own timer
 * interrupt does in tx_initialize_low_level.c. The host target's SIGUSR1
 * interrupt cannot be used: ThreadX takes SIGUSR1/SIGUSR2 for suspending and
 * resuming its threads. rm_tx_linux_irq_trigger (the port's
 * RM_PORT_IRQ_TRIGGER) waits until the handler has run, so the trigger
 * behaves like a pended Cortex-M interrupt taken at once.
 */
#ifndef _GNU_SOURCE /* ThreadX's Linux CMake defines it for its users */
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

#include "rtosmeter/bench.h"

/* ThreadX's Linux port (tx_thread_context_save.c / _restore.c). */
VOID _tx_thread_context_save(VOID);
VOID _tx_thread_context_restore(VOID);

static pthread_t rm_tx_isr_thread;
static rm_isr_t volatile rm_tx_isr_handler;
static sem_t rm_tx_isr_go, rm_tx_isr_done;
static int rm_tx_isr_ready;
/* Triggers requested / handled. A trigger waits for its own number rather
 * than for one post of rm_tx_isr_done: a thread deleted while it waited
 * leaves a post behind that must not release the next trigger early. */
static uint32_t rm_tx_isr_requested, rm_tx_isr_handled;

static void rm_tx_sem_wait(sem_t *s)
{
    /* ThreadX's suspend signal interrupts sem_wait (EINTR): wait again. */
    while (sem_wait(s) != 0 && errno == EINTR) {
    }
}

static void *rm_tx_isr_entry(void *p)
{
    (void)p;
    for (;;) {
        rm_tx_sem_wait(&rm_tx_isr_go);
        _tx_thread_context_save();
        rm_isr_t isr = rm_tx_isr_handler;
        if (isr != NULL)
            isr();
        _tx_thread_context_restore();
        __atomic_add_fetch(&rm_tx_isr_handled, 1u, __ATOMIC_SEQ_CST);
        (void)sem_post(&rm_tx_isr_done);
    }
    return NULL;
}

int rm_port_irq_connect(rm_isr_t isr)
{
    rm_tx_isr_handler = isr;
    if (rm_tx_isr_ready)
        return RM_OK;
    if (sem_init(&rm_tx_isr_go, 0, 0) != 0 || sem_init(&rm_tx_isr_done, 0, 0) != 0 ||
        pthread_create(&rm_tx_isr_thread, NULL, rm_tx_isr_entry, NULL) != 0)
        return RM_ERROR;
    /* Like ThreadX's timer interrupt thread; without privileges this fails
     * and the thread keeps the default policy (the host run is a smoke test). */
    struct sched_param sp = {.sched_priority = TX_LINUX_PRIORITY_ISR};
    (void)pthread_setschedparam(rm_tx_isr_thread, SCHED_FIFO, &sp);
    rm_tx_isr_ready = 1;
    return RM_OK;
}

void rm_tx_linux_irq_trigger(void)
{
    if (!rm_tx_isr_ready)
        return; /* nothing connected: the case sees no handler run */
    uint32_t mine = __atomic_add_fetch(&rm_tx_isr_requested, 1u, __ATOMIC_SEQ_CST);
    if (sem_post(&rm_tx_isr_go) != 0)
        return;
    while ((int32_t)(__atomic_load_n(&rm_tx_isr_handled, __ATOMIC_SEQ_CST) - mine) < 0)
        rm_tx_sem_wait(&rm_tx_isr_done);
}
