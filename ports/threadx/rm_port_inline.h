/* ThreadX port: the measured calls of port.h, inline, so that each
 * measured interval holds the ThreadX call alone (port.h, "the port's
 * inline calls"). Set-up calls (create, delete, ...) are in port.c.
 *
 * - Timeouts: RM_NO_WAIT / RM_FOREVER are TX_NO_WAIT / TX_WAIT_FOREVER, so
 *   a timeout passes through unchanged.
 * - Status: each measured call returns ThreadX's own UINT status (raw); its
 *   _rc translator tests TX_SUCCESS first, and only a failure goes through
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
 * Success is the expected case (__builtin_expect in threadx_rc): where the
 * status is used, GCC would otherwise set up the failure call's argument
 * (movs r1, #0) ahead of the branch. rm_failure (port.h) says a failure is
 * never RM_OK, so that Thread-Metric's layer, which only asks "success or
 * not", compiles to ThreadX's status test alone, as ThreadX's shipped
 * tm_porting_layer_threadx.c has it. */
int rm_tx_failure(UINT status, uint32_t timeout) __attribute__((const));

#define RM_TX_INLINE static inline __attribute__((always_inline))

/* Every measured call returns ThreadX's UINT status as its raw status; its
 * _rc translates it after the closing timestamp (port.h). */
RM_TX_INLINE int threadx_rc(rm_raw_t raw, uint32_t timeout)
{
    return __builtin_expect(raw == TX_SUCCESS, 1)
               ? RM_OK
               : rm_failure(rm_tx_failure((UINT)raw, timeout));
}

/* ---- threads ---------------------------------------------------------- */
RM_TX_INLINE rm_raw_t rm_thread_suspend_raw(rm_thread_t t)
{
    return tx_thread_suspend(&t->tx);
}

RM_TX_INLINE int rm_thread_suspend_rc(rm_raw_t raw)
{
    return threadx_rc(raw, RM_NO_WAIT);
}

RM_TX_INLINE rm_raw_t rm_thread_resume_raw(rm_thread_t t)
{
    return tx_thread_resume(&t->tx);
}

RM_TX_INLINE int rm_thread_resume_rc(rm_raw_t raw)
{
    return threadx_rc(raw, RM_NO_WAIT);
}

/* tx_thread_relinquish returns nothing: raw is 0. */
RM_TX_INLINE rm_raw_t rm_thread_yield_raw(void)
{
    tx_thread_relinquish();
    return 0;
}

RM_TX_INLINE int rm_thread_yield_rc(rm_raw_t raw)
{
    (void)raw;
    return RM_OK;
}

/* ---- objects ----------------------------------------------------------- */
RM_TX_INLINE rm_raw_t rm_sem_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return tx_semaphore_put(&o->u.sem);
}

RM_TX_INLINE int rm_sem_signal_rc(rm_raw_t raw)
{
    return threadx_rc(raw, RM_NO_WAIT);
}

RM_TX_INLINE rm_raw_t rm_sem_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return tx_semaphore_get(&o->u.sem, timeout);
}

RM_TX_INLINE int rm_sem_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return threadx_rc(raw, timeout);
}

RM_TX_INLINE rm_raw_t rm_mutex_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return tx_mutex_put(&o->u.mutex);
}

RM_TX_INLINE int rm_mutex_signal_rc(rm_raw_t raw)
{
    return threadx_rc(raw, RM_NO_WAIT);
}

RM_TX_INLINE rm_raw_t rm_mutex_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return tx_mutex_get(&o->u.mutex, timeout);
}

RM_TX_INLINE int rm_mutex_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return threadx_rc(raw, timeout);
}

RM_TX_INLINE rm_raw_t rm_event_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return tx_event_flags_set(&o->u.event, 1u, TX_OR);
}

RM_TX_INLINE int rm_event_signal_rc(rm_raw_t raw)
{
    return threadx_rc(raw, RM_NO_WAIT);
}

/* The flags got are bit 0 whenever the status is TX_SUCCESS: unused. */
RM_TX_INLINE rm_raw_t rm_event_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    ULONG got;
    return tx_event_flags_get(&o->u.event, 1u, TX_OR_CLEAR, &got, timeout);
}

RM_TX_INLINE int rm_event_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return threadx_rc(raw, timeout);
}

RM_TX_INLINE rm_raw_t rm_queue_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    /* ThreadX's API is not const-correct; the message is only read. */
    return tx_queue_send(&o->u.queue.q, (VOID *)(uintptr_t)msg->w, TX_NO_WAIT);
}

RM_TX_INLINE int rm_queue_signal_rc(rm_raw_t raw)
{
    return threadx_rc(raw, RM_NO_WAIT);
}

RM_TX_INLINE rm_raw_t rm_queue_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return tx_queue_receive(&o->u.queue.q, msg->w, timeout);
}

RM_TX_INLINE int rm_queue_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return threadx_rc(raw, timeout);
}

/* ---- memory -------------------------------------------------------------- */
RM_TX_INLINE rm_raw_t rm_pool_alloc_raw(rm_pool_t p, void **block)
{
    return tx_block_allocate(&p->bp, block, TX_NO_WAIT);
}

RM_TX_INLINE int rm_pool_alloc_rc(rm_raw_t raw, void **block)
{
    (void)block; /* the kernel stored the block */
    return threadx_rc(raw, RM_NO_WAIT);
}

RM_TX_INLINE rm_raw_t rm_pool_free_raw(rm_pool_t p, void *block)
{
    (void)p; /* ThreadX finds the pool from the block's header */
    return tx_block_release(block);
}

RM_TX_INLINE int rm_pool_free_rc(rm_raw_t raw)
{
    return threadx_rc(raw, RM_NO_WAIT);
}

/* HEAP: the one byte pool port.c creates over the memory ThreadX hands to
 * tx_application_define. */
extern TX_BYTE_POOL rm_tx_heap;

RM_TX_INLINE rm_raw_t rm_heap_alloc_raw(size_t size, void **mem)
{
    return tx_byte_allocate(&rm_tx_heap, mem, (ULONG)size, TX_NO_WAIT);
}

RM_TX_INLINE int rm_heap_alloc_rc(rm_raw_t raw, void **mem)
{
    (void)mem; /* the kernel stored the block */
    return threadx_rc(raw, RM_NO_WAIT);
}

RM_TX_INLINE rm_raw_t rm_heap_free_raw(void *mem)
{
    return tx_byte_release(mem);
}

RM_TX_INLINE int rm_heap_free_rc(rm_raw_t raw)
{
    return threadx_rc(raw, RM_NO_WAIT);
}

/* ---- interrupts ------------------------------------------------------------ */
RM_TX_INLINE int rm_isr_resume(rm_thread_t t)
{
    return threadx_rc(tx_thread_resume(&t->tx), RM_NO_WAIT);
}

RM_TX_INLINE int rm_isr_sem_signal(rm_obj_t o)
{
    return threadx_rc(tx_semaphore_put(&o->u.sem), RM_NO_WAIT);
}

#if defined(__linux__)
void rm_tx_linux_irq_trigger(void);
#define RM_PORT_IRQ_TRIGGER() rm_tx_linux_irq_trigger()
#endif

#endif /* RM_PORT_INLINE_H */
