/* rtosmeter porting layer: the only kernel API a benchmark may call.
 *
 * A port (ports/<rtos>/) implements these calls with the RTOS's native API,
 * one native call per operation. Everything a port does not implement falls
 * back to the weak defaults in bench/core/port_defaults.c, which return
 * RM_ENOTSUP; the capabilities the port declares in its port.toml tell the
 * benchmarks in advance which calls are real (see RM_CAPS below).
 *
 * Obligations of every implementation (MUST / MUST NOT):
 * - Each call MUST be a real kernel call on the RTOS's normal path: no macro
 *   or inline shortcut that bypasses the kernel, no extra checking layer.
 * - Calls return RM_OK (0) or a negative RM_E* code; they MUST NOT print.
 * - Priorities are abstract: RM_PRIO_MIN (least urgent) .. RM_PRIO_MAX (most
 *   urgent). The port maps them monotonically onto native priorities and
 *   documents the mapping at the top of its port file. RM_PRIO_RUNNER is used
 *   only by the framework's runner thread.
 * - Messages are exactly RM_MSG_SIZE (16) bytes on every target (uint32_t[4]);
 *   pool blocks are RM_BLOCK_SIZE (128) bytes.
 * - Calls named rm_isr_* are the only ones a benchmark calls from interrupt
 *   context; the port maps them to the RTOS's interrupt-safe variants, and a
 *   context switch they make necessary happens when the interrupt returns
 *   (see "interrupts" below).
 * - Measured calls (the *_raw calls below) hold the native call and nothing
 *   else: define them static inline in rm_port_inline.h (see below), with no
 *   dispatch on a kind, no bookkeeping of the port's own and no status
 *   translation: they return the kernel's own status, and the call's
 *   translator (*_rc) says what it means after the closing timestamp (see
 *   "measured calls and their status" below).
 * - Idle MUST NOT use WFI/WFE when RM_NO_WFI is defined (deterministic
 *   emulation: WFI distorts virtual time).
 *
 * What the benchmark cases rely on (bench/cases/rm_case_util.h):
 * - A case's threads never return from their entry function: they end
 *   parked (suspended on themselves, or blocked on an object), and the
 *   runner deletes them with rm_thread_delete once the case is over.
 * - rm_thread_delete MUST work on a thread that is suspended, ready (never
 *   ran, or preempted) or blocked on an object or a sleep.
 * - rm_thread_suspend MUST accept another thread (lat.thread.lifecycle
 *   suspends a ready, less urgent thread), not only rm_thread_self().
 * - rm_obj_create(MUTEX) creates the mutex unlocked, whatever `initial`.
 * - Pools are created once per firmware and never freed (there is no
 *   rm_pool_delete): a port may carve them from a static area, and MUST
 *   allow at least one pool of 4 blocks of RM_BLOCK_SIZE.
 */
#ifndef RTOSMETER_PORT_H
#define RTOSMETER_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- result codes --------------------------------------------------- */
enum {
    RM_OK = 0,
    RM_ERROR = -1,    /* the kernel call failed */
    RM_ENOTSUP = -2,  /* the port does not offer this call */
    RM_ETIMEOUT = -3, /* a wait with a timeout expired */
    RM_EAGAIN = -4,   /* a non-blocking call found nothing / no room */
};

/* ---- capabilities ---------------------------------------------------- */
/* X-macro list: the single source of capability names and bits. The harness
 * parses the X(NAME, bit, "description") lines of this list (keep one per
 * line), and a port names the capabilities it has in its port.toml. */
