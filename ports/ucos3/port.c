/* rtosmeter port for µC/OS-III: the porting layer (port.h) on µC/OS-III's
 * native API (OSTask*, OSSem*, OSMutex*, OSFlag*, OSQ*, OSTaskSem*, OSTaskQ*,
 * OSMem*), one kernel call per operation, on the kernel's ARMv7-M and
 * ARMv6-M ports with uC-CPU (and uC-LIB's lib_def.h).
 *
 * Design decisions:
 * - Priorities: µC/OS-III 0 is the most urgent of OS_CFG_PRIO_MAX = 64
 *   (63 idle, 62 statistics, 61 timer task). RM_PRIO p (1..31) maps to
 *   32 - p: the runner (31) -> 1, RM_PRIO_MAX 30 -> 2, RM_PRIO_MIN 1 -> 31.
 *   Several tasks may share a priority.
 * - Round robin: OS_CFG_SCHED_ROUND_ROBIN_EN is compiled in and enabled at
 *   start (OSSchedRoundRobinCfg), because the yield (OSSchedRoundRobinYield)
 *   needs it. Default profile: every task gets a quantum of 0xFFFFFFFF
 *   ticks, so nothing is time-sliced (the tick still counts the running
 *   task's quantum down when it shares its priority). Vendor profile: the
 *   kernel's default quantum (tick rate / 10 = 100 ticks): time slicing on,
 *   as a µC/OS-III application that enables round robin gets it.
 * - SEM = OS_SEM, MUTEX = OS_MUTEX (priority inheritance), EVENT = OS_FLAG_GRP
 *   (bit 0: set / wait set-any with consume), QUEUE = OS_Q of RM_QUEUE_DEPTH
 *   pointer messages (the 16-byte message is passed by pointer and copied
 *   out by the receiver: rm_port_inline.h), LIFO = the same OS_Q posted with
 *   OS_OPT_POST_LIFO, NOTIFY = the owner's task semaphore (OSTaskSemPost /
 *   OSTaskSemPend), THREAD_MSG = the owner's task message queue
 *   (OSTaskQPost / OSTaskQPend; every task gets RM_QUEUE_DEPTH entries).
 *   POOL = OS_MEM partition. µC/OS-III has no mailbox (its queues replace
 *   them), no heap, no per-task flags, and OSTaskResume is not allowed in a
 *   handler: MAILBOX, HEAP, THREAD_FLAGS and ISR_RESUME are unsupported
 *   (port.toml says why).
 * - Threads: OSTaskCreate with a static stack per slot; OS_TCB is the
 *   record's first member, so OSTCBCurPtr is rm_thread_self(). Entry
 *   functions have the kernel's task signature and are passed as they are.
 *   RM_THREAD_SUSPENDED: created and suspended with the scheduler locked.
 *   µC/OS-III nests suspensions: every case suspends and resumes in pairs.
 * - sleep_until: OSTimeGet + OSTimeDly of the remaining ticks (CFG
 *   stand_in.SLEEP_UNTIL): the kernel's absolute delay (OS_OPT_TIME_MATCH)
 *   waits 2^32 ticks for a wake time already passed, and its periodic one
 *   (OS_OPT_TIME_PERIODIC) keeps its own base in the TCB and skips missed
 *   periods, where port.h asks for no sleep on a passed wake time.
 * - Tick: SysTick at OS_CFG_TICK_RATE_HZ = 1000, started by the runner
 *   thread (OS_CPU_SysTickInit, as the kernel requires from the first
 *   task). Idle: the kernel's idle task spins (no WFI), except in
 *   lowpower: its OSIdleTaskHook calls the application's idle hook, WFI
 *   (app_hooks.c); every tick wakes it (no dynamic tick).
 * - Interrupts: RM_PORT_ISR_ENTER/EXIT are OSIntEnter/OSIntExit
 *   (rm_port_inline.h). The kernel's handlers are the vectors themselves:
 *   port.cmake renames OS_CPU_PendSVHandler / OS_CPU_SysTickHandler to the
 *   target's PendSV_Handler / SysTick_Handler when it compiles the kernel.
 * - Records: written with the scheduler locked (OSSchedLock), so time
 *   slicing (vendor profile) cannot interleave two tasks' records.
 * - Host (RM_UC3_POSIX): the kernel's own POSIX port, as shipped: each task
 *   a SCHED_RR pthread (its own stack: the stacks here go unused), switches
 *   by semaphores, so one task runs at a time; the tick a SCHED_RR timer
 *   thread whose signal interrupts the running task; the idle task sleeps
 *   1 s per loop (the port's OSIdleTaskHook). The benchmark interrupt is the
 *   host target's SIGUSR1 handler on the calling task's thread, wrapped in
 *   OSIntEnter/OSIntExit as on Cortex-M. Without real-time scheduling the
 *   kernel cannot start at all: host.c checks for it before OSInit and
 *   withdraws every capability, saying why. Not pinned to a CPU (the
 *   kernel's port does not ask for it). Figures are wall time: noisy.
 */
