/* Zephyr port: the measured calls of port.h, inline, so that each measured
 * interval holds the Zephyr kernel call alone (port.h, "the port's inline
 * calls"). Set-up calls (create, delete, ...) are in port.c.
 *
 * - Timeouts: RM_NO_WAIT is K_NO_WAIT (K_TICKS(0)), RM_FOREVER K_FOREVER,
 *   anything else K_TICKS(n); a constant timeout folds at compile time.
 * - Status: Zephyr returns 0 on success; each call tests that first.
 * - Objects that carry no payload of their own in Zephyr: FIFO, LIFO and
 *   STACK items are port-owned (the first word is Zephyr's link; k_stack
 *   holds the item's address, one stack_data_t word), taken from and
 *   returned to a per-object free list of RM_QUEUE_DEPTH items around the
 *   one kernel call (two loads and a store, plus the 16-byte copy the port
 *   layer's contract asks for). MAILBOX is k_mbox_async_put (the only Zephyr
 *   send that does not block until a receiver has taken the message, which
 *   s3 needs): the message's data is copied by the receiver's k_mbox_get,
 *   from the caller's msg (the cases keep it unchanged until received); the
 *   send and receive descriptors are the object's, set up at creation (one
 *   sender and one receiver at a time), so a call stores only what varies.
 * - Calls that are two kernel calls in Zephyr 3.5, as a Zephyr user writes
 *   them: EVENT wait = k_event_wait + k_event_clear (3.5 has no wait-and-
 *   clear; K_EVENT_WAIT_RESET clears before waiting); CONDVAR wait = its
 *   mutex's lock, k_condvar_wait, unlock; POLL_SIGNAL wait = k_poll, then
 *   k_poll_signal_reset and the event's state reset.
 * - Interrupts: the case's handler is connected with irq_connect_dynamic,
 *   so Zephyr's _isr_wrapper calls it and z_arm_int_exit pends the switch
 *   an interrupt-safe call made necessary: no RM_PORT_ISR_ENTER/EXIT.
 */
#ifndef RM_PORT_INLINE_H
#define RM_PORT_INLINE_H

#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>

/* k_thread first: k_current_get() of a port thread is its rm_thread_t. */
struct rm_thread {
    struct k_thread k;
    rm_entry_t entry;
    void *arg;
    uint8_t used;
};

/* A FIFO/LIFO/STACK item: Zephyr's link word first, then the message. */
struct rmz_item {
    void *link;
    rm_msg_t msg;
    struct rmz_item *next_free;
};

struct rm_obj {
    rm_obj_kind_t kind;
    uint8_t used;
    union {
        struct k_sem sem;
        struct k_mutex mutex;
        struct k_event event;
        struct {
            struct k_mbox mbox;
            /* Descriptors set up at creation: a call fills in what varies
             * (k_mbox_async_put copies tx; k_mbox_get rewrites rx). */
            struct k_mbox_msg tx, rx;
        } mb;
        struct {
            struct k_msgq q;
            char buf[RM_QUEUE_DEPTH * RM_MSG_SIZE] __aligned(4);
        } msgq;
        struct {
            struct k_fifo fifo; /* k_lifo has the same layout (a k_queue) */
            struct k_lifo lifo;
            struct k_stack stack; /* of item addresses */
            stack_data_t words[RM_QUEUE_DEPTH];
            struct rmz_item *free;
            struct rmz_item items[RM_QUEUE_DEPTH];
        } list;
        struct {
            struct k_pipe p;
            unsigned char buf[RM_QUEUE_DEPTH * RM_MSG_SIZE];
        } pipe;
        struct {
            struct k_condvar cv;
            struct k_mutex m;
        } cond;
        struct {
            struct k_poll_signal sig;
            struct k_poll_event ev;
        } poll;
    } u;
};

struct rm_pool {
    struct k_mem_slab slab;
    uint8_t used;
};

#define RM_Z_INLINE static inline __attribute__((always_inline))
#define RM_Z_FAILED(timeout) ((timeout) == RM_NO_WAIT ? RM_EAGAIN : RM_ETIMEOUT)
/* Success is the expected case: the compiler then lays out the loop around
 * the kernel call with the failure path out of line (no extra branch). */
#define RM_Z_OK(cond) __builtin_expect((cond), 1)

RM_Z_INLINE k_timeout_t rmz_timeout(uint32_t ticks)
{
    return ticks == RM_FOREVER ? K_FOREVER : K_TICKS(ticks);
}

/* ---- threads ---------------------------------------------------------- */
RM_Z_INLINE int rm_thread_suspend(rm_thread_t t)
{
    k_thread_suspend(&t->k);
    return RM_OK;
}

