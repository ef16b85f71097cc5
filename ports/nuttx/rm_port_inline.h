/* NuttX port: the measured calls of port.h, inline, so that each measured
 * interval holds the NuttX call alone (port.h, "the port's inline calls").
 * Set-up calls (create, delete, ...) are in port.c.
 *
 * - The calls are NuttX's internal kernel interfaces (nxsem_*, nxmutex_*,
 *   nxevent_*, file_mq_*, nxsig_kill, mempool_*), which a flat build lets an
 *   application call: no errno, no cancellation point, no POSIX layer. They
 *   return 0 (or a count, a mask, a pointer) on success, a negated errno on
 *   failure; each call tests success first.
 * - Timeouts: RM_NO_WAIT is the try-variant, RM_FOREVER the blocking one,
 *   anything else the tick variant. The timeout is a constant where a case
 *   measures, so the choice folds away at compile time.
 * - Suspend: nxsched_suspend, the kernel's stop (private to sched/, linked
 *   in a flat build; SIGSTOP's action calls it in the stopped task's own
 *   context). Called directly it is synchronous for any task, and works on
 *   a task that has not started (NuttX 13.0.0 drops a SIGSTOP sent to one:
 *   it installs a task's signal actions when the task starts).
 *   Resume: SIGCONT (nxsig_kill, CONFIG_SIG_SIGSTOP_ACTION), whose dispatch
 *   continues a stopped task at once; 13.0.0 has no nxsched_ call for it.
 *   Every task ignores SIGCONT's action (port.c, thread_trampoline).
 * - Interrupts: NuttX owns the vectors; port.c attaches the case's handler
 *   with irq_attach, and NuttX's dispatch (arm_doirq) switches tasks on the
 *   way out. No enter/exit hook.
 */
#ifndef RM_PORT_INLINE_H
#define RM_PORT_INLINE_H

#include <nuttx/config.h>

#include <fcntl.h>
#include <signal.h>
#include <sched.h>
#include <nuttx/event.h>
#include <nuttx/fs/fs.h>
#include <nuttx/kmalloc.h>
#include <nuttx/mm/mempool.h>
#include <nuttx/mqueue.h>
#include <nuttx/mutex.h>
#include <nuttx/sched.h>
#include <nuttx/semaphore.h>
#include <nuttx/signal.h>

/* sched/sched/sched.h, private to the kernel. */
void nxsched_suspend(FAR struct tcb_s *tcb);

struct rm_thread {
    pid_t pid;
    struct tcb_s *tcb; /* nxsched_suspend's argument */
    rm_entry_t entry;
    void *arg;
    struct rm_thread *next_free;
};

struct rm_obj {
    rm_obj_kind_t kind;
    union {
        sem_t sem;         /* SEM */
        mutex_t mutex;     /* MUTEX */
        nxevent_t event;   /* EVENT, bit 0 */
        struct {           /* QUEUE: one queue, opened twice */
            struct file wait;    /* blocking: receive */
            struct file nowait;  /* O_NONBLOCK: send, try-receive */
        } mq;
    } h;
};

struct rm_pool {
    struct mempool_s pool;
};

#define RM_NX_INLINE static inline __attribute__((always_inline))
#define RM_NX_WAIT_FAILED(timeout) ((timeout) == RM_NO_WAIT ? RM_EAGAIN : RM_ETIMEOUT)
/* Success is the expected case: the failure path goes out of line. */
#define RM_NX_OK(cond) __builtin_expect((cond), 1)

/* ---- threads ---------------------------------------------------------- */
RM_NX_INLINE int rm_thread_suspend(rm_thread_t t)
{
    nxsched_suspend(t->tcb);
    return RM_OK;
}

RM_NX_INLINE int rm_thread_resume(rm_thread_t t)
{
    return RM_NX_OK(nxsig_kill(t->pid, SIGCONT) == 0) ? RM_OK : RM_ERROR;
}

RM_NX_INLINE int rm_thread_yield(void)
{
    return RM_NX_OK(sched_yield() == 0) ? RM_OK : RM_ERROR;
}

/* ---- objects: signal / wait per kind ------------------------------------ */
RM_NX_INLINE int rm_sem_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return RM_NX_OK(nxsem_post(&o->h.sem) == 0) ? RM_OK : RM_EAGAIN;
}

