/* rtosmeter port for Apache Mynewt: the porting layer (port.h) on Mynewt's
 * kernel API (os_task, os_sem, os_mutex, os_eventq, os_mempool, os_malloc),
 * built with newt as a Mynewt application (app/CMakeLists.txt writes the newt
 * project) on the `native` BSP (a Linux process; its tick is a timer signal).
 *
 * Design decisions:
 * - Priorities: Mynewt's 0 is the most urgent, every task needs its own
 *   (os_task_init asserts it), the main task is OS_MAIN_TASK_PRIO (127).
 *   RM_PRIO p (1..31) maps to 40 - p: the runner (31) -> 9, RM_PRIO_MAX 30
 *   -> 10, RM_PRIO_MIN 1 -> 39. A second live thread at one priority is
 *   refused (RM_ENOTSUP), and there is no yield (Mynewt has no round robin):
 *   the cases built on equal priorities are unsupported or fail loudly.
 * - Entry: newt's native main calls mynewt_main in the main task after
 *   os_init; it runs sysinit(), rm_target_init(), creates the runner and then
 *   serves the default event queue as a Mynewt application does.
 * - Suspend/resume: Mynewt has none; the scheduler's endless sleep stands in
 *   (os_time_delay for the caller, os_sched_sleep for a ready thread), woken
 *   with os_sched_wakeup (rm_port_inline.h, stand_in.SUSPEND). A deletion (os_task_remove) needs the task ready or
 *   sleeping, which a parked thread is, and holding no mutex: a parked
 *   holder gives its mutexes up first (rm_thread_delete).
 * - SEM = os_sem, MUTEX = os_mutex (priority inheritance), FIFO = os_eventq
 *   with port-owned events, POOL = os_mempool, HEAP = os_malloc (the C
 *   library's malloc under Mynewt's heap mutex).
 * - Tick: OS_TICKS_PER_SEC = 1000 (the target's syscfg; the vendor profile
 *   keeps the native BSP's 100 Hz). Idle: Mynewt's
 *   native idle task waits for the next tick signal in sigsuspend (a Linux
 *   process has no spinning idle; host runs are noisy anyway).
 */
#include <stddef.h>
#include <stdint.h>

#include "os/mynewt.h"
#include "rtosmeter/bench.h"

/* The slot tables' critical section (rtosmeter/port_slots.h). */
#define RM_SLOTS_LOCK()                                                          \
    os_sr_t rm_slots_sr_;                                                        \
    OS_ENTER_CRITICAL(rm_slots_sr_)
#define RM_SLOTS_UNLOCK() OS_EXIT_CRITICAL(rm_slots_sr_)
#include "rtosmeter/port_slots.h"

#define RM_MYNEWT_PRIO_BASE 40
#define RM_MYNEWT_THREADS 28u
#define RM_MYNEWT_STACK_WORDS 1024u /* before OS_STACK_ALIGN (x16 on native) */
#define RM_MYNEWT_OBJS 24u
#define RM_MYNEWT_POOLS 4u
#define RM_MYNEWT_POOL_BLOCKS 8u

static struct rm_thread threads[RM_MYNEWT_THREADS];
static os_stack_t stacks[RM_MYNEWT_THREADS][OS_STACK_ALIGN(RM_MYNEWT_STACK_WORDS)];

static struct rm_obj objs[RM_MYNEWT_OBJS];

static struct rm_pool pools[RM_MYNEWT_POOLS];
static os_membuf_t pool_mem[RM_MYNEWT_POOLS][OS_MEMPOOL_SIZE(RM_MYNEWT_POOL_BLOCKS, RM_BLOCK_SIZE)];
static unsigned pools_made;

static uint8_t native_prio(int prio)
{
    return (uint8_t)(RM_MYNEWT_PRIO_BASE - prio);
}

static void task_entry(void *arg)
{
    struct rm_thread *t = arg;
    t->entry(t->arg);
    for (;;) {
        os_time_delay(OS_TIMEOUT_NEVER);
    }
}

int rm_thread_create(rm_thread_t *out, const char *name, rm_entry_t entry, void *arg,
                     int prio, unsigned flags)
{
    for (unsigned i = 0; i < RM_MYNEWT_THREADS; i++) {
        if (threads[i].used && threads[i].task.t_prio == native_prio(prio)) {
            return RM_ENOTSUP; /* one task per priority */
        }
    }
    unsigned slot = RM_SLOT_CLAIM(threads, 0u, RM_MYNEWT_THREADS);
    if (slot == RM_MYNEWT_THREADS) {
        return RM_ERROR;
    }
    struct rm_thread *t = &threads[slot];
    t->entry = entry;
    t->arg = arg;
    *out = t;
    /* The caller is the runner or a more urgent case thread, so the new task
     * has not run when os_task_init returns; a suspended one is then put to
     * the endless sleep a thread suspends itself with (rm_port_inline.h). */
    os_sr_t sr;
    OS_ENTER_CRITICAL(sr);
    int rc = os_task_init(&t->task, name, task_entry, t, native_prio(prio), OS_WAIT_FOREVER,
                          stacks[slot], OS_STACK_ALIGN(RM_MYNEWT_STACK_WORDS));
    if (rc == OS_OK && (flags & RM_THREAD_SUSPENDED)) {
        rc = os_sched_sleep(&t->task, OS_TIMEOUT_NEVER);
    }
    OS_EXIT_CRITICAL(sr);
    if (rc != OS_OK) {
        t->used = 0u;
        return RM_ERROR;
    }
    return RM_OK;
}

