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
 *   the 16 bytes into the receiver's when the kernel returned one (a test
 *   of the returned pointer and four words, the receiver's copy that
 *   kernels which copy messages do inside their call).
 * - Status (port.h, "measured calls and their status"): a _raw call returns
 *   µC/OS-III's own status, the OS_ERR every call stores through its
 *   `p_err` out-parameter, loaded from the caller's frame after the call
 *   (one load inside the interval: the kernel returns its status in
 *   memory); pool allocation returns the block instead (see there). Its
 *   _rc tests OS_ERR_NONE first; a failure goes through rm_uc3_failure()
 *   (port.c, const: an ignored status costs nothing).
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
/* Clears a message that a wait did not receive (cold path, port.c). */
void rm_uc3_no_msg(rm_msg_t *msg) __attribute__((cold));

#define RM_UC3_INLINE static inline __attribute__((always_inline))
/* Success is the expected case: where a case uses the status, GCC then
 * keeps the failure call's argument set-up on the cold path, out of the
 * measured loop (as in the ThreadX port). */
#define RM_UC3_OK(err) __builtin_expect((err) == OS_ERR_NONE, 1)
#define RM_UC3_TICKS(timeout) ((timeout) == RM_FOREVER ? (OS_TICK)0 : (OS_TICK)(timeout))
#define RM_UC3_PEND_OPT(timeout) \
    ((timeout) == RM_NO_WAIT ? OS_OPT_PEND_NON_BLOCKING : OS_OPT_PEND_BLOCKING)

/* ---- status translators ---------------------------------------------------- */
/* A call's OS_ERR; timeout: the wait's (RM_NO_WAIT for the others). */
RM_UC3_INLINE int uc3_err_rc(rm_raw_t raw, uint32_t timeout)
{
    return RM_UC3_OK(raw) ? RM_OK : rm_failure(rm_uc3_failure((OS_ERR)raw, timeout));
}

/* A call that fails only on a misuse (OSMutexPost, OSMemPut). */
RM_UC3_INLINE int uc3_misuse_rc(rm_raw_t raw)
{
    return RM_UC3_OK(raw) ? RM_OK : RM_ERROR;
}

/* The received message, where the kernel returned one (NULL: timeout or
 * error, whose code the status carries; the message is then cleared out of
 * line, by a cold function, so that GCC lays the copy on the straight path
 * and never takes the message for unset). */
RM_UC3_INLINE void ucos3_msg_take(rm_msg_t *to, const void *from)
{
    if (__builtin_expect(from != NULL, 1))
        *to = *(const rm_msg_t *)from;
    else
        rm_uc3_no_msg(to);
}

/* ---- threads ---------------------------------------------------------- */
RM_UC3_INLINE rm_raw_t rm_thread_suspend_raw(rm_thread_t t)
{
    OS_ERR err;
    OSTaskSuspend(&t->tcb, &err);
    return err;
}

RM_UC3_INLINE int rm_thread_suspend_rc(rm_raw_t raw)
{
    return uc3_err_rc(raw, RM_NO_WAIT);
}

RM_UC3_INLINE rm_raw_t rm_thread_resume_raw(rm_thread_t t)
{
    OS_ERR err;
    OSTaskResume(&t->tcb, &err);
    return err;
}

RM_UC3_INLINE int rm_thread_resume_rc(rm_raw_t raw)
{
    return uc3_err_rc(raw, RM_NO_WAIT);
}

/* Round-robin yield to the next task of the same priority. Alone at its
 * priority the kernel says OS_ERR_ROUND_ROBIN_1: nothing to do, RM_OK. */
RM_UC3_INLINE rm_raw_t rm_thread_yield_raw(void)
{
    OS_ERR err;
    OSSchedRoundRobinYield(&err);
    return err;
}

RM_UC3_INLINE int rm_thread_yield_rc(rm_raw_t raw)
{
    return __builtin_expect(raw == OS_ERR_NONE || raw == OS_ERR_ROUND_ROBIN_1, 1) ? RM_OK
                                                                                  : RM_ERROR;
}

/* ---- objects ----------------------------------------------------------- */
RM_UC3_INLINE rm_raw_t rm_sem_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    OS_ERR err;
    (void)OSSemPost(&o->u.sem, OS_OPT_POST_1, &err);
    return err;
}

RM_UC3_INLINE int rm_sem_signal_rc(rm_raw_t raw)
{
    return uc3_err_rc(raw, RM_NO_WAIT);
}

RM_UC3_INLINE rm_raw_t rm_sem_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    OS_ERR err;
    (void)OSSemPend(&o->u.sem, RM_UC3_TICKS(timeout), RM_UC3_PEND_OPT(timeout), NULL, &err);
    return err;
}

RM_UC3_INLINE int rm_sem_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return uc3_err_rc(raw, timeout);
}

RM_UC3_INLINE rm_raw_t rm_mutex_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    OS_ERR err;
    OSMutexPost(&o->u.mutex, OS_OPT_POST_NONE, &err);
    return err;
}

RM_UC3_INLINE int rm_mutex_signal_rc(rm_raw_t raw)
{
    return uc3_misuse_rc(raw);
}

RM_UC3_INLINE rm_raw_t rm_mutex_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    OS_ERR err;
    OSMutexPend(&o->u.mutex, RM_UC3_TICKS(timeout), RM_UC3_PEND_OPT(timeout), NULL, &err);
    return err;
}

RM_UC3_INLINE int rm_mutex_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return uc3_err_rc(raw, timeout);
}

RM_UC3_INLINE rm_raw_t rm_event_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    OS_ERR err;
    (void)OSFlagPost(&o->u.flags, 1u, OS_OPT_POST_FLAG_SET, &err);
    return err;
}