#define RM_CAPS(X)                                                        \
    X(THREAD, 0, "create, delete, yield, sleep threads with priorities")  \
    X(SUSPEND, 1, "suspend and resume a thread from another thread")      \
    X(ISR_RESUME, 2, "resume a thread from an interrupt handler")         \
    X(ISR_SIGNAL, 3, "signal an IPC object from an interrupt handler")    \
    X(IRQ, 4, "a real software-triggered interrupt")                      \
    X(PRIO_QUERY, 5, "read and change a thread's current priority")       \
    X(SLEEP_UNTIL, 6, "periodic sleep against an absolute tick")          \
    X(POOL, 7, "fixed-size block pool")                                   \
    X(HEAP, 8, "the RTOS's general allocator")                            \
    X(SEM, 9, "counting semaphore")                                       \
    X(MUTEX, 10, "mutex")                                                 \
    X(MUTEX_INHERIT, 11, "mutex with priority inheritance")               \
    X(EVENT, 12, "event flags / event group")                             \
    X(MAILBOX, 13, "mailbox (one message, synchronous hand-over)")        \
    X(QUEUE, 14, "message queue of 16-byte messages")                     \
    X(FIFO, 15, "FIFO of linked items")                                   \
    X(LIFO, 16, "LIFO / stack")                                           \
    X(STREAM, 17, "stream buffer / pipe of bytes")                        \
    X(MSGBUF, 18, "message buffer (length-prefixed messages)")            \
    X(NOTIFY, 19, "direct-to-task notification")                          \
    X(CONDVAR, 20, "condition variable")                                  \
    X(THREAD_MSG, 21, "message addressed to a thread (RIOT msg)")         \
    X(THREAD_FLAGS, 22, "flags addressed to a thread")                    \
    X(POLL_SIGNAL, 23, "poll signal (Zephyr k_poll_signal)")              \
    X(PREEMPTIVE, 24, "preemptive priority scheduling")                   \
    X(COOPERATIVE_ONLY, 25, "only cooperative, stackless processes")     \
    X(STACK, 26, "stack of words, last in first out (Zephyr k_stack)")   \
    X(NET, 27, "the OS's network stack on the virtual 802.15.4 radio")   \
    X(IDLE_WFI, 28, "the kernel's own idle with WFI (profile idle = kernel)") \
    X(MUTEX_RECURSIVE, 29, "a mutex its owner can lock again (nested)")

#define RM_CAP_ENUM_(name, bit, desc) RM_CAP_##name = (1ul << (bit)),
enum rm_cap { RM_CAPS(RM_CAP_ENUM_) };
#undef RM_CAP_ENUM_

/* ---- priorities and timeouts ----------------------------------------- */
#define RM_PRIO_MIN 1
#define RM_PRIO_MAX 30
#define RM_PRIO_RUNNER 31 /* the framework's runner thread only */

#define RM_NO_WAIT 0u
#define RM_FOREVER 0xFFFFFFFFu /* timeouts are in kernel ticks */

#define RM_MSG_SIZE 16u
#define RM_BLOCK_SIZE 128u

typedef struct rm_msg {
    uint32_t w[RM_MSG_SIZE / sizeof(uint32_t)];
} rm_msg_t;

/* Handles are port-defined structures; benchmarks only pass them around. */
typedef struct rm_thread *rm_thread_t;
typedef struct rm_obj *rm_obj_t;
typedef struct rm_pool *rm_pool_t;
typedef void (*rm_entry_t)(void *arg);

typedef void (*rm_isr_t)(void); /* an interrupt handler (RM_ISR, bench.h) */

#define RM_QUEUE_DEPTH 4u

/* X-macro list of the object kinds: X(KIND, kind). The harness reads neither
 * this list nor the kinds' names; the cases and the weak defaults do. */
#define RM_KINDS(X)                                                       \
    X(SEM, sem)                                                           \
    X(MUTEX, mutex)                                                       \
    X(EVENT, event)                                                       \
    X(MAILBOX, mailbox)                                                   \
    X(QUEUE, queue)                                                       \
    X(FIFO, fifo)                                                         \
    X(LIFO, lifo)                                                         \
    X(STREAM, stream)                                                     \
    X(MSGBUF, msgbuf)                                                     \
    X(NOTIFY, notify)                                                     \
    X(CONDVAR, condvar)                                                   \
    X(THREAD_MSG, thread_msg)                                             \
    X(THREAD_FLAGS, thread_flags)                                         \
    X(POLL_SIGNAL, poll_signal)                                           \
    X(STACK, stack)

