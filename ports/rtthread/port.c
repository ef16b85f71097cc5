/* RT-Thread port of the rtosmeter porting layer (bench/include/rtosmeter/
 * port.h): each call is one native RT-Thread call (rt_thread_*, rt_sem_*,
 * rt_mutex_*, rt_event_*, rt_mb_*, rt_mq_*, rt_mp_*, rt_malloc/rt_free), on
 * RT-Thread Nano or the full RT-Thread tree (the same kernel sources and
 * libcpu ports; port.cmake finds both layouts).
 *
 * Design decisions
 * - Priorities: RT-Thread 0 is the most urgent of RT_THREAD_PRIORITY_MAX
 *   (32) levels. RM_PRIO p (1..31) is RT-Thread 31 - p: RM_PRIO_MIN 1 -> 30,
 *   RM_PRIO_MAX 30 -> 1, the runner (RM_PRIO_RUNNER 31) -> 0; the idle
 *   thread alone at 31.
 * - Time slicing: RT-Thread slices among equal priorities by a per-thread
 *   tick count (rt_thread_create's last argument). Default profile: a slice
 *   that never runs out (0xFFFFFFFF ticks, i.e. off); vendor: 20 ticks, what
 *   RT-Thread gives its own main thread.
 * - Threads: rt_thread_create (TCB and RM_RTT_STACK bytes of stack, the
 *   runner RM_RTT_RUNNER_STACK, from the RT-Thread heap; sizes per core in
 *   port.cmake, small on the 16 KiB micro:bit) +
 *   rt_thread_startup; an rm_thread_t is the rt_thread_t. An entry function
 *   may return (RT-Thread then ends the thread). RM_THREAD_SUSPENDED:
 *   startup + rt_thread_suspend inside rt_enter_critical, so the thread
 *   never runs before it is resumed. delete = rt_thread_delete (any state)
 *   plus, at once, the reclaim RT-Thread's idle thread would do later
 *   (rm_thread_delete says why).
 * - Suspend/resume (measured): rt_thread_suspend / rt_thread_resume followed
 *   by rt_schedule() (RT-Thread's calls only move the thread between lists).
 *   RT-Thread 4.1.1 documents that a thread suspends itself and asserts it
 *   with RT_DEBUG (off in both profiles); lat.thread.lifecycle suspends a
 *   ready thread of lower priority, which the call's code handles (it
 *   removes the thread from the ready list).
 * - yield = rt_thread_yield, sleep = rt_thread_delay, sleep_until =
 *   rt_thread_delay_until, priority = the TCB's current_priority (RT-Thread
 *   has no getter; it is the inherited one) / rt_thread_control
 *   (RT_THREAD_CTRL_CHANGE_PRIORITY).
 * - Objects, all with RT_IPC_FLAG_PRIO (waiters by priority): SEM rt_sem;
 *   MUTEX rt_mutex (RT-Thread's mutexes always inherit priority); EVENT
 *   rt_event, bit 0 (OR | CLEAR); MAILBOX rt_mailbox of RM_QUEUE_DEPTH mails,
 *   each the message's address (RT-Thread's idiom); QUEUE rt_messagequeue of
 *   RM_QUEUE_DEPTH 16-byte messages. Not offered (port.toml says why):
 *   thread flags, notifications, FIFO/LIFO, streams, condition variables.
 * - Pool: rt_mp (rt_mp_create); heap: rt_malloc/rt_free over the small-
 *   memory allocator (RT_USING_SMALL_MEM_AS_HEAP), RM_RTT_HEAP bytes.
 * - Interrupts: the case's handler is the vector; RM_PORT_ISR_ENTER/EXIT are
 *   rt_interrupt_enter/leave. rm_isr_sem_signal = rt_sem_release,
 *   rm_isr_resume = rt_thread_resume + rt_schedule (which, in a handler,
 *   pends PendSV).
 * - Start-up: RT-Thread's own (RT_USING_USER_MAIN): the target's reset code
 *   calls main(), whose first call enters RT-Thread's entry() (board init,
 *   scheduler start); RT-Thread's main thread then calls main() again, which
 *   creates the runner thread and returns. The board init (rt_hw_board_init)
 *   initialises the target, SysTick at RT_TICK_PER_SECOND and the heap.
 *   RT-Thread's HardFault_Handler is renamed at build time (port.cmake): the
 *   target's fault handler reports the fault. On the Cortex-M0 the build
 *   also corrects Nano 4.1.1's PendSV exit value (port.cmake says why; CFG
 *   rtthread_patch records it).
 * - Idle: RT-Thread's idle thread spins (no WFI; no power management), in
 *   every profile but lowpower (RM_NO_WFI). lowpower (RM_IDLE_KERNEL) builds
 *   the kernel with RT_USING_IDLE_HOOK and sets, with rt_thread_idle_sethook,
 *   a hook that executes WFI: what RT-Thread's BSPs do without the PM
 *   component. RT_USING_PM is not used: Nano has no components/drivers/pm,
 *   and PM needs the BSP's sleep modes and a low-power timer, which MPS2 has
 *   not. RT-Thread 4.1.1 has no tickless kernel: the 1 kHz tick wakes it.
 * - Result stream: each record is written inside rt_enter_critical (the
 *   scheduler lock), so time slicing cannot interleave two threads' records.
 */
