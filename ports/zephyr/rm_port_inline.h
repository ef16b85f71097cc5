/* Zephyr port: the measured calls of port.h, inline, so that each measured
 * interval holds the Zephyr kernel call alone (port.h, "the port's inline
 * calls"). Set-up calls (create, delete, ...) are in port.c.
 *
 * - Timeouts: RM_NO_WAIT is K_NO_WAIT (K_TICKS(0)), RM_FOREVER K_FOREVER,
 *   anything else K_TICKS(n); a constant timeout folds at compile time.
 * - Status: each measured call returns Zephyr's own result (0 / -errno, the
 *   item, the event bits); its _rc translator tests success first, so the
 *   caller's own success test is the only branch (port.h).
 * - Objects that carry no payload of their own in Zephyr: FIFO, LIFO and
 *   STACK items are port-owned (the first word is Zephyr's link; k_stack
 *   holds the item's address, one stack_data_t word), from a per-object
 *   free list of RM_QUEUE_DEPTH items: the signal takes one and copies the
 *   message in before the kernel call (two loads and a store, plus the
 *   16-byte copy the port layer's contract asks for); the wait records its
 *   destination (one store) before it, and its _rc copies the message out
 *   and gives the item back after the closing read (one receiver at a
 *   time). MAILBOX is k_mbox_async_put (the only Zephyr
 *   send that does not block until a receiver has taken the message, which
 *   s3 needs): the message's data is copied by the receiver's k_mbox_get,
 *   from the caller's msg (the cases keep it unchanged until received); the
 *   send and receive descriptors are the object's, set up at creation (one
 *   sender and one receiver at a time), so a call stores only what varies.
 * - Calls that are two kernel calls in Zephyr 3.5, as a Zephyr user writes
 *   them: EVENT wait = k_event_wait + k_event_clear (3.5 has no wait-and-
 *   clear; K_EVENT_WAIT_RESET clears before waiting); CONDVAR wait = its
 *   mutex's lock, k_condvar_wait, unlock; POLL_SIGNAL wait = the event's
 *   state reset, k_poll, then k_poll_signal_reset.
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
    struct rm_obj *obj; /* its object: the wait's _rc gives it back there */
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
            rm_msg_t *dst; /* where the pending wait's message goes */
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
/* Success is the expected case: the compiler then lays out the loop around
 * the kernel call with the failure path out of line (no extra branch). */
#define RM_Z_OK(cond) __builtin_expect((cond), 1)

RM_Z_INLINE k_timeout_t rmz_timeout(uint32_t ticks)
{
    return ticks == RM_FOREVER ? K_FOREVER : K_TICKS(ticks);
}

/* ---- status translators ------------------------------------------------ */
/* Zephyr's 0 / -errno of a wait (the timeout says which failure). */
RM_Z_INLINE int rmz_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rm_wait_rc(raw == 0, timeout);
}

/* Zephyr's 0 / -errno of a send that does not wait: no room. */
RM_Z_INLINE int rmz_sent_rc(rm_raw_t raw)
{
    return RM_Z_OK(raw == 0) ? RM_OK : RM_EAGAIN;
}

/* A call that returns nothing (raw 0) or a status with no failure. */
RM_Z_INLINE int rmz_done_rc(rm_raw_t raw)
{
    (void)raw;
    return RM_OK;
}

/* ---- threads ---------------------------------------------------------- */
/* k_thread_suspend / k_thread_resume / k_yield return nothing: raw is 0. */
RM_Z_INLINE rm_raw_t rm_thread_suspend_raw(rm_thread_t t)
{
    k_thread_suspend(&t->k);
    return 0;
}

RM_Z_INLINE int rm_thread_suspend_rc(rm_raw_t raw) { return rmz_done_rc(raw); }

RM_Z_INLINE rm_raw_t rm_thread_resume_raw(rm_thread_t t)
{
    k_thread_resume(&t->k);
    return 0;
}

RM_Z_INLINE int rm_thread_resume_rc(rm_raw_t raw) { return rmz_done_rc(raw); }

