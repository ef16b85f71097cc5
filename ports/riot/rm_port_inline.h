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
 * - Status: each measured call returns RIOT's own result (its codes differ
 *   per call: 0, 1, the flags, a pointer); its _rc translator tests success
 *   first, so the caller's own success test is the only branch (port.h).
 * - Payload: RIOT's msg_t carries one pointer or 32-bit value, so QUEUE
 *   (mbox) and THREAD_MSG send a msg_t whose content.ptr points to the
 *   16-byte message, and the receiver copies the 16 bytes (the cases keep a
 *   sent message unchanged until it is received): the copy is the receive
 *   itself, inside the wait's interval (its _rc cannot reach msg).
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
    /* its sleeps' alarm, off its stack so that delete can disarm it: a
     * sleep's on ZTIMER_MSEC, a periodic wake-up's on ZTIMER_USEC (one alarm:
     * a sleeping thread is in one of them; the microbit's RAM has no room for two) */
    ztimer_t sleep_timer;
    uint8_t sleep_usec; /* the alarm is on ZTIMER_USEC */
    uint8_t period_on;
    uint32_t period_ms; /* the schedule's last *wake (ms), continued while it matches */
    uint32_t period_us; /* ... and that wake-up on ZTIMER_USEC */
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
/* Success is the expected case: the failure path is laid out of line. */
#define RM_R_OK(cond) __builtin_expect((cond), 1)
#define RM_R_FLAG 1u /* THREAD_FLAGS: bit 0 */

/* ---- status translators ------------------------------------------------ */
/* A call that returns nothing (raw 0) or a status with no failure. */
RM_R_INLINE int rmr_done_rc(rm_raw_t raw)
{
    (void)raw;
    return RM_OK;
}

/* RIOT's "1: done" (thread_wakeup, mbox_try_put, msg_try_send). */
RM_R_INLINE int rmr_one_rc(rm_raw_t raw, int failed)
{
    return RM_R_OK(raw == 1) ? RM_OK : failed;
}

/* ---- threads ---------------------------------------------------------- */
/* The SUSPEND stand-in and thread_yield return nothing: raw is 0. The
 * switch is asked for (PendSV, masked) before the status changes, so that
 * the stand-in ends with irq_restore, where the switch happens: the same
 * steps as thread_sleep's, and only that one instruction of RIOT's after
 * its last call (sched_set_status). */
RM_R_INLINE rm_raw_t rm_thread_suspend_raw(rm_thread_t t)
{
    unsigned state = irq_disable();
    thread_yield_higher();
    sched_set_status(t->thread, STATUS_SLEEPING);
    irq_restore(state);
    return 0;
}

RM_R_INLINE int rm_thread_suspend_rc(rm_raw_t raw) { return rmr_done_rc(raw); }

/* thread_wakeup: 1 = woken, else the thread was not sleeping. */
RM_R_INLINE rm_raw_t rm_thread_resume_raw(rm_thread_t t)
{
    return thread_wakeup(t->pid);
}

RM_R_INLINE int rm_thread_resume_rc(rm_raw_t raw) { return rmr_one_rc(raw, RM_ERROR); }

RM_R_INLINE rm_raw_t rm_thread_yield_raw(void)
{
    thread_yield();
    return 0;
}

RM_R_INLINE int rm_thread_yield_rc(rm_raw_t raw) { return rmr_done_rc(raw); }

/* ---- objects: signal / wait per kind ------------------------------------ */
/* sema_post: 0, or -EOVERFLOW at the count's limit. */
RM_R_INLINE rm_raw_t rm_sem_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return sema_post(&o->u.sem);
}

RM_R_INLINE int rm_sem_signal_rc(rm_raw_t raw)
{
    return RM_R_OK(raw == 0) ? RM_OK : RM_EAGAIN;
}

/* Both waits: 0, or -ETIMEDOUT / -EAGAIN. */
RM_R_INLINE rm_raw_t rm_sem_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return timeout == RM_FOREVER ? sema_wait(&o->u.sem)
                                 : sema_wait_timed_ztimer(&o->u.sem, ZTIMER_MSEC, timeout);
}

RM_R_INLINE int rm_sem_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rm_wait_rc(raw == 0, timeout);
}

RM_R_INLINE rm_raw_t rm_mutex_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    mutex_unlock(&o->u.mutex);
    return 0;
}

RM_R_INLINE int rm_mutex_signal_rc(rm_raw_t raw) { return rmr_done_rc(raw); }

/* mutex_lock returns nothing (raw 0), mutex_trylock 1 = locked,
 * ztimer_mutex_lock_timeout 0 = locked: the timeout says which. */
RM_R_INLINE rm_raw_t rm_mutex_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    if (timeout == RM_FOREVER) {
        mutex_lock(&o->u.mutex);
        return 0;
    }
    if (timeout == RM_NO_WAIT) {
        return mutex_trylock(&o->u.mutex);
    }
    return ztimer_mutex_lock_timeout(ZTIMER_MSEC, &o->u.mutex, timeout);
}

RM_R_INLINE int rm_mutex_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    if (timeout == RM_NO_WAIT) {
        return rmr_one_rc(raw, RM_EAGAIN);
    }
    return RM_R_OK(raw == 0) ? RM_OK : RM_ETIMEOUT;
}

/* QUEUE: an mbox of RM_QUEUE_DEPTH msg_t; mbox_try_put: 1 = queued. */
RM_R_INLINE rm_raw_t rm_queue_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    msg_t m = {.content.ptr = (void *)(uintptr_t)msg};
    return mbox_try_put(&o->u.mbox.box, &m);
}