#define RM_KIND_ENUM_(K, k) RM_OBJ_##K,
typedef enum rm_obj_kind { RM_KINDS(RM_KIND_ENUM_) RM_OBJ_KIND_COUNT } rm_obj_kind_t;
#undef RM_KIND_ENUM_

/* ---- measured calls and their status -------------------------------------- */
/* A measured call is a pair: rm_<call>_raw(...) is the kernel call alone and
 * returns the kernel's own status untranslated (a status code, a byte count,
 * event bits, a pointer: whatever the call gives, as an rm_raw_t), and
 * rm_<call>_rc(raw[, timeout]) translates it into RM_OK or an RM_E* code. A
 * case takes the closing timestamp between the two, so that not one
 * instruction of the translation (a compare and a select) lies inside the
 * interval:
 *     t0 = rm_ts(); raw = rm_queue_wait_raw(o, &msg, RM_FOREVER);
 *     t1 = rm_ts(); RM_SETTLE_RAW(raw); rc = rm_queue_wait_rc(raw, RM_FOREVER);
 * For everything that is not timed (set-up, Thread-Metric's loops, where the
 * compiler folds the translation into the loop's own test) rm_<call>(...) is
 * the two composed (defined below, never by a port).
 * A port defines both halves of each measured call it has: a _raw it defines
 * inline comes with an inline _rc (tests/test_port_conformance.py checks
 * this). The weak default _rc returns raw unchanged: right for a call the
 * port lacks (its default _raw is RM_ENOTSUP) and for out-of-line _raw calls
 * that already return an RM code (the POSIX port's). */
typedef intptr_t rm_raw_t;

/* The translator of an allocator that returns its block (NULL: none left),
 * for ports to use as their rm_pool_alloc_rc / rm_heap_alloc_rc: the block
 * reaches the caller's variable after the closing read (see memory below). */
static inline int rm_block_rc(rm_raw_t raw, void **block)
{
    *block = (void *)raw;
    return __builtin_expect(raw != 0, 1) ? RM_OK : RM_EAGAIN;
}

/* For a port whose failure translation is an out-of-line const function of
 * the kernel's status: wraps its result to say what is true of it, that a
 * failure is never RM_OK. A caller that only asks "success or not"
 * (Thread-Metric's porting layer, tm_porting_layer.c) then compiles to the
 * kernel's status test alone, as a hand-written layer's "status ==
 * SUCCESS", instead of a success-first branch around the translator. */
static inline int rm_failure(int rc)
{
    /* Every RM_E* is negative, so the sign bit changes nothing and says rc !=
     * RM_OK. Pure arithmetic, unlike a __builtin_unreachable() on rc ==
     * RM_OK: where the status is ignored (an interrupt handler's
     * `(void)rm_isr_sem_signal()`, inside lat.isr.to_task's interval) the
     * whole translation is still dropped; an assumption kept its test. */
    return (int)((unsigned)rc | 0x80000000u);
}

/* What a wait that got nothing means: RM_EAGAIN if it was not to wait
 * (RM_NO_WAIT), else RM_ETIMEOUT (the one timeout rule of every port). */
static inline __attribute__((always_inline)) int rm_wait_failed(uint32_t timeout)
{
    return timeout == RM_NO_WAIT ? RM_EAGAIN : RM_ETIMEOUT;
}

/* A wait's translator where one test tells success: ok (the expected case,
 * so the compiler lays the failure path out of line) gives RM_OK, else the
 * timeout rule. */
static inline __attribute__((always_inline)) int rm_wait_rc(bool ok, uint32_t timeout)
{
    return __builtin_expect(ok, 1) ? RM_OK : rm_wait_failed(timeout);
}

/* HEAP's four calls on a malloc/free-like allocator: ALLOC(size) returns the
 * block (NULL: none left, translated by rm_block_rc), FREE(mem) returns
 * nothing (always RM_OK). SPEC is the port's inline specifier. Written in a
 * port's rm_port_inline.h as
 *     RM_HEAP_MALLOC_LIKE(RM_FR_INLINE, pvPortMalloc, vPortFree)
 * tests/test_port_conformance.py reads such a line as the four definitions
 * (and the kernel calls they hold). */
