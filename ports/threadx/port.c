/* rtosmeter port for ThreadX: the porting layer (port.h) on ThreadX's
 * native tx_* API, one ThreadX call per operation.
 *
 * Design decisions:
 * - Priorities: ThreadX 0 is the most urgent of 32 levels. RM_PRIO p (1..31)
 *   maps to ThreadX 31 - p: RM_PRIO_MIN 1 -> 30, RM_PRIO_MAX 30 -> 1, the
 *   runner (RM_PRIO_RUNNER 31) -> 0. Level 31 is unused.
 * - Preemption threshold is not used (threshold = priority; the benchmark
 *   profile compiles it out with TX_DISABLE_PREEMPTION_THRESHOLD). Time
 *   slicing is off: every thread is created with TX_NO_TIME_SLICE.
 * - Threads, objects and pools live in static slot tables; stacks are static.
 *   A thread's entry gets its slot index as ThreadX's ULONG entry input, so no
 *   pointer goes through a 32-bit ULONG on the 64-bit Linux host.
 * - rm_thread_delete is tx_thread_terminate + tx_thread_delete: ThreadX only
 *   deletes a terminated or completed thread. A returning entry function
 *   leaves the thread TX_COMPLETED, which ThreadX handles itself.
 * - rm_thread_priority reads the control block's tx_thread_priority (the
 *   current, possibly inherited priority): ThreadX has no call for it
 *   (tx_thread_info_get returns the user-set priority).
 * - rm_thread_sleep_until: ThreadX has no absolute sleep; it stands in with
 *   tx_time_get + tx_thread_sleep(remaining ticks) (no sleep when the wake
 *   time has passed), which is how ThreadX applications write periodic work.
 * - SEM = TX_SEMAPHORE, MUTEX = TX_MUTEX with TX_INHERIT, EVENT = event flags
 *   group (set bit 0 with TX_OR / get bit 0 with TX_OR_CLEAR), QUEUE = TX_QUEUE
 *   of TX_4_ULONG messages (ULONG is 32-bit on every ThreadX port used here,
 *   checked below), RM_QUEUE_DEPTH deep; signal never blocks (full -> EAGAIN).
 *   Mailbox, FIFO, LIFO, stream, message buffer, notification, condition
 *   variable, thread messages/flags and poll signals have no ThreadX object:
 *   RM_ENOTSUP (reasons in port.toml).
 * - POOL = TX_BLOCK_POOL (storage from a static arena), HEAP = one
 *   TX_BYTE_POOL (tx_byte_allocate/tx_byte_release) over the memory ThreadX
 *   hands to tx_application_define.
 * - Measured calls: static inline in rm_port_inline.h (the heap's too, on
 *   rm_tx_heap), one ThreadX call each returning ThreadX's status, which
 *   the _rc translators test for success first. ISR calls: tx_thread_resume and
 *   tx_semaphore_put are legal in ThreadX interrupt handlers; on Cortex-M a
 *   handler needs no ThreadX entry/exit code (the switch it makes necessary
 *   is a pended PendSV, taken when the handler returns).
 */
#include <stddef.h>
#include <stdint.h>

#include "rtosmeter/bench.h" /* with rm_port_inline.h: tx_api.h, the handles */

/* The slot tables' critical section (rtosmeter/port_slots.h). */
#define RM_SLOTS_LOCK() UINT rm_slots_old_ = tx_interrupt_control(TX_INT_DISABLE)
#define RM_SLOTS_UNLOCK() tx_interrupt_control(rm_slots_old_)
#include "rtosmeter/port_slots.h"

_Static_assert(sizeof(ULONG) * 4u == RM_MSG_SIZE,
               "ThreadX ULONG must be 32-bit: queue messages are TX_4_ULONG");

