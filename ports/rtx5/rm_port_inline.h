/* CMSIS-RTX5 port: the measured calls of port.h, inline, so that each
 * measured interval holds the CMSIS-RTOS2 call alone (port.h, "the port's
 * inline calls"). Set-up calls (create, delete, ...) are in port.c.
 *
 * - Handles: an rm_thread_t is RTX's osThreadId_t itself (never
 *   dereferenced by rtosmeter), so a call passes it through unchanged; an
 *   rm_obj holds the object's id and, for THREAD_FLAGS, the owner's.
 * - Timeouts: RM_NO_WAIT / RM_FOREVER are 0 / osWaitForever, so a timeout
 *   passes through unchanged (checked at compile time).
 * - Status: each measured call returns RTX's own result (an osStatus_t,
 *   flags, a block); its _rc translator tests osOK (for flags the error
 *   bit, for a block NULL) first.
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
/* osFlagsError* have the top bit set; a flags value never has. */
#define RM_RTX_FLAGS_OK(r) (((r) & osFlagsError) == 0u)

/* The _rc translators: an osStatus_t (osOK), or flags (the error bit). */
RM_RTX_INLINE int rtx_status_rc(rm_raw_t raw, int failed)
{
    return RM_RTX_OK(raw == osOK) ? RM_OK : failed;
}

RM_RTX_INLINE int rtx_flags_rc(rm_raw_t raw, int failed)
{
    return RM_RTX_OK(RM_RTX_FLAGS_OK((uint32_t)raw)) ? RM_OK : failed;
}

/* ---- threads ---------------------------------------------------------- */
RM_RTX_INLINE rm_raw_t rm_thread_suspend_raw(rm_thread_t t)
{
    return osThreadSuspend(RM_RTX_TID(t));
}

RM_RTX_INLINE int rm_thread_suspend_rc(rm_raw_t raw)
{
    return rtx_status_rc(raw, RM_ERROR);
}

RM_RTX_INLINE rm_raw_t rm_thread_resume_raw(rm_thread_t t)
{
    return osThreadResume(RM_RTX_TID(t));
}

RM_RTX_INLINE int rm_thread_resume_rc(rm_raw_t raw)
{
    return rtx_status_rc(raw, RM_ERROR);
}

RM_RTX_INLINE rm_raw_t rm_thread_yield_raw(void)
{
    return osThreadYield();
}

RM_RTX_INLINE int rm_thread_yield_rc(rm_raw_t raw)
{
    return rtx_status_rc(raw, RM_ERROR);
}

/* ---- objects: signal / wait per kind ------------------------------------ */
RM_RTX_INLINE rm_raw_t rm_sem_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return osSemaphoreRelease(o->id);
}

RM_RTX_INLINE int rm_sem_signal_rc(rm_raw_t raw)
{
    return rtx_status_rc(raw, RM_EAGAIN);
}

RM_RTX_INLINE rm_raw_t rm_sem_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return osSemaphoreAcquire(o->id, timeout);
}

RM_RTX_INLINE int rm_sem_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rtx_status_rc(raw, rm_wait_failed(timeout));
}

RM_RTX_INLINE rm_raw_t rm_mutex_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return osMutexRelease(o->id);
}

RM_RTX_INLINE int rm_mutex_signal_rc(rm_raw_t raw)
{
    return rtx_status_rc(raw, RM_ERROR);
}

RM_RTX_INLINE rm_raw_t rm_mutex_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return osMutexAcquire(o->id, timeout);
}

RM_RTX_INLINE int rm_mutex_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rtx_status_rc(raw, rm_wait_failed(timeout));
}

/* EVENT: an event flags object, bit 0 (osEventFlagsWait clears it). */
RM_RTX_INLINE rm_raw_t rm_event_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return (rm_raw_t)osEventFlagsSet(o->id, 1u);
}

RM_RTX_INLINE int rm_event_signal_rc(rm_raw_t raw)
{
    return rtx_flags_rc(raw, RM_ERROR);
}

RM_RTX_INLINE rm_raw_t rm_event_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return (rm_raw_t)osEventFlagsWait(o->id, 1u, osFlagsWaitAny, timeout);
}

RM_RTX_INLINE int rm_event_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rtx_flags_rc(raw, rm_wait_failed(timeout));
}

RM_RTX_INLINE rm_raw_t rm_queue_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    return osMessageQueuePut(o->id, msg, 0u, 0u);
}

RM_RTX_INLINE int rm_queue_signal_rc(rm_raw_t raw)
{
    return rtx_status_rc(raw, RM_EAGAIN);
}

RM_RTX_INLINE rm_raw_t rm_queue_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return osMessageQueueGet(o->id, msg, NULL, timeout);
}

RM_RTX_INLINE int rm_queue_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rtx_status_rc(raw, rm_wait_failed(timeout));
}

/* THREAD_FLAGS: the owner's thread flags, bit 0 (the wait clears it). */
RM_RTX_INLINE rm_raw_t rm_thread_flags_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return (rm_raw_t)osThreadFlagsSet(o->owner, 1u);
}

RM_RTX_INLINE int rm_thread_flags_signal_rc(rm_raw_t raw)
{
    return rtx_flags_rc(raw, RM_ERROR);
}

RM_RTX_INLINE rm_raw_t rm_thread_flags_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)o, (void)msg;
    return (rm_raw_t)osThreadFlagsWait(1u, osFlagsWaitAny, timeout);
}

RM_RTX_INLINE int rm_thread_flags_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rtx_flags_rc(raw, rm_wait_failed(timeout));
}

/* ---- memory --------------------------------------------------------------- */
/* osMemoryPoolAlloc's block is the status, delivered to the caller by the
 * translator (NULL: the pool is empty). */
RM_RTX_INLINE rm_raw_t rm_pool_alloc_raw(rm_pool_t p, void **block)
{
    (void)block; /* delivered by the translator */
    void *b = osMemoryPoolAlloc(p->id, 0u);
    return (rm_raw_t)b;
}

RM_RTX_INLINE int rm_pool_alloc_rc(rm_raw_t raw, void **block)
{
    return rm_block_rc(raw, block);
}

RM_RTX_INLINE rm_raw_t rm_pool_free_raw(rm_pool_t p, void *block)
{
    return osMemoryPoolFree(p->id, block);
}

RM_RTX_INLINE int rm_pool_free_rc(rm_raw_t raw)
{
    return rtx_status_rc(raw, RM_ERROR);
}

/* ---- interrupts ------------------------------------------------------------ */
RM_RTX_INLINE int rm_isr_sem_signal(rm_obj_t o)
{
    return RM_RTX_OK(osSemaphoreRelease(o->id) == osOK) ? RM_OK : RM_EAGAIN;
}

#endif /* RM_PORT_INLINE_H */
