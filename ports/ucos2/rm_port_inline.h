/* µC/OS-II port: the measured calls of port.h, inline, so that each measured
 * interval holds the µC/OS-II call alone (port.h, "the port's inline calls").
 * Set-up calls (create, delete, ...) are in port.c.
 *
 * - Handles: µC/OS-II addresses a task by its priority, so struct rm_thread
 *   holds the native priority; objects hold the OS_EVENT / OS_FLAG_GRP /
 *   OS_MEM pointer the kernel returned.
 * - Timeouts: µC/OS-II's 0 means "for ever" and it has no "no wait" pend:
 *   RM_FOREVER becomes 0 and RM_NO_WAIT calls the kernel's Accept variant.
 *   When the timeout is a constant (every case but s2) both tests fold away;
 *   otherwise they are a compare and a select before the call.
 * - Messages: µC/OS-II mailboxes and queues carry one pointer. A signal
 *   posts a pointer to the sender's 16-byte message, and a wait copies the
 *   16 bytes it points to into the receiver's when the kernel returned one
 *   (a test of the returned pointer and four words: the only work of the
 *   port's own in a measured interval, and the receiver's copy that every
 *   kernel which copies messages does inside its own call).
 * - Status (port.h, "measured calls and their status"): a _raw call returns
 *   µC/OS-II's own status: the INT8U error code a call returns or stores
 *   through its `err` out-parameter (then loaded from the caller's frame
 *   after the call), or, for the Accept variants that report none, what
 *   they return (a count, OS_TRUE, a message pointer: 0 means nothing
 *   there). Its _rc tests OS_ERR_NONE first; a failure goes through
 *   rm_uc2_failure() (port.c, const: an ignored status costs nothing).
 * - Interrupts: µC/OS-II needs OSIntEnter/OSIntExit around every handler
 *   that calls the kernel; OSIntEnter's increment of OSIntNesting is done
 *   with interrupts masked, as the kernel's own SysTick handler does
 *   (os_cpu_c.c, OS_CPU_SysTickHandler). OSIntExit switches to a more urgent
 *   ready task by pending PendSV. OSTaskResume and OSSemPost are legal in a
 *   handler (they call OS_Sched, which does nothing while OSIntNesting > 0).
 */
#ifndef RM_PORT_INLINE_H
#define RM_PORT_INLINE_H

#include <stdint.h>

#include "ucos_ii.h"

struct rm_thread {
    INT8U prio; /* the native priority: µC/OS-II's task handle */
    INT8U used;
    INT8U level; /* rtosmeter priority it was created at */
    OS_STK *stack;
};

struct rm_obj {
    rm_obj_kind_t kind;
    INT8U used;
    INT8U pip; /* MUTEX: the priority-ceiling priority it reserved */
    union {
        OS_EVENT *ev; /* SEM, MUTEX, MAILBOX, QUEUE, LIFO */
        OS_FLAG_GRP *flags;
    } u;
    void *q_storage[RM_QUEUE_DEPTH];
};

struct rm_pool {
    OS_MEM *mem;
};

/* A failed call's error code as an RM_E* code (cold path, port.c). */
int rm_uc2_failure(INT8U err, uint32_t timeout) __attribute__((const));
/* Clears a message that a wait did not receive (cold path, port.c). */
void rm_uc2_no_msg(rm_msg_t *msg) __attribute__((cold));

#define RM_UC2_INLINE static inline __attribute__((always_inline))
/* Success is the expected case: where a case uses the status, GCC then
 * keeps the failure call's argument set-up on the cold path, out of the
 * measured loop (as in the ThreadX port). */
#define RM_UC2_OK(err) __builtin_expect((err) == OS_ERR_NONE, 1)
#define RM_UC2_TICKS(timeout) ((timeout) == RM_FOREVER ? 0u : (INT32U)(timeout))

/* ---- status translators ---------------------------------------------------- */
/* An error code (returned, or stored through `err`). */
RM_UC2_INLINE int uc2_err_rc(rm_raw_t raw, uint32_t timeout)
{
    return RM_UC2_OK(raw) ? RM_OK : rm_failure(rm_uc2_failure((INT8U)raw, timeout));
}

/* A call that fails only on a misuse (OSMutexPost, OSMemPut). */
RM_UC2_INLINE int uc2_misuse_rc(rm_raw_t raw)
{
    return RM_UC2_OK(raw) ? RM_OK : RM_ERROR;
}