#include <stddef.h>
#include <stdint.h>

#include "rtosmeter/bench.h" /* with rm_port_inline.h: os.h, the handles */

/* The slot tables' critical section (rtosmeter/port_slots.h). */
#define RM_SLOTS_LOCK()                                                          \
    CPU_SR_ALLOC();                                                              \
    CPU_CRITICAL_ENTER()
#define RM_SLOTS_UNLOCK() CPU_CRITICAL_EXIT()
#include "rtosmeter/port_slots.h"

#include "../ucos_common/uc_common.h"

#ifndef RM_UC_CPU_VERSION_STR
#define RM_UC_CPU_VERSION_STR "?"
#endif
#ifndef RM_UC_LIB_VERSION_STR
#define RM_UC_LIB_VERSION_STR "?"
#endif
#define RM_UC3_PRIO(p) ((OS_PRIO)(32 - (p)))
#if RM_UC_VENDOR
#define RM_UC3_QUANTUM 0u /* the kernel's default (tick rate / 10) */
#else
#define RM_UC3_QUANTUM 0xFFFFFFFFu
#endif

_Static_assert(RM_UC3_PRIO(RM_PRIO_MIN) < OS_CFG_TMR_TASK_PRIO,
               "rtosmeter's priorities must stay above the kernel's own tasks");

#if !RM_UC3_POSIX
extern uint32_t __stack_top[]; /* the target's linker script: top of RAM */
#endif

static struct rm_thread rm_uc3_threads[RM_UC_MAX_THREADS];
static CPU_STK rm_uc3_stacks[RM_UC_MAX_THREADS - 1u][RM_UC_STACK_BYTES / sizeof(CPU_STK)]
    __attribute__((aligned(8)));
static CPU_STK rm_uc3_runner_stack[RM_UC_RUNNER_STACK_BYTES / sizeof(CPU_STK)]
    __attribute__((aligned(8)));
static struct rm_obj rm_uc3_objs[RM_UC_MAX_OBJS];
static struct rm_pool rm_uc3_pools[RM_UC_MAX_POOLS];
RM_ARENA(rm_uc3_arena, RM_UC_POOL_ARENA);

#if RM_UC3_POSIX /* host.c */
bool rm_uc3_host_can_start(void);
void rm_uc3_host_describe(void);
unsigned long rm_uc3_host_task_thread(const OS_TCB *tcb);
void rm_uc3_host_task_join(unsigned long thread);
#endif

int rm_uc3_failure(OS_ERR err, uint32_t timeout)
{
    switch (err) {
    case OS_ERR_TIMEOUT:
    case OS_ERR_PEND_WOULD_BLOCK:
        return rm_wait_failed(timeout);
    case OS_ERR_Q_MAX:
    case OS_ERR_MSG_POOL_EMPTY:
    case OS_ERR_SEM_OVF:
        return RM_EAGAIN;
    default:
        return RM_ERROR;
    }
}

