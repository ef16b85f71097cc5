/* rtosmeter port for µC/OS-II: the porting layer (port.h) on µC/OS-II's
 * native API (OSTask*, OSSem*, OSMutex*, OSFlag*, OSMbox*, OSQ*, OSMem*),
 * one kernel call per operation, on the kernel's ARMv7-M and ARMv6-M ports.
 *
 * Design decisions:
 * - Priorities: µC/OS-II gives every task its own priority (0 most urgent,
 *   OS_LOWEST_PRIO = 254 the idle task, 253 the statistics task, 252 the
 *   timer task) and addresses a task by it. rtosmeter's levels map onto
 *   bands of RM_UC2_BAND (8; 4 on ARMv6-M) native priorities, most urgent
 *   first:
 *     0 .. RM_UC2_PIPS-1       mutex priority ceilings (one per mutex)
 *     RM_UC2_PIPS              the runner (RM_PRIO_RUNNER)
 *     RM_PRIO_MAX .. MIN       RM_UC2_BAND natives each, in creation order
 *   Threads of one rtosmeter level therefore have distinct native priorities:
 *   the first created is the more urgent. A level whose band is full
 *   continues into the next (less urgent) band while that band holds no
 *   thread of a less urgent level, then takes the free end of the next
 *   more urgent band (lat.thread.lifecycle puts up to 15 threads on one
 *   level).
 * - sleep_until: µC/OS-II has no absolute delay: OSTimeGet + OSTimeDly of
 *   the remaining ticks stands in (CFG stand_in.SLEEP_UNTIL).
 * - No yield: µC/OS-II has no equal-priority tasks and no round robin, so
 *   the port leaves rm_thread_yield_raw to its default, RM_ENOTSUP
 *   (tm.cooperative, lat.yield).
 * - MUTEX: OSMutexCreate with a priority-ceiling priority (PCP) reserved
 *   from the ceiling band: µC/OS-II raises a mutex owner to the PCP when a
 *   more urgent task waits: the stand-in for priority inheritance
 *   (MUTEX_INHERIT, CFG stand_in.MUTEX_INHERIT). rm_thread_priority
 *   reports a raised owner as RM_PRIO_RUNNER (above every rtosmeter level).
 * - SEM = OSSem (16-bit count), EVENT = OSFlag group (bit 0, set / wait-any
 *   with consume), MAILBOX = OSMbox, QUEUE = OSQ of RM_QUEUE_DEPTH pointers
 *   (the 16-byte message is passed by pointer and copied out by the
 *   receiver: rm_port_inline.h), LIFO = the same queue posted with
 *   OSQPostFront. POOL = OSMem partition. µC/OS-II has no
 *   general heap, task semaphores or task queues (µC/OS-III has): HEAP,
 *   NOTIFY, THREAD_MSG are unsupported (port.toml says why).
 * - Threads: OSTaskCreateExt with a static stack per slot; the rm_thread
 *   record is the task's extension pointer (rm_thread_self). Entry
 *   functions have the kernel's task signature and are passed as they are.
 *   RM_THREAD_SUSPENDED: created and suspended with the scheduler locked.
 *   Deletion: OSTaskDel (suspended, ready or pending tasks alike).
 * - Tick: SysTick at OS_TICKS_PER_SEC = 1000, started by the runner thread
 *   (OS_CPU_SysTickInitFreq, as the kernel requires from the first task).
 *   Idle: the kernel's idle task spins (OSTaskIdleHook does nothing; no WFI),
 *   except in lowpower, where App_TaskIdleHook executes WFI (os_cfg.h); every
 *   tick wakes it (µC/OS-II has no tickless mode).
 * - Interrupts: RM_PORT_ISR_ENTER/EXIT are OSIntEnter/OSIntExit
 *   (rm_port_inline.h). The kernel's handlers are the vectors themselves:
 *   port.cmake renames OS_CPU_PendSVHandler / OS_CPU_SysTickHandler to the
 *   target's PendSV_Handler / SysTick_Handler when it compiles the kernel.
 * - Measured calls: static inline in rm_port_inline.h, success tested first.
 */
#include <stddef.h>
#include <stdint.h>

#include "rtosmeter/bench.h" /* with rm_port_inline.h: ucos_ii.h, the handles */