#include <stdbool.h>
#include <stdint.h>

#include "rtosmeter/bench.h" /* with rm_port_inline.h: rtthread.h */
#include "rthw.h"

#ifndef RM_CPU_HZ
#define RM_CPU_HZ RM_TS_HZ
#endif
#ifndef RM_RTT_STACK
#define RM_RTT_STACK 2048u
#endif
#ifndef RM_RTT_RUNNER_STACK
#define RM_RTT_RUNNER_STACK RM_RTT_STACK
#endif
#ifndef RM_RTT_HEAP
#define RM_RTT_HEAP (192u * 1024u)
#endif
#ifndef RM_RTT_MAX_OBJS
#define RM_RTT_MAX_OBJS 32u
#endif
#ifndef RM_RTT_MAX_POOLS
#define RM_RTT_MAX_POOLS 4u
#endif
#ifndef RM_RTT_VENDOR
#define RM_RTT_VENDOR 0
#endif
#ifndef RM_RTT_EXC_RETURN_PATCH
#define RM_RTT_EXC_RETURN_PATCH 0
#endif
#ifndef RM_RTT_CPU
#define RM_RTT_CPU "unknown"
#endif
#if RM_RTT_VENDOR
#define RM_RTT_SLICE 20u
#else
#define RM_RTT_SLICE 0xFFFFFFFFu
#endif

#define RM_RTT_PRIO(p) ((rt_uint8_t)(31 - (p)))

#define RM_RTT_REG(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define RM_RTT_SYST_CSR RM_RTT_REG(0xE000E010u)
#define RM_RTT_SYST_RVR RM_RTT_REG(0xE000E014u)
#define RM_RTT_SYST_CVR RM_RTT_REG(0xE000E018u)
#define RM_RTT_SCB_SHPR3 RM_RTT_REG(0xE000ED20u)

/* ---- threads ------------------------------------------------------------ */
int rm_thread_create(rm_thread_t *out, const char *name, rm_entry_t entry,
                     void *arg, int prio, unsigned flags)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER || entry == NULL)
        return RM_ERROR;
    rt_thread_t t = rt_thread_create(name, entry, arg,
                                     prio == RM_PRIO_RUNNER ? RM_RTT_RUNNER_STACK : RM_RTT_STACK,
                                     RM_RTT_PRIO(prio),
                                     RM_RTT_SLICE);
    *out = (rm_thread_t)(void *)t; /* before the thread can run and look at it */
    if (t == RT_NULL)
        return RM_ERROR;
    bool suspended = (flags & RM_THREAD_SUSPENDED) != 0u;
    if (suspended)
        rt_enter_critical();
    rt_err_t e = rt_thread_startup(t);
    if (e == RT_EOK && suspended)
        e = rt_thread_suspend(t);
    if (suspended)
        rt_exit_critical();
    return e == RT_EOK ? RM_OK : RM_ERROR;
}

