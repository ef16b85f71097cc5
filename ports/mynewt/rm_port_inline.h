/* Apache Mynewt port: the measured calls of port.h, inline, so that each
 * measured interval holds the Mynewt kernel call alone (port.h, "the port's
 * inline calls"). Set-up calls are in port.c.
 *
 * - Timeouts: kernel ticks; RM_FOREVER is OS_TIMEOUT_NEVER (UINT32_MAX, also
 *   the "forever" of os_sem_pend, os_mutex_pend and os_eventq_poll).
 * - Status: each measured call returns Mynewt's own status untranslated
 *   (an os_error_t, OS_OK (0) on success, or the pointer it got); its _rc
 *   translator tests success first. A wait that expires returns OS_TIMEOUT
 *   (RM_EAGAIN for RM_NO_WAIT, as port.h asks).
 * - FIFO is an os_eventq: a message travels in a port-owned struct os_event
 *   (an event can be queued once at a time, so each object owns
 *   RM_QUEUE_DEPTH of them), as Zephyr's k_fifo carries port-owned items.
 */
#ifndef RM_PORT_INLINE_H
#define RM_PORT_INLINE_H

#include <string.h>

#include "os/mynewt.h"
#include "os/os_heap.h"

_Static_assert((os_time_t)RM_FOREVER == (os_time_t)OS_TIMEOUT_NEVER,
               "RM_FOREVER must be Mynewt's OS_TIMEOUT_NEVER");

struct rm_thread {
    struct os_task task; /* first: the current task is the current rm_thread */
    rm_entry_t entry;
    void *arg;
    os_stack_t *stack;
    uint8_t used; /* port.c's slot table (rtosmeter/port_slots.h) */
};

struct rm_item {
    struct os_event ev;
    rm_msg_t msg;
    struct rm_item *next_free;
};

struct rm_obj {
    rm_obj_kind_t kind;
    union {
        struct os_sem sem;
        struct os_mutex mutex;
        struct {
            struct os_eventq q;
            struct os_eventq *qp; /* os_eventq_poll takes an array of queues */
            struct rm_item *free;
            struct rm_item items[RM_QUEUE_DEPTH];
        } fifo;
    } u;
    uint8_t used; /* port.c's slot table (rtosmeter/port_slots.h) */
};

struct rm_pool {
    struct os_mempool mp;
};

/* Success is the expected case: the failure path goes out of line. */
#define RM_MN_OK(cond) __builtin_expect((cond), 1)

/* ---- status translators ---------------------------------------------------- */
/* An os_error_t: OS_OK, or OS_TIMEOUT for a wait that expired. */
static inline int mn_wait_status(rm_raw_t raw, uint32_t timeout)
{
    if (RM_MN_OK(raw == OS_OK)) {
        return RM_OK;
    }
    return raw == OS_TIMEOUT ? rm_wait_failed(timeout) : RM_ERROR;
}

static inline int mn_done_status(rm_raw_t raw)
{
    return RM_MN_OK(raw == OS_OK) ? RM_OK : RM_ERROR;
}

/* ---- objects: signal / wait per kind ------------------------------------ */
static inline rm_raw_t rm_sem_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return os_sem_release(&o->u.sem);
}

static inline int rm_sem_signal_rc(rm_raw_t raw)
{
    return mn_done_status(raw);
}

static inline rm_raw_t rm_sem_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return os_sem_pend(&o->u.sem, timeout);
}

static inline int rm_sem_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return mn_wait_status(raw, timeout);
}

static inline rm_raw_t rm_mutex_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return os_mutex_release(&o->u.mutex);
}

static inline int rm_mutex_signal_rc(rm_raw_t raw)
{
    return mn_done_status(raw);
}

static inline rm_raw_t rm_mutex_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return os_mutex_pend(&o->u.mutex, timeout);
}

static inline int rm_mutex_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return mn_wait_status(raw, timeout);
}

/* The sender takes a free item (the list is only touched by the two ends of
 * one case, never from an interrupt) and queues it: OS_ENOMEM when none is
 * free. os_eventq_put returns nothing: OS_OK. The item bookkeeping stays in
 * the interval on both sides: it is the message copy a queue kernel does in
 * its own call, and Mynewt's event queue carries no data. */