/* The slot tables' critical section (rtosmeter/port_slots.h). */
#if OS_CRITICAL_METHOD == 3u
#define RM_SLOTS_LOCK()                                                          \
    OS_CPU_SR cpu_sr;                                                            \
    OS_ENTER_CRITICAL()
#else
#define RM_SLOTS_LOCK() OS_ENTER_CRITICAL()
#endif
#define RM_SLOTS_UNLOCK() OS_EXIT_CRITICAL()
#include "rtosmeter/port_slots.h"

#include "../ucos_common/uc_common.h" /* shared with µC/OS-III */

#define RM_UC2_PIPS 4u
#if defined(RM_RAM_SMALL)
#define RM_UC2_BAND 4u /* 12 threads at most: a smaller priority table */
#else
#define RM_UC2_BAND 8u
#endif
#define RM_UC2_RUNNER_PRIO RM_UC2_PIPS
/* The least urgent native priority a thread may take (the timer task's is
 * OS_LOWEST_PRIO - 2). */
#define RM_UC2_LAST_PRIO (OS_LOWEST_PRIO - 3u)

_Static_assert(RM_UC2_PIPS + 1u + (unsigned)RM_PRIO_MAX * RM_UC2_BAND <= RM_UC2_LAST_PRIO + 1u,
               "the priority bands do not fit below OS_LOWEST_PRIO");

extern uint32_t __stack_top[]; /* the target's linker script: top of RAM */
#define rm_uc_stack_top __stack_top

static struct rm_thread rm_uc2_threads[RM_UC_MAX_THREADS];
static OS_STK rm_uc2_stacks[RM_UC_MAX_THREADS - 1u][RM_UC_STACK_BYTES / sizeof(OS_STK)]
    __attribute__((aligned(8)));
static OS_STK rm_uc2_runner_stack[RM_UC_RUNNER_STACK_BYTES / sizeof(OS_STK)]
    __attribute__((aligned(8)));
static struct rm_obj rm_uc2_objs[RM_UC_MAX_OBJS];
static struct rm_pool rm_uc2_pools[RM_UC_MAX_POOLS];
RM_ARENA(rm_uc2_arena, RM_UC_POOL_ARENA);
/* The rtosmeter level of the thread at each native priority (0: free). */
static INT8U rm_uc2_level_of[OS_LOWEST_PRIO + 1u];
static INT8U rm_uc2_pip_used[RM_UC2_PIPS];

int rm_uc2_failure(INT8U err, uint32_t timeout)
{
    switch (err) {
    case OS_ERR_TIMEOUT:
    case OS_ERR_FLAG_NOT_RDY:
    case OS_ERR_Q_EMPTY:
        return rm_wait_failed(timeout);
    case OS_ERR_MBOX_FULL:
    case OS_ERR_Q_FULL:
    case OS_ERR_SEM_OVF:
        return RM_EAGAIN;
    default:
        return RM_ERROR;
    }
}

void rm_uc2_no_msg(rm_msg_t *msg)
{
    *msg = (rm_msg_t){{0u}};
}

/* A free native priority for a thread at rtosmeter level `level` (see the
 * bands above), marked taken; -1 if none. Called with the scheduler locked.
 * The level's band first, then on into the next less urgent band up to the
 * first thread of a less urgent level, then back from the end of the next
 * more urgent band down to the first thread of a more urgent level: the
 * order of levels always holds. */
static int rm_uc2_take(unsigned n, int level)
{
    rm_uc2_level_of[n] = (INT8U)level;
    return (int)n;
}

static int rm_uc2_native_prio(int level)
{
    if (level == RM_PRIO_RUNNER) {
        if (rm_uc2_level_of[RM_UC2_RUNNER_PRIO] != 0u)
            return -1;
        return rm_uc2_take(RM_UC2_RUNNER_PRIO, level);
    }
    const unsigned base = RM_UC2_PIPS + 1u + (unsigned)(RM_PRIO_MAX - level) * RM_UC2_BAND;
    for (unsigned n = base; n <= RM_UC2_LAST_PRIO; n++) {
        INT8U owner = rm_uc2_level_of[n];
        if (owner == 0u)
            return rm_uc2_take(n, level);
        if (owner < (INT8U)level)
            break; /* a less urgent level's thread: nothing below it */
    }
    for (unsigned n = base - 1u; n > RM_UC2_RUNNER_PRIO; n--) {
        INT8U owner = rm_uc2_level_of[n];
        if (owner == 0u)
            return rm_uc2_take(n, level);
        if (owner > (INT8U)level)
            break; /* a more urgent level's thread: nothing above it */
    }
    return -1;
}