RM_Z_INLINE rm_raw_t rm_thread_yield_raw(void)
{
    k_yield();
    return 0;
}

RM_Z_INLINE int rm_thread_yield_rc(rm_raw_t raw) { return rmz_done_rc(raw); }

/* ---- objects: signal / wait per kind ------------------------------------ */
/* k_sem_give returns nothing (a full semaphore stays at its limit). */
RM_Z_INLINE rm_raw_t rm_sem_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    k_sem_give(&o->u.sem);
    return 0;
}

RM_Z_INLINE int rm_sem_signal_rc(rm_raw_t raw) { return rmz_done_rc(raw); }

RM_Z_INLINE rm_raw_t rm_sem_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return k_sem_take(&o->u.sem, rmz_timeout(timeout));
}

RM_Z_INLINE int rm_sem_wait_rc(rm_raw_t raw, uint32_t timeout) { return rmz_wait_rc(raw, timeout); }

/* Unlocking a mutex one does not hold is an error, not a full object. */
RM_Z_INLINE rm_raw_t rm_mutex_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return k_mutex_unlock(&o->u.mutex);
}

RM_Z_INLINE int rm_mutex_signal_rc(rm_raw_t raw)
{
    return RM_Z_OK(raw == 0) ? RM_OK : RM_ERROR;
}

RM_Z_INLINE rm_raw_t rm_mutex_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return k_mutex_lock(&o->u.mutex, rmz_timeout(timeout));
}

RM_Z_INLINE int rm_mutex_wait_rc(rm_raw_t raw, uint32_t timeout) { return rmz_wait_rc(raw, timeout); }

/* k_event_post returns the bits before the call: nothing to test. */
RM_Z_INLINE rm_raw_t rm_event_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return (rm_raw_t)k_event_post(&o->u.event, 1u);
}

RM_Z_INLINE int rm_event_signal_rc(rm_raw_t raw) { return rmz_done_rc(raw); }

/* k_event_clear returns the bits it cleared: bit 0 set = the wait got it
 * (cleared unconditionally: after a timeout bit 0 is clear, and a post that
 * came in between is taken and reported, not lost). */
RM_Z_INLINE rm_raw_t rm_event_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    (void)k_event_wait(&o->u.event, 1u, false, rmz_timeout(timeout));
    return (rm_raw_t)k_event_clear(&o->u.event, 1u);
}

RM_Z_INLINE int rm_event_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rm_wait_rc((raw & 1) != 0, timeout);
}

/* k_mbox_async_put returns nothing (it never waits: s3 needs that). */
RM_Z_INLINE rm_raw_t rm_mailbox_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    o->u.mb.tx.tx_data = (void *)(uintptr_t)msg;
    k_mbox_async_put(&o->u.mb.mbox, &o->u.mb.tx, NULL);
    return 0;
}

RM_Z_INLINE int rm_mailbox_signal_rc(rm_raw_t raw) { return rmz_done_rc(raw); }

RM_Z_INLINE rm_raw_t rm_mailbox_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    o->u.mb.rx.size = RM_MSG_SIZE;
    o->u.mb.rx.rx_source_thread = K_ANY;
    return k_mbox_get(&o->u.mb.mbox, &o->u.mb.rx, msg, rmz_timeout(timeout));
}

RM_Z_INLINE int rm_mailbox_wait_rc(rm_raw_t raw, uint32_t timeout) { return rmz_wait_rc(raw, timeout); }

RM_Z_INLINE rm_raw_t rm_queue_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    return k_msgq_put(&o->u.msgq.q, msg, K_NO_WAIT);
}

RM_Z_INLINE int rm_queue_signal_rc(rm_raw_t raw) { return rmz_sent_rc(raw); }

RM_Z_INLINE rm_raw_t rm_queue_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return k_msgq_get(&o->u.msgq.q, msg, rmz_timeout(timeout));
}

RM_Z_INLINE int rm_queue_wait_rc(rm_raw_t raw, uint32_t timeout) { return rmz_wait_rc(raw, timeout); }