/* os_task_remove refuses a task that holds a mutex, and the cases park a
 * thread that may still hold one (the other kernels delete it as it is): the
 * port's mutexes it holds, with nobody waiting, are given up first. */
static void give_up_mutexes(struct rm_thread *t)
{
    for (unsigned i = 0; i < RM_MYNEWT_OBJS && t->task.t_lockcnt > 0u; i++) {
        struct os_mutex *mu = &objs[i].u.mutex;
        if (objs[i].used && objs[i].kind == RM_OBJ_MUTEX && mu->mu_owner == &t->task &&
            SLIST_EMPTY(&mu->mu_head)) {
            mu->mu_owner = NULL;
            mu->mu_level = 0u;
            t->task.t_lockcnt--;
        }
    }
}

int rm_thread_delete(rm_thread_t t)
{
    os_sr_t sr;
    OS_ENTER_CRITICAL(sr);
    give_up_mutexes(t);
    OS_EXIT_CRITICAL(sr);
    if (os_task_remove(&t->task) != OS_OK) {
        return RM_ERROR;
    }
    t->used = 0u;
    return RM_OK;
}

int rm_thread_sleep(uint32_t ticks)
{
    os_time_delay(ticks);
    return RM_OK;
}

rm_thread_t rm_thread_self(void)
{
    return (rm_thread_t)os_sched_get_current_task();
}

int rm_thread_priority(rm_thread_t t)
{
    return RM_MYNEWT_PRIO_BASE - (int)t->task.t_prio;
}

uint32_t rm_tick_count(void)
{
    return os_time_get();
}

uint32_t rm_tick_hz(void)
{
    return OS_TICKS_PER_SEC;
}

/* ---- objects ------------------------------------------------------------------ */
int rm_obj_create(rm_obj_t *out, rm_obj_kind_t kind, rm_thread_t owner, uint32_t initial)
{
    (void)owner;
    if (kind != RM_OBJ_SEM && kind != RM_OBJ_MUTEX && kind != RM_OBJ_FIFO) {
        return RM_ENOTSUP;
    }
    unsigned i = RM_SLOT_CLAIM(objs, 0u, RM_MYNEWT_OBJS);
    if (i == RM_MYNEWT_OBJS) {
        return RM_ERROR;
    }
    struct rm_obj *o = &objs[i];
    o->kind = kind;
    os_error_t rc;
    switch (kind) {
    case RM_OBJ_SEM:
        rc = os_sem_init(&o->u.sem, (uint16_t)initial);
        break;
    case RM_OBJ_MUTEX:
        rc = os_mutex_init(&o->u.mutex);
        break;
    default: /* FIFO */
        os_eventq_init(&o->u.fifo.q);
        o->u.fifo.qp = &o->u.fifo.q;
        o->u.fifo.free = NULL;
        for (unsigned k = 0; k < RM_QUEUE_DEPTH; k++) {
            o->u.fifo.items[k] = (struct rm_item){.next_free = o->u.fifo.free};
            o->u.fifo.free = &o->u.fifo.items[k];
        }
        rc = OS_OK;
        break;
    }
    if (rc != OS_OK) {
        o->used = 0u;
        return RM_ERROR;
    }
    *out = o;
    return RM_OK;
}

int rm_obj_delete(rm_obj_t o)
{
    o->used = 0u; /* Mynewt objects hold no resource */
    return RM_OK;
}

int rm_pool_create(rm_pool_t *out, uint32_t block_size, uint32_t count)
{
    if (block_size > RM_BLOCK_SIZE || count > RM_MYNEWT_POOL_BLOCKS ||
        pools_made == RM_MYNEWT_POOLS) {
        return RM_ENOTSUP;
    }
    struct rm_pool *p = &pools[pools_made];
    if (os_mempool_init(&p->mp, (uint16_t)count, RM_BLOCK_SIZE, pool_mem[pools_made],
                        "rm_pool") != OS_OK) {
        return RM_ERROR;
    }
    pools_made++;
    *out = p;
    return RM_OK;
}

void rm_port_describe(void)
{
    rm_emit_cfg("kernel", "Apache Mynewt (kernel/os), native BSP");
    rm_emit_cfg("priorities", "one task per priority, no round robin");
    rm_emit_cfg("tick", "OS_TICKS_PER_SEC (native: a timer signal)");
    rm_emit_cfg("heap", "os_malloc (C library malloc under the heap mutex)");
    rm_emit_cfg("stand_in.SUSPEND",
                "the scheduler's endless sleep (os_time_delay(OS_TIMEOUT_NEVER) for the "
                "caller, os_sched_sleep for a ready thread), resume as os_sched_wakeup + "
                "os_sched (Mynewt has no task suspend/resume)");
}

/* ---- entry ----------------------------------------------------------------------- */
int mynewt_main(int argc, char **argv);

int mynewt_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    sysinit();
    rm_target_init();
    static rm_thread_t runner;
    if (rm_thread_create(&runner, "runner", rm_runner_main, NULL, RM_PRIO_RUNNER, 0) != RM_OK) {
        rm_target_exit(3);
    }
    for (;;) {
        os_eventq_run(os_eventq_dflt_get());
    }
}
