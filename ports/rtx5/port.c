/* CMSIS-RTX5 port of the rtosmeter porting layer (bench/include/rtosmeter/
 * port.h): each call is one native CMSIS-RTOS2 call of Keil RTX5 (osThread*,
 * osSemaphore*, osMutex*, osEventFlags*, osThreadFlags*, osMessageQueue*,
 * osMemoryPool*, osDelay/osDelayUntil), never RTX's CMSIS-RTOS1 or POSIX
 * wrappers.
 *
 * Design decisions
 * - Priorities: RM_PRIO p (1..30, runner 31) is osPriorityLow + p (9..39),
 *   below osPriorityHigh (40, the timer thread's, never created: no user
 *   timers) and above the idle thread (osPriorityIdle, 1).
 * - Threads: osThreadNew with RM_RTX_STACK bytes of stack (the runner:
 *   RM_RTX_RUNNER_STACK; both set per core by port.cmake, small on the 16 KiB
 *   micro:bit) from RTX's dynamic memory (OS_DYNAMIC_MEM_SIZE); an
 *   rm_thread_t is the osThreadId_t itself.
 *   An entry function may return (RTX ends the thread with osThreadExit).
 *   RM_THREAD_SUSPENDED: osThreadNew + osThreadSuspend with the kernel locked
 *   (osKernelLock), so the thread never runs before it is resumed.
 *   delete = osThreadTerminate (any state).
 * - yield = osThreadYield, sleep = osDelay, sleep_until = osDelayUntil of the
 *   absolute tick, priority = osThreadGetPriority (the current, possibly
 *   inherited one) / osThreadSetPriority.
 * - Objects: SEM osSemaphore (limit 65535, RTX's maximum); MUTEX osMutex with
 *   osMutexPrioInherit; EVENT event flags, bit 0; QUEUE osMessageQueue of
 *   RM_QUEUE_DEPTH 16-byte messages; THREAD_FLAGS the owner's thread flags,
 *   bit 0. Not offered (port.toml says why): MAILBOX (CMSIS-RTOS2 dropped
 *   RTOS1's osMail), HEAP (no general allocator in the API), ISR_RESUME
 *   (osThreadResume is not an ISR call) and the kinds RTX has no object for.
 * - Pool: osMemoryPool (block_size, count), blocks from the dynamic memory.
 * - Measured calls: static inline in rm_port_inline.h (one CMSIS-RTOS2 call
 *   each). From a thread, each is RTX's SVC call; in the benchmark interrupt
 *   handler (the vector itself) osSemaphoreRelease takes RTX's ISR path.
 * - Tick: SysTick at OS_TICK_FREQ (1000 Hz) through CMSIS 6's os_systick.c,
 *   clocked by SystemCoreClock = RM_CPU_HZ (the target's CPU clock).
 * - Idle: osRtxIdleThread spins (no WFI), in every profile but lowpower
 *   (tickless: osKernelSuspend, WFI, osKernelResume; WFI on every tick on
 *   ARMv6-M; see osRtxIdleThread).
 * - Result stream: each record is written with the kernel locked
 *   (osKernelLock), so the vendor profile's round-robin cannot interleave two
 *   threads' records.
 */
#include <stdint.h>

#include "rtosmeter/bench.h" /* with rm_port_inline.h: cmsis_os2.h */
#include "rtx_os.h"

#ifndef RM_CPU_HZ
#define RM_CPU_HZ RM_TS_HZ
#endif
#ifndef RM_RTX_STACK
#define RM_RTX_STACK 2048u
#endif
#ifndef RM_RTX_RUNNER_STACK
#define RM_RTX_RUNNER_STACK RM_RTX_STACK
#endif
#ifndef RM_RTX_MAX_OBJS
#define RM_RTX_MAX_OBJS 32u
#endif
#ifndef RM_RTX_MAX_POOLS
#define RM_RTX_MAX_POOLS 4u
#endif
#ifndef RM_RTX_VENDOR
#define RM_RTX_VENDOR 0
#endif

#ifndef RM_RTX_CMSIS_CORE
#define RM_RTX_CMSIS_CORE "unknown"
#endif

#define RM_RTX_PRIO_BASE ((int)osPriorityLow)
#define RM_RTX_SEM_MAX 65535u

/* The clock os_systick.c programs SysTick from (CMSIS's system variable). */
uint32_t SystemCoreClock = RM_CPU_HZ;