/* FIFO, LIFO, STACK: the sender takes a port-owned item and copies the
 * message into it before the kernel call (Zephyr's objects carry the item,
 * not the data). k_fifo_put / k_lifo_put return nothing: raw is the item
 * put, NULL when no item was free (the object is full; a constant status
 * would be set after the call, inside the interval); k_stack_push's status
 * is raw, no free item -ENOMEM (as k_fifo_alloc_put says it). The
 * receiver records where the message goes (one store before the kernel
 * call); its _rc, after the closing read, copies the message out and gives
 * the item back (the item knows its object). */
RM_Z_INLINE struct rmz_item *rmz_item_take(rm_obj_t o, const rm_msg_t *msg)
{
    struct rmz_item *it = o->u.list.free;
    if (RM_Z_OK(it != NULL)) {
        o->u.list.free = it->next_free;
        it->msg = *msg;
    }
    return it;
}

RM_Z_INLINE int rmz_item_put_rc(rm_raw_t raw)
{
    return RM_Z_OK(raw != 0) ? RM_OK : RM_EAGAIN;
}

/* raw: the item the kernel gave, NULL if none came. */
RM_Z_INLINE int rmz_item_rc(rm_raw_t raw, uint32_t timeout)
{
    struct rmz_item *it = (struct rmz_item *)raw;
    if (__builtin_expect(it == NULL, 0)) {
        return rm_wait_failed(timeout);
    }
    rm_obj_t o = it->obj;
    *o->u.list.dst = it->msg;
    it->next_free = o->u.list.free;
    o->u.list.free = it;
    return RM_OK;
}

RM_Z_INLINE rm_raw_t rm_fifo_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    struct rmz_item *it = rmz_item_take(o, msg);
    if (RM_Z_OK(it != NULL)) {
        k_fifo_put(&o->u.list.fifo, it);
    }
    return (rm_raw_t)it;
}

RM_Z_INLINE int rm_fifo_signal_rc(rm_raw_t raw) { return rmz_item_put_rc(raw); }

RM_Z_INLINE rm_raw_t rm_fifo_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    o->u.list.dst = msg;
    return (rm_raw_t)k_fifo_get(&o->u.list.fifo, rmz_timeout(timeout));
}

RM_Z_INLINE int rm_fifo_wait_rc(rm_raw_t raw, uint32_t timeout) { return rmz_item_rc(raw, timeout); }

RM_Z_INLINE rm_raw_t rm_lifo_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    struct rmz_item *it = rmz_item_take(o, msg);
    if (RM_Z_OK(it != NULL)) {
        k_lifo_put(&o->u.list.lifo, it);
    }
    return (rm_raw_t)it;
}

RM_Z_INLINE int rm_lifo_signal_rc(rm_raw_t raw) { return rmz_item_put_rc(raw); }

RM_Z_INLINE rm_raw_t rm_lifo_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    o->u.list.dst = msg;
    return (rm_raw_t)k_lifo_get(&o->u.list.lifo, rmz_timeout(timeout));
}

RM_Z_INLINE int rm_lifo_wait_rc(rm_raw_t raw, uint32_t timeout) { return rmz_item_rc(raw, timeout); }

/* STACK: k_stack of item addresses (Zephyr's other LIFO: a word array,
 * no link in the item, a fixed depth of RM_QUEUE_DEPTH words: as many as
 * items, so the free list runs out before the push can fail). k_stack_pop
 * stores the item in its out-parameter (left 0 when none came): raw is that
 * word, read back after the call (one load, like an allocator's pointer). */
RM_Z_INLINE rm_raw_t rm_stack_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    struct rmz_item *it = rmz_item_take(o, msg);
    if (__builtin_expect(it == NULL, 0)) {
        return -ENOMEM;
    }
    return k_stack_push(&o->u.list.stack, (stack_data_t)it);
}

RM_Z_INLINE int rm_stack_signal_rc(rm_raw_t raw) { return rmz_sent_rc(raw); }

RM_Z_INLINE rm_raw_t rm_stack_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    stack_data_t word = 0;
    o->u.list.dst = msg;
    (void)k_stack_pop(&o->u.list.stack, &word, rmz_timeout(timeout));
    return (rm_raw_t)word;
}