RM_R_INLINE int rm_queue_signal_rc(rm_raw_t raw) { return rmr_one_rc(raw, RM_EAGAIN); }

/* mbox_get and mbox_try_get are _mbox_get, blocking or not: called so,
 * raw is its status (1 = got one, 0 = nothing). The 16-byte copy out of
 * the sender's message is the receive itself (RIOT hands over a pointer),
 * so it is in _raw; when nothing came, m still points to msg, which is then
 * copied onto itself (no test inside the interval). */
RM_R_INLINE rm_raw_t rm_queue_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    msg_t m;
    m.content.ptr = msg;
    int got = _mbox_get(&o->u.mbox.box, &m, timeout == RM_NO_WAIT ? NON_BLOCKING : BLOCKING);
    *msg = *(const rm_msg_t *)m.content.ptr;
    return got;
}

RM_R_INLINE int rm_queue_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    (void)timeout; /* only RM_NO_WAIT can fail */
    return rmr_one_rc(raw, RM_EAGAIN);
}

/* CONDVAR: cond_signal needs no mutex; the wait holds the port's own.
 * All return nothing: raw is 0. */
RM_R_INLINE rm_raw_t rm_condvar_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    cond_signal(&o->u.cond.cv);
    return 0;
}

RM_R_INLINE int rm_condvar_signal_rc(rm_raw_t raw) { return rmr_done_rc(raw); }

RM_R_INLINE rm_raw_t rm_condvar_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    (void)timeout;
    mutex_lock(&o->u.cond.m);
    cond_wait(&o->u.cond.cv, &o->u.cond.m);
    mutex_unlock(&o->u.cond.m);
    return 0;
}

RM_R_INLINE int rm_condvar_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    (void)timeout;
    return rmr_done_rc(raw);
}

/* THREAD_MSG: msg_try_send to the owner's queue (RM_QUEUE_DEPTH messages,
 * set up at its creation), so a send with nobody waiting does not block:
 * 1 = delivered or queued. */
RM_R_INLINE rm_raw_t rm_thread_msg_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    msg_t m = {.content.ptr = (void *)(uintptr_t)msg};
    return msg_try_send(&m, o->u.msg.owner);
}

RM_R_INLINE int rm_thread_msg_signal_rc(rm_raw_t raw) { return rmr_one_rc(raw, RM_EAGAIN); }

/* raw: msg_receive's 1, msg_try_receive's 1 / -1, ztimer_msg_receive_timeout's
 * >= 0 / -ETIME: >= 0 = got one. The 16-byte copy is the receive (queue);
 * only a wait that can fail tests that a message came before copying it
 * (a timed-out one holds ztimer's own message). */
RM_R_INLINE rm_raw_t rm_thread_msg_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)o;
    msg_t m;
    int got;
    if (timeout == RM_FOREVER) {
        got = msg_receive(&m);
    } else {
        got = timeout == RM_NO_WAIT ? msg_try_receive(&m)
                                    : ztimer_msg_receive_timeout(ZTIMER_MSEC, &m, timeout);
        if (__builtin_expect(got < 0, 0)) {
            return got; /* nothing to copy */
        }
    }
    *msg = *(const rm_msg_t *)m.content.ptr;
    return got;
}

RM_R_INLINE int rm_thread_msg_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rm_wait_rc(raw >= 0, timeout);
}

RM_R_INLINE rm_raw_t rm_thread_flags_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    thread_flags_set(o->u.flags.owner, RM_R_FLAG);
    return 0;
}

RM_R_INLINE int rm_thread_flags_signal_rc(rm_raw_t raw) { return rmr_done_rc(raw); }

/* raw: the flags the call returned (thread_flags_wait_any's, or
 * thread_flags_clear's for RM_NO_WAIT): bit 0 set = got it. */
RM_R_INLINE rm_raw_t rm_thread_flags_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    if (timeout == RM_FOREVER) {
        return thread_flags_wait_any(RM_R_FLAG);
    }
    if (timeout == RM_NO_WAIT) {
        return thread_flags_clear(RM_R_FLAG);
    }
    ztimer_set_timeout_flag(ZTIMER_MSEC, &o->u.flags.timer, timeout);
    thread_flags_t got = thread_flags_wait_any(RM_R_FLAG | THREAD_FLAG_TIMEOUT);
    (void)ztimer_remove(ZTIMER_MSEC, &o->u.flags.timer);
    return got;
}

RM_R_INLINE int rm_thread_flags_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rm_wait_rc((raw & RM_R_FLAG) != 0, timeout);
}

/* ---- memory --------------------------------------------------------------- */
/* memarray_alloc's / malloc's pointer is the status, delivered to the caller
 * by the translator (NULL: none). */
RM_R_INLINE rm_raw_t rm_pool_alloc_raw(rm_pool_t p, void **block)
{
    (void)block; /* delivered by the translator */
    void *b = memarray_alloc(&p->ma);
    return (rm_raw_t)b;
}

RM_R_INLINE int rm_pool_alloc_rc(rm_raw_t raw, void **block)
{
    return rm_block_rc(raw, block);
}

RM_R_INLINE rm_raw_t rm_pool_free_raw(rm_pool_t p, void *block)
{
    memarray_free(&p->ma, block);
    return 0;
}

RM_R_INLINE int rm_pool_free_rc(rm_raw_t raw) { return rmr_done_rc(raw); }

/* HEAP: malloc / free; the pointer is alloc's status, delivered to the
 * caller by the translator (NULL: no memory). */
RM_HEAP_MALLOC_LIKE(RM_R_INLINE, malloc, free)

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
