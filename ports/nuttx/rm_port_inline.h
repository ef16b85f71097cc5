/* NuttX port: the measured calls of port.h, inline, so that each measured
 * interval holds the NuttX call alone (port.h, "the port's inline calls").
 * Set-up calls (create, delete, ...) are in port.c.
 *
 * - The calls are NuttX's internal kernel interfaces (nxsem_*, nxmutex_*,
 *   nxevent_*, file_mq_*, nxsig_kill, mempool_*), which a flat build lets an
 *   application call: no errno, no cancellation point, no POSIX layer. They
 *   return 0 (or a count, a mask, a pointer) on success, a negated errno on
 *   failure. Each measured call returns that status untranslated (its
 *   _raw half); its _rc translator tests success first (port.h).
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
/* Success is the expected case: the failure path goes out of line. */
#define RM_NX_OK(cond) __builtin_expect((cond), 1)
/* Where the timeout is not a constant (the shared pass body reads it), the
 * blocking call, which the cases time, is laid out to fall through to the
 * closing read (no branch after it). */
#define RM_NX_FOREVER(timeout) __builtin_expect((timeout) == RM_FOREVER, 1)

/* ---- threads ---------------------------------------------------------- */
/* nxsched_suspend returns nothing: raw is 0. */
RM_NX_INLINE rm_raw_t rm_thread_suspend_raw(rm_thread_t t)
{
    nxsched_suspend(t->tcb);
    return 0;
}

RM_NX_INLINE int rm_thread_suspend_rc(rm_raw_t raw)
{
    (void)raw;
    return RM_OK;
}

RM_NX_INLINE rm_raw_t rm_thread_resume_raw(rm_thread_t t)
{
    return nxsig_kill(t->pid, SIGCONT);
}

RM_NX_INLINE int rm_thread_resume_rc(rm_raw_t raw)
{
    return RM_NX_OK(raw == 0) ? RM_OK : RM_ERROR;
}

RM_NX_INLINE rm_raw_t rm_thread_yield_raw(void)
{
    return sched_yield();
}

RM_NX_INLINE int rm_thread_yield_rc(rm_raw_t raw)
{
    return RM_NX_OK(raw == 0) ? RM_OK : RM_ERROR;
}

/* ---- status translators ---------------------------------------------------- */
/* 0 (or the expected count) is success; a negated errno is not. */
RM_NX_INLINE int nx_sent_rc(rm_raw_t raw, rm_raw_t ok, int failed)
{
    return RM_NX_OK(raw == ok) ? RM_OK : failed;
}

RM_NX_INLINE int nx_received_rc(rm_raw_t raw, rm_raw_t ok, uint32_t timeout)
{
    return rm_wait_rc(raw == ok, timeout);
}

/* ---- objects: signal / wait per kind ------------------------------------ */
RM_NX_INLINE rm_raw_t rm_sem_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return nxsem_post(&o->h.sem);
}

RM_NX_INLINE int rm_sem_signal_rc(rm_raw_t raw)
{
    return nx_sent_rc(raw, 0, RM_EAGAIN);
}

RM_NX_INLINE rm_raw_t rm_sem_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    if (RM_NX_FOREVER(timeout))
        return nxsem_wait(&o->h.sem);
    if (timeout == RM_NO_WAIT)
        return nxsem_trywait(&o->h.sem);
    return nxsem_tickwait(&o->h.sem, timeout);
}

RM_NX_INLINE int rm_sem_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return nx_received_rc(raw, 0, timeout);
}

RM_NX_INLINE rm_raw_t rm_mutex_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return nxmutex_unlock(&o->h.mutex);
}

RM_NX_INLINE int rm_mutex_signal_rc(rm_raw_t raw)
{
    return nx_sent_rc(raw, 0, RM_ERROR);
}

RM_NX_INLINE rm_raw_t rm_mutex_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    if (RM_NX_FOREVER(timeout))
        return nxmutex_lock(&o->h.mutex);
    if (timeout == RM_NO_WAIT)
        return nxmutex_trylock(&o->h.mutex);
    return nxmutex_ticklock(&o->h.mutex, timeout);
}

RM_NX_INLINE int rm_mutex_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return nx_received_rc(raw, 0, timeout);
}

RM_NX_INLINE rm_raw_t rm_event_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return nxevent_post(&o->h.event, 1u, 0u);
}

RM_NX_INLINE int rm_event_signal_rc(rm_raw_t raw)
{
    return nx_sent_rc(raw, 0, RM_ERROR);
}

/* Waits for bit 0 and returns the mask it got; nxevent clears what it
 * returns (no NXEVENT_WAIT_NOCLEAR). */
RM_NX_INLINE rm_raw_t rm_event_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    if (RM_NX_FOREVER(timeout))
        return (rm_raw_t)nxevent_wait(&o->h.event, 1u, 0u);
    if (timeout == RM_NO_WAIT)
        return (rm_raw_t)nxevent_trywait(&o->h.event, 1u, 0u);
    return (rm_raw_t)nxevent_tickwait(&o->h.event, 1u, 0u, timeout);
}

RM_NX_INLINE int rm_event_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return nx_received_rc(raw & 1, 1, timeout);
}

RM_NX_INLINE rm_raw_t rm_queue_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    return file_mq_send(&o->h.mq.nowait, (const char *)msg, RM_MSG_SIZE, 0u);
}

RM_NX_INLINE int rm_queue_signal_rc(rm_raw_t raw)
{
    return nx_sent_rc(raw, 0, RM_EAGAIN);
}

/* file_mq_receive returns the bytes received. */
RM_NX_INLINE rm_raw_t rm_queue_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    if (RM_NX_FOREVER(timeout))
        return file_mq_receive(&o->h.mq.wait, (char *)msg, RM_MSG_SIZE, NULL);
    if (timeout == RM_NO_WAIT)
        return file_mq_receive(&o->h.mq.nowait, (char *)msg, RM_MSG_SIZE, NULL);
    return file_mq_tickreceive(&o->h.mq.wait, (char *)msg, RM_MSG_SIZE, NULL,
                               (clock_t)timeout);
}

RM_NX_INLINE int rm_queue_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return nx_received_rc(raw, RM_MSG_SIZE, timeout);
}

/* ---- memory --------------------------------------------------------------- */
/* The allocators' pointer is the status, delivered to the caller by the
 * translator (NULL: none left). */
RM_NX_INLINE rm_raw_t rm_pool_alloc_raw(rm_pool_t p, void **block)
{
    (void)block; /* delivered by the translator */
    void *b = mempool_allocate(&p->pool);
    return (rm_raw_t)b;
}

RM_NX_INLINE int rm_pool_alloc_rc(rm_raw_t raw, void **block)
{
    return rm_block_rc(raw, block);
}

/* mempool_release returns nothing: raw is 0. */
RM_NX_INLINE rm_raw_t rm_pool_free_raw(rm_pool_t p, void *block)
{
    mempool_release(&p->pool, block);
    return 0;
}

RM_NX_INLINE int rm_pool_free_rc(rm_raw_t raw)
{
    (void)raw;
    return RM_OK;
}

/* HEAP: kmm_malloc / kmm_free; the pointer is alloc's status, delivered to the
 * caller by the translator (NULL: no memory). */
RM_HEAP_MALLOC_LIKE(RM_NX_INLINE, kmm_malloc, kmm_free)

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
