/* µC/OS-III port: the measured calls of port.h, inline, so that each
 * measured interval holds the µC/OS-III call alone (port.h, "the port's
 * inline calls"). Set-up calls (create, delete, ...) are in port.c.
 *
 * - Handles: the OS_TCB and the kernel objects live in the port's records.
 * - Timeouts: µC/OS-III's 0 means "for ever"; "no wait" is the option
 *   OS_OPT_PEND_NON_BLOCKING. RM_FOREVER becomes 0 and RM_NO_WAIT the
 *   option; with a constant timeout (every case but s2) both fold away,
 *   otherwise they are two compare-and-selects before the call.
 * - Messages: µC/OS-III queues and task queues carry a pointer and a size.
 *   A signal posts a pointer to the sender's 16-byte message; a wait copies
 *   the 16 bytes into the receiver's (four words, the receiver's copy that
 *   kernels which copy messages do inside their call).
 * - Status: each call tests OS_ERR_NONE first; a failure goes through
 *   rm_uc3_failure() (port.c, const: an ignored status costs nothing).
 * - Interrupts: µC/OS-III needs OSIntEnter/OSIntExit around every handler
 *   that calls the kernel, OSIntEnter inside a critical section, as the
 *   kernel's SysTick handler does (os_cpu_c.c, OS_CPU_SysTickHandler).
 *   OSSemPost is legal in a handler; OSTaskResume is not (it returns
 *   OS_ERR_TASK_RESUME_ISR with the called-from-ISR checks on): ISR_RESUME
 *   is unsupported and rm_isr_resume is the weak default (RM_ENOTSUP).
 */
#ifndef RM_PORT_INLINE_H
#define RM_PORT_INLINE_H

#include <stdint.h>

#include "os.h"

/* OS_TCB first: OSTCBCurPtr is then the rm_thread_t. */
struct rm_thread {
    OS_TCB tcb;
    CPU_STK *stack;
    uint8_t used;
};

struct rm_obj {
    rm_obj_kind_t kind;
    uint8_t used;
    union {
        OS_SEM sem;
        OS_MUTEX mutex;
        OS_FLAG_GRP flags;
        OS_Q q; /* QUEUE, LIFO */
        OS_TCB *owner; /* NOTIFY, THREAD_MSG */
    } u;
};

struct rm_pool {
    OS_MEM mem;
    uint8_t used;
};

/* A failed call's error code as an RM_E* code (cold path, port.c). */
int rm_uc3_failure(OS_ERR err, uint32_t timeout) __attribute__((const));

#define RM_UC3_INLINE static inline __attribute__((always_inline))
/* Success is the expected case: where a case uses the status, GCC then
 * keeps the failure call's argument set-up on the cold path, out of the
 * measured loop (as in the ThreadX port). */
#define RM_UC3_OK(err) __builtin_expect((err) == OS_ERR_NONE, 1)
#define RM_UC3_STATUS(err, timeout) \
    (RM_UC3_OK(err) ? RM_OK : rm_uc3_failure((err), (timeout)))
/* rm_uc3_failure never gives RM_OK: said to GCC, so that a message is not
 * "maybe uninitialized" after an RM_OK from a wait that copies it. */
#define RM_UC3_FAILED(err, timeout)                                         \
    __extension__({ int rc_ = rm_uc3_failure((err), (timeout));             \
                    if (rc_ == RM_OK) __builtin_unreachable();              \
                    rc_; })
#define RM_UC3_TICKS(timeout) ((timeout) == RM_FOREVER ? (OS_TICK)0 : (OS_TICK)(timeout))
#define RM_UC3_PEND_OPT(timeout) \
    ((timeout) == RM_NO_WAIT ? OS_OPT_PEND_NON_BLOCKING : OS_OPT_PEND_BLOCKING)

RM_UC3_INLINE int ucos3_take_msg(rm_msg_t *to, const void *from, OS_ERR err,
                                  uint32_t timeout)
{
    if (!RM_UC3_OK(err))
        return RM_UC3_FAILED(err, timeout);
    *to = *(const rm_msg_t *)from;
    return RM_OK;
}

/* ---- threads ---------------------------------------------------------- */
RM_UC3_INLINE int rm_thread_suspend(rm_thread_t t)
{
    OS_ERR err;
    OSTaskSuspend(&t->tcb, &err);
    return RM_UC3_STATUS(err, RM_NO_WAIT);
}

RM_UC3_INLINE int rm_thread_resume(rm_thread_t t)
{
    OS_ERR err;
    OSTaskResume(&t->tcb, &err);
    return RM_UC3_STATUS(err, RM_NO_WAIT);
}

/* Round-robin yield to the next task of the same priority. Alone at its
 * priority the kernel says OS_ERR_ROUND_ROBIN_1: nothing to do, RM_OK. */
RM_UC3_INLINE int rm_thread_yield(void)
{
    OS_ERR err;
    OSSchedRoundRobinYield(&err);
    return err == OS_ERR_NONE || err == OS_ERR_ROUND_ROBIN_1 ? RM_OK : RM_ERROR;
}

/* ---- objects ----------------------------------------------------------- */
RM_UC3_INLINE int rm_sem_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    OS_ERR err;
    (void)OSSemPost(&o->u.sem, OS_OPT_POST_1, &err);
    return RM_UC3_STATUS(err, RM_NO_WAIT);
}