#define RM_HEAP_MALLOC_LIKE(SPEC, ALLOC, FREE)                                 \
    SPEC rm_raw_t rm_heap_alloc_raw(size_t size, void **mem)                   \
    {                                                                          \
        (void)mem; /* delivered by the translator */                           \
        void *m = ALLOC(size);                                                 \
        return (rm_raw_t)m;                                                    \
    }                                                                          \
    SPEC int rm_heap_alloc_rc(rm_raw_t raw, void **mem)                        \
    {                                                                          \
        return rm_block_rc(raw, mem);                                          \
    }                                                                          \
    SPEC rm_raw_t rm_heap_free_raw(void *mem)                                  \
    {                                                                          \
        FREE(mem);                                                             \
        return 0;                                                              \
    }                                                                          \
    SPEC int rm_heap_free_rc(rm_raw_t raw)                                     \
    {                                                                          \
        (void)raw;                                                             \
        return RM_OK;                                                          \
    }

/* ---- the port's inline calls -------------------------------------------- */
/* A port (or target) MAY define any call of this header (or target.h)
 * `static inline` in ports/<port>/rm_port_inline.h (targets: rm_target_inline.h
 * in a folder the target adds to RM_TARGET_INCLUDE_DIRS), so that a measured
 * interval holds the native kernel call and nothing else. It is included
 * here, before the prototypes: a prototype after a static definition refers
 * to that definition (C11 6.2.2p4), and a call the port did not inline is an
 * ordinary function in its port.c (or the weak default). The header also
 * defines the port's handle structures where its inline calls need them, and
 * may define RM_PORT_ISR_ENTER() / RM_PORT_ISR_EXIT() (see interrupts below).
 * bench/core/port_defaults.c defines RM_NO_PORT_INLINE: it holds the weak
 * defaults of every call, which an inline definition would clash with. */
#if !defined(RM_NO_PORT_INLINE) && defined(__has_include)
#if __has_include("rm_port_inline.h")
#include "rm_port_inline.h"
#endif
#endif

/* ---- threads --------------------------------------------------------- */
#define RM_THREAD_SUSPENDED 1u /* create without starting (needs SUSPEND) */

/* The benchmarks' entry functions never return (see above), so a port need
 * not handle a return (a FreeRTOS task, for one, must not return); one that
 * does MAY end the thread there. rm_thread_delete is the only way a case
 * thread ends. */
int rm_thread_create(rm_thread_t *t, const char *name, rm_entry_t entry,
                     void *arg, int prio, unsigned flags);
/* t is never the calling thread; t may be suspended, ready or blocked. */
int rm_thread_delete(rm_thread_t t);
/* Measured (a _raw / _rc pair each, composed below). t is the caller's own
 * handle (a case passes it; it never asks rm_thread_self() inside a loop) or
 * another thread's. yield is to a ready thread of equal priority. */
rm_raw_t rm_thread_suspend_raw(rm_thread_t t);
int rm_thread_suspend_rc(rm_raw_t raw);
rm_raw_t rm_thread_resume_raw(rm_thread_t t);
int rm_thread_resume_rc(rm_raw_t raw);
rm_raw_t rm_thread_yield_raw(void);
int rm_thread_yield_rc(rm_raw_t raw);
int rm_thread_sleep(uint32_t ticks);
/* Sleep until *wake + period, then advance *wake by period (drift-free). */
int rm_thread_sleep_until(uint32_t *wake, uint32_t period);
rm_thread_t rm_thread_self(void);
int rm_thread_priority(rm_thread_t t);     /* current (maybe inherited) */
int rm_thread_set_priority(rm_thread_t t, int prio);
uint32_t rm_tick_count(void);              /* kernel ticks since start */
uint32_t rm_tick_hz(void);

/* ---- IPC objects ------------------------------------------------------ */
/* Objects are created and deleted through one generic pair (set-up, never
 * measured); every measured operation has its own typed call, so that no
 * dispatch on the kind sits between two timestamps. `owner` is the thread
 * that will wait; kinds not addressed to a thread ignore it. Queue-like
 * kinds hold at least RM_QUEUE_DEPTH messages (the kinds: RM_KINDS above). */