/* Sizes: the Cortex-M0 target (micro:bit) has 16 KiB of RAM in all, so the
 * ARMv6-M build has 6 threads (the runner and 5: the Thread-Metric cases
 * fit; irq's 8 load threads and lat.thread.lifecycle's layouts do not),
 * small stacks (rm_port_inline.h; the runner, which writes most records,
 * its own larger one), a small pool arena and heap. -D overrides each. */
#if defined(RM_RAM_SMALL) /* the target's RAM tier: docs/memory.md */
#define RM_TX_DFLT_THREADS 6
#define RM_TX_DFLT_RUNNER_STACK 1024u
#define RM_TX_DFLT_OBJS 6
#define RM_TX_DFLT_POOLS 1
#define RM_TX_DFLT_ARENA 640u
#define RM_TX_DFLT_HEAP 512u
#elif defined(RM_RAM_MEDIUM) /* 96-256 KiB boards: 1 KiB stacks, 16 threads */
#define RM_TX_DFLT_THREADS 16
#define RM_TX_DFLT_RUNNER_STACK 2048u
#define RM_TX_DFLT_OBJS 16
#define RM_TX_DFLT_POOLS 4
#define RM_TX_DFLT_ARENA 8192u
#define RM_TX_DFLT_HEAP 8192u
#else
#define RM_TX_DFLT_THREADS 32
#define RM_TX_DFLT_RUNNER_STACK RM_TX_STACK_SIZE
#define RM_TX_DFLT_OBJS 32
#define RM_TX_DFLT_POOLS 8
#define RM_TX_DFLT_ARENA 16384u
#define RM_TX_DFLT_HEAP 16384u
#endif
#ifndef RM_TX_MAX_THREADS
#define RM_TX_MAX_THREADS RM_TX_DFLT_THREADS
#endif
#ifndef RM_TX_RUNNER_STACK_SIZE
#define RM_TX_RUNNER_STACK_SIZE RM_TX_DFLT_RUNNER_STACK
#endif
#ifndef RM_TX_MAX_OBJS
#define RM_TX_MAX_OBJS RM_TX_DFLT_OBJS
#endif
#ifndef RM_TX_MAX_POOLS
#define RM_TX_MAX_POOLS RM_TX_DFLT_POOLS
#endif
#ifndef RM_TX_POOL_ARENA
#define RM_TX_POOL_ARENA RM_TX_DFLT_ARENA
#endif
#ifndef RM_TX_HEAP_SIZE
#define RM_TX_HEAP_SIZE RM_TX_DFLT_HEAP
#endif

#define RM_TX_PRIO(p) ((UINT)(31 - (p)))

static struct rm_thread rm_tx_threads[RM_TX_MAX_THREADS];
/* Slot 0 is the runner's, on its own stack; the others on theirs. */
static ULONG rm_tx_runner_stack[RM_TX_RUNNER_STACK_SIZE / sizeof(ULONG)]
    __attribute__((aligned(8)));
static ULONG rm_tx_stacks[RM_TX_MAX_THREADS - 1][RM_TX_STACK_SIZE / sizeof(ULONG)]
    __attribute__((aligned(8)));
static struct rm_obj rm_tx_objs[RM_TX_MAX_OBJS];
static struct rm_pool rm_tx_pools[RM_TX_MAX_POOLS];
RM_ARENA(rm_tx_arena, RM_TX_POOL_ARENA);
TX_BYTE_POOL rm_tx_heap; /* HEAP: the inline calls allocate from it */

int rm_tx_failure(UINT st, uint32_t timeout)
{
    switch (st) {
    case TX_NO_INSTANCE:
    case TX_NOT_AVAILABLE:
    case TX_NO_EVENTS:
    case TX_QUEUE_EMPTY:
    case TX_NO_MEMORY:
        return rm_wait_failed(timeout);
    case TX_QUEUE_FULL:
        return RM_EAGAIN;
    default:
        return RM_ERROR;
    }
}

/* ---- threads ---------------------------------------------------------- */
static VOID rm_tx_entry(ULONG index)
{
    struct rm_thread *t = &rm_tx_threads[index];
    t->entry(t->arg);
}