static inline rm_raw_t rm_fifo_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    struct rm_item *it = o->u.fifo.free;
    if (__builtin_expect(it == NULL, 0)) {
        return OS_ENOMEM;
    }
    o->u.fifo.free = it->next_free;
    it->msg = *msg;
    os_eventq_put(&o->u.fifo.q, &it->ev);
    return OS_OK;
}

static inline int rm_fifo_signal_rc(rm_raw_t raw)
{
    return RM_MN_OK(raw == OS_OK) ? RM_OK : RM_EAGAIN;
}

/* The event received (NULL: none came) is the status; its message is copied
 * out and the item returned before the closing read (see the sender). */
static inline rm_raw_t rm_fifo_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    struct os_event *ev = os_eventq_poll(&o->u.fifo.qp, 1, timeout);
    if (RM_MN_OK(ev != NULL)) {
        struct rm_item *it = (struct rm_item *)ev;
        *msg = it->msg;
        it->next_free = o->u.fifo.free;
        o->u.fifo.free = it;
    }
    return (rm_raw_t)ev;
}

static inline int rm_fifo_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rm_wait_rc(raw != 0, timeout);
}

/* ---- threads ---------------------------------------------------------- */
/* Mynewt has no task-suspend call: a thread is suspended with the
 * scheduler's own endless sleep (the caller with os_time_delay, a ready
 * thread with os_sched_sleep) and resumed with os_sched_wakeup + os_sched
 * (what os_sem_release does for a waiting task). A thread blocked on an
 * object cannot be suspended (OS_EINVAL: RM_ENOTSUP). CFG stand_in.SUSPEND
 * says so at every number that needs it: the choice of call and the state
 * test are part of that stand-in. */
static inline rm_raw_t rm_thread_suspend_raw(rm_thread_t t)
{
    if (&t->task == os_sched_get_current_task()) {
        os_time_delay(OS_TIMEOUT_NEVER);
        return OS_OK;
    }
    os_sr_t sr;
    OS_ENTER_CRITICAL(sr);
    int rc = t->task.t_state == OS_TASK_READY ? os_sched_sleep(&t->task, OS_TIMEOUT_NEVER)
                                              : OS_EINVAL;
    OS_EXIT_CRITICAL(sr);
    return rc;
}

static inline int rm_thread_suspend_rc(rm_raw_t raw)
{
    return RM_MN_OK(raw == OS_OK) ? RM_OK : RM_ENOTSUP;
}

/* os_sched returns nothing: raw is 0. */
static inline rm_raw_t rm_thread_resume_raw(rm_thread_t t)
{
    os_sr_t sr;
    OS_ENTER_CRITICAL(sr);
    if (t->task.t_state == OS_TASK_SLEEP && (t->task.t_flags & OS_TASK_FLAG_NO_TIMEOUT)) {
        (void)os_sched_wakeup(&t->task);
    }
    OS_EXIT_CRITICAL(sr);
    os_sched(NULL);
    return 0;
}

static inline int rm_thread_resume_rc(rm_raw_t raw)
{
    (void)raw;
    return RM_OK;
}

/* ---- memory --------------------------------------------------------------- */
/* The block or memory pointer is the status, delivered to the caller by the
 * translator (NULL: none left). */
static inline rm_raw_t rm_pool_alloc_raw(rm_pool_t p, void **block)
{
    (void)block; /* delivered by the translator */
    void *b = os_memblock_get(&p->mp);
    return (rm_raw_t)b;
}

static inline int rm_pool_alloc_rc(rm_raw_t raw, void **block)
{
    return rm_block_rc(raw, block);
}

static inline rm_raw_t rm_pool_free_raw(rm_pool_t p, void *block)
{
    return os_memblock_put(&p->mp, block);
}

static inline int rm_pool_free_rc(rm_raw_t raw)
{
    return mn_done_status(raw);
}

/* HEAP: os_malloc / os_free; the pointer is alloc's status, delivered to the
 * caller by the translator (NULL: no memory). */
RM_HEAP_MALLOC_LIKE(static inline, os_malloc, os_free)

#endif /* RM_PORT_INLINE_H */