RM_NX_INLINE int rm_sem_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    int ret;
    if (timeout == RM_NO_WAIT)
        ret = nxsem_trywait(&o->h.sem);
    else if (timeout == RM_FOREVER)
        ret = nxsem_wait(&o->h.sem);
    else
        ret = nxsem_tickwait(&o->h.sem, timeout);
    return RM_NX_OK(ret == 0) ? RM_OK : RM_NX_WAIT_FAILED(timeout);
}

RM_NX_INLINE int rm_mutex_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return RM_NX_OK(nxmutex_unlock(&o->h.mutex) == 0) ? RM_OK : RM_ERROR;
}

RM_NX_INLINE int rm_mutex_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    int ret;
    if (timeout == RM_NO_WAIT)
        ret = nxmutex_trylock(&o->h.mutex);
    else if (timeout == RM_FOREVER)
        ret = nxmutex_lock(&o->h.mutex);
    else
        ret = nxmutex_ticklock(&o->h.mutex, timeout);
    return RM_NX_OK(ret == 0) ? RM_OK : RM_NX_WAIT_FAILED(timeout);
}

RM_NX_INLINE int rm_event_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return RM_NX_OK(nxevent_post(&o->h.event, 1u, 0u) == 0) ? RM_OK : RM_ERROR;
}

/* Waits for bit 0; nxevent clears what it returns (no NXEVENT_WAIT_NOCLEAR). */
RM_NX_INLINE int rm_event_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    nxevent_mask_t got;
    if (timeout == RM_NO_WAIT)
        got = nxevent_trywait(&o->h.event, 1u, 0u);
    else if (timeout == RM_FOREVER)
        got = nxevent_wait(&o->h.event, 1u, 0u);
    else
        got = nxevent_tickwait(&o->h.event, 1u, 0u, timeout);
    return RM_NX_OK((got & 1u) != 0u) ? RM_OK : RM_NX_WAIT_FAILED(timeout);
}

RM_NX_INLINE int rm_queue_signal(rm_obj_t o, const rm_msg_t *msg)
{
    return RM_NX_OK(file_mq_send(&o->h.mq.nowait, (const char *)msg, RM_MSG_SIZE, 0u) == 0)
               ? RM_OK
               : RM_EAGAIN;
}

RM_NX_INLINE int rm_queue_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    ssize_t n;
    if (timeout == RM_NO_WAIT)
        n = file_mq_receive(&o->h.mq.nowait, (char *)msg, RM_MSG_SIZE, NULL);
    else if (timeout == RM_FOREVER)
        n = file_mq_receive(&o->h.mq.wait, (char *)msg, RM_MSG_SIZE, NULL);
    else
        n = file_mq_tickreceive(&o->h.mq.wait, (char *)msg, RM_MSG_SIZE, NULL,
                                (clock_t)timeout);
    return RM_NX_OK(n == (ssize_t)RM_MSG_SIZE) ? RM_OK : RM_NX_WAIT_FAILED(timeout);
}

/* ---- memory --------------------------------------------------------------- */
RM_NX_INLINE int rm_pool_alloc(rm_pool_t p, void **block)
{
    *block = mempool_allocate(&p->pool);
    return RM_NX_OK(*block != NULL) ? RM_OK : RM_EAGAIN;
}

RM_NX_INLINE int rm_pool_free(rm_pool_t p, void *block)
{
    mempool_release(&p->pool, block);
    return RM_OK;
}

RM_NX_INLINE int rm_heap_alloc(size_t size, void **mem)
{
    *mem = kmm_malloc(size);
    return RM_NX_OK(*mem != NULL) ? RM_OK : RM_EAGAIN;
}

RM_NX_INLINE int rm_heap_free(void *mem)
{
    kmm_free(mem);
    return RM_OK;
}

/* ---- interrupts (both interrupt-safe in NuttX) ----------------------------- */
RM_NX_INLINE int rm_isr_resume(rm_thread_t t)
{
    return RM_NX_OK(nxsig_kill(t->pid, SIGCONT) == 0) ? RM_OK : RM_ERROR;
}

RM_NX_INLINE int rm_isr_sem_signal(rm_obj_t o)
{
    return RM_NX_OK(nxsem_post(&o->h.sem) == 0) ? RM_OK : RM_EAGAIN;
}

#endif /* RM_PORT_INLINE_H */
