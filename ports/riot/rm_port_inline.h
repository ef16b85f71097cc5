/* RIOT port: the measured calls of port.h, inline, so that each measured
 * interval holds the RIOT call alone (port.h, "the port's inline calls").
 * Set-up calls (create, delete, sleep, ...) are in port.c.
 *
 * - Timeouts: the wait calls pick RIOT's blocking call for RM_FOREVER and
 *   its timed or non-blocking variant otherwise (the case loads the timeout
 *   before the first timestamp: one compare decides, as a RIOT user writes
 *   it): SEM sema_wait / sema_wait_timed_ztimer (0 = try); MUTEX mutex_lock
 *   / mutex_trylock / ztimer_mutex_lock_timeout; THREAD_MSG msg_receive /
 *   msg_try_receive / ztimer_msg_receive_timeout; THREAD_FLAGS
 *   thread_flags_wait_any / thread_flags_clear / ztimer_set_timeout_flag +
 *   thread_flags_wait_any(bit 0 | THREAD_FLAG_TIMEOUT) + ztimer_remove.
 *   QUEUE (mbox) and CONDVAR have no timed wait in RIOT: a finite timeout
 *   waits forever (the cases' timeouts never expire; recorded in the CFG).
 * - Status: RIOT's codes differ per call; each call tests success first.
 * - Payload: RIOT's msg_t carries one pointer or 32-bit value, so QUEUE
 *   (mbox) and THREAD_MSG send a msg_t whose content.ptr points to the
 *   16-byte message, and the receiver copies the 16 bytes (the cases keep a
 *   sent message unchanged until it is received).
 * - SUSPEND: RIOT suspends only the caller (thread_sleep). Suspending any
 *   thread is thread_sleep's own three steps on that thread
 *   (irq_disable, sched_set_status(STATUS_SLEEPING), irq_restore, then
 *   thread_yield_higher): a stand-in, recorded as CFG stand_in.SUSPEND.
 *   Resume is thread_wakeup, also from an interrupt.
 * - Interrupts (Cortex-M): RIOT handlers end with cortexm_isr_end(), which
 *   pends PendSV when an interrupt-safe call (sema_post, thread_wakeup)
 *   asked for a switch: RM_PORT_ISR_EXIT. On native, RIOT's signal-based
 *   interrupt layer switches after the handler itself.
 */
#ifndef RM_PORT_INLINE_H
#define RM_PORT_INLINE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "irq.h"
#include "mbox.h"
#include "memarray.h"
#include "msg.h"
#include "mutex.h"
#include "cond.h"
#include "sched.h"
#include "sema.h"
#include "thread.h"
#include "thread_flags.h"
#include "ztimer.h"

#ifndef CPU_NATIVE
#include "cpu.h" /* cortexm_isr_end */
#define RM_PORT_ISR_EXIT() cortexm_isr_end()
#endif

struct rm_thread {
    thread_t *thread; /* RIOT's record, inside the stack */
    kernel_pid_t pid;
    uint8_t used;
    rm_entry_t entry;
    void *arg;
    msg_t msgq[RM_QUEUE_DEPTH];     /* THREAD_MSG queue, set up at creation */
    ztimer_t sleep_timer; /* its sleeps' alarm: off its stack, so delete can disarm it */
};

struct rm_obj {
    rm_obj_kind_t kind;
    uint8_t used;
    union {
        sema_t sem;
        mutex_t mutex;
        struct {
            mbox_t box;
            msg_t q[RM_QUEUE_DEPTH];
        } mbox;
        struct {
            thread_t *owner; /* the thread that waits */
            ztimer_t timer;  /* a timed wait's THREAD_FLAG_TIMEOUT */
        } flags;
        struct {
            kernel_pid_t owner;
        } msg;
        struct {
            cond_t cv;
            mutex_t m;
        } cond;
    } u;
};

struct rm_pool {
    memarray_t ma;
    uint8_t used;
};

#define RM_R_INLINE static inline __attribute__((always_inline))
#define RM_R_FAILED(timeout) ((timeout) == RM_NO_WAIT ? RM_EAGAIN : RM_ETIMEOUT)
/* Success is the expected case: the failure path is laid out of line. */
#define RM_R_OK(cond) __builtin_expect((cond), 1)
#define RM_R_FLAG 1u /* THREAD_FLAGS: bit 0 */

/* ---- threads ---------------------------------------------------------- */
RM_R_INLINE int rm_thread_suspend(rm_thread_t t)
{
    unsigned state = irq_disable();
    sched_set_status(t->thread, STATUS_SLEEPING);
    irq_restore(state);
    thread_yield_higher();
    return RM_OK;
}

RM_R_INLINE int rm_thread_resume(rm_thread_t t)
{
    return RM_R_OK(thread_wakeup(t->pid) == 1) ? RM_OK : RM_ERROR;
}

RM_R_INLINE int rm_thread_yield(void)
{
    thread_yield();
    return RM_OK;
}

/* ---- objects: signal / wait per kind ------------------------------------ */
RM_R_INLINE int rm_sem_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return RM_R_OK(sema_post(&o->u.sem) == 0) ? RM_OK : RM_EAGAIN;
}

RM_R_INLINE int rm_sem_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    int rc = timeout == RM_FOREVER ? sema_wait(&o->u.sem)
                                   : sema_wait_timed_ztimer(&o->u.sem, ZTIMER_MSEC, timeout);
    return RM_R_OK(rc == 0) ? RM_OK : RM_R_FAILED(timeout);
}