/* rt_thread_delete only queues the thread as defunct: RT-Thread's idle
 * thread frees its stack and control block later. The cases delete threads
 * while others keep the processor busy (lat.thread.lifecycle creates and
 * deletes a thread over and over beside spinning threads), so the idle
 * thread would never run and the heap would run out. The port therefore
 * does the idle thread's reclaim at once, with RT-Thread's own calls in the
 * idle thread's order (rt_defunct_execute, idle.c): dequeue, cleanup hook,
 * free the stack, delete the object. A measured delete includes it. */
int rm_thread_delete(rm_thread_t t)
{
    rt_thread_t th = RM_RTT_THREAD(t);
    if (th == RT_NULL || th == rt_thread_self())
        return RM_ERROR;
    if (rt_thread_delete(th) != RT_EOK)
        return RM_ERROR;
    rt_thread_t dead;
    while ((dead = rt_thread_defunct_dequeue()) != RT_NULL) {
        if (dead->cleanup != RT_NULL)
            dead->cleanup(dead);
        if (rt_object_is_systemobject((rt_object_t)dead)) {
            rt_object_detach((rt_object_t)dead);
        } else {
            rt_free(dead->stack_addr);
            rt_object_delete((rt_object_t)dead);
        }
    }
    return RM_OK;
}

int rm_thread_sleep(uint32_t ticks)
{
    return rt_thread_delay((rt_tick_t)ticks) == RT_EOK ? RM_OK : RM_ERROR;
}

int rm_thread_sleep_until(uint32_t *wake, uint32_t period)
{
    rt_tick_t w = (rt_tick_t)*wake;
    rt_err_t e = rt_thread_delay_until(&w, (rt_tick_t)period);
    *wake = (uint32_t)w;
    return e == RT_EOK ? RM_OK : RM_ERROR;
}

rm_thread_t rm_thread_self(void)
{
    return (rm_thread_t)(void *)rt_thread_self();
}

int rm_thread_priority(rm_thread_t t)
{
    return 31 - (int)RM_RTT_THREAD(t)->current_priority;
}

int rm_thread_set_priority(rm_thread_t t, int prio)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER)
        return RM_ERROR;
    rt_uint8_t p = RM_RTT_PRIO(prio);
    return rt_thread_control(RM_RTT_THREAD(t), RT_THREAD_CTRL_CHANGE_PRIORITY, &p) == RT_EOK
               ? RM_OK
               : RM_ERROR;
}

uint32_t rm_tick_count(void)
{
    return (uint32_t)rt_tick_get();
}

uint32_t rm_tick_hz(void)
{
    return RT_TICK_PER_SECOND;
}

/* ---- IPC objects (struct rm_obj and the calls: rm_port_inline.h) -------- */
int rm_obj_create(rm_obj_t *out, rm_obj_kind_t kind, rm_thread_t owner,
                  uint32_t initial)
{
    (void)owner;
    struct rm_obj *o = rt_malloc(sizeof *o);
    if (o == RT_NULL)
        return RM_ERROR;
    o->kind = kind;
    void *h = RT_NULL;
    switch (kind) {
    case RM_OBJ_SEM:
        h = o->h.sem = rt_sem_create("rm", initial, RT_IPC_FLAG_PRIO);
        break;
    case RM_OBJ_MUTEX:
        h = o->h.mutex = rt_mutex_create("rm", RT_IPC_FLAG_PRIO);
        break;
    case RM_OBJ_EVENT:
        h = o->h.event = rt_event_create("rm", RT_IPC_FLAG_PRIO);
        if (h != RT_NULL && initial != 0u)
            (void)rt_event_send(o->h.event, 1u);
        break;
    case RM_OBJ_MAILBOX:
        h = o->h.mb = rt_mb_create("rm", RM_QUEUE_DEPTH, RT_IPC_FLAG_PRIO);
        break;
    case RM_OBJ_QUEUE:
        h = o->h.mq = rt_mq_create("rm", RM_MSG_SIZE, RM_QUEUE_DEPTH, RT_IPC_FLAG_PRIO);
        break;
    default:
        rt_free(o);
        return RM_ENOTSUP;
    }
    if (h == RT_NULL) {
        rt_free(o);
        return RM_ERROR;
    }
    *out = o;
    return RM_OK;
}