/* SEM starts at `initial` (the count is not limited to 1). MUTEX starts
 * unlocked and ignores `initial`. The cases pass `initial` != 0 only for
 * SEM; every other kind starts empty (not signalled). */
int rm_obj_create(rm_obj_t *o, rm_obj_kind_t kind, rm_thread_t owner,
                  uint32_t initial);
int rm_obj_delete(rm_obj_t o);

/* Measured: rm_<kind>_signal(o, msg) and rm_<kind>_wait(o, msg, timeout),
 * one pair per kind (each a _raw / _rc pair, composed below), with the same
 * parameters for every kind so that a case can be written once for all of
 * them (kinds without a payload ignore msg, which may then be NULL). What
 * signal / wait mean per kind:
 *   sem: give / take.  mutex: unlock / lock (the signaller holds it).
 *   event: set bit 0 / wait for bit 0 and clear it.
 *   mailbox, queue, fifo, lifo, stream, msgbuf, thread_msg: send msg /
 *     receive into msg (RM_MSG_SIZE bytes; fifo/lifo carry it in a
 *     port-owned item; lifo returns the newest).
 *   notify, thread_flags: notify / take, addressed to the object's owner.
 *   condvar: signal / wait (the port pairs it with its own mutex).
 *   poll_signal: raise / poll and reset.
 *   stack: push / pop one word (a kernel whose stack holds words pushes a
 *     port-owned item's address and carries msg in the item, as fifo/lifo).
 * A wait's _rc gives RM_OK, RM_ETIMEOUT (the timeout expired) or RM_EAGAIN
 * (RM_NO_WAIT and nothing there); a signal's RM_OK or RM_EAGAIN (full). */
rm_raw_t rm_sem_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_sem_signal_rc(rm_raw_t raw);
rm_raw_t rm_sem_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_sem_wait_rc(rm_raw_t raw, uint32_t timeout);
rm_raw_t rm_mutex_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_mutex_signal_rc(rm_raw_t raw);
rm_raw_t rm_mutex_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_mutex_wait_rc(rm_raw_t raw, uint32_t timeout);
rm_raw_t rm_event_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_event_signal_rc(rm_raw_t raw);
rm_raw_t rm_event_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_event_wait_rc(rm_raw_t raw, uint32_t timeout);
rm_raw_t rm_mailbox_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_mailbox_signal_rc(rm_raw_t raw);
rm_raw_t rm_mailbox_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_mailbox_wait_rc(rm_raw_t raw, uint32_t timeout);
rm_raw_t rm_queue_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_queue_signal_rc(rm_raw_t raw);
rm_raw_t rm_queue_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_queue_wait_rc(rm_raw_t raw, uint32_t timeout);
rm_raw_t rm_fifo_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_fifo_signal_rc(rm_raw_t raw);
rm_raw_t rm_fifo_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_fifo_wait_rc(rm_raw_t raw, uint32_t timeout);
rm_raw_t rm_lifo_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_lifo_signal_rc(rm_raw_t raw);
rm_raw_t rm_lifo_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_lifo_wait_rc(rm_raw_t raw, uint32_t timeout);
rm_raw_t rm_stream_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_stream_signal_rc(rm_raw_t raw);
rm_raw_t rm_stream_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_stream_wait_rc(rm_raw_t raw, uint32_t timeout);
rm_raw_t rm_msgbuf_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_msgbuf_signal_rc(rm_raw_t raw);
rm_raw_t rm_msgbuf_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_msgbuf_wait_rc(rm_raw_t raw, uint32_t timeout);
rm_raw_t rm_notify_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_notify_signal_rc(rm_raw_t raw);
rm_raw_t rm_notify_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_notify_wait_rc(rm_raw_t raw, uint32_t timeout);
rm_raw_t rm_condvar_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_condvar_signal_rc(rm_raw_t raw);
rm_raw_t rm_condvar_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_condvar_wait_rc(rm_raw_t raw, uint32_t timeout);
rm_raw_t rm_thread_msg_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_thread_msg_signal_rc(rm_raw_t raw);
rm_raw_t rm_thread_msg_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_thread_msg_wait_rc(rm_raw_t raw, uint32_t timeout);
rm_raw_t rm_thread_flags_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_thread_flags_signal_rc(rm_raw_t raw);
rm_raw_t rm_thread_flags_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_thread_flags_wait_rc(rm_raw_t raw, uint32_t timeout);
rm_raw_t rm_poll_signal_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_poll_signal_signal_rc(rm_raw_t raw);
rm_raw_t rm_poll_signal_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_poll_signal_wait_rc(rm_raw_t raw, uint32_t timeout);
rm_raw_t rm_stack_signal_raw(rm_obj_t o, const rm_msg_t *msg);
int rm_stack_signal_rc(rm_raw_t raw);
rm_raw_t rm_stack_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
int rm_stack_wait_rc(rm_raw_t raw, uint32_t timeout);