RM_R_INLINE int rm_mutex_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    mutex_unlock(&o->u.mutex);
    return RM_OK;
}

RM_R_INLINE int rm_mutex_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    if (timeout == RM_FOREVER) {
        mutex_lock(&o->u.mutex);
        return RM_OK;
    }
    if (timeout == RM_NO_WAIT) {
        return RM_R_OK(mutex_trylock(&o->u.mutex)) ? RM_OK : RM_EAGAIN;
    }
    return RM_R_OK(ztimer_mutex_lock_timeout(ZTIMER_MSEC, &o->u.mutex, timeout) == 0)
               ? RM_OK
               : RM_ETIMEOUT;
}

/* QUEUE: an mbox of RM_QUEUE_DEPTH msg_t. */
RM_R_INLINE int rm_queue_signal(rm_obj_t o, const rm_msg_t *msg)
{
    msg_t m = {.content.ptr = (void *)(uintptr_t)msg};
    return RM_R_OK(mbox_try_put(&o->u.mbox.box, &m) == 1) ? RM_OK : RM_EAGAIN;
}

RM_R_INLINE int rm_queue_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    msg_t m;
    if (timeout == RM_NO_WAIT) {
        if (__builtin_expect(mbox_try_get(&o->u.mbox.box, &m) != 1, 0)) {
            return RM_EAGAIN;
        }
    } else {
        mbox_get(&o->u.mbox.box, &m);
    }
    *msg = *(const rm_msg_t *)m.content.ptr;
    return RM_OK;
}

/* CONDVAR: cond_signal needs no mutex; the wait holds the port's own. */
RM_R_INLINE int rm_condvar_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    cond_signal(&o->u.cond.cv);
    return RM_OK;
}

RM_R_INLINE int rm_condvar_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    (void)timeout;
    mutex_lock(&o->u.cond.m);
    cond_wait(&o->u.cond.cv, &o->u.cond.m);
    mutex_unlock(&o->u.cond.m);
    return RM_OK;
}

/* THREAD_MSG: msg_try_send to the owner's queue (RM_QUEUE_DEPTH messages,
 * set up at its creation), so a send with nobody waiting does not block. */
RM_R_INLINE int rm_thread_msg_signal(rm_obj_t o, const rm_msg_t *msg)
{
    msg_t m = {.content.ptr = (void *)(uintptr_t)msg};
    return RM_R_OK(msg_try_send(&m, o->u.msg.owner) == 1) ? RM_OK : RM_EAGAIN;
}

RM_R_INLINE int rm_thread_msg_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)o;
    msg_t m;
    int rc;
    if (timeout == RM_FOREVER) {
        rc = msg_receive(&m) == 1;
    } else if (timeout == RM_NO_WAIT) {
        rc = msg_try_receive(&m) == 1;
    } else {
        rc = ztimer_msg_receive_timeout(ZTIMER_MSEC, &m, timeout) >= 0;
    }
    if (__builtin_expect(!rc, 0)) {
        return RM_R_FAILED(timeout);
    }
    *msg = *(const rm_msg_t *)m.content.ptr;
    return RM_OK;
}

RM_R_INLINE int rm_thread_flags_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    thread_flags_set(o->u.flags.owner, RM_R_FLAG);
    return RM_OK;
}

RM_R_INLINE int rm_thread_flags_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    if (timeout == RM_FOREVER) {
        (void)thread_flags_wait_any(RM_R_FLAG);
        return RM_OK;
    }
    if (timeout == RM_NO_WAIT) {
        return RM_R_OK(thread_flags_clear(RM_R_FLAG) != 0u) ? RM_OK : RM_EAGAIN;
    }
    ztimer_set_timeout_flag(ZTIMER_MSEC, &o->u.flags.timer, timeout);
    thread_flags_t got = thread_flags_wait_any(RM_R_FLAG | THREAD_FLAG_TIMEOUT);
    ztimer_remove(ZTIMER_MSEC, &o->u.flags.timer);
    return RM_R_OK((got & RM_R_FLAG) != 0u) ? RM_OK : RM_ETIMEOUT;
}

/* ---- memory --------------------------------------------------------------- */
RM_R_INLINE int rm_pool_alloc(rm_pool_t p, void **block)
{
    *block = memarray_alloc(&p->ma);
    return RM_R_OK(*block != NULL) ? RM_OK : RM_EAGAIN;
}

RM_R_INLINE int rm_pool_free(rm_pool_t p, void *block)
{
    memarray_free(&p->ma, block);
    return RM_OK;
}

RM_R_INLINE int rm_heap_alloc(size_t size, void **mem)
{
    *mem = malloc(size);
    return RM_R_OK(*mem != NULL) ? RM_OK : RM_EAGAIN;
}

RM_R_INLINE int rm_heap_free(void *mem)
{
    free(mem);
    return RM_OK;
}

/* ---- interrupts ------------------------------------------------------------ */
RM_R_INLINE int rm_isr_resume(rm_thread_t t)
{
    return RM_R_OK(thread_wakeup(t->pid) == 1) ? RM_OK : RM_ERROR;
}

RM_R_INLINE int rm_isr_sem_signal(rm_obj_t o)
{
    return RM_R_OK(sema_post(&o->u.sem) == 0) ? RM_OK : RM_EAGAIN;
}

#endif /* RM_PORT_INLINE_H */
