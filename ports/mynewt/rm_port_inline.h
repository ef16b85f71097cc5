/* Apache Mynewt port: the measured calls of port.h, inline, so that each
 * measured interval holds the Mynewt kernel call alone (port.h, "the port's
 * inline calls"). Set-up calls are in port.c.
 *
 * - Timeouts: kernel ticks; RM_FOREVER is OS_TIMEOUT_NEVER (UINT32_MAX, also
 *   the "forever" of os_sem_pend, os_mutex_pend and os_eventq_poll).
 * - Status: os_error_t is OS_OK (0) on success, tested first; a wait that
 *   expires returns OS_TIMEOUT (RM_EAGAIN for RM_NO_WAIT, as port.h asks).
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
};

struct rm_pool {
    struct os_mempool mp;
};

static inline int mn_wait_status(os_error_t rc, uint32_t timeout)
{
    if (__builtin_expect(rc == OS_OK, 1)) {
        return RM_OK;
    }
    if (rc == OS_TIMEOUT) {
        return timeout == RM_NO_WAIT ? RM_EAGAIN : RM_ETIMEOUT;
    }
    return RM_ERROR;
}

static inline int rm_sem_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return os_sem_release(&o->u.sem) == OS_OK ? RM_OK : RM_ERROR;
}

static inline int rm_sem_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return mn_wait_status(os_sem_pend(&o->u.sem, timeout), timeout);
}

static inline int rm_mutex_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return os_mutex_release(&o->u.mutex) == OS_OK ? RM_OK : RM_ERROR;
}

static inline int rm_mutex_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return mn_wait_status(os_mutex_pend(&o->u.mutex, timeout), timeout);
}

/* The sender takes a free item (the list is only touched by the two ends of
 * one case, never from an interrupt) and queues it. */
static inline int rm_fifo_signal(rm_obj_t o, const rm_msg_t *msg)
{
    struct rm_item *it = o->u.fifo.free;
    if (__builtin_expect(it == NULL, 0)) {
        return RM_EAGAIN;
    }
    o->u.fifo.free = it->next_free;
    it->msg = *msg;
    os_eventq_put(&o->u.fifo.q, &it->ev);
    return RM_OK;
}

static inline int rm_fifo_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    struct os_event *ev = os_eventq_poll(&o->u.fifo.qp, 1, timeout);
    if (__builtin_expect(ev == NULL, 0)) {
        return timeout == RM_NO_WAIT ? RM_EAGAIN : RM_ETIMEOUT;
    }
    struct rm_item *it = (struct rm_item *)ev;
    *msg = it->msg;
    it->next_free = o->u.fifo.free;
    o->u.fifo.free = it;
    return RM_OK;
}

/* Mynewt has no task-suspend call: a thread is suspended with the
 * scheduler's own endless sleep (the caller with os_time_delay, a ready
 * thread with os_sched_sleep) and resumed with os_sched_wakeup + os_sched
 * (what os_sem_release does for a waiting task). A thread blocked on an
 * object cannot be suspended (RM_ENOTSUP). CFG stand_in.SUSPEND says so at
 * every number that needs it. */
static inline int rm_thread_suspend(rm_thread_t t)
{
    if (&t->task == os_sched_get_current_task()) {
        os_time_delay(OS_TIMEOUT_NEVER);
        return RM_OK;
    }
    os_sr_t sr;
    OS_ENTER_CRITICAL(sr);
    int rc = t->task.t_state == OS_TASK_READY ? os_sched_sleep(&t->task, OS_TIMEOUT_NEVER)
                                              : OS_EINVAL;
    OS_EXIT_CRITICAL(sr);
    return rc == OS_OK ? RM_OK : RM_ENOTSUP;
}

static inline int rm_thread_resume(rm_thread_t t)
{
    os_sr_t sr;
    OS_ENTER_CRITICAL(sr);
    if (t->task.t_state == OS_TASK_SLEEP && (t->task.t_flags & OS_TASK_FLAG_NO_TIMEOUT)) {
        (void)os_sched_wakeup(&t->task);
    }
    OS_EXIT_CRITICAL(sr);
    os_sched(NULL);
    return RM_OK;
}

static inline int rm_pool_alloc(rm_pool_t p, void **block)
{
    void *b = os_memblock_get(&p->mp);
    *block = b;
    return b != NULL ? RM_OK : RM_EAGAIN;
}

static inline int rm_pool_free(rm_pool_t p, void *block)
{
    return os_memblock_put(&p->mp, block) == OS_OK ? RM_OK : RM_ERROR;
}

static inline int rm_heap_alloc(size_t size, void **mem)
{
    void *m = os_malloc(size);
    *mem = m;
    return m != NULL ? RM_OK : RM_EAGAIN;
}

static inline int rm_heap_free(void *mem)
{
    os_free(mem);
    return RM_OK;
}

#endif /* RM_PORT_INLINE_H */
