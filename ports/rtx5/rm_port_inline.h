/* CMSIS-RTX5 port: the measured calls of port.h, inline, so that each
 * measured interval holds the CMSIS-RTOS2 call alone (port.h, "the port's
 * inline calls"). Set-up calls (create, delete, ...) are in port.c.
 *
 * - Handles: an rm_thread_t is RTX's osThreadId_t itself (never
 *   dereferenced by rtosmeter), so a call passes it through unchanged; an
 *   rm_obj holds the object's id and, for THREAD_FLAGS, the owner's.
 * - Timeouts: RM_NO_WAIT / RM_FOREVER are 0 / osWaitForever, so a timeout
 *   passes through unchanged (checked at compile time).
 * - Status: each call tests osOK (or, for flags, the error bit) first.
 * - Interrupts: CMSIS-RTOS2 calls made in handler mode take RTX's ISR path
 *   by themselves (post to the ISR queue, PendSV): no enter/exit hook.
 */
#ifndef RM_PORT_INLINE_H
#define RM_PORT_INLINE_H

#include <stdint.h>

#include "cmsis_os2.h"

_Static_assert(osWaitForever == RM_FOREVER && RM_NO_WAIT == 0u,
               "RM_FOREVER / RM_NO_WAIT must be osWaitForever / 0");

struct rm_obj {
    rm_obj_kind_t kind;
    void *id;             /* osSemaphoreId_t, osMutexId_t, ... */
    osThreadId_t owner;   /* THREAD_FLAGS */
};

struct rm_pool {
    osMemoryPoolId_t id;
};

#define RM_RTX_INLINE static inline __attribute__((always_inline))
#define RM_RTX_TID(t) ((osThreadId_t)(void *)(t))
/* Success is the expected case: the compiler then lays the failure path
 * out of line (no extra branch in a measured loop), as the other ports do. */
#define RM_RTX_OK(cond) __builtin_expect((cond), 1)
#define RM_RTX_WAIT_FAILED(timeout) ((timeout) == RM_NO_WAIT ? RM_EAGAIN : RM_ETIMEOUT)
/* osFlagsError* have the top bit set; a flags value never has. */
#define RM_RTX_FLAGS_OK(r) (((r) & osFlagsError) == 0u)

/* ---- threads ---------------------------------------------------------- */
RM_RTX_INLINE int rm_thread_suspend(rm_thread_t t)
{
    return RM_RTX_OK(osThreadSuspend(RM_RTX_TID(t)) == osOK) ? RM_OK : RM_ERROR;
}

RM_RTX_INLINE int rm_thread_resume(rm_thread_t t)
{
    return RM_RTX_OK(osThreadResume(RM_RTX_TID(t)) == osOK) ? RM_OK : RM_ERROR;
}

RM_RTX_INLINE int rm_thread_yield(void)
{
    return RM_RTX_OK(osThreadYield() == osOK) ? RM_OK : RM_ERROR;
}

/* ---- objects: signal / wait per kind ------------------------------------ */
RM_RTX_INLINE int rm_sem_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return RM_RTX_OK(osSemaphoreRelease(o->id) == osOK) ? RM_OK : RM_EAGAIN;
}

RM_RTX_INLINE int rm_sem_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return RM_RTX_OK(osSemaphoreAcquire(o->id, timeout) == osOK) ? RM_OK
                                                                 : RM_RTX_WAIT_FAILED(timeout);
}

RM_RTX_INLINE int rm_mutex_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return RM_RTX_OK(osMutexRelease(o->id) == osOK) ? RM_OK : RM_ERROR;
}

RM_RTX_INLINE int rm_mutex_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return RM_RTX_OK(osMutexAcquire(o->id, timeout) == osOK) ? RM_OK : RM_RTX_WAIT_FAILED(timeout);
}

/* EVENT: an event flags object, bit 0 (osEventFlagsWait clears it). */
RM_RTX_INLINE int rm_event_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return RM_RTX_OK(RM_RTX_FLAGS_OK(osEventFlagsSet(o->id, 1u))) ? RM_OK : RM_ERROR;
}

RM_RTX_INLINE int rm_event_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return RM_RTX_OK(RM_RTX_FLAGS_OK(osEventFlagsWait(o->id, 1u, osFlagsWaitAny, timeout)))
               ? RM_OK
               : RM_RTX_WAIT_FAILED(timeout);
}

RM_RTX_INLINE int rm_queue_signal(rm_obj_t o, const rm_msg_t *msg)
{
    return RM_RTX_OK(osMessageQueuePut(o->id, msg, 0u, 0u) == osOK) ? RM_OK : RM_EAGAIN;
}

RM_RTX_INLINE int rm_queue_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return RM_RTX_OK(osMessageQueueGet(o->id, msg, NULL, timeout) == osOK) ? RM_OK
                                                               : RM_RTX_WAIT_FAILED(timeout);
}

/* THREAD_FLAGS: the owner's thread flags, bit 0 (the wait clears it). */
RM_RTX_INLINE int rm_thread_flags_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return RM_RTX_OK(RM_RTX_FLAGS_OK(osThreadFlagsSet(o->owner, 1u))) ? RM_OK : RM_ERROR;
}

RM_RTX_INLINE int rm_thread_flags_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)o, (void)msg;
    return RM_RTX_OK(RM_RTX_FLAGS_OK(osThreadFlagsWait(1u, osFlagsWaitAny, timeout)))
               ? RM_OK
               : RM_RTX_WAIT_FAILED(timeout);
}

/* ---- memory --------------------------------------------------------------- */
RM_RTX_INLINE int rm_pool_alloc(rm_pool_t p, void **block)
{
    *block = osMemoryPoolAlloc(p->id, 0u);
    return RM_RTX_OK(*block != NULL) ? RM_OK : RM_EAGAIN;
}

RM_RTX_INLINE int rm_pool_free(rm_pool_t p, void *block)
{
    return RM_RTX_OK(osMemoryPoolFree(p->id, block) == osOK) ? RM_OK : RM_ERROR;
}

/* ---- interrupts ------------------------------------------------------------ */
RM_RTX_INLINE int rm_isr_sem_signal(rm_obj_t o)
{
    return RM_RTX_OK(osSemaphoreRelease(o->id) == osOK) ? RM_OK : RM_EAGAIN;
}

#endif /* RM_PORT_INLINE_H */