RM_Z_INLINE int rm_thread_resume(rm_thread_t t)
{
    k_thread_resume(&t->k);
    return RM_OK;
}

RM_Z_INLINE int rm_thread_yield(void)
{
    k_yield();
    return RM_OK;
}

/* ---- objects: signal / wait per kind ------------------------------------ */
RM_Z_INLINE int rm_sem_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    k_sem_give(&o->u.sem);
    return RM_OK;
}

RM_Z_INLINE int rm_sem_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return RM_Z_OK(k_sem_take(&o->u.sem, rmz_timeout(timeout)) == 0) ? RM_OK : RM_Z_FAILED(timeout);
}

RM_Z_INLINE int rm_mutex_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return RM_Z_OK(k_mutex_unlock(&o->u.mutex) == 0) ? RM_OK : RM_ERROR;
}

RM_Z_INLINE int rm_mutex_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return RM_Z_OK(k_mutex_lock(&o->u.mutex, rmz_timeout(timeout)) == 0) ? RM_OK
                                                                  : RM_Z_FAILED(timeout);
}

RM_Z_INLINE int rm_event_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    (void)k_event_post(&o->u.event, 1u);
    return RM_OK;
}

RM_Z_INLINE int rm_event_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    if (RM_Z_OK((k_event_wait(&o->u.event, 1u, false, rmz_timeout(timeout)) & 1u) != 0u)) {
        (void)k_event_clear(&o->u.event, 1u);
        return RM_OK;
    }
    return RM_Z_FAILED(timeout);
}

RM_Z_INLINE int rm_mailbox_signal(rm_obj_t o, const rm_msg_t *msg)
{
    o->u.mb.tx.tx_data = (void *)(uintptr_t)msg;
    k_mbox_async_put(&o->u.mb.mbox, &o->u.mb.tx, NULL);
    return RM_OK;
}

RM_Z_INLINE int rm_mailbox_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    o->u.mb.rx.size = RM_MSG_SIZE;
    o->u.mb.rx.rx_source_thread = K_ANY;
    return RM_Z_OK(k_mbox_get(&o->u.mb.mbox, &o->u.mb.rx, msg, rmz_timeout(timeout)) == 0)
               ? RM_OK
               : RM_Z_FAILED(timeout);
}

RM_Z_INLINE int rm_queue_signal(rm_obj_t o, const rm_msg_t *msg)
{
    return RM_Z_OK(k_msgq_put(&o->u.msgq.q, msg, K_NO_WAIT) == 0) ? RM_OK : RM_EAGAIN;
}

RM_Z_INLINE int rm_queue_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return RM_Z_OK(k_msgq_get(&o->u.msgq.q, msg, rmz_timeout(timeout)) == 0) ? RM_OK
                                                                      : RM_Z_FAILED(timeout);
}

RM_Z_INLINE struct rmz_item *rmz_item_take(rm_obj_t o, const rm_msg_t *msg)
{
    struct rmz_item *it = o->u.list.free;
    if (RM_Z_OK(it != NULL)) {
        o->u.list.free = it->next_free;
        it->msg = *msg;
    }
    return it;
}

RM_Z_INLINE int rmz_item_give(rm_obj_t o, struct rmz_item *it, rm_msg_t *msg,
                               uint32_t timeout)
{
    if (__builtin_expect(it == NULL, 0)) {
        return RM_Z_FAILED(timeout);
    }
    *msg = it->msg;
    it->next_free = o->u.list.free;
    o->u.list.free = it;
    return RM_OK;
}

RM_Z_INLINE int rm_fifo_signal(rm_obj_t o, const rm_msg_t *msg)
{
    struct rmz_item *it = rmz_item_take(o, msg);
    if (__builtin_expect(it == NULL, 0)) {
        return RM_EAGAIN;
    }
    k_fifo_put(&o->u.list.fifo, it);
    return RM_OK;
}

RM_Z_INLINE int rm_fifo_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    struct rmz_item *it = k_fifo_get(&o->u.list.fifo, rmz_timeout(timeout));
    return rmz_item_give(o, it, msg, timeout);
}

RM_Z_INLINE int rm_lifo_signal(rm_obj_t o, const rm_msg_t *msg)
{
    struct rmz_item *it = rmz_item_take(o, msg);
    if (__builtin_expect(it == NULL, 0)) {
        return RM_EAGAIN;
    }
    k_lifo_put(&o->u.list.lifo, it);
    return RM_OK;
}