/* ---- threads ---------------------------------------------------------- */
int rm_thread_create(rm_thread_t *t, const char *name, rm_entry_t entry,
                     void *arg, int prio, unsigned flags)
{
    (void)name;
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER)
        return RM_ERROR;
    /* Slot 0 is the runner's (created first), with its own stack. */
    const int runner = prio == RM_PRIO_RUNNER;
    const unsigned to = runner ? 1u : RM_UC_MAX_THREADS;
    const unsigned i = RM_SLOT_CLAIM(rm_uc2_threads, runner ? 0u : 1u, to);
    if (i == to)
        return RM_ERROR;
    struct rm_thread *s = &rm_uc2_threads[i];
    OSSchedLock();
    int native = rm_uc2_native_prio(prio);
    if (native < 0) {
        OSSchedUnlock();
        s->used = 0u;
        return RM_ERROR;
    }
    s->prio = (INT8U)native;
    s->level = (INT8U)prio;
    s->stack = runner ? rm_uc2_runner_stack : rm_uc2_stacks[i - 1u];
    *t = s; /* before the task can run and look at it */
    const unsigned words =
        (runner ? sizeof rm_uc2_runner_stack : RM_UC_STACK_BYTES) / sizeof(OS_STK);
#if RM_UC_VENDOR
    const INT16U opt = OS_TASK_OPT_STK_CHK | OS_TASK_OPT_STK_CLR;
#else
    const INT16U opt = OS_TASK_OPT_NONE;
#endif
    INT8U err = OSTaskCreateExt(entry, arg, &s->stack[words - 1u], (INT8U)native,
                                (INT16U)native, &s->stack[0], words, s, opt);
    if (err == OS_ERR_NONE && (flags & RM_THREAD_SUSPENDED) != 0u)
        err = OSTaskSuspend((INT8U)native);
    if (err != OS_ERR_NONE) {
        rm_uc2_level_of[native] = 0u;
        s->used = 0u;
        *t = NULL;
    }
    OSSchedUnlock();
    return err == OS_ERR_NONE ? RM_OK : RM_ERROR;
}

int rm_thread_delete(rm_thread_t t)
{
    if (OSTaskDel(t->prio) != OS_ERR_NONE)
        return RM_ERROR;
    rm_uc2_level_of[t->prio] = 0u;
    t->used = 0u;
    return RM_OK;
}

int rm_thread_sleep(uint32_t ticks)
{
    OSTimeDly((INT32U)ticks);
    return RM_OK;
}

int rm_thread_sleep_until(uint32_t *wake, uint32_t period)
{
    uint32_t left = rm_uc_ticks_left(wake, period, (uint32_t)OSTimeGet());
    if (left != 0u)
        OSTimeDly((INT32U)left);
    return RM_OK;
}

rm_thread_t rm_thread_self(void)
{
    return (rm_thread_t)OSTCBCur->OSTCBExtPtr;
}

int rm_thread_priority(rm_thread_t t)
{
    OS_TCB *tcb = OSTCBPrioTbl[t->prio];
    if (tcb == OS_TCB_RESERVED) {
        /* Raised to a mutex's ceiling: its entry moved there. */
        return RM_PRIO_RUNNER;
    }
    if (tcb == NULL)
        return RM_ERROR;
    INT8U native = tcb->OSTCBPrio;
    return native < RM_UC2_PIPS ? RM_PRIO_RUNNER : (int)rm_uc2_level_of[native];
}

int rm_thread_set_priority(rm_thread_t t, int prio)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER)
        return RM_ERROR;
    OSSchedLock();
    int native = rm_uc2_native_prio(prio);
    INT8U err = OS_ERR_PRIO_INVALID;
    if (native >= 0) {
        err = OSTaskChangePrio(t->prio, (INT8U)native);
        if (err == OS_ERR_NONE) {
            rm_uc2_level_of[t->prio] = 0u;
            t->prio = (INT8U)native;
            t->level = (INT8U)prio;
        } else {
            rm_uc2_level_of[native] = 0u;
        }
    }
    OSSchedUnlock();
    return err == OS_ERR_NONE ? RM_OK : RM_ERROR;
}

