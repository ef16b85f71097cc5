/* RT-Thread port: the measured calls of port.h, inline, so that each
 * measured interval holds the RT-Thread call alone (port.h, "the port's
 * inline calls"). Set-up calls (create, delete, ...) are in port.c.
 *
 * - Handles: an rm_thread_t is RT-Thread's rt_thread_t itself; an rm_obj
 *   holds the kernel object's handle.
 * - Timeouts: RT-Thread's are rt_int32_t ticks with RT_WAITING_FOREVER = -1
 *   and RT_WAITING_NO = 0, so RM_FOREVER (0xFFFFFFFF) and RM_NO_WAIT pass
 *   through a cast unchanged (checked at compile time).
 * - Status: each measured call returns RT-Thread's own result (an rt_err_t,
 *   a block); its _rc translator tests RT_EOK (for a block NULL) first.
 * - Suspend and resume: RT-Thread's rt_thread_suspend / rt_thread_resume
 *   only move the thread between lists; the caller then calls rt_schedule()
 *   (RT-Thread's documented idiom, which its own IPC code follows). The
 *   measured call is the pair.
 * - Interrupts: RT-Thread wants rt_interrupt_enter/leave around a handler
 *   (its scheduler then defers the switch to PendSV): RM_PORT_ISR_ENTER/EXIT.
 */
#ifndef RM_PORT_INLINE_H
#define RM_PORT_INLINE_H

#include <stdint.h>

#include "rtthread.h"

_Static_assert((rt_int32_t)RM_FOREVER == RT_WAITING_FOREVER && RM_NO_WAIT == RT_WAITING_NO,
               "RM_FOREVER / RM_NO_WAIT must be RT_WAITING_FOREVER / RT_WAITING_NO");

struct rm_obj {
    rm_obj_kind_t kind;
    union {
        rt_sem_t sem;
        rt_mutex_t mutex;
        rt_event_t event;
        rt_mailbox_t mb;
        rt_mq_t mq;
    } h;
};

struct rm_pool {
    rt_mp_t mp;
};

#define RM_RTT_INLINE static inline __attribute__((always_inline))
#define RM_RTT_THREAD(t) ((rt_thread_t)(void *)(t))
/* Success is the expected case: the compiler then lays the failure path
 * out of line (no extra branch in a measured loop), as the other ports do. */
#define RM_RTT_OK(cond) __builtin_expect((cond), 1)

/* The _rc translator: an rt_err_t (RT_EOK). */
RM_RTT_INLINE int rtt_rc(rm_raw_t raw, int failed)
{
    return RM_RTT_OK(raw == RT_EOK) ? RM_OK : failed;
}

/* ---- threads ---------------------------------------------------------- */
/* raw is rt_thread_suspend's / rt_thread_resume's status, kept across the
 * rt_schedule() that completes the call (a callee-saved register). */
RM_RTT_INLINE rm_raw_t rm_thread_suspend_raw(rm_thread_t t)
{
    rt_err_t e = rt_thread_suspend(RM_RTT_THREAD(t));
    rt_schedule();
    return e;
}

RM_RTT_INLINE int rm_thread_suspend_rc(rm_raw_t raw)
{
    return rtt_rc(raw, RM_ERROR);
}

RM_RTT_INLINE rm_raw_t rm_thread_resume_raw(rm_thread_t t)
{
    rt_err_t e = rt_thread_resume(RM_RTT_THREAD(t));
    rt_schedule();
    return e;
}

RM_RTT_INLINE int rm_thread_resume_rc(rm_raw_t raw)
{
    return rtt_rc(raw, RM_ERROR);
}

RM_RTT_INLINE rm_raw_t rm_thread_yield_raw(void)
{
    return rt_thread_yield();
}

RM_RTT_INLINE int rm_thread_yield_rc(rm_raw_t raw)
{
    return rtt_rc(raw, RM_ERROR);
}

/* ---- objects: signal / wait per kind ------------------------------------ */
RM_RTT_INLINE rm_raw_t rm_sem_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return rt_sem_release(o->h.sem);
}

RM_RTT_INLINE int rm_sem_signal_rc(rm_raw_t raw)
{
    return rtt_rc(raw, RM_EAGAIN);
}

RM_RTT_INLINE rm_raw_t rm_sem_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return rt_sem_take(o->h.sem, (rt_int32_t)timeout);
}

RM_RTT_INLINE int rm_sem_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rtt_rc(raw, rm_wait_failed(timeout));
}

RM_RTT_INLINE rm_raw_t rm_mutex_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return rt_mutex_release(o->h.mutex);
}

RM_RTT_INLINE int rm_mutex_signal_rc(rm_raw_t raw)
{
    return rtt_rc(raw, RM_ERROR);
}