RM_UC3_INLINE int rm_sem_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    OS_ERR err;
    (void)OSSemPend(&o->u.sem, RM_UC3_TICKS(timeout), RM_UC3_PEND_OPT(timeout), NULL, &err);
    return RM_UC3_STATUS(err, timeout);
}

RM_UC3_INLINE int rm_mutex_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    OS_ERR err;
    OSMutexPost(&o->u.mutex, OS_OPT_POST_NONE, &err);
    return RM_UC3_OK(err) ? RM_OK : RM_ERROR;
}

RM_UC3_INLINE int rm_mutex_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    OS_ERR err;
    OSMutexPend(&o->u.mutex, RM_UC3_TICKS(timeout), RM_UC3_PEND_OPT(timeout), NULL, &err);
    return RM_UC3_STATUS(err, timeout);
}

RM_UC3_INLINE int rm_event_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    OS_ERR err;
    (void)OSFlagPost(&o->u.flags, 1u, OS_OPT_POST_FLAG_SET, &err);
    return RM_UC3_STATUS(err, RM_NO_WAIT);
}

RM_UC3_INLINE int rm_event_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    OS_ERR err;
    (void)OSFlagPend(&o->u.flags, 1u, RM_UC3_TICKS(timeout),
                     (OS_OPT)(OS_OPT_PEND_FLAG_SET_ANY | OS_OPT_PEND_FLAG_CONSUME |
                              RM_UC3_PEND_OPT(timeout)),
                     NULL, &err);
    return RM_UC3_STATUS(err, timeout);
}

RM_UC3_INLINE int rm_queue_signal(rm_obj_t o, const rm_msg_t *msg)
{
    OS_ERR err;
    /* The kernel's API is not const-correct; the message is only read. */
    OSQPost(&o->u.q, (void *)(uintptr_t)msg, RM_MSG_SIZE, OS_OPT_POST_FIFO, &err);
    return RM_UC3_STATUS(err, RM_NO_WAIT);
}

RM_UC3_INLINE int rm_queue_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    OS_ERR err;
    OS_MSG_SIZE size;
    void *p = OSQPend(&o->u.q, RM_UC3_TICKS(timeout), RM_UC3_PEND_OPT(timeout), &size, NULL,
                      &err);
    return ucos3_take_msg(msg, p, err, timeout);
}

/* LIFO: the same queue posted at its head (OS_OPT_POST_LIFO, the kernel's
 * own option: the receiver gets the newest message). */
RM_UC3_INLINE int rm_lifo_signal(rm_obj_t o, const rm_msg_t *msg)
{
    OS_ERR err;
    OSQPost(&o->u.q, (void *)(uintptr_t)msg, RM_MSG_SIZE, OS_OPT_POST_LIFO, &err);
    return RM_UC3_STATUS(err, RM_NO_WAIT);
}

RM_UC3_INLINE int rm_lifo_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return rm_queue_wait(o, msg, timeout);
}

/* NOTIFY: the owner's task semaphore. */
RM_UC3_INLINE int rm_notify_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    OS_ERR err;
    (void)OSTaskSemPost(o->u.owner, OS_OPT_POST_NONE, &err);
    return RM_UC3_STATUS(err, RM_NO_WAIT);
}

RM_UC3_INLINE int rm_notify_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)o, (void)msg;
    OS_ERR err;
    (void)OSTaskSemPend(RM_UC3_TICKS(timeout), RM_UC3_PEND_OPT(timeout), NULL, &err);
    return RM_UC3_STATUS(err, timeout);
}

/* THREAD_MSG: the owner's task message queue. */
RM_UC3_INLINE int rm_thread_msg_signal(rm_obj_t o, const rm_msg_t *msg)
{
    OS_ERR err;
    OSTaskQPost(o->u.owner, (void *)(uintptr_t)msg, RM_MSG_SIZE, OS_OPT_POST_FIFO, &err);
    return RM_UC3_STATUS(err, RM_NO_WAIT);
}

RM_UC3_INLINE int rm_thread_msg_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)o;
    OS_ERR err;
    OS_MSG_SIZE size;
    void *p = OSTaskQPend(RM_UC3_TICKS(timeout), RM_UC3_PEND_OPT(timeout), &size, NULL, &err);
    return ucos3_take_msg(msg, p, err, timeout);
}

/* ---- memory -------------------------------------------------------------- */
RM_UC3_INLINE int rm_pool_alloc(rm_pool_t p, void **block)
{
    OS_ERR err;
    *block = OSMemGet(&p->mem, &err);
    return RM_UC3_STATUS(err, RM_NO_WAIT);
}

RM_UC3_INLINE int rm_pool_free(rm_pool_t p, void *block)
{
    OS_ERR err;
    OSMemPut(&p->mem, block, &err);
    return RM_UC3_OK(err) ? RM_OK : RM_ERROR;
}

/* ---- interrupts ------------------------------------------------------------ */
RM_UC3_INLINE int rm_isr_sem_signal(rm_obj_t o)
{
    OS_ERR err;
    (void)OSSemPost(&o->u.sem, OS_OPT_POST_1, &err);
    return RM_UC3_STATUS(err, RM_NO_WAIT);
}

#define RM_PORT_ISR_ENTER()                                               \
    do {                                                                  \
        CPU_SR_ALLOC();                                                   \
        CPU_CRITICAL_ENTER();                                             \
        OSIntEnter();                                                     \
        CPU_CRITICAL_EXIT();                                              \
    } while (0)
#define RM_PORT_ISR_EXIT() OSIntExit()

#endif /* RM_PORT_INLINE_H */