int rm_thread_create(rm_thread_t *t, const char *name, rm_entry_t entry,
                     void *arg, int prio, unsigned flags)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER)
        return RM_ERROR;
    bool runner = entry == rm_runner_main;
    unsigned to = runner ? 1u : RM_TX_MAX_THREADS;
    unsigned i = RM_SLOT_CLAIM(rm_tx_threads, runner ? 0u : 1u, to);
    if (i < to) {
        struct rm_thread *s = &rm_tx_threads[i];
        VOID *stack = runner ? (VOID *)rm_tx_runner_stack : (VOID *)rm_tx_stacks[i - 1u];
        ULONG stack_bytes = runner ? sizeof rm_tx_runner_stack : sizeof rm_tx_stacks[i - 1u];
        s->entry = entry;
        s->arg = arg;
        /* Set before the call: an auto-started, more urgent thread runs
         * inside tx_thread_create and may already use its handle. */
        *t = s;
        UINT st = tx_thread_create(&s->tx, (CHAR *)name, rm_tx_entry, i,
                                   stack, stack_bytes, RM_TX_PRIO(prio),
                                   RM_TX_PRIO(prio), TX_NO_TIME_SLICE,
                                   (flags & RM_THREAD_SUSPENDED) ? TX_DONT_START
                                                                 : TX_AUTO_START);
        if (st != TX_SUCCESS) {
            s->used = 0;
            *t = NULL;
            return RM_ERROR;
        }
        return RM_OK;
    }
    return RM_ERROR;
}

int rm_thread_delete(rm_thread_t t)
{
    if (tx_thread_terminate(&t->tx) != TX_SUCCESS)
        return RM_ERROR;
    if (tx_thread_delete(&t->tx) != TX_SUCCESS)
        return RM_ERROR;
    t->used = 0;
    return RM_OK;
}

int rm_thread_sleep(uint32_t ticks)
{
    return tx_thread_sleep(ticks) == TX_SUCCESS ? RM_OK : RM_ERROR;
}

int rm_thread_sleep_until(uint32_t *wake, uint32_t period)
{
    uint32_t target = *wake + period;
    uint32_t left = target - (uint32_t)tx_time_get();
    *wake = target;
    /* A wake time already passed (left "negative") means no sleep. */
    if (left == 0 || left > period)
        return RM_OK;
    return tx_thread_sleep(left) == TX_SUCCESS ? RM_OK : RM_ERROR;
}

rm_thread_t rm_thread_self(void)
{
    return (rm_thread_t)tx_thread_identify();
}

int rm_thread_priority(rm_thread_t t)
{
    /* The current priority, inheritance included, is the control block's
     * tx_thread_priority; tx_thread_info_get reports the priority the user
     * set (tx_thread_user_priority), so it cannot show inheritance. */
    return 31 - (int)t->tx.tx_thread_priority;
}

int rm_thread_set_priority(rm_thread_t t, int prio)
{
    UINT old;
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER)
        return RM_ERROR;
    return tx_thread_priority_change(&t->tx, RM_TX_PRIO(prio), &old) == TX_SUCCESS
               ? RM_OK
               : RM_ERROR;
}

uint32_t rm_tick_count(void)
{
    return (uint32_t)tx_time_get();
}

uint32_t rm_tick_hz(void)
{
    return (uint32_t)TX_TIMER_TICKS_PER_SECOND;
}