/* ---- threads ------------------------------------------------------------ */
int rm_thread_create(rm_thread_t *out, const char *name, rm_entry_t entry,
                     void *arg, int prio, unsigned flags)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER || entry == NULL)
        return RM_ERROR;
    const osThreadAttr_t attr = {
        .name = name,
        .stack_size = prio == RM_PRIO_RUNNER ? RM_RTX_RUNNER_STACK : RM_RTX_STACK,
        .priority = (osPriority_t)(RM_RTX_PRIO_BASE + prio),
    };
    bool suspended = (flags & RM_THREAD_SUSPENDED) != 0u;
    int32_t lock = suspended ? osKernelLock() : 0;
    osThreadId_t id = osThreadNew((osThreadFunc_t)entry, arg, &attr);
    /* Before the thread can run and look at it (the caller's variable). */
    *out = (rm_thread_t)(void *)id;
    if (id != NULL && suspended)
        (void)osThreadSuspend(id);
    if (suspended && lock >= 0)
        (void)osKernelRestoreLock(lock);
    return id != NULL ? RM_OK : RM_ERROR;
}

int rm_thread_delete(rm_thread_t t)
{
    osThreadId_t id = RM_RTX_TID(t);
    if (id == NULL || id == osThreadGetId())
        return RM_ERROR;
    return osThreadTerminate(id) == osOK ? RM_OK : RM_ERROR;
}

int rm_thread_sleep(uint32_t ticks)
{
    return osDelay(ticks) == osOK ? RM_OK : RM_ERROR;
}

int rm_thread_sleep_until(uint32_t *wake, uint32_t period)
{
    *wake += period;
    osStatus_t st = osDelayUntil(*wake);
    /* osErrorParameter: the wake time has passed already (no sleep). */
    return st == osOK || st == osErrorParameter ? RM_OK : RM_ERROR;
}

rm_thread_t rm_thread_self(void)
{
    return (rm_thread_t)(void *)osThreadGetId();
}

int rm_thread_priority(rm_thread_t t)
{
    return (int)osThreadGetPriority(RM_RTX_TID(t)) - RM_RTX_PRIO_BASE;
}

int rm_thread_set_priority(rm_thread_t t, int prio)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER)
        return RM_ERROR;
    return osThreadSetPriority(RM_RTX_TID(t), (osPriority_t)(RM_RTX_PRIO_BASE + prio)) == osOK
               ? RM_OK
               : RM_ERROR;
}

uint32_t rm_tick_count(void)
{
    return osKernelGetTickCount();
}

uint32_t rm_tick_hz(void)
{
    return osKernelGetTickFreq();
}

/* ---- IPC objects (struct rm_obj and the calls: rm_port_inline.h) -------- */
static struct rm_obj obj_slots[RM_RTX_MAX_OBJS];

static struct rm_obj *obj_alloc(void)
{
    struct rm_obj *o = NULL;
    int32_t lock = osKernelLock();
    for (uint32_t i = 0; i < RM_RTX_MAX_OBJS && o == NULL; i++)
        if (obj_slots[i].id == NULL && obj_slots[i].owner == NULL)
            o = &obj_slots[i];
    if (o != NULL)
        o->owner = (osThreadId_t)(void *)o; /* claimed until filled in */
    (void)osKernelRestoreLock(lock);
    return o;
}

int rm_obj_create(rm_obj_t *out, rm_obj_kind_t kind, rm_thread_t owner,
                  uint32_t initial)
{
    struct rm_obj *o = obj_alloc();
    if (o == NULL)
        return RM_ERROR;
    o->kind = kind;
    o->owner = NULL;
    void *id = NULL;
    switch (kind) {
    case RM_OBJ_SEM:
        id = osSemaphoreNew(RM_RTX_SEM_MAX, initial, NULL);
        break;
    case RM_OBJ_MUTEX: {
        const osMutexAttr_t attr = {.name = "rm", .attr_bits = osMutexPrioInherit};
        id = osMutexNew(&attr);
        break;
    }
    case RM_OBJ_EVENT:
        id = osEventFlagsNew(NULL);
        if (id != NULL && initial != 0u)
            (void)osEventFlagsSet(id, 1u);
        break;
    case RM_OBJ_QUEUE:
        id = osMessageQueueNew(RM_QUEUE_DEPTH, RM_MSG_SIZE, NULL);
        break;
    case RM_OBJ_THREAD_FLAGS:
        if (owner == NULL)
            break;
        id = o->owner = RM_RTX_TID(owner);
        /* A clean slate (only a thread's own flags can be cleared). */
        if (o->owner == osThreadGetId())
            (void)osThreadFlagsClear(1u);
        if (initial != 0u)
            (void)osThreadFlagsSet(o->owner, 1u);
        break;
    default:
        break;
    }
    if (id == NULL) {
        o->owner = NULL;
        return kind == RM_OBJ_THREAD_FLAGS || kind <= RM_OBJ_QUEUE ? RM_ERROR : RM_ENOTSUP;
    }
    o->id = id;
    *out = o;
    return RM_OK;
}