/* A wait: with RM_NO_WAIT the Accept variant's result (0: nothing there),
 * else the Pend call's error code. */
RM_UC2_INLINE int uc2_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    if (timeout == RM_NO_WAIT)
        return __builtin_expect(raw != 0, 1) ? RM_OK : RM_EAGAIN;
    return uc2_err_rc(raw, timeout);
}

/* The received message, where the kernel returned one (NULL: timeout or
 * error, whose code the status carries; the message is then cleared out of
 * line, by a cold function, so that GCC lays the copy on the straight path
 * and never takes the message for unset). */
RM_UC2_INLINE void ucos2_msg_take(rm_msg_t *to, const void *from)
{
    if (__builtin_expect(from != NULL, 1))
        *to = *(const rm_msg_t *)from;
    else
        rm_uc2_no_msg(to);
}

/* ---- threads ---------------------------------------------------------- */
RM_UC2_INLINE rm_raw_t rm_thread_suspend_raw(rm_thread_t t)
{
    return OSTaskSuspend(t->prio);
}

RM_UC2_INLINE int rm_thread_suspend_rc(rm_raw_t raw)
{
    return uc2_err_rc(raw, RM_NO_WAIT);
}

RM_UC2_INLINE rm_raw_t rm_thread_resume_raw(rm_thread_t t)
{
    return OSTaskResume(t->prio);
}

RM_UC2_INLINE int rm_thread_resume_rc(rm_raw_t raw)
{
    return uc2_err_rc(raw, RM_NO_WAIT);
}

/* µC/OS-II gives every task its own priority: there is no equal-priority
 * task to yield to, and no yield call (the default rm_thread_yield_raw
 * says RM_ENOTSUP). */

/* ---- objects ----------------------------------------------------------- */
RM_UC2_INLINE rm_raw_t rm_sem_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return OSSemPost(o->u.ev);
}

RM_UC2_INLINE int rm_sem_signal_rc(rm_raw_t raw)
{
    return uc2_err_rc(raw, RM_NO_WAIT);
}

/* With RM_NO_WAIT: OSSemAccept's count before the take (0: none). */
RM_UC2_INLINE rm_raw_t rm_sem_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    if (timeout == RM_NO_WAIT)
        return OSSemAccept(o->u.ev);
    INT8U err;
    OSSemPend(o->u.ev, RM_UC2_TICKS(timeout), &err);
    return err;
}

RM_UC2_INLINE int rm_sem_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return uc2_wait_rc(raw, timeout);
}

RM_UC2_INLINE rm_raw_t rm_mutex_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return OSMutexPost(o->u.ev);
}

RM_UC2_INLINE int rm_mutex_signal_rc(rm_raw_t raw)
{
    return uc2_misuse_rc(raw);
}

/* With RM_NO_WAIT: OSMutexAccept's OS_TRUE (taken) or OS_FALSE. */
RM_UC2_INLINE rm_raw_t rm_mutex_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    INT8U err;
    if (timeout == RM_NO_WAIT)
        return OSMutexAccept(o->u.ev, &err);
    OSMutexPend(o->u.ev, RM_UC2_TICKS(timeout), &err);
    return err;
}

RM_UC2_INLINE int rm_mutex_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return uc2_wait_rc(raw, timeout);
}

RM_UC2_INLINE rm_raw_t rm_event_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    INT8U err;
    (void)OSFlagPost(o->u.flags, 1u, OS_FLAG_SET, &err);
    return err;
}

RM_UC2_INLINE int rm_event_signal_rc(rm_raw_t raw)
{
    return uc2_err_rc(raw, RM_NO_WAIT);
}

/* With RM_NO_WAIT too the error code: OSFlagAccept reports one. */
RM_UC2_INLINE rm_raw_t rm_event_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    INT8U err;
    if (timeout == RM_NO_WAIT) {
        (void)OSFlagAccept(o->u.flags, 1u, OS_FLAG_WAIT_SET_ANY + OS_FLAG_CONSUME, &err);
    } else {
        (void)OSFlagPend(o->u.flags, 1u, OS_FLAG_WAIT_SET_ANY + OS_FLAG_CONSUME,
                         RM_UC2_TICKS(timeout), &err);
    }
    return err;
}

RM_UC2_INLINE int rm_event_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return uc2_err_rc(raw, timeout);
}