/* ---- IPC objects ------------------------------------------------------ */
int rm_obj_create(rm_obj_t *o, rm_obj_kind_t kind, rm_thread_t owner,
                  uint32_t initial)
{
    (void)owner; /* no ThreadX object here is addressed to a thread */
    if (kind != RM_OBJ_SEM && kind != RM_OBJ_MUTEX && kind != RM_OBJ_EVENT &&
        kind != RM_OBJ_QUEUE)
        return RM_ENOTSUP;
    unsigned i = RM_SLOT_CLAIM(rm_tx_objs, 0u, RM_TX_MAX_OBJS);
    if (i < RM_TX_MAX_OBJS) {
        struct rm_obj *s = &rm_tx_objs[i];
        s->kind = kind;
        UINT st;
        switch (kind) {
        case RM_OBJ_SEM:
            st = tx_semaphore_create(&s->u.sem, "rm_sem", initial);
            break;
        case RM_OBJ_MUTEX:
            st = tx_mutex_create(&s->u.mutex, "rm_mutex", TX_INHERIT);
            break;
        case RM_OBJ_EVENT:
            st = tx_event_flags_create(&s->u.event, "rm_event");
            break;
        default:
            st = tx_queue_create(&s->u.queue.q, "rm_queue", TX_4_ULONG,
                                 s->u.queue.buf, sizeof s->u.queue.buf);
            break;
        }
        if (st != TX_SUCCESS) {
            s->used = 0;
            return RM_ERROR;
        }
        *o = s;
        return RM_OK;
    }
    return RM_ERROR;
}

int rm_obj_delete(rm_obj_t o)
{
    UINT st;
    switch (o->kind) {
    case RM_OBJ_SEM:
        st = tx_semaphore_delete(&o->u.sem);
        break;
    case RM_OBJ_MUTEX:
        st = tx_mutex_delete(&o->u.mutex);
        break;
    case RM_OBJ_EVENT:
        st = tx_event_flags_delete(&o->u.event);
        break;
    case RM_OBJ_QUEUE:
        st = tx_queue_delete(&o->u.queue.q);
        break;
    default:
        return RM_ENOTSUP;
    }
    if (st != TX_SUCCESS)
        return RM_ERROR;
    o->used = 0;
    return RM_OK;
}

/* ---- memory ----------------------------------------------------------- */
int rm_pool_create(rm_pool_t *p, uint32_t block_size, uint32_t count)
{
    /* ThreadX rounds blocks up to ULONG and adds one pointer per block. */
    size_t per = ((block_size + sizeof(ULONG) - 1u) & ~(sizeof(ULONG) - 1u)) +
                 sizeof(UCHAR *);
    size_t bytes = (per * count + 7u) & ~(size_t)7u;
    unsigned i = RM_SLOT_CLAIM(rm_tx_pools, 0u, RM_TX_MAX_POOLS);
    if (i < RM_TX_MAX_POOLS) {
        struct rm_pool *s = &rm_tx_pools[i];
        void *area = rm_arena_take(&rm_tx_arena, bytes);
        if (area == NULL ||
            tx_block_pool_create(&s->bp, "rm_pool", block_size, area, (ULONG)bytes) !=
                TX_SUCCESS) {
            s->used = 0;
            return RM_ERROR;
        }
        *p = s;
        return RM_OK;
    }
    return RM_ERROR;
}

/* ---- start-up and description ----------------------------------------- */
VOID tx_application_define(VOID *first_unused_memory)
{
    rm_thread_t runner;
    if (tx_byte_pool_create(&rm_tx_heap, "rm_heap", first_unused_memory,
                            RM_TX_HEAP_SIZE) != TX_SUCCESS ||
        rm_thread_create(&runner, "runner", rm_runner_main, NULL, RM_PRIO_RUNNER, 0) !=
            RM_OK)
        rm_target_exit(2);
}

int main(void)
{
    rm_target_init();
    tx_kernel_enter(); /* never returns */
    return 0;
}

/* The record lock of port.h (rm_port_sched_lock/unlock) keeps the core's
 * no-op default on purpose: ThreadX never time-slices our threads (each is
 * created with TX_NO_TIME_SLICE, in both profiles), so an equal-priority
 * thread runs only when the writer yields or blocks, which the record writer
 * never does. A more urgent thread could still preempt a writer if an
 * interrupt readied it mid-record; in the cases a more urgent thread becomes
 * ready only through the running thread's own kernel call, never during a
 * record. (tx_thread_preemption_change, ThreadX's way to hold preemption
 * off, is compiled out with the preemption threshold in the benchmark
 * profile; a port that needs a lock would use it or a mutex.) */

