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
 *   (see rm_port_isr_enter/exit).
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
    X(COOPERATIVE_ONLY, 25, "only cooperative, stackless processes")

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
int rm_thread_suspend(rm_thread_t t); /* t: rm_thread_self() or another */
int rm_thread_resume(rm_thread_t t);
int rm_thread_yield(void); /* to a ready thread of equal priority */
int rm_thread_sleep(uint32_t ticks);
/* Sleep until *wake + period, then advance *wake by period (drift-free). */
int rm_thread_sleep_until(uint32_t *wake, uint32_t period);
rm_thread_t rm_thread_self(void);
int rm_thread_priority(rm_thread_t t);     /* current (maybe inherited) */
int rm_thread_set_priority(rm_thread_t t, int prio);
uint32_t rm_tick_count(void);              /* kernel ticks since start */
uint32_t rm_tick_hz(void);

/* ---- IPC objects: one signal/wait interface for every kind ------------ */
/* Semantics per kind (signal / wait):
 *   SEM: give / take. MUTEX: unlock / lock (the signaller must hold it).
 *   EVENT: set bit 0 / wait for bit 0 and clear it.
 *   MAILBOX, QUEUE, FIFO, LIFO, STREAM, MSGBUF, THREAD_MSG: send msg / receive
 *   into msg (msg is RM_MSG_SIZE bytes; FIFO/LIFO carry it in a port-owned
 *   item). NOTIFY, THREAD_FLAGS: notify / take, addressed to `owner`.
 *   CONDVAR: signal / wait (the port pairs it with its own mutex).
 *   POLL_SIGNAL: raise / poll and reset.
 * `owner` is the thread that will wait; kinds that are not addressed to a
 * thread ignore it. Queue-like kinds hold at least RM_QUEUE_DEPTH messages. */
#define RM_QUEUE_DEPTH 4u

typedef enum rm_obj_kind {
    RM_OBJ_SEM,
    RM_OBJ_MUTEX,
    RM_OBJ_EVENT,
    RM_OBJ_MAILBOX,
    RM_OBJ_QUEUE,
    RM_OBJ_FIFO,
    RM_OBJ_LIFO,
    RM_OBJ_STREAM,
    RM_OBJ_MSGBUF,
    RM_OBJ_NOTIFY,
    RM_OBJ_CONDVAR,
    RM_OBJ_THREAD_MSG,
    RM_OBJ_THREAD_FLAGS,
    RM_OBJ_POLL_SIGNAL,
    RM_OBJ_KIND_COUNT
} rm_obj_kind_t;

/* SEM starts at `initial` (the count is not limited to 1). MUTEX starts
 * unlocked and ignores `initial`. The cases pass `initial` != 0 only for
 * SEM; every other kind starts empty (not signalled). */
int rm_obj_create(rm_obj_t *o, rm_obj_kind_t kind, rm_thread_t owner,
                  uint32_t initial);
int rm_obj_delete(rm_obj_t o);
int rm_obj_signal(rm_obj_t o, const rm_msg_t *msg);
int rm_obj_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);

/* ---- memory ---------------------------------------------------------- */
/* Pools live as long as the firmware (no delete): a case creates its pool
 * once and keeps it across cases of its group. */
int rm_pool_create(rm_pool_t *p, uint32_t block_size, uint32_t count);
int rm_pool_alloc(rm_pool_t p, void **block);
int rm_pool_free(rm_pool_t p, void *block);
int rm_heap_alloc(size_t size, void **mem);
int rm_heap_free(void *mem);

/* ---- interrupts ------------------------------------------------------ */
/* The benchmark interrupt: one software-triggered interrupt line. The
 * framework owns dispatch (rm_irq_set_handler, rm_irq_trigger in bench.h);
 * a port only connects the line through the RTOS and wraps the handler. */
int rm_port_irq_connect(void);   /* default: the target's vector is used */
void rm_port_isr_enter(void);     /* default: nothing */
void rm_port_isr_exit(void);      /* e.g. FreeRTOS: portYIELD_FROM_ISR */
/* Returns after the handler ran when the caller is a thread (the benchmark
 * interrupt outranks every thread): lat.isr.* checks it. Default:
 * rm_target_irq_trigger(), which has the same obligation (target.h). */
int rm_port_irq_trigger(void);
int rm_isr_resume(rm_thread_t t);
int rm_isr_signal(rm_obj_t o, const rm_msg_t *msg);

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