/* ---- memory ---------------------------------------------------------- */
/* Pools live as long as the firmware (no delete): a case creates its pool
 * once and keeps it across cases of its group. alloc/free are measured
 * (_raw / _rc pairs, composed below). The block reaches the caller's
 * variable through alloc's _raw where the kernel stores it there itself, and
 * through its _rc where the kernel returns it (raw is then the block): a
 * copy into the caller's variable is no part of the interval. A
 * kernel without a block pool either leaves POOL out or stands in for it,
 * and then says what is measured instead in rm_port_describe():
 * rm_emit_cfg("stand_in.POOL", "<what>") (any capability name may have one):
 * every report shows it beside each number of a case that needs it. */
int rm_pool_create(rm_pool_t *p, uint32_t block_size, uint32_t count);
rm_raw_t rm_pool_alloc_raw(rm_pool_t p, void **block);
int rm_pool_alloc_rc(rm_raw_t raw, void **block);
rm_raw_t rm_pool_free_raw(rm_pool_t p, void *block);
int rm_pool_free_rc(rm_raw_t raw);
rm_raw_t rm_heap_alloc_raw(size_t size, void **mem);
int rm_heap_alloc_rc(rm_raw_t raw, void **mem);
rm_raw_t rm_heap_free_raw(void *mem);
int rm_heap_free_rc(rm_raw_t raw);

/* ---- interrupts ------------------------------------------------------ */
/* The benchmark interrupt: one software-triggered interrupt line. A case
 * defines its handler with RM_ISR (bench.h), installs it with
 * rm_irq_set_handler (which calls rm_port_irq_connect) and raises it with
 * rm_irq_trigger (the target's rm_target_irq_trigger, inline: a write to the
 * interrupt controller). The vector is the case's handler itself: no
 * dispatcher between the hardware and the case's code.
 * - rm_port_irq_connect(isr): route the line to isr through the RTOS where
 *   the RTOS owns the vectors (e.g. Zephyr's irq_connect_dynamic). Default:
 *   rm_target_irq_set_vector(isr).
 * - RM_PORT_ISR_ENTER() / RM_PORT_ISR_EXIT(): what the RTOS requires at the
 *   start and end of every interrupt handler (e.g. OSIntEnter/OSIntExit,
 *   rt_interrupt_enter/leave), defined in rm_port_inline.h; empty by
 *   default. A kernel that needs nothing (FreeRTOS and ThreadX on Cortex-M)
 *   defines nothing: its interrupt-safe calls pend the switch themselves.
 * - rm_isr_* are the only calls a handler makes: the RTOS's interrupt-safe
 *   variants; a switch they make necessary happens when the interrupt
 *   returns. */
int rm_port_irq_connect(rm_isr_t isr);
int rm_isr_resume(rm_thread_t t);
int rm_isr_sem_signal(rm_obj_t o); /* give a SEM from the handler */

/* ---- the measured calls composed (not timed: set-up and loops) ---------- */
#define RM_COMPOSE_KIND_(K, k)                                                 \
    static inline int rm_##k##_signal(rm_obj_t o, const rm_msg_t *msg)         \
    {                                                                          \
        return rm_##k##_signal_rc(rm_##k##_signal_raw(o, msg));                \
    }                                                                          \
    static inline int rm_##k##_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout) \
    {                                                                          \
        return rm_##k##_wait_rc(rm_##k##_wait_raw(o, msg, timeout), timeout);  \
    }