RM_UC2_INLINE rm_raw_t rm_mailbox_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    /* The kernel's API is not const-correct; the message is only read. */
    return OSMboxPost(o->u.ev, (void *)(uintptr_t)msg);
}

RM_UC2_INLINE int rm_mailbox_signal_rc(rm_raw_t raw)
{
    return uc2_err_rc(raw, RM_NO_WAIT);
}

/* With RM_NO_WAIT: OSMboxAccept's message pointer (NULL: empty). */
RM_UC2_INLINE rm_raw_t rm_mailbox_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    if (timeout == RM_NO_WAIT) {
        void *p = OSMboxAccept(o->u.ev);
        ucos2_msg_take(msg, p);
        return (rm_raw_t)p;
    }
    INT8U err;
    void *p = OSMboxPend(o->u.ev, RM_UC2_TICKS(timeout), &err);
    ucos2_msg_take(msg, p);
    return err;
}

RM_UC2_INLINE int rm_mailbox_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return uc2_wait_rc(raw, timeout);
}

RM_UC2_INLINE rm_raw_t rm_queue_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    return OSQPost(o->u.ev, (void *)(uintptr_t)msg);
}

RM_UC2_INLINE int rm_queue_signal_rc(rm_raw_t raw)
{
    return uc2_err_rc(raw, RM_NO_WAIT);
}

/* With RM_NO_WAIT too the error code: OSQAccept reports one. */
RM_UC2_INLINE rm_raw_t rm_queue_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    INT8U err;
    void *p;
    if (timeout == RM_NO_WAIT)
        p = OSQAccept(o->u.ev, &err);
    else
        p = OSQPend(o->u.ev, RM_UC2_TICKS(timeout), &err);
    ucos2_msg_take(msg, p);
    return err;
}

RM_UC2_INLINE int rm_queue_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return uc2_err_rc(raw, timeout);
}

/* LIFO: the same queue posted at its front (OSQPostFront, the kernel's
 * own call: the receiver gets the newest message). */
RM_UC2_INLINE rm_raw_t rm_lifo_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    return OSQPostFront(o->u.ev, (void *)(uintptr_t)msg);
}

RM_UC2_INLINE int rm_lifo_signal_rc(rm_raw_t raw)
{
    return uc2_err_rc(raw, RM_NO_WAIT);
}

RM_UC2_INLINE rm_raw_t rm_lifo_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return rm_queue_wait_raw(o, msg, timeout);
}

RM_UC2_INLINE int rm_lifo_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return uc2_err_rc(raw, timeout);
}

/* ---- memory -------------------------------------------------------------- */
/* The status is the block itself, in the return register: OSMemGet gives
 * NULL exactly when it fails, which is for want of a free block but where
 * an argument check catches a misuse (the vendor profile). Its `err`, left
 * unread, would cost a load inside the interval. */
RM_UC2_INLINE rm_raw_t rm_pool_alloc_raw(rm_pool_t p, void **block)
{
    (void)block; /* delivered by the translator */
    INT8U err;
    void *got = OSMemGet(p->mem, &err);
    return (rm_raw_t)got;
}

RM_UC2_INLINE int rm_pool_alloc_rc(rm_raw_t raw, void **block)
{
    return rm_block_rc(raw, block);
}

RM_UC2_INLINE rm_raw_t rm_pool_free_raw(rm_pool_t p, void *block)
{
    return OSMemPut(p->mem, block);
}

RM_UC2_INLINE int rm_pool_free_rc(rm_raw_t raw)
{
    return uc2_misuse_rc(raw);
}

/* ---- interrupts ------------------------------------------------------------ */
RM_UC2_INLINE int rm_isr_resume(rm_thread_t t)
{
    return uc2_err_rc(OSTaskResume(t->prio), RM_NO_WAIT);
}

RM_UC2_INLINE int rm_isr_sem_signal(rm_obj_t o)
{
    return uc2_err_rc(OSSemPost(o->u.ev), RM_NO_WAIT);
}

#define RM_PORT_ISR_ENTER()                                               \
    do {                                                                  \
        OS_CPU_SR cpu_sr;                                                 \
        OS_ENTER_CRITICAL();                                              \
        OSIntEnter();                                                     \
        OS_EXIT_CRITICAL();                                               \
    } while (0)
#define RM_PORT_ISR_EXIT() OSIntExit()

#endif /* RM_PORT_INLINE_H */