void rm_uc3_no_msg(rm_msg_t *msg)
{
    *msg = (rm_msg_t){{0u}};
}

/* ---- threads ---------------------------------------------------------- */
int rm_thread_create(rm_thread_t *t, const char *name, rm_entry_t entry,
                     void *arg, int prio, unsigned flags)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER)
        return RM_ERROR;
    /* Slot 0 is the runner's (created first), with its own stack. */
    const int runner = prio == RM_PRIO_RUNNER;
    const unsigned to = runner ? 1u : RM_UC_MAX_THREADS;
    const unsigned i = RM_SLOT_CLAIM(rm_uc3_threads, runner ? 0u : 1u, to);
    if (i == to)
        return RM_ERROR;
    struct rm_thread *s = &rm_uc3_threads[i];
    s->stack = runner ? rm_uc3_runner_stack : rm_uc3_stacks[i - 1u];
    *t = s; /* before the task can run and look at it */
    const CPU_STK_SIZE words =
        (runner ? sizeof rm_uc3_runner_stack : RM_UC_STACK_BYTES) / sizeof(CPU_STK);
#if RM_UC_VENDOR
    const OS_OPT opt = OS_OPT_TASK_STK_CHK | OS_OPT_TASK_STK_CLR;
#else
    const OS_OPT opt = OS_OPT_TASK_NONE;
#endif
    OS_ERR err, err2;
    OSSchedLock(&err2);
#if RM_UC3_POSIX
    /* The POSIX port creates the task's thread in OSTaskCreateHook, which
     * the kernel calls with interrupts enabled: the thread would inherit
     * an unblocked tick signal and could take a tick meant for the
     * running task before it blocks it itself (OSIntNestingCtr then
     * races and ends at 1: calls fail as "from an ISR"). The thread
     * starts with the tick signal blocked, as the hook expects. */
    CPU_SR_ALLOC();
    CPU_CRITICAL_ENTER();
#endif
    OSTaskCreate(&s->tcb, (CPU_CHAR *)(uintptr_t)name, entry, arg, RM_UC3_PRIO(prio),
                 s->stack, words / 10u, words, RM_QUEUE_DEPTH, RM_UC3_QUANTUM, s, opt,
                 &err);
#if RM_UC3_POSIX
    CPU_CRITICAL_EXIT();
#endif
    if (err == OS_ERR_NONE && (flags & RM_THREAD_SUSPENDED) != 0u)
        OSTaskSuspend(&s->tcb, &err);
    OSSchedUnlock(&err2);
    if (err != OS_ERR_NONE) {
        s->used = 0u;
        *t = NULL;
        return RM_ERROR;
    }
    return RM_OK;
}

int rm_thread_delete(rm_thread_t t)
{
    OS_ERR err;
#if RM_UC3_POSIX
    unsigned long thread = rm_uc3_host_task_thread(&t->tcb); /* before the kernel frees it */
#endif
    OSTaskDel(&t->tcb, &err);
    if (err != OS_ERR_NONE)
        return RM_ERROR;
#if RM_UC3_POSIX
    rm_uc3_host_task_join(thread);
#endif
    t->used = 0u;
    return RM_OK;
}

int rm_thread_sleep(uint32_t ticks)
{
    OS_ERR err;
    if (ticks == 0u)
        return RM_OK;
    OSTimeDly((OS_TICK)ticks, OS_OPT_TIME_DLY, &err);
    return err == OS_ERR_NONE ? RM_OK : RM_ERROR;
}

int rm_thread_sleep_until(uint32_t *wake, uint32_t period)
{
    OS_ERR err;
    return rm_thread_sleep(rm_uc_ticks_left(wake, period, (uint32_t)OSTimeGet(&err)));
}