RM_RTT_INLINE rm_raw_t rm_mutex_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return rt_mutex_take(o->h.mutex, (rt_int32_t)timeout);
}

RM_RTT_INLINE int rm_mutex_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rtt_rc(raw, rm_wait_failed(timeout));
}

/* EVENT: bit 0, received with OR | CLEAR (the bits got are unused). */
RM_RTT_INLINE rm_raw_t rm_event_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return rt_event_send(o->h.event, 1u);
}

RM_RTT_INLINE int rm_event_signal_rc(rm_raw_t raw)
{
    return rtt_rc(raw, RM_ERROR);
}

RM_RTT_INLINE rm_raw_t rm_event_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    rt_uint32_t got;
    return rt_event_recv(o->h.event, 1u, RT_EVENT_FLAG_OR | RT_EVENT_FLAG_CLEAR,
                         (rt_int32_t)timeout, &got);
}

RM_RTT_INLINE int rm_event_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rtt_rc(raw, rm_wait_failed(timeout));
}

/* MAILBOX: one pointer-sized mail per message, RT-Thread's idiom for a
 * message larger than a mail: the sender mails the message's address, the
 * receiver gets that address (in msg->w[0]); the 16 bytes are not copied. */
RM_RTT_INLINE rm_raw_t rm_mailbox_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    return rt_mb_send(o->h.mb, (rt_ubase_t)(uintptr_t)msg);
}

RM_RTT_INLINE int rm_mailbox_signal_rc(rm_raw_t raw)
{
    return rtt_rc(raw, RM_EAGAIN);
}

RM_RTT_INLINE rm_raw_t rm_mailbox_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    rt_ubase_t *mail = (rt_ubase_t *)(void *)&msg->w[0];
    return rt_mb_recv(o->h.mb, mail, (rt_int32_t)timeout);
}

RM_RTT_INLINE int rm_mailbox_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rtt_rc(raw, rm_wait_failed(timeout));
}

/* QUEUE: a message queue of 16-byte messages (copied in and out). */
RM_RTT_INLINE rm_raw_t rm_queue_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    return rt_mq_send(o->h.mq, msg, RM_MSG_SIZE);
}

RM_RTT_INLINE int rm_queue_signal_rc(rm_raw_t raw)
{
    return rtt_rc(raw, RM_EAGAIN);
}

RM_RTT_INLINE rm_raw_t rm_queue_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return rt_mq_recv(o->h.mq, msg, RM_MSG_SIZE, (rt_int32_t)timeout);
}

RM_RTT_INLINE int rm_queue_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rtt_rc(raw, rm_wait_failed(timeout));
}

/* ---- memory --------------------------------------------------------------- */
/* rt_mp_alloc's / rt_malloc's block is the status, delivered to the caller
 * by the translator (NULL: none). */
RM_RTT_INLINE rm_raw_t rm_pool_alloc_raw(rm_pool_t p, void **block)
{
    (void)block; /* delivered by the translator */
    void *b = rt_mp_alloc(p->mp, RT_WAITING_NO);
    return (rm_raw_t)b;
}

RM_RTT_INLINE int rm_pool_alloc_rc(rm_raw_t raw, void **block)
{
    return rm_block_rc(raw, block);
}

/* rt_mp_free and rt_free return nothing: raw is 0. */
RM_RTT_INLINE rm_raw_t rm_pool_free_raw(rm_pool_t p, void *block)
{
    (void)p; /* RT-Thread finds the pool from the block's header */
    rt_mp_free(block);
    return 0;
}

RM_RTT_INLINE int rm_pool_free_rc(rm_raw_t raw)
{
    (void)raw;
    return RM_OK;
}

/* HEAP: rt_malloc / rt_free; the pointer is alloc's status, delivered to the
 * caller by the translator (NULL: no memory). */
RM_HEAP_MALLOC_LIKE(RM_RTT_INLINE, rt_malloc, rt_free)

/* ---- interrupts ------------------------------------------------------------ */
RM_RTT_INLINE int rm_isr_resume(rm_thread_t t)
{
    rt_err_t e = rt_thread_resume(RM_RTT_THREAD(t));
    rt_schedule(); /* in a handler: pends the switch (PendSV) */
    return RM_RTT_OK(e == RT_EOK) ? RM_OK : RM_ERROR;
}

RM_RTT_INLINE int rm_isr_sem_signal(rm_obj_t o)
{
    return RM_RTT_OK(rt_sem_release(o->h.sem) == RT_EOK) ? RM_OK : RM_EAGAIN;
}

#define RM_PORT_ISR_ENTER() rt_interrupt_enter()
#define RM_PORT_ISR_EXIT() rt_interrupt_leave()

#endif /* RM_PORT_INLINE_H */
