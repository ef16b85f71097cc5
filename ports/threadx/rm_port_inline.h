/* ThreadX port: the measured calls of port.h, inline, so that each
 * measured interval holds the ThreadX call alone (port.h, "the port's
 * inline calls"). Set-up calls (create, delete, ...) are in port.c.
 *
 * - Timeouts: RM_NO_WAIT / RM_FOREVER are TX_NO_WAIT / TX_WAIT_FOREVER, so
 *   a timeout passes through unchanged.
 * - Status: each call tests TX_SUCCESS first; only a failure goes through
 *   rm_tx_failure() (port.c), which names the ThreadX status.
 * - Interrupts: ThreadX's calls are legal in handlers as they are, and on
 *   Cortex-M a handler needs no ThreadX entry/exit code (the switch is a
 *   pended PendSV). On the Linux host, interrupts are a ThreadX-scheduled
 *   thread: RM_PORT_IRQ_TRIGGER wakes it and waits (tx_isr_linux.c).
 */
#ifndef RM_PORT_INLINE_H
#define RM_PORT_INLINE_H

#include <stdint.h>

#include "tx_api.h"

#ifndef RM_TX_STACK_SIZE
#if defined(RM_RAM_SMALL)
#define RM_TX_STACK_SIZE 448u /* 16 KiB of RAM or less */
#elif defined(RM_RAM_MEDIUM)
#define RM_TX_STACK_SIZE 1024u /* the 96-256 KiB boards */
#else
#define RM_TX_STACK_SIZE 2048u
#endif
#endif

/* TX_THREAD first: tx_thread_identify() is then the rm_thread_t. */
struct rm_thread {
    TX_THREAD tx;
    rm_entry_t entry;
    void *arg;
    uint8_t used;
};

struct rm_obj {
    rm_obj_kind_t kind;
    uint8_t used;
    union {
        TX_SEMAPHORE sem;
        TX_MUTEX mutex;
        TX_EVENT_FLAGS_GROUP event;
        struct {
            TX_QUEUE q;
            ULONG buf[RM_QUEUE_DEPTH * (RM_MSG_SIZE / sizeof(ULONG))];
        } queue;
    } u;
};

struct rm_pool {
    TX_BLOCK_POOL bp;
    uint8_t used;
};

/* A failed ThreadX call's status as an RM_E* code (cold path, port.c). */
/* const: a call whose status the caller ignores is then dropped whole.
 * Success is the expected case (__builtin_expect in RM_TX_RESULT): where the
 * status is used, GCC would otherwise set up the failure call's argument
 * (movs r1, #0) ahead of the branch, inside the measured loop
 * (tests/test_thread_metric_reference.py: tm.interrupt, +1 instruction). */
int rm_tx_failure(UINT status, uint32_t timeout) __attribute__((const));

#define RM_TX_INLINE static inline __attribute__((always_inline))
#define RM_TX_RESULT(call, timeout)                                          \
    do {                                                                     \
        UINT rm_tx_st_ = (call);                                             \
        return __builtin_expect(rm_tx_st_ == TX_SUCCESS, 1)                  \
                   ? RM_OK                                                   \
                   : rm_tx_failure(rm_tx_st_, (timeout));                    \
    } while (0)

/* ---- threads ---------------------------------------------------------- */
RM_TX_INLINE int rm_thread_suspend(rm_thread_t t)
{
    RM_TX_RESULT(tx_thread_suspend(&t->tx), RM_NO_WAIT);
}

RM_TX_INLINE int rm_thread_resume(rm_thread_t t)
{
    RM_TX_RESULT(tx_thread_resume(&t->tx), RM_NO_WAIT);
}

RM_TX_INLINE int rm_thread_yield(void)
{
    tx_thread_relinquish();
    return RM_OK;
}

/* ---- objects ----------------------------------------------------------- */
RM_TX_INLINE int rm_sem_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    RM_TX_RESULT(tx_semaphore_put(&o->u.sem), RM_NO_WAIT);
}

RM_TX_INLINE int rm_sem_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    RM_TX_RESULT(tx_semaphore_get(&o->u.sem, timeout), timeout);
}

RM_TX_INLINE int rm_mutex_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    RM_TX_RESULT(tx_mutex_put(&o->u.mutex), RM_NO_WAIT);
}

RM_TX_INLINE int rm_mutex_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    RM_TX_RESULT(tx_mutex_get(&o->u.mutex, timeout), timeout);
}

RM_TX_INLINE int rm_event_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    RM_TX_RESULT(tx_event_flags_set(&o->u.event, 1u, TX_OR), RM_NO_WAIT);
}

RM_TX_INLINE int rm_event_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    ULONG got;
    RM_TX_RESULT(tx_event_flags_get(&o->u.event, 1u, TX_OR_CLEAR, &got, timeout), timeout);
}

RM_TX_INLINE int rm_queue_signal(rm_obj_t o, const rm_msg_t *msg)
{
    /* ThreadX's API is not const-correct; the message is only read. */
    RM_TX_RESULT(tx_queue_send(&o->u.queue.q, (VOID *)(uintptr_t)msg->w, TX_NO_WAIT),
                 RM_NO_WAIT);
}

RM_TX_INLINE int rm_queue_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    RM_TX_RESULT(tx_queue_receive(&o->u.queue.q, msg->w, timeout), timeout);
}

/* ---- memory -------------------------------------------------------------- */
RM_TX_INLINE int rm_pool_alloc(rm_pool_t p, void **block)
{
    RM_TX_RESULT(tx_block_allocate(&p->bp, block, TX_NO_WAIT), RM_NO_WAIT);
}

RM_TX_INLINE int rm_pool_free(rm_pool_t p, void *block)
{
    (void)p; /* ThreadX finds the pool from the block's header */
    RM_TX_RESULT(tx_block_release(block), RM_NO_WAIT);
}

/* ---- interrupts ------------------------------------------------------------ */
RM_TX_INLINE int rm_isr_resume(rm_thread_t t)
{
    RM_TX_RESULT(tx_thread_resume(&t->tx), RM_NO_WAIT);
}

RM_TX_INLINE int rm_isr_sem_signal(rm_obj_t o)
{
    RM_TX_RESULT(tx_semaphore_put(&o->u.sem), RM_NO_WAIT);
}

#if defined(__linux__)
void rm_tx_linux_irq_trigger(void);
#define RM_PORT_IRQ_TRIGGER() rm_tx_linux_irq_trigger()
#endif

#endif /* RM_PORT_INLINE_H */