rm_thread_t rm_thread_self(void)
{
    return (rm_thread_t)OSTCBCurPtr;
}

int rm_thread_priority(rm_thread_t t)
{
    return 32 - (int)t->tcb.Prio; /* the current priority, inheritance included */
}

int rm_thread_set_priority(rm_thread_t t, int prio)
{
    OS_ERR err;
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER)
        return RM_ERROR;
    OSTaskChangePrio(&t->tcb, RM_UC3_PRIO(prio), &err);
    return err == OS_ERR_NONE ? RM_OK : RM_ERROR;
}

uint32_t rm_tick_count(void)
{
    OS_ERR err;
    return (uint32_t)OSTimeGet(&err);
}

uint32_t rm_tick_hz(void)
{
    return OS_CFG_TICK_RATE_HZ;
}

/* ---- IPC objects ------------------------------------------------------ */
int rm_obj_create(rm_obj_t *o, rm_obj_kind_t kind, rm_thread_t owner, uint32_t initial)
{
    if (kind != RM_OBJ_SEM && kind != RM_OBJ_MUTEX && kind != RM_OBJ_EVENT &&
        kind != RM_OBJ_QUEUE && kind != RM_OBJ_LIFO && kind != RM_OBJ_NOTIFY &&
        kind != RM_OBJ_THREAD_MSG)
        return RM_ENOTSUP;
    if ((kind == RM_OBJ_NOTIFY || kind == RM_OBJ_THREAD_MSG) && owner == NULL)
        return RM_ERROR;
    unsigned i = RM_SLOT_CLAIM(rm_uc3_objs, 0u, RM_UC_MAX_OBJS);
    if (i < RM_UC_MAX_OBJS) {
        struct rm_obj *s = &rm_uc3_objs[i];
        s->kind = kind;
        OS_ERR err = OS_ERR_NONE;
        switch (kind) {
        case RM_OBJ_SEM:
            OSSemCreate(&s->u.sem, "rm_sem", (OS_SEM_CTR)initial, &err);
            break;
        case RM_OBJ_MUTEX:
            OSMutexCreate(&s->u.mutex, "rm_mutex", &err);
            break;
        case RM_OBJ_EVENT:
            OSFlagCreate(&s->u.flags, "rm_flags", initial != 0u ? 1u : 0u, &err);
            break;
        case RM_OBJ_QUEUE:
        case RM_OBJ_LIFO:
            OSQCreate(&s->u.q, "rm_q", RM_QUEUE_DEPTH, &err);
            break;
        case RM_OBJ_NOTIFY:
            /* Start from a clean slate: nothing left from an earlier case. */
            s->u.owner = &owner->tcb;
            (void)OSTaskSemSet(s->u.owner, (OS_SEM_CTR)initial, &err);
            break;
        default: /* THREAD_MSG */
            s->u.owner = &owner->tcb;
            (void)OSTaskQFlush(s->u.owner, &err);
            break;
        }
        if (err != OS_ERR_NONE) {
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
    OS_ERR err = OS_ERR_NONE;
    switch (o->kind) {
    case RM_OBJ_SEM:
        (void)OSSemDel(&o->u.sem, OS_OPT_DEL_ALWAYS, &err);
        break;
    case RM_OBJ_MUTEX:
        (void)OSMutexDel(&o->u.mutex, OS_OPT_DEL_ALWAYS, &err);
        break;
    case RM_OBJ_EVENT:
        (void)OSFlagDel(&o->u.flags, OS_OPT_DEL_ALWAYS, &err);
        break;
    case RM_OBJ_QUEUE:
    case RM_OBJ_LIFO:
        (void)OSQDel(&o->u.q, OS_OPT_DEL_ALWAYS, &err);
        break;
    default: /* NOTIFY, THREAD_MSG: state lives in the task */
        break;
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
    unsigned i = RM_SLOT_CLAIM(rm_uc3_pools, 0u, RM_UC_MAX_POOLS);
    if (i < RM_UC_MAX_POOLS) {
        struct rm_pool *s = &rm_uc3_pools[i];
        void *area = rm_arena_take(&rm_uc3_arena, bytes);
        OS_ERR err = OS_ERR_NONE;
        if (area != NULL)
            OSMemCreate(&s->mem, "rm_pool", area, (OS_MEM_QTY)count, (OS_MEM_SIZE)per, &err);
        if (area == NULL || err != OS_ERR_NONE) {
            s->used = 0u;
            return RM_ERROR;
        }
        *p = s;
        return RM_OK;
    }
    return RM_ERROR;
}

/* ---- start-up and description ----------------------------------------- */
#if OS_CFG_APP_HOOKS_EN > 0u
void rm_uc3_set_app_hooks(void); /* app_hooks.c */
#endif

static void rm_uc3_runner_start(void *arg)
{
    (void)arg;
    OS_ERR err;
    /* The kernel's tick, from the first task (the ports' requirement). */
#if RM_UC3_POSIX
    OS_CPU_SysTickInit(); /* the timer thread, at OS_CFG_TICK_RATE_HZ */
#else
    OS_CPU_SysTickInit((CPU_INT32U)(RM_CPU_HZ / OS_CFG_TICK_RATE_HZ));
#endif
#if OS_CFG_STAT_TASK_EN > 0u
    OSStatTaskCPUUsageInit(&err); /* vendor profile: calibrates the statistics task */
#endif
    OSSchedRoundRobinCfg(OS_TRUE, RM_UC3_QUANTUM, &err);
    if (err != OS_ERR_NONE) {
        RM_UC_FATAL("OSSchedRoundRobinCfg");
    }
    rm_runner_main(NULL);
}

int main(void)
{
    OS_ERR err;
    rm_target_init();
#if RM_UC3_POSIX
    if (!rm_uc3_host_can_start()) {
        /* No kernel: the runner on this thread, every capability withdrawn
         * (host.c), so each case says why it cannot run. It exits. */
        rm_runner_main(NULL);
    }
#endif
    CPU_Init();
    OSInit(&err);
    if (err != OS_ERR_NONE) {
        RM_UC_FATAL("OSInit");
    }
#if OS_CFG_APP_HOOKS_EN > 0u
    rm_uc3_set_app_hooks();
#endif
#if !RM_UC3_POSIX
    /* The exception stack (MSP once OSStart has run) is the target's main
     * stack, which nothing uses after OSStart, as on FreeRTOS and ThreadX:
     * the kernel's own ISR stack is then left minimal (os_cfg_app.h). */
    OS_CPU_ExceptStkBase = (CPU_STK *)(uintptr_t)__stack_top;
#endif
    rm_thread_t runner;
    if (rm_thread_create(&runner, "runner", rm_uc3_runner_start, NULL, RM_PRIO_RUNNER, 0) !=
        RM_OK) {
        RM_UC_FATAL("OSTaskCreate(runner)");
    }
    OSStart(&err); /* never returns */
    return 0;
}

/* On the host the runner may run without the kernel (host.c): then there
 * is nothing to lock. */
void rm_port_sched_lock(void)
{
    OS_ERR err;
#if RM_UC3_POSIX
    if (OSRunning != OS_STATE_OS_RUNNING)
        return;
#endif
    OSSchedLock(&err);
}

void rm_port_sched_unlock(void)
{
    OS_ERR err;
#if RM_UC3_POSIX
    if (OSRunning != OS_STATE_OS_RUNNING)
        return;
#endif
    OSSchedUnlock(&err);
}

void rm_port_describe(void)
{
    rm_emit_cfg("kernel", "uC/OS-III V" RM_UC_VERSION_STR);
    rm_emit_cfg("uc_cpu", "uC-CPU V" RM_UC_CPU_VERSION_STR);
    rm_emit_cfg("uc_lib", "uC-LIB V" RM_UC_LIB_VERSION_STR);
    rm_uc_describe_build();
    rm_emit_cfg("time_slicing", RM_UC_VENDOR ? "on (round robin, default quantum)"
                                             : "off (round robin with 0xFFFFFFFF-tick quanta)");
    rm_emit_cfg_u32("tick_hz", OS_CFG_TICK_RATE_HZ);
    rm_emit_cfg_u32("prio_max", OS_CFG_PRIO_MAX);
    rm_emit_cfg("priority_map", "RM_PRIO p = native 32 - p (runner 1)");
    rm_emit_cfg("arg_checking", OS_CFG_ARG_CHK_EN ? "on" : "off");
    rm_emit_cfg("isr_call_checking", OS_CFG_CALLED_FROM_ISR_CHK_EN ? "on" : "off");
    rm_emit_cfg("object_checks", OS_CFG_OBJ_TYPE_CHK_EN ? "on" : "off");
    rm_emit_cfg("stat_task", OS_CFG_STAT_TASK_EN ? "on" : "off");
    rm_emit_cfg("stack_checking", OS_CFG_STAT_TASK_STK_CHK_EN ? "on (statistics task)" : "off");
    rm_emit_cfg("timer_task", OS_CFG_TMR_EN ? "on" : "off");
    rm_emit_cfg("app_hooks", OS_CFG_APP_HOOKS_EN ? "on" : "off");
    rm_emit_cfg("task_profiling", OS_CFG_TASK_PROFILE_EN ? "on" : "off");
    rm_emit_cfg("trace", OS_CFG_TRACE_EN ? "on" : "off");
    rm_emit_cfg("debug_fields", OS_CFG_DBG_EN ? "on (OS_CFG_DBG_EN: the POSIX port needs it)"
                                              : "off");
#if RM_UC3_POSIX
    rm_uc3_host_describe();
    rm_emit_cfg("kernel_idle", "idle task sleep(1) per loop (the POSIX port's OSIdleTaskHook)");
    rm_emit_cfg("tick", "uC-CPU's timer thread: a relative 1 ms clock_nanosleep, then the "
                        "tick signal to the running task");
    rm_emit_cfg("irq", "the host target's SIGUSR1 handler on the task that raises it, "
                       "inside OSIntEnter/OSIntExit");
    rm_emit_cfg("cpu", "not pinned");
#else
    rm_emit_cfg("kernel_idle", RM_UC_IDLE_WFI ? "idle task: OSIdleTaskHook WFI, every tick"
                                               : "idle task busy loop (no WFI)");
#endif
    rm_emit_cfg("mutex", "priority inheritance");
    rm_emit_cfg("stand_in.SLEEP_UNTIL", "OSTimeGet + OSTimeDly of the remaining ticks "
                                        "(OS_OPT_TIME_MATCH would wait 2^32 ticks for a "
                                        "passed wake time)");
    rm_emit_cfg("messages", "pointer to the 16-byte message, copied out by the receiver");
    rm_emit_cfg("lifo", "OS_Q posted with OS_OPT_POST_LIFO");
    rm_emit_cfg("notify", "task semaphore (OSTaskSemPost/OSTaskSemPend)");
    rm_emit_cfg("thread_msg", "task message queue (OSTaskQPost/OSTaskQPend)");
#if RM_UC3_POSIX
    rm_emit_cfg("thread_stack", "each task's pthread stack (glibc's default size)");
#else
    rm_emit_cfg("exception_stack", "the target's main stack");
    rm_emit_cfg_u32("thread_stack_bytes", RM_UC_STACK_BYTES);
    rm_emit_cfg_u32("runner_stack_bytes", RM_UC_RUNNER_STACK_BYTES);
#endif
    rm_uc_describe_optimisation();
}