RM_Z_INLINE int rm_lifo_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    struct rmz_item *it = k_lifo_get(&o->u.list.lifo, rmz_timeout(timeout));
    return rmz_item_give(o, it, msg, timeout);
}

/* STACK: k_stack of item addresses (Zephyr's other LIFO: a word array,
 * no link in the item, a fixed depth of RM_QUEUE_DEPTH words: as many as
 * items, so the free list runs out before the push can fail). */
RM_Z_INLINE int rm_stack_signal(rm_obj_t o, const rm_msg_t *msg)
{
    struct rmz_item *it = rmz_item_take(o, msg);
    if (__builtin_expect(it == NULL, 0)) {
        return RM_EAGAIN;
    }
    return RM_Z_OK(k_stack_push(&o->u.list.stack, (stack_data_t)it) == 0) ? RM_OK : RM_EAGAIN;
}

RM_Z_INLINE int rm_stack_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    stack_data_t word;
    if (!RM_Z_OK(k_stack_pop(&o->u.list.stack, &word, rmz_timeout(timeout)) == 0)) {
        return RM_Z_FAILED(timeout);
    }
    return rmz_item_give(o, (struct rmz_item *)word, msg, timeout);
}

/* STREAM: a k_pipe of RM_QUEUE_DEPTH x 16 bytes; every transfer is exactly
 * 16 bytes (min_xfer = 16), so no message is split. */
RM_Z_INLINE int rm_stream_signal(rm_obj_t o, const rm_msg_t *msg)
{
    size_t n;
    return RM_Z_OK(k_pipe_put(&o->u.pipe.p, (void *)(uintptr_t)msg, RM_MSG_SIZE, &n, RM_MSG_SIZE,
                      K_NO_WAIT) == 0)
               ? RM_OK
               : RM_EAGAIN;
}

RM_Z_INLINE int rm_stream_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    size_t n;
    return RM_Z_OK(k_pipe_get(&o->u.pipe.p, msg, RM_MSG_SIZE, &n, RM_MSG_SIZE,
                      rmz_timeout(timeout)) == 0)
               ? RM_OK
               : RM_Z_FAILED(timeout);
}

/* CONDVAR: Zephyr's signal needs no mutex; the wait holds the port's own. */
RM_Z_INLINE int rm_condvar_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    (void)k_condvar_signal(&o->u.cond.cv);
    return RM_OK;
}

RM_Z_INLINE int rm_condvar_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    (void)k_mutex_lock(&o->u.cond.m, K_FOREVER);
    int rc = k_condvar_wait(&o->u.cond.cv, &o->u.cond.m, rmz_timeout(timeout));
    (void)k_mutex_unlock(&o->u.cond.m);
    return RM_Z_OK(rc == 0) ? RM_OK : RM_Z_FAILED(timeout);
}

RM_Z_INLINE int rm_poll_signal_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return RM_Z_OK(k_poll_signal_raise(&o->u.poll.sig, 1) == 0) ? RM_OK : RM_ERROR;
}

RM_Z_INLINE int rm_poll_signal_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    if (RM_Z_OK(k_poll(&o->u.poll.ev, 1, rmz_timeout(timeout)) == 0)) {
        k_poll_signal_reset(&o->u.poll.sig);
        o->u.poll.ev.state = K_POLL_STATE_NOT_READY;
        return RM_OK;
    }
    return RM_Z_FAILED(timeout);
}

/* ---- memory --------------------------------------------------------------- */
RM_Z_INLINE int rm_pool_alloc(rm_pool_t p, void **block)
{
    return RM_Z_OK(k_mem_slab_alloc(&p->slab, block, K_NO_WAIT) == 0) ? RM_OK : RM_EAGAIN;
}

RM_Z_INLINE int rm_pool_free(rm_pool_t p, void *block)
{
    k_mem_slab_free(&p->slab, block);
    return RM_OK;
}

RM_Z_INLINE int rm_heap_alloc(size_t size, void **mem)
{
    *mem = k_malloc(size);
    return RM_Z_OK(*mem != NULL) ? RM_OK : RM_EAGAIN;
}

RM_Z_INLINE int rm_heap_free(void *mem)
{
    k_free(mem);
    return RM_OK;
}

/* ---- interrupts ------------------------------------------------------------ */
RM_Z_INLINE int rm_isr_resume(rm_thread_t t)
{
    k_thread_resume(&t->k);
    return RM_OK;
}

RM_Z_INLINE int rm_isr_sem_signal(rm_obj_t o)
{
    k_sem_give(&o->u.sem);
    return RM_OK;
}

#endif /* RM_PORT_INLINE_H */