uint32_t rm_tick_count(void)
{
    return (uint32_t)OSTimeGet();
}

uint32_t rm_tick_hz(void)
{
    return OS_TICKS_PER_SEC;
}

/* ---- IPC objects ------------------------------------------------------ */
static int rm_uc2_pip_alloc(void)
{
    unsigned i = rm_slot_claim(rm_uc2_pip_used, 1u, 0u, RM_UC2_PIPS);
    return i < RM_UC2_PIPS ? (int)i : -1;
}

int rm_obj_create(rm_obj_t *o, rm_obj_kind_t kind, rm_thread_t owner, uint32_t initial)
{
    (void)owner; /* no µC/OS-II object is addressed to a task */
    if (kind != RM_OBJ_SEM && kind != RM_OBJ_MUTEX && kind != RM_OBJ_EVENT &&
        kind != RM_OBJ_MAILBOX && kind != RM_OBJ_QUEUE && kind != RM_OBJ_LIFO)
        return RM_ENOTSUP;
    unsigned i = RM_SLOT_CLAIM(rm_uc2_objs, 0u, RM_UC_MAX_OBJS);
    if (i < RM_UC_MAX_OBJS) {
        struct rm_obj *s = &rm_uc2_objs[i];
        s->kind = kind;
        INT8U err = OS_ERR_NONE;
        void *h;
        switch (kind) {
        case RM_OBJ_SEM:
            h = s->u.ev = OSSemCreate((INT16U)initial);
            break;
        case RM_OBJ_MUTEX: {
            int pip = rm_uc2_pip_alloc();
            h = NULL;
            if (pip >= 0) {
                s->pip = (INT8U)pip;
                h = s->u.ev = OSMutexCreate((INT8U)pip, &err);
                if (h == NULL)
                    rm_uc2_pip_used[pip] = 0u;
            }
            break;
        }
        case RM_OBJ_EVENT:
            h = s->u.flags = OSFlagCreate(initial != 0u ? 1u : 0u, &err);
            break;
        case RM_OBJ_MAILBOX:
            h = s->u.ev = OSMboxCreate(NULL);
            break;
        default:
            h = s->u.ev = OSQCreate(s->q_storage, RM_QUEUE_DEPTH);
            break;
        }
        if (h == NULL || err != OS_ERR_NONE) {
            s->used = 0u;
            return RM_ERROR;
        }
        *o = s;
        return RM_OK;
    }
    return RM_ERROR;
}

int rm_obj_delete(rm_obj_t o)
{
    INT8U err;
    switch (o->kind) {
    case RM_OBJ_SEM:
        (void)OSSemDel(o->u.ev, OS_DEL_ALWAYS, &err);
        break;
    case RM_OBJ_MUTEX:
        (void)OSMutexDel(o->u.ev, OS_DEL_ALWAYS, &err);
        if (err == OS_ERR_NONE)
            rm_uc2_pip_used[o->pip] = 0u;
        break;
    case RM_OBJ_EVENT:
        (void)OSFlagDel(o->u.flags, OS_DEL_ALWAYS, &err);
        break;
    case RM_OBJ_MAILBOX:
        (void)OSMboxDel(o->u.ev, OS_DEL_ALWAYS, &err);
        break;
    case RM_OBJ_QUEUE:
    case RM_OBJ_LIFO:
        (void)OSQDel(o->u.ev, OS_DEL_ALWAYS, &err);
        break;
    default:
        return RM_ENOTSUP;
    }
    if (err != OS_ERR_NONE)
        return RM_ERROR;
    o->used = 0u;
    return RM_OK;
}

/* ---- memory ----------------------------------------------------------- */
int rm_pool_create(rm_pool_t *p, uint32_t block_size, uint32_t count)
{
    uint32_t per = (block_size + 7u) & ~7u;
    size_t bytes = (size_t)per * count;
    for (unsigned i = 0; i < RM_UC_MAX_POOLS; i++) {
        struct rm_pool *s = &rm_uc2_pools[i];
        if (s->mem != NULL)
            continue;
        void *area = rm_arena_take(&rm_uc2_arena, bytes);
        if (area == NULL)
            return RM_ERROR;
        INT8U err;
        OS_MEM *m = OSMemCreate(area, count, per, &err);
        if (m == NULL || err != OS_ERR_NONE)
            return RM_ERROR;
        s->mem = m;
        *p = s;
        return RM_OK;
    }
    return RM_ERROR;
}