int rm_obj_delete(rm_obj_t o)
{
    rt_err_t e = RT_EOK;
    switch (o->kind) {
    case RM_OBJ_SEM:
        e = rt_sem_delete(o->h.sem);
        break;
    case RM_OBJ_MUTEX:
        e = rt_mutex_delete(o->h.mutex);
        break;
    case RM_OBJ_EVENT:
        e = rt_event_delete(o->h.event);
        break;
    case RM_OBJ_MAILBOX:
        e = rt_mb_delete(o->h.mb);
        break;
    case RM_OBJ_QUEUE:
        e = rt_mq_delete(o->h.mq);
        break;
    default:
        break;
    }
    rt_free(o);
    return e == RT_EOK ? RM_OK : RM_ERROR;
}

/* ---- memory (alloc/free: rm_port_inline.h) ------------------------------ */
static struct rm_pool pool_slots[RM_RTT_MAX_POOLS];
static uint32_t pools_used;

int rm_pool_create(rm_pool_t *out, uint32_t block_size, uint32_t count)
{
    if (pools_used >= RM_RTT_MAX_POOLS) /* only the runner creates pools */
        return RM_ERROR;
    rt_mp_t mp = rt_mp_create("rm", count, block_size);
    if (mp == RT_NULL)
        return RM_ERROR;
    struct rm_pool *p = &pool_slots[pools_used++];
    p->mp = mp;
    *out = p;
    return RM_OK;
}

/* ---- board: what RT-Thread's start-up calls ------------------------------- */
static rt_uint8_t rm_rtt_heap[RM_RTT_HEAP] __attribute__((aligned(8)));

void rt_hw_board_init(void)
{
    rm_target_init();
    /* SysTick: the kernel tick at RT_TICK_PER_SECOND from the CPU clock, at
     * the lowest priority (as PendSV, which rt_hw_context_switch_to sets). */
    RM_RTT_SCB_SHPR3 = (RM_RTT_SCB_SHPR3 & 0x00FFFFFFu) | 0xFF000000u;
    RM_RTT_SYST_CSR = 0;
    RM_RTT_SYST_RVR = (uint32_t)(RM_CPU_HZ / RT_TICK_PER_SECOND) - 1u;
    RM_RTT_SYST_CVR = 0;
    RM_RTT_SYST_CSR = 7u; /* CLKSOURCE = CPU, TICKINT, ENABLE */
#ifdef RT_USING_COMPONENTS_INIT
    rt_components_board_init();
#endif
    rt_system_heap_init(rm_rtt_heap, rm_rtt_heap + sizeof rm_rtt_heap);
}

/* The kernel tick (the vector table takes it by name). */
void SysTick_Handler(void);
void SysTick_Handler(void)
{
    rt_interrupt_enter();
    rt_tick_increase();
    rt_interrupt_leave();
}

#ifdef RM_IDLE_KERNEL
/* lowpower: RT-Thread's idle thread calls this hook in its loop. An
 * interrupt that readies a thread pends PendSV, which switches away on the
 * way out of the handler, so the next WFI waits only while idle. */
static void rm_rtt_idle_wfi(void)
{
    __asm volatile("dsb\n wfi" ::: "memory");
}
#endif

/* ---- start-up and description --------------------------------------------- */
int entry(void); /* RT-Thread's start-up (components.c, RT_USING_USER_MAIN) */