RM_Z_INLINE int rm_stack_wait_rc(rm_raw_t raw, uint32_t timeout) { return rmz_item_rc(raw, timeout); }

/* STREAM: a k_pipe of RM_QUEUE_DEPTH x 16 bytes; every transfer is exactly
 * 16 bytes (min_xfer = 16), so no message is split: 0 = all 16 moved. */
RM_Z_INLINE rm_raw_t rm_stream_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    size_t n;
    return k_pipe_put(&o->u.pipe.p, (void *)(uintptr_t)msg, RM_MSG_SIZE, &n, RM_MSG_SIZE,
                      K_NO_WAIT);
}

RM_Z_INLINE int rm_stream_signal_rc(rm_raw_t raw) { return rmz_sent_rc(raw); }

RM_Z_INLINE rm_raw_t rm_stream_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    size_t n;
    return k_pipe_get(&o->u.pipe.p, msg, RM_MSG_SIZE, &n, RM_MSG_SIZE, rmz_timeout(timeout));
}

RM_Z_INLINE int rm_stream_wait_rc(rm_raw_t raw, uint32_t timeout) { return rmz_wait_rc(raw, timeout); }

/* CONDVAR: Zephyr's signal needs no mutex (it returns 0); the wait holds
 * the port's own around k_condvar_wait, whose status is raw. */
RM_Z_INLINE rm_raw_t rm_condvar_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return k_condvar_signal(&o->u.cond.cv);
}

RM_Z_INLINE int rm_condvar_signal_rc(rm_raw_t raw) { return rmz_done_rc(raw); }

RM_Z_INLINE rm_raw_t rm_condvar_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    (void)k_mutex_lock(&o->u.cond.m, K_FOREVER);
    int rc = k_condvar_wait(&o->u.cond.cv, &o->u.cond.m, rmz_timeout(timeout));
    (void)k_mutex_unlock(&o->u.cond.m);
    return rc;
}

RM_Z_INLINE int rm_condvar_wait_rc(rm_raw_t raw, uint32_t timeout) { return rmz_wait_rc(raw, timeout); }

RM_Z_INLINE rm_raw_t rm_poll_signal_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return k_poll_signal_raise(&o->u.poll.sig, 1);
}

RM_Z_INLINE int rm_poll_signal_signal_rc(rm_raw_t raw)
{
    return RM_Z_OK(raw == 0) ? RM_OK : RM_ERROR;
}

/* The event's state is reset before k_poll (the one after the last), the
 * signal after it, unconditionally: after a timeout it is not raised (a
 * raise in the few instructions between k_poll's return and the reset
 * would be lost; the cases' finite timeouts never expire). */
RM_Z_INLINE rm_raw_t rm_poll_signal_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    o->u.poll.ev.state = K_POLL_STATE_NOT_READY;
    int rc = k_poll(&o->u.poll.ev, 1, rmz_timeout(timeout));
    k_poll_signal_reset(&o->u.poll.sig);
    return rc;
}

RM_Z_INLINE int rm_poll_signal_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return rmz_wait_rc(raw, timeout);
}

/* ---- memory --------------------------------------------------------------- */
RM_Z_INLINE rm_raw_t rm_pool_alloc_raw(rm_pool_t p, void **block)
{
    return k_mem_slab_alloc(&p->slab, block, K_NO_WAIT);
}

RM_Z_INLINE int rm_pool_alloc_rc(rm_raw_t raw, void **block)
{
    (void)block; /* the kernel stored the block */
    return rmz_sent_rc(raw);
}

RM_Z_INLINE rm_raw_t rm_pool_free_raw(rm_pool_t p, void *block)
{
    k_mem_slab_free(&p->slab, block);
    return 0;
}

RM_Z_INLINE int rm_pool_free_rc(rm_raw_t raw) { return rmz_done_rc(raw); }

/* HEAP: k_malloc / k_free; the pointer is alloc's status, delivered to the
 * caller by the translator (NULL: no memory). */
RM_HEAP_MALLOC_LIKE(RM_Z_INLINE, k_malloc, k_free)

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