int rm_obj_delete(rm_obj_t o)
{
    osStatus_t st = osOK;
    switch (o->kind) {
    case RM_OBJ_SEM:
        st = osSemaphoreDelete(o->id);
        break;
    case RM_OBJ_MUTEX:
        st = osMutexDelete(o->id);
        break;
    case RM_OBJ_EVENT:
        st = osEventFlagsDelete(o->id);
        break;
    case RM_OBJ_QUEUE:
        st = osMessageQueueDelete(o->id);
        break;
    default: /* THREAD_FLAGS: the state lives in the thread */
        break;
    }
    o->owner = NULL;
    o->id = NULL;
    return st == osOK ? RM_OK : RM_ERROR;
}

/* ---- memory (alloc/free: rm_port_inline.h) ------------------------------ */
static struct rm_pool pool_slots[RM_RTX_MAX_POOLS];
static uint32_t pools_used;

int rm_pool_create(rm_pool_t *out, uint32_t block_size, uint32_t count)
{
    if (pools_used >= RM_RTX_MAX_POOLS) /* only the runner creates pools */
        return RM_ERROR;
    osMemoryPoolId_t id = osMemoryPoolNew(count, block_size, NULL);
    if (id == NULL)
        return RM_ERROR;
    struct rm_pool *p = &pool_slots[pools_used++];
    p->id = id;
    *out = p;
    return RM_OK;
}

/* ---- RTX's hooks ---------------------------------------------------------- */
#if defined(RM_IDLE_KERNEL) && defined(__arm__) && !defined(__ARM_ARCH_6M__)
uint32_t rm_rtx_tickless_sleep(uint32_t ticks); /* rtx_tickless.c */

/* lowpower (RM_IDLE_KERNEL): CMSIS-RTOS2's tickless idle. osKernelSuspend
 * stops the tick and gives the ticks to the next timeout; the SysTick is
 * programmed for them and the core sleeps in WFI (rtx_tickless.c), with
 * interrupts masked so that the waking one runs only after the sleep is
 * accounted for; osKernelResume steps the kernel by the ticks slept. An
 * interrupt between osKernelSuspend and the mask has posted to the kernel
 * (pendSV, RTX's own flag for it while suspended): then no sleep. */
__NO_RETURN void osRtxIdleThread(void *argument)
{
    (void)argument;
    for (;;) {
        uint32_t ticks = osKernelSuspend();
        __asm volatile("cpsid i" ::: "memory");
        uint32_t slept = osRtxInfo.kernel.pendSV != 0u ? 0u : rm_rtx_tickless_sleep(ticks);
        __asm volatile("cpsie i" ::: "memory");
        osKernelResume(slept);
    }
}
#elif defined(RM_IDLE_KERNEL) && defined(__arm__)
/* lowpower on ARMv6-M (the micro:bit): WFI, woken by every tick. The
 * tickless idle above lost the rest of a tick on each early wake-up there
 * under QEMU (the 100 Hz sampling window took 110 samples). An interrupt
 * that readies a thread pends PendSV, which runs before the WFI. */
__NO_RETURN void osRtxIdleThread(void *argument)
{
    (void)argument;
    for (;;) {
        __asm volatile("dsb\n wfi" ::: "memory");
    }
}
#else
/* The idle thread spins: no WFI (RM_NO_WFI; deterministic emulation). */
__NO_RETURN void osRtxIdleThread(void *argument)
{
    (void)argument;
    for (;;) {
    }
}
#endif

/* A kernel error (stack overflow in the vendor profile, ISR queue overflow)
 * ends the run with a message and a FAULT record, never a silent hang. */
uint32_t osRtxErrorNotify(uint32_t code, void *object_id)
{
    (void)object_id;
    __asm volatile("cpsid i" ::: "memory");
    static const char stack_msg[] = "\nRTX error: stack overflow\n";
    static const char other_msg[] = "\nRTX error: osRtxErrorNotify\n";
    if (code == osRtxErrorStackOverflow)
        rm_target_write(stack_msg, sizeof stack_msg - 1u);
    else
        rm_target_write(other_msg, sizeof other_msg - 1u);
    rm_fault_t f = {.pc = (uint32_t)(uintptr_t)__builtin_return_address(0), .psr = code};
    rm_report_fault(&f);
    return 0u;
}

/* ---- start-up and description --------------------------------------------- */
static void fatal(const char *msg, size_t len)
{
    rm_target_write(msg, len);
    rm_target_exit(1);
}