/* ---- start-up and description ----------------------------------------- */
static void rm_uc2_runner_start(void *arg)
{
    (void)arg;
    /* The kernel's tick, from the first task (the ports' requirement). */
    OS_CPU_SysTickInitFreq((INT32U)RM_CPU_HZ);
#if OS_TASK_STAT_EN > 0u
    OSStatInit(); /* vendor profile: calibrates the statistics task */
#endif
    rm_runner_main(NULL);
}

int main(void)
{
    rm_target_init();
    OSInit();
    /* The exception stack (MSP once OSStart has run) is the target's main
     * stack, which nothing uses after OSStart, as on FreeRTOS and ThreadX:
     * the kernel's own OS_CPU_ExceptStk is then left minimal (app_cfg.h). */
    OS_CPU_ExceptStkBase = (OS_STK *)(uintptr_t)rm_uc_stack_top;
    rm_thread_t runner;
    if (rm_thread_create(&runner, "runner", rm_uc2_runner_start, NULL, RM_PRIO_RUNNER, 0) !=
        RM_OK) {
        RM_UC_FATAL("OSTaskCreateExt(runner)");
    }
    OSStart(); /* never returns */
    return 0;
}

/* The record lock of port.h keeps the core's no-op default: µC/OS-II never
 * time-slices (every task has its own priority), so another thread runs in
 * the middle of a record only if the writer blocks, which it never does. */

void rm_port_describe(void)
{
    rm_emit_cfg("kernel", "uC/OS-II V" RM_UC_VERSION_STR);
    rm_uc_describe_build();
    rm_emit_cfg("time_slicing", "none (one task per priority)");
    rm_emit_cfg_u32("tick_hz", OS_TICKS_PER_SEC);
    rm_emit_cfg_u32("lowest_prio", OS_LOWEST_PRIO);
    rm_emit_cfg_u32("priority_band", RM_UC2_BAND);
    rm_emit_cfg("priority_map", "levels in bands of priority_band native priorities, "
                                "runner 4, mutex ceilings 0..3");
    rm_emit_cfg("exception_stack", "the target's main stack");
    rm_emit_cfg("arg_checking", OS_ARG_CHK_EN ? "on" : "off");
    rm_emit_cfg("stat_task", OS_TASK_STAT_EN ? "on" : "off");
    rm_emit_cfg("stack_checking", OS_TASK_STAT_STK_CHK_EN ? "on (statistics task)" : "off");
    rm_emit_cfg("timer_task", OS_TMR_EN ? "on" : "off");
    rm_emit_cfg("app_hooks", OS_APP_HOOKS_EN ? "on" : "off");
    rm_emit_cfg("debug_variables", OS_DEBUG_EN ? "on" : "off");
    rm_emit_cfg("task_profiling", OS_TASK_PROFILE_EN ? "on" : "off");
    rm_emit_cfg("trace", OS_TRACE_EN ? "on" : "off");
    rm_emit_cfg("kernel_idle", RM_UC_IDLE_WFI ? "idle task: App_TaskIdleHook WFI, every tick"
                                               : "idle task busy loop (no WFI)");
    rm_emit_cfg("mutex", "priority ceiling (PCP reserved per mutex)");
    rm_emit_cfg("stand_in.MUTEX_INHERIT",
                "priority ceiling: a waiting task raises the owner to the mutex's reserved "
                "ceiling priority, above every task (uC/OS-II has no priority inheritance)");
    rm_emit_cfg("stand_in.SLEEP_UNTIL", "OSTimeGet + OSTimeDly of the remaining ticks "
                                        "(uC/OS-II has no absolute delay)");
    rm_emit_cfg("messages", "pointer to the 16-byte message, copied out by the receiver");
    rm_emit_cfg("lifo", "OSQ posted with OSQPostFront");
    rm_emit_cfg("yield", "none: one task per priority");
    rm_emit_cfg_u32("thread_stack_bytes", RM_UC_STACK_BYTES);
    rm_emit_cfg_u32("runner_stack_bytes", RM_UC_RUNNER_STACK_BYTES);
    rm_uc_describe_optimisation();
}