int main(void)
{
    static bool started;
    if (!started) { /* from the reset handler: start RT-Thread */
        started = true;
        (void)entry();
        static const char msg[] = "FATAL: RT-Thread's entry() returned\n";
        rm_target_write(msg, sizeof msg - 1u);
        rm_target_exit(1);
    }
    /* From RT-Thread's main thread: start the runner, then end. */
#ifdef RM_IDLE_KERNEL
    if (rt_thread_idle_sethook(rm_rtt_idle_wfi) != RT_EOK) {
        static const char msg[] = "FATAL: rt_thread_idle_sethook failed\n";
        rm_target_write(msg, sizeof msg - 1u);
        rm_target_exit(1);
    }
#endif
    rm_thread_t runner;
    if (rm_thread_create(&runner, "runner", rm_runner_main, NULL, RM_PRIO_RUNNER, 0) != RM_OK) {
        static const char msg[] = "FATAL: rt_thread_create(runner) failed\n";
        rm_target_write(msg, sizeof msg - 1u);
        rm_target_exit(1);
    }
    return 0;
}

void rm_port_sched_lock(void)
{
    rt_enter_critical();
}

void rm_port_sched_unlock(void)
{
    rt_exit_critical();
}

#define RM_STR_(x) #x
#define RM_STR(x) RM_STR_(x)

void rm_port_describe(void)
{
    rm_emit_cfg("kernel", "RT-Thread " RM_STR(RT_VERSION) "." RM_STR(RT_SUBVERSION) "." RM_STR(
                              RT_REVISION));
    rm_emit_cfg("rtthread_cpu", RM_RTT_CPU);
    if (RM_RTT_EXC_RETURN_PATCH)
        rm_emit_cfg("rtthread_patch", "context_gcc.S: PendSV returns with EXC_RETURN 0xFFFFFFFD "
                                      "instead of the reserved 0xFFFFFFFC (QEMU refuses it)");
    rm_emit_cfg("kernel_profile", RM_RTT_VENDOR ? "vendor" : "default");
    rm_emit_cfg("preemption", "on");
    rm_emit_cfg("time_slicing", RM_RTT_VENDOR ? "on (20 ticks per thread)" : "off (endless slice)");
    rm_emit_cfg_u32("tick_hz", RT_TICK_PER_SECOND);
    rm_emit_cfg_u32("max_priorities", RT_THREAD_PRIORITY_MAX);
    rm_emit_cfg("priority_map", "RM_PRIO n = RT-Thread 31 - n (runner 0), idle 31");
#ifdef RT_DEBUG
    rm_emit_cfg("assertions", "on (RT_DEBUG)");
#else
    rm_emit_cfg("assertions", "off");
#endif
#ifdef RT_USING_OVERFLOW_CHECK
    rm_emit_cfg("stack_check", "on (RT_USING_OVERFLOW_CHECK)");
#else
    rm_emit_cfg("stack_check", "off");
#endif
#ifdef RT_USING_HOOK
    rm_emit_cfg("hooks", "on");
#else
    rm_emit_cfg("hooks", "off");
#endif
#ifdef RT_USING_COMPONENTS_INIT
    rm_emit_cfg("components_init", "on");
#else
    rm_emit_cfg("components_init", "off");
#endif
    rm_emit_cfg("ipc_flag", "RT_IPC_FLAG_PRIO");
    rm_emit_cfg("heap", "small memory (RT_USING_SMALL_MEM_AS_HEAP), mutex-locked");
    rm_emit_cfg_u32("heap_bytes", RM_RTT_HEAP);
    rm_emit_cfg_u32("thread_stack_bytes", RM_RTT_STACK);
    rm_emit_cfg_u32("runner_stack_bytes", RM_RTT_RUNNER_STACK);
    rm_emit_cfg("mailbox", "one 32-bit mail per message: the message's address");
    rm_emit_cfg("thread_delete", "rt_thread_delete + the idle thread's reclaim, at once");
    rm_emit_cfg("suspend_resume", "rt_thread_suspend/resume + rt_schedule");
#ifdef RM_IDLE_KERNEL
    rm_emit_cfg("kernel_idle", "idle thread with an idle hook (rt_thread_idle_sethook): WFI, "
                               "1 kHz tick (no tickless)");
#else
    rm_emit_cfg("kernel_idle", "idle thread busy loop (no WFI)");
#endif
    rm_emit_cfg("timer_thread", "off (timeouts in the tick interrupt)");
}