int main(void)
{
    rm_target_init();
    if (osKernelInitialize() != osOK) {
        static const char msg[] = "FATAL: osKernelInitialize failed\n";
        fatal(msg, sizeof msg - 1u);
    }
    rm_thread_t runner;
    if (rm_thread_create(&runner, "runner", rm_runner_main, NULL, RM_PRIO_RUNNER, 0) != RM_OK) {
        static const char msg[] = "FATAL: osThreadNew(runner) failed\n";
        fatal(msg, sizeof msg - 1u);
    }
    (void)osKernelStart();
    static const char msg[] = "FATAL: osKernelStart returned\n";
    fatal(msg, sizeof msg - 1u);
    return 1;
}

void rm_port_sched_lock(void)
{
    (void)osKernelLock();
}

void rm_port_sched_unlock(void)
{
    (void)osKernelUnlock();
}

#define RM_STR_(x) #x
#define RM_STR(x) RM_STR_(x)

/* An RTX version number (MMmmmpppp: 50090001 = 5.9.1) as text. */
static void version_text(uint32_t k, char *out)
{
    uint32_t parts[3] = {k / 10000000u, (k / 10000u) % 1000u, k % 10000u};
    size_t n = 0;
    for (int i = 0; i < 3; i++) {
        char d[12];
        size_t m = 0;
        uint32_t x = parts[i];
        do {
            d[m++] = (char)('0' + x % 10u);
            x /= 10u;
        } while (x != 0u);
        while (m > 0u)
            out[n++] = d[--m];
        out[n++] = i < 2 ? '.' : '\0';
    }
}

void rm_port_describe(void)
{
    osVersion_t v;
    char id[32];
    char text[40];
    (void)osKernelGetInfo(&v, id, sizeof id);
    rm_emit_cfg("kernel", id);
    version_text(v.kernel, text);
    rm_emit_cfg("kernel_version", text);
    version_text(v.api, text);
    rm_emit_cfg("api", text);
    rm_emit_cfg("cmsis_core", RM_RTX_CMSIS_CORE);
    rm_emit_cfg("kernel_profile", RM_RTX_VENDOR ? "vendor" : "default");
    rm_emit_cfg("preemption", "on");
    rm_emit_cfg("time_slicing", OS_ROBIN_ENABLE ? "on (round-robin, " RM_STR(OS_ROBIN_TIMEOUT)
                                                  " ticks)"
                                                : "off");
    rm_emit_cfg_u32("tick_hz", OS_TICK_FREQ);
    rm_emit_cfg("priority_map", "RM_PRIO n = osPriorityLow + n (9..39), idle osPriorityIdle");
    rm_emit_cfg("stack_check", OS_STACK_CHECK ? "on (at each switch)" : "off");
    rm_emit_cfg("stack_watermark", OS_STACK_WATERMARK ? "on" : "off");
    rm_emit_cfg("object_pointer_check", OS_OBJ_PTR_CHECK ? "on" : "off");
    rm_emit_cfg("safety_features", OS_SAFETY_FEATURES ? "on" : "off");
    rm_emit_cfg("event_hooks", RM_RTX_EVR ? "compiled in (empty: no recorder component)"
                                          : "compiled out (OS_EVR_* 0)");
    rm_emit_cfg("privilege", OS_PRIVILEGE_MODE ? "privileged threads" : "unprivileged threads");
    rm_emit_cfg("heap", "RTX dynamic memory (threads, stacks, objects)");
    rm_emit_cfg_u32("heap_bytes", OS_DYNAMIC_MEM_SIZE);
    rm_emit_cfg_u32("thread_stack_bytes", RM_RTX_STACK);
    rm_emit_cfg_u32("runner_stack_bytes", RM_RTX_RUNNER_STACK);
    rm_emit_cfg_u32("isr_queue", OS_ISR_FIFO_QUEUE);
#if defined(RM_IDLE_KERNEL) && defined(__arm__) && !defined(__ARM_ARCH_6M__)
    rm_emit_cfg("kernel_idle", "osRtxIdleThread: osKernelSuspend, SysTick to the next timeout, "
                               "WFI, osKernelResume (tickless)");
#elif defined(RM_IDLE_KERNEL) && defined(__arm__)
    rm_emit_cfg("kernel_idle", "osRtxIdleThread WFI, every tick (ARMv6-M)");
#else
    rm_emit_cfg("kernel_idle", "osRtxIdleThread busy loop (no WFI)");
#endif
    rm_emit_cfg("timer_thread", "not created (no user timers)");
    rm_emit_cfg("argument_checks", "always on (RTX checks every argument; not configurable)");
}
