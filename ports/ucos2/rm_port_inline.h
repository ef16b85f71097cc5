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
 *   16 bytes it points to into the receiver's (four words: the only work of
 *   the port's own in a measured interval, and the receiver's copy that
 *   every kernel which copies messages does inside its own call).
 * - Status: each call tests OS_ERR_NONE first; a failure goes through
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

#define RM_UC2_INLINE static inline __attribute__((always_inline))
/* Success is the expected case: where a case uses the status, GCC then
 * keeps the failure call's argument set-up on the cold path, out of the
 * measured loop (as in the ThreadX port). */
#define RM_UC2_OK(err) __builtin_expect((err) == OS_ERR_NONE, 1)
#define RM_UC2_STATUS(err, timeout) \
    (RM_UC2_OK(err) ? RM_OK : rm_uc2_failure((err), (timeout)))
/* rm_uc2_failure never gives RM_OK: said to GCC, so that a message is not
 * "maybe uninitialized" after an RM_OK from a wait that copies it. */
#define RM_UC2_FAILED(err, timeout)                                         \
    __extension__({ int rc_ = rm_uc2_failure((err), (timeout));             \
                    if (rc_ == RM_OK) __builtin_unreachable();              \
                    rc_; })
#define RM_UC2_TICKS(timeout) ((timeout) == RM_FOREVER ? 0u : (INT32U)(timeout))

RM_UC2_INLINE void ucos2_msg_copy(rm_msg_t *to, const void *from)
{
    *to = *(const rm_msg_t *)from;
}

/* ---- threads ---------------------------------------------------------- */
RM_UC2_INLINE int rm_thread_suspend(rm_thread_t t)
{
    INT8U err = OSTaskSuspend(t->prio);
    return RM_UC2_STATUS(err, RM_NO_WAIT);
}

RM_UC2_INLINE int rm_thread_resume(rm_thread_t t)
{
    INT8U err = OSTaskResume(t->prio);
    return RM_UC2_STATUS(err, RM_NO_WAIT);
}

/* µC/OS-II gives every task its own priority: there is no equal-priority
 * task to yield to, and no yield call. */
RM_UC2_INLINE int rm_thread_yield(void)
{
    return RM_ENOTSUP;
}

/* ---- objects ----------------------------------------------------------- */
RM_UC2_INLINE int rm_sem_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    INT8U err = OSSemPost(o->u.ev);
    return RM_UC2_STATUS(err, RM_NO_WAIT);
}

RM_UC2_INLINE int rm_sem_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    if (timeout == RM_NO_WAIT)
        return OSSemAccept(o->u.ev) != 0u ? RM_OK : RM_EAGAIN;
    INT8U err;
    OSSemPend(o->u.ev, RM_UC2_TICKS(timeout), &err);
    return RM_UC2_STATUS(err, timeout);
}

RM_UC2_INLINE int rm_mutex_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    INT8U err = OSMutexPost(o->u.ev);
    return RM_UC2_OK(err) ? RM_OK : RM_ERROR;
}

RM_UC2_INLINE int rm_mutex_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    INT8U err;
    if (timeout == RM_NO_WAIT)
        return OSMutexAccept(o->u.ev, &err) == OS_TRUE ? RM_OK : RM_EAGAIN;
    OSMutexPend(o->u.ev, RM_UC2_TICKS(timeout), &err);
    return RM_UC2_STATUS(err, timeout);
}

RM_UC2_INLINE int rm_event_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    INT8U err;
    (void)OSFlagPost(o->u.flags, 1u, OS_FLAG_SET, &err);
    return RM_UC2_STATUS(err, RM_NO_WAIT);
}

RM_UC2_INLINE int rm_event_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    INT8U err;
    if (timeout == RM_NO_WAIT) {
        (void)OSFlagAccept(o->u.flags, 1u, OS_FLAG_WAIT_SET_ANY + OS_FLAG_CONSUME, &err);
    } else {
        (void)OSFlagPend(o->u.flags, 1u, OS_FLAG_WAIT_SET_ANY + OS_FLAG_CONSUME,
                         RM_UC2_TICKS(timeout), &err);
    }
    return RM_UC2_STATUS(err, timeout);
}

RM_UC2_INLINE int rm_mailbox_signal(rm_obj_t o, const rm_msg_t *msg)
{
    /* The kernel's API is not const-correct; the message is only read. */
    INT8U err = OSMboxPost(o->u.ev, (void *)(uintptr_t)msg);
    return RM_UC2_STATUS(err, RM_NO_WAIT);
}

RM_UC2_INLINE int rm_mailbox_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    void *p;
    INT8U err = OS_ERR_NONE;
    if (timeout == RM_NO_WAIT) {
        p = OSMboxAccept(o->u.ev);
        if (p == NULL)
            return RM_EAGAIN;
    } else {
        p = OSMboxPend(o->u.ev, RM_UC2_TICKS(timeout), &err);
    }
    if (!RM_UC2_OK(err))
        return RM_UC2_FAILED(err, timeout);
    ucos2_msg_copy(msg, p);
    return RM_OK;
}

RM_UC2_INLINE int rm_queue_signal(rm_obj_t o, const rm_msg_t *msg)
{
    INT8U err = OSQPost(o->u.ev, (void *)(uintptr_t)msg);
    return RM_UC2_STATUS(err, RM_NO_WAIT);
}

RM_UC2_INLINE int rm_queue_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    void *p;
    INT8U err;
    if (timeout == RM_NO_WAIT)
        p = OSQAccept(o->u.ev, &err);
    else
        p = OSQPend(o->u.ev, RM_UC2_TICKS(timeout), &err);
    if (!RM_UC2_OK(err))
        return RM_UC2_FAILED(err, timeout);
    ucos2_msg_copy(msg, p);
    return RM_OK;
}

/* LIFO: the same queue posted at its front (OSQPostFront, the kernel's
 * own call: the receiver gets the newest message). */
RM_UC2_INLINE int rm_lifo_signal(rm_obj_t o, const rm_msg_t *msg)
{
    INT8U err = OSQPostFront(o->u.ev, (void *)(uintptr_t)msg);
    return RM_UC2_STATUS(err, RM_NO_WAIT);
}

RM_UC2_INLINE int rm_lifo_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return rm_queue_wait(o, msg, timeout);
}

/* ---- memory -------------------------------------------------------------- */
RM_UC2_INLINE int rm_pool_alloc(rm_pool_t p, void **block)
{
    INT8U err;
    *block = OSMemGet(p->mem, &err);
    return RM_UC2_STATUS(err, RM_NO_WAIT);
}

RM_UC2_INLINE int rm_pool_free(rm_pool_t p, void *block)
{
    INT8U err = OSMemPut(p->mem, block);
    return RM_UC2_OK(err) ? RM_OK : RM_ERROR;
}

/* ---- interrupts ------------------------------------------------------------ */
RM_UC2_INLINE int rm_isr_resume(rm_thread_t t)
{
    INT8U err = OSTaskResume(t->prio);
    return RM_UC2_STATUS(err, RM_NO_WAIT);
}

RM_UC2_INLINE int rm_isr_sem_signal(rm_obj_t o)
{
    INT8U err = OSSemPost(o->u.ev);
    return RM_UC2_STATUS(err, RM_NO_WAIT);
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