RM_KINDS(RM_COMPOSE_KIND_)
#undef RM_COMPOSE_KIND_

static inline int rm_thread_suspend(rm_thread_t t)
{
    return rm_thread_suspend_rc(rm_thread_suspend_raw(t));
}
static inline int rm_thread_resume(rm_thread_t t)
{
    return rm_thread_resume_rc(rm_thread_resume_raw(t));
}
static inline int rm_thread_yield(void)
{
    return rm_thread_yield_rc(rm_thread_yield_raw());
}
static inline int rm_pool_alloc(rm_pool_t p, void **block)
{
    return rm_pool_alloc_rc(rm_pool_alloc_raw(p, block), block);
}
static inline int rm_pool_free(rm_pool_t p, void *block)
{
    return rm_pool_free_rc(rm_pool_free_raw(p, block));
}
static inline int rm_heap_alloc(size_t size, void **mem)
{
    return rm_heap_alloc_rc(rm_heap_alloc_raw(size, mem), mem);
}
static inline int rm_heap_free(void *mem)
{
    return rm_heap_free_rc(rm_heap_free_raw(mem));
}

/* ---- start-up and description ---------------------------------------- */
/* The port owns the program entry (main, or the RTOS's equivalent). It MUST:
 * call rm_target_init(); initialise the kernel; create the runner thread at
 * RM_PRIO_RUNNER running rm_runner_main(NULL); start the scheduler. */
void rm_runner_main(void *arg); /* provided by bench/core */

/* Emit the port's configuration with rm_emit_cfg(key, value) (bench.h):
 * tick rate, preemption, time slicing, checks, heap scheme, idle mode... */
void rm_port_describe(void);

/* ---- capabilities at run time ------------------------------------------ */
/* The capabilities the port can honour in this run. Default: RM_PORT_CAPS
 * (what port.toml declares). A port withdraws the ones it cannot honour here
 * (the POSIX port without SCHED_FIFO withdraws everything that needs real
 * priorities); the runner reports every case that needs a withdrawn one as
 * unsupported, "port lacks X, Y: <rm_port_caps_note()>". Called by the runner
 * thread after the kernel started; MUST NOT add caps port.toml lacks. */
uint32_t rm_port_caps(void);
/* Why caps were withdrawn (one line, no newline), or NULL (default). */
const char *rm_port_caps_note(void);

/* ---- a port's own body for a case --------------------------------------- */
/* A port whose execution model a shared body cannot express (COOPERATIVE_ONLY:
 * Contiki-NG's stackless processes) MAY run a case its own way: return that
 * body for the case `id`, or NULL (default: the shared body, and a case that
 * needs a missing capability is unsupported). The runner asks once per case,
 * before the capability check. Such a body measures and reports with the
 * shared calls (bench.h; rm_tm_report for a throughput case), and the port
 * says what it adapted with rm_emit_cfg("stand_in.<id>", "<how>") in
 * rm_port_describe(): every report shows it (†) at the case's numbers. */
typedef void (*rm_port_body_t)(void);
rm_port_body_t rm_port_case_body(const char *id);

/* ---- the result stream and the scheduler -------------------------------- */
/* The core holds this lock while it writes one record, so that no other
 * benchmark thread (an equal-priority one under time slicing, or a more
 * urgent one woken by an interrupt) can write a record into the middle of
 * it. While it is held, no other benchmark thread may run; interrupts may.
 * Obligations: lock and unlock MUST NOT block or fail; the core never nests
 * them (one record at a time), never calls them from interrupt context, and
 * the holder never blocks or waits for another thread before unlocking, so a
 * scheduler-suspend (vTaskSuspendAll) or a mutex both do. Default: nothing,
 * right for a port whose threads can never be switched in the middle of a
 * record (no time slicing, nothing more urgent writes records). */
void rm_port_sched_lock(void);
void rm_port_sched_unlock(void);

#endif /* RTOSMETER_PORT_H */