RM_UC3_INLINE int rm_event_signal_rc(rm_raw_t raw)
{
    return uc3_err_rc(raw, RM_NO_WAIT);
}

RM_UC3_INLINE rm_raw_t rm_event_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    OS_ERR err;
    (void)OSFlagPend(&o->u.flags, 1u, RM_UC3_TICKS(timeout),
                     (OS_OPT)(OS_OPT_PEND_FLAG_SET_ANY | OS_OPT_PEND_FLAG_CONSUME |
                              RM_UC3_PEND_OPT(timeout)),
                     NULL, &err);
    return err;
}

RM_UC3_INLINE int rm_event_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return uc3_err_rc(raw, timeout);
}

RM_UC3_INLINE rm_raw_t rm_queue_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    OS_ERR err;
    /* The kernel's API is not const-correct; the message is only read. */
    OSQPost(&o->u.q, (void *)(uintptr_t)msg, RM_MSG_SIZE, OS_OPT_POST_FIFO, &err);
    return err;
}

RM_UC3_INLINE int rm_queue_signal_rc(rm_raw_t raw)
{
    return uc3_err_rc(raw, RM_NO_WAIT);
}

RM_UC3_INLINE rm_raw_t rm_queue_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    OS_ERR err;
    OS_MSG_SIZE size;
    void *p = OSQPend(&o->u.q, RM_UC3_TICKS(timeout), RM_UC3_PEND_OPT(timeout), &size, NULL,
                      &err);
    ucos3_msg_take(msg, p);
    return err;
}

RM_UC3_INLINE int rm_queue_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return uc3_err_rc(raw, timeout);
}

/* LIFO: the same queue posted at its head (OS_OPT_POST_LIFO, the kernel's
 * own option: the receiver gets the newest message). */
RM_UC3_INLINE rm_raw_t rm_lifo_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    OS_ERR err;
    OSQPost(&o->u.q, (void *)(uintptr_t)msg, RM_MSG_SIZE, OS_OPT_POST_LIFO, &err);
    return err;
}

RM_UC3_INLINE int rm_lifo_signal_rc(rm_raw_t raw)
{
    return uc3_err_rc(raw, RM_NO_WAIT);
}

RM_UC3_INLINE rm_raw_t rm_lifo_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return rm_queue_wait_raw(o, msg, timeout);
}

RM_UC3_INLINE int rm_lifo_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return uc3_err_rc(raw, timeout);
}

/* NOTIFY: the owner's task semaphore. */
RM_UC3_INLINE rm_raw_t rm_notify_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    OS_ERR err;
    (void)OSTaskSemPost(o->u.owner, OS_OPT_POST_NONE, &err);
    return err;
}

RM_UC3_INLINE int rm_notify_signal_rc(rm_raw_t raw)
{
    return uc3_err_rc(raw, RM_NO_WAIT);
}

RM_UC3_INLINE rm_raw_t rm_notify_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)o, (void)msg;
    OS_ERR err;
    (void)OSTaskSemPend(RM_UC3_TICKS(timeout), RM_UC3_PEND_OPT(timeout), NULL, &err);
    return err;
}

RM_UC3_INLINE int rm_notify_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return uc3_err_rc(raw, timeout);
}

/* THREAD_MSG: the owner's task message queue. */
RM_UC3_INLINE rm_raw_t rm_thread_msg_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    OS_ERR err;
    OSTaskQPost(o->u.owner, (void *)(uintptr_t)msg, RM_MSG_SIZE, OS_OPT_POST_FIFO, &err);
    return err;
}

RM_UC3_INLINE int rm_thread_msg_signal_rc(rm_raw_t raw)
{
    return uc3_err_rc(raw, RM_NO_WAIT);
}

RM_UC3_INLINE rm_raw_t rm_thread_msg_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)o;
    OS_ERR err;
    OS_MSG_SIZE size;
    void *p = OSTaskQPend(RM_UC3_TICKS(timeout), RM_UC3_PEND_OPT(timeout), &size, NULL, &err);
    ucos3_msg_take(msg, p);
    return err;
}

RM_UC3_INLINE int rm_thread_msg_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return uc3_err_rc(raw, timeout);
}

/* ---- memory -------------------------------------------------------------- */
/* The status is the block itself, in the return register: OSMemGet gives
 * NULL exactly when it fails, which is for want of a free block but where
 * an argument check catches a misuse (the vendor profile). Its `err`, left
 * unread, would cost a load inside the interval. */
RM_UC3_INLINE rm_raw_t rm_pool_alloc_raw(rm_pool_t p, void **block)
{
    (void)block; /* delivered by the translator */
    OS_ERR err;
    void *got = OSMemGet(&p->mem, &err);
    return (rm_raw_t)got;
}

RM_UC3_INLINE int rm_pool_alloc_rc(rm_raw_t raw, void **block)
{
    return rm_block_rc(raw, block);
}

RM_UC3_INLINE rm_raw_t rm_pool_free_raw(rm_pool_t p, void *block)
{
    OS_ERR err;
    OSMemPut(&p->mem, block, &err);
    return err;
}

RM_UC3_INLINE int rm_pool_free_rc(rm_raw_t raw)
{
    return uc3_misuse_rc(raw);
}

/* ---- interrupts ------------------------------------------------------------ */
RM_UC3_INLINE int rm_isr_sem_signal(rm_obj_t o)
{
    OS_ERR err;
    (void)OSSemPost(&o->u.sem, OS_OPT_POST_1, &err);
    return uc3_err_rc(err, RM_NO_WAIT);
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