void rm_port_describe(void)
{
    rm_emit_cfg("threadx.version", RM_TX_VERSION_STR);
#ifdef RM_LOAD_NET /* net_netxduo.c */
    rm_emit_cfg("netxduo.version", RM_NXD_VERSION_STR);
    rm_emit_cfg("stand_in.NET", "adapted: no 6LoWPAN in NetX Duo; uncompressed IPv6 (the "
                                "trace's datagrams on a link with no header, net_netxduo.c)");
#endif
    rm_emit_cfg("threadx.arch", RM_TX_ARCH_STR);
    rm_emit_cfg("threadx.profile", RM_TX_PROFILE_VENDOR ? "vendor" : "benchmark");
    rm_emit_cfg("preemption", "on");
    rm_emit_cfg("time_slicing", "off (TX_NO_TIME_SLICE)");
#ifdef TX_DISABLE_ERROR_CHECKING
    rm_emit_cfg("threadx.error_checking", "off");
#else
    rm_emit_cfg("threadx.error_checking", "on");
#endif
#ifdef TX_DISABLE_NOTIFY_CALLBACKS
    rm_emit_cfg("threadx.notify_callbacks", "off");
#else
    rm_emit_cfg("threadx.notify_callbacks", "on");
#endif
#ifdef TX_DISABLE_PREEMPTION_THRESHOLD
    rm_emit_cfg("threadx.preemption_threshold", "compiled out");
#else
    rm_emit_cfg("threadx.preemption_threshold", "compiled in, unused");
#endif
#ifdef TX_TIMER_PROCESS_IN_ISR
    rm_emit_cfg("threadx.timer", "expiry in tick ISR");
#else
    rm_emit_cfg("threadx.timer", "timer thread");
#endif
#ifdef TX_ENABLE_STACK_CHECKING
    rm_emit_cfg("threadx.stack_checking", "on");
#else
    rm_emit_cfg("threadx.stack_checking", "off");
#endif
#ifdef TX_DISABLE_STACK_FILLING
    rm_emit_cfg("threadx.stack_filling", "off");
#else
    rm_emit_cfg("threadx.stack_filling", "on");
#endif
#ifdef TX_ENABLE_EVENT_TRACE
    rm_emit_cfg("threadx.trace", "on");
#else
    rm_emit_cfg("threadx.trace", "off");
#endif
#ifdef TX_LOW_POWER
    rm_emit_cfg("threadx.idle", "TX_LOW_POWER and WFI in the scheduler loop, SysTick "
                                "reloaded to the next timer expiration");
#elif defined(__linux__)
    rm_emit_cfg("threadx.idle", "ThreadX Linux scheduler thread waits on a semaphore");
#else
    rm_emit_cfg("threadx.idle", "spin in the PendSV scheduler loop (no TX_ENABLE_WFI)");
#endif
    rm_emit_cfg("heap", "tx_byte_pool (first fit)");
    rm_emit_cfg("stand_in.SLEEP_UNTIL", "tx_time_get + tx_thread_sleep of the remaining ticks "
                                        "(ThreadX has no absolute sleep)");
    rm_emit_cfg_u32("threadx.stack_bytes", RM_TX_STACK_SIZE);
    rm_emit_cfg_u32("threadx.runner_stack_bytes", RM_TX_RUNNER_STACK_SIZE);
#if defined(__OPTIMIZE_SIZE__)
    rm_emit_cfg("optimisation", "size (__OPTIMIZE_SIZE__)");
#elif defined(__OPTIMIZE__)
    rm_emit_cfg("optimisation", "on (__OPTIMIZE__)");
#else
    rm_emit_cfg("optimisation", "off");
#endif
}
