/* Zephyr port of the rtosmeter porting layer (bench/include/rtosmeter/port.h):
 * an out-of-tree Zephyr application (ports/zephyr/app) using the native
 * kernel API only; the measured calls are inline in rm_port_inline.h.
 *
 * Design decisions
 * - Priorities: all threads are preemptible. RM_PRIO n (1..30, runner 31) is
 *   Zephyr priority 31 - n (30..0; lower is more urgent), with
 *   CONFIG_NUM_PREEMPT_PRIORITIES = 31, so the idle thread alone is at 31.
 * - Threads: k_thread_create on static stacks (RM_Z_MAX_THREADS slots of
 *   RM_Z_STACK_SIZE bytes); struct k_thread is the first member of the port's
 *   record, so rm_thread_self() is k_current_get(). RM_THREAD_SUSPENDED:
 *   created with K_FOREVER, suspended, then started (k_thread_start on a
 *   suspended thread leaves it suspended until k_thread_resume). delete =
 *   k_thread_abort. yield = k_yield; sleep = k_sleep to the absolute tick
 *   now + n (a relative K_TICKS(n) sleeps n+1 ticks); sleep_until =
 *   k_sleep(K_TIMEOUT_ABS_TICKS) (absolute, drift-free).
 * - Objects: SEM k_sem (limit K_SEM_MAX_LIMIT); MUTEX k_mutex (priority
 *   inheritance is built in); EVENT k_event, bit 0; MAILBOX k_mbox (async put,
 *   see rm_port_inline.h); QUEUE k_msgq of RM_QUEUE_DEPTH 16-byte messages;
 *   FIFO k_fifo, LIFO k_lifo and STACK k_stack of port-owned items; STREAM k_pipe of
 *   RM_QUEUE_DEPTH x 16 bytes; CONDVAR k_condvar with the port's k_mutex;
 *   POLL_SIGNAL k_poll_signal polled with k_poll. Not offered (port.toml says
 *   why): MSGBUF, NOTIFY, THREAD_MSG, THREAD_FLAGS.
 * - Pool: k_mem_slab carved from a static area. Heap: k_malloc / k_free (the
 *   system heap, CONFIG_HEAP_MEM_POOL_SIZE).
 * - Interrupts: Zephyr owns the vector table, so the benchmark line
 *   (RM_CM_BENCH_IRQ, raised by the target's NVIC STIR/ISPR write) and the
 *   target's periodic timer line are connected with irq_connect_dynamic:
 *   the vector is Zephyr's _isr_wrapper, which calls the case's handler from
 *   the software ISR table and leaves through z_arm_int_exit (Zephyr's only
 *   path that switches threads after an interrupt). The target's NVIC calls
 *   come to rm_port_irq_enable/disable (port.toml owns_nvic): irq_enable/
 *   irq_disable; priorities are Zephyr's (bench line 2, periodic line 1,
 *   both below the kernel's lock).
 * - Idle: CONFIG_ARM_ON_ENTER_CPU_IDLE_HOOK with a hook that returns false,
 *   so the idle thread spins instead of WFI (RM_NO_WFI, default and vendor);
 *   lowpower keeps Zephyr's idle (WFI) and the tickless kernel.
 * - native_sim_64 (target host): a Linux process whose simulated time advances
 *   only while the CPU idles, so every interval reads 0: the port declares
 *   its timings not meaningful (CFG timing) and the run is a functional
 *   check. Its target layer is ../native_sim (benchmark line 31 of the
 *   simulator's interrupt controller, stdout through nsi_host_write, exit
 *   through posix_exit).
 * - Result stream: records are written with the scheduler locked
 *   (k_sched_lock), so time slicing (vendor profile) cannot interleave two
 *   threads' records.
 */
#include <zephyr/irq.h>
#include <zephyr/fatal.h>
#include <version.h> /* generated: KERNEL_VERSION_STRING */

#include "rtosmeter/bench.h" /* with rm_port_inline.h: Zephyr's headers */

/* The slot tables' critical section (rtosmeter/port_slots.h). */
#define RM_SLOTS_LOCK() unsigned rm_slots_key_ = irq_lock()
#define RM_SLOTS_UNLOCK() irq_unlock(rm_slots_key_)
#include "rtosmeter/port_slots.h"

/* Sizes: the Cortex-M0 target (micro:bit) has 16 KiB of RAM in all, so the
 * ARMv6-M build has 9 thread slots besides the runner's (irq's 8 load
 * threads and its measuring one fit; lat.thread.lifecycle's larger layouts
 * do not) with small stacks, and one small pool; the runner, which writes
 * most records, has its own larger stack. A build may override each with -D. */
#if defined(__ARM_ARCH_6M__)
#define RM_Z_DFLT_THREADS 9
#define RM_Z_DFLT_STACK 384
#define RM_Z_DFLT_RUNNER_STACK 1024
#define RM_Z_DFLT_OBJS 6
#define RM_Z_DFLT_POOLS 1
#define RM_Z_DFLT_POOL_BYTES 512
#else
#define RM_Z_DFLT_THREADS 32
#define RM_Z_DFLT_STACK 1536
#define RM_Z_DFLT_RUNNER_STACK 1536
#define RM_Z_DFLT_OBJS 16
#define RM_Z_DFLT_POOLS 4
#define RM_Z_DFLT_POOL_BYTES 4096
#endif
#ifndef RM_Z_MAX_THREADS
#define RM_Z_MAX_THREADS RM_Z_DFLT_THREADS
#endif
#ifndef RM_Z_STACK_SIZE
#define RM_Z_STACK_SIZE RM_Z_DFLT_STACK
#endif
#ifndef RM_Z_RUNNER_STACK_SIZE
#define RM_Z_RUNNER_STACK_SIZE RM_Z_DFLT_RUNNER_STACK
#endif
#ifndef RM_Z_MAX_OBJS
#define RM_Z_MAX_OBJS RM_Z_DFLT_OBJS
#endif
#ifndef RM_Z_MAX_POOLS
#define RM_Z_MAX_POOLS RM_Z_DFLT_POOLS
#endif
#ifndef RM_Z_POOL_BYTES
#define RM_Z_POOL_BYTES RM_Z_DFLT_POOL_BYTES
#endif
#ifndef RM_Z_OPT_FLAGS
#define RM_Z_OPT_FLAGS ""
#endif
#ifndef RM_Z_PROFILE
#define RM_Z_PROFILE "default"
#endif

#define RM_Z_BENCH_IRQ_PRIO 2
#define RM_Z_PERIODIC_IRQ_PRIO 1
/* The benchmark line: the Cortex-M target's (raised through the NVIC), or
 * native_sim's spare line (ports/zephyr/native_sim/rm_target_inline.h). */
#ifdef CONFIG_ARCH_POSIX
#define RM_Z_BENCH_IRQ RM_NSIM_BENCH_IRQ
#else
#define RM_Z_BENCH_IRQ RM_CM_BENCH_IRQ
#endif

BUILD_ASSERT(CONFIG_NUM_PREEMPT_PRIORITIES == RM_PRIO_RUNNER,
             "ports/zephyr: CONFIG_NUM_PREEMPT_PRIORITIES must be 31 (prj.conf)");

static inline int z_prio(int rm_prio)
{
    return RM_PRIO_RUNNER - rm_prio;
}

/* ---- threads ------------------------------------------------------------ */
K_THREAD_STACK_ARRAY_DEFINE(rm_z_stacks, RM_Z_MAX_THREADS, RM_Z_STACK_SIZE);
K_THREAD_STACK_DEFINE(rm_z_runner_stack, RM_Z_RUNNER_STACK_SIZE);
/* The slots, and after them the runner's (its own stack). */
static struct rm_thread rm_z_threads[RM_Z_MAX_THREADS + 1];

static void thread_trampoline(void *p1, void *p2, void *p3)
{
    (void)p2, (void)p3;
    struct rm_thread *t = p1;
    t->entry(t->arg);
    /* The entry returned: the thread ends here; its slot stays in use until
     * rm_thread_delete (which aborts an already dead thread harmlessly). */
}

int rm_thread_create(rm_thread_t *out, const char *name, rm_entry_t entry,
                     void *arg, int prio, unsigned flags)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER || entry == NULL)
        return RM_ERROR;
    bool runner = entry == rm_runner_main;
    /* The last record is the runner's. */
    unsigned to = runner ? RM_Z_MAX_THREADS + 1u : RM_Z_MAX_THREADS;
    unsigned i = RM_SLOT_CLAIM(rm_z_threads, runner ? RM_Z_MAX_THREADS : 0u, to);
    if (i == to)
        return RM_ERROR;
    struct rm_thread *t = &rm_z_threads[i];
    k_thread_stack_t *stack = runner ? rm_z_runner_stack : rm_z_stacks[i];
    size_t stack_size = runner ? K_THREAD_STACK_SIZEOF(rm_z_runner_stack)
                               : K_THREAD_STACK_SIZEOF(rm_z_stacks[i]);
    t->entry = entry;
    t->arg = arg;
    *out = t;
    bool suspended = (flags & RM_THREAD_SUSPENDED) != 0u;
    k_tid_t tid = k_thread_create(&t->k, stack, stack_size, thread_trampoline, t, NULL, NULL, z_prio(prio), 0,
                                  suspended ? K_FOREVER : K_NO_WAIT);
    if (suspended) {
        k_thread_suspend(tid);
        k_thread_start(tid);
    }
#ifdef CONFIG_THREAD_NAME
    (void)k_thread_name_set(tid, name);
#else
    (void)name;
#endif
    return RM_OK;
}

int rm_thread_delete(rm_thread_t t)
{
    if (t == NULL || !t->used || &t->k == k_current_get())
        return RM_ERROR;
    k_thread_abort(&t->k);
    t->used = 0u;
    return RM_OK;
}

/* Until the ticks-th tick boundary from now (as FreeRTOS's vTaskDelay and
 * ThreadX's tx_thread_sleep): Zephyr rounds a relative K_TICKS(n) up to n+1
 * ticks, which would lengthen every throughput period by one tick. */
int rm_thread_sleep(uint32_t ticks)
{
    (void)k_sleep(K_TIMEOUT_ABS_TICKS(k_uptime_ticks() + (int64_t)ticks));
    return RM_OK;
}

int rm_thread_sleep_until(uint32_t *wake, uint32_t period)
{
    *wake += period;
    (void)k_sleep(K_TIMEOUT_ABS_TICKS(*wake));
    return RM_OK;
}

rm_thread_t rm_thread_self(void)
{
    return (rm_thread_t)k_current_get();
}

int rm_thread_priority(rm_thread_t t)
{
    return RM_PRIO_RUNNER - k_thread_priority_get(&t->k);
}

int rm_thread_set_priority(rm_thread_t t, int prio)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER)
        return RM_ERROR;
    k_thread_priority_set(&t->k, z_prio(prio));
    return RM_OK;
}

uint32_t rm_tick_count(void)
{
    return (uint32_t)k_uptime_ticks();
}

uint32_t rm_tick_hz(void)
{
    return CONFIG_SYS_CLOCK_TICKS_PER_SEC;
}

/* ---- IPC objects (struct rm_obj and the calls: rm_port_inline.h) ----- */
static struct rm_obj rm_z_objs[RM_Z_MAX_OBJS];

int rm_obj_create(rm_obj_t *out, rm_obj_kind_t kind, rm_thread_t owner, uint32_t initial)
{
    (void)owner;
    unsigned i = RM_SLOT_CLAIM(rm_z_objs, 0u, RM_Z_MAX_OBJS);
    if (i == RM_Z_MAX_OBJS)
        return RM_ERROR;
    struct rm_obj *o = &rm_z_objs[i];
    memset(&o->u, 0, sizeof o->u);
    o->kind = kind;
    int rc = 0;
    switch (kind) {
    case RM_OBJ_SEM:
        rc = k_sem_init(&o->u.sem, initial, K_SEM_MAX_LIMIT);
        break;
    case RM_OBJ_MUTEX:
        rc = k_mutex_init(&o->u.mutex);
        break;
    case RM_OBJ_EVENT:
        k_event_init(&o->u.event);
        if (initial != 0u)
            (void)k_event_post(&o->u.event, 1u);
        break;
    case RM_OBJ_MAILBOX:
        k_mbox_init(&o->u.mb.mbox);
        o->u.mb.tx.size = RM_MSG_SIZE;
        o->u.mb.tx.tx_target_thread = K_ANY;
        break;
    case RM_OBJ_QUEUE:
        k_msgq_init(&o->u.msgq.q, o->u.msgq.buf, RM_MSG_SIZE, RM_QUEUE_DEPTH);
        break;
    case RM_OBJ_FIFO:
    case RM_OBJ_LIFO:
    case RM_OBJ_STACK:
        if (kind == RM_OBJ_FIFO)
            k_fifo_init(&o->u.list.fifo);
        else if (kind == RM_OBJ_LIFO)
            k_lifo_init(&o->u.list.lifo);
        else
            k_stack_init(&o->u.list.stack, o->u.list.words, RM_QUEUE_DEPTH);
        o->u.list.free = NULL;
        for (unsigned j = 0; j < RM_QUEUE_DEPTH; j++) {
            o->u.list.items[j].obj = o;
            o->u.list.items[j].next_free = o->u.list.free;
            o->u.list.free = &o->u.list.items[j];
        }
        break;
    case RM_OBJ_STREAM:
        k_pipe_init(&o->u.pipe.p, o->u.pipe.buf, sizeof o->u.pipe.buf);
        break;
    case RM_OBJ_CONDVAR:
        rc = k_condvar_init(&o->u.cond.cv);
        if (rc == 0)
            rc = k_mutex_init(&o->u.cond.m);
        break;
    case RM_OBJ_POLL_SIGNAL:
        k_poll_signal_init(&o->u.poll.sig);
        k_poll_event_init(&o->u.poll.ev, K_POLL_TYPE_SIGNAL, K_POLL_MODE_NOTIFY_ONLY,
                          &o->u.poll.sig);
        break;
    default:
        rc = -ENOTSUP;
        break;
    }
    if (rc != 0) {
        o->used = 0u;
        return rc == -ENOTSUP ? RM_ENOTSUP : RM_ERROR;
    }
    *out = o;
    return RM_OK;
}

int rm_obj_delete(rm_obj_t o)
{
    if (o == NULL || !o->used)
        return RM_ERROR;
    /* Zephyr objects hold no resources; the case deleted their users. */
    o->used = 0u;
    return RM_OK;
}

/* ---- memory (alloc/free: rm_port_inline.h) ----------------------------- */
static struct rm_pool rm_z_pools[RM_Z_MAX_POOLS];
RM_ARENA(rm_z_pool_area, RM_Z_POOL_BYTES);

int rm_pool_create(rm_pool_t *out, uint32_t block_size, uint32_t count)
{
    if (block_size % 8u != 0u)
        return RM_ERROR;
    unsigned i = RM_SLOT_CLAIM(rm_z_pools, 0u, RM_Z_MAX_POOLS);
    if (i == RM_Z_MAX_POOLS)
        return RM_ERROR;
    void *area = rm_arena_take(&rm_z_pool_area, (size_t)block_size * count);
    if (area == NULL || k_mem_slab_init(&rm_z_pools[i].slab, area, block_size, count) != 0) {
        rm_z_pools[i].used = 0u;
        return RM_ERROR;
    }
    *out = &rm_z_pools[i];
    return RM_OK;
}

/* ---- interrupts --------------------------------------------------------- */
static void bench_idle_isr(const void *arg)
{
    (void)arg;
}

/* The case's handler takes no argument; Zephyr passes one (NULL) in r0,
 * which the handler ignores: the same call on AAPCS as a native ISR. */
typedef void (*rm_z_isr_t)(const void *arg);

int rm_port_irq_connect(rm_isr_t isr)
{
    irq_disable(RM_Z_BENCH_IRQ);
    rm_z_isr_t z = isr != NULL ? (rm_z_isr_t)(void (*)(void))isr : bench_idle_isr;
    (void)irq_connect_dynamic(RM_Z_BENCH_IRQ, RM_Z_BENCH_IRQ_PRIO, z, NULL, 0);
    irq_enable(RM_Z_BENCH_IRQ);
    return RM_OK;
}

void rm_target_irq_set_vector(void (*isr)(void))
{
    (void)rm_port_irq_connect(isr);
}

#ifdef CONFIG_CPU_CORTEX_M
#include "cm.h" /* rm_port_irq_enable/disable */

/* The target's NVIC calls, through Zephyr: Zephyr owns the NVIC (port.toml
 * owns_nvic; targets/common/cortex-m/cm.h), and the line's priority was set
 * when it was connected. */
void rm_port_irq_enable(unsigned irq, unsigned prio)
{
    (void)prio;
    irq_enable(irq);
}

void rm_port_irq_disable(unsigned irq)
{
    irq_disable(irq);
}
#endif

#ifdef RM_CM_PERIODIC_IRQ
void RM_Periodic_IRQHandler(void); /* the target's timer driver */
static void periodic_isr(const void *arg)
{
    (void)arg;
    RM_Periodic_IRQHandler();
}
#endif
#ifdef RM_CM_LOAD_IRQ
void RM_Load_IRQHandler(void); /* the target's load timer (load profiles) */
static void load_isr(const void *arg)
{
    (void)arg;
    RM_Load_IRQHandler();
}
#endif

#ifdef CONFIG_RM_IDLE_SPIN
/* Idle spins (no WFI): deterministic emulation, every profile. (native_sim
 * idles for real: simulated time advances only then.) */
bool z_arm_on_enter_cpu_idle(void);
bool z_arm_on_enter_cpu_idle(void)
{
    return false;
}
#endif

/* ---- faults -------------------------------------------------------------- */
void k_sys_fatal_error_handler(unsigned int reason, const z_arch_esf_t *esf)
{
    (void)reason;
    rm_fault_t f = {0};
#ifdef CONFIG_ARM
    if (esf != NULL) {
        f.pc = esf->basic.pc;
        f.lr = esf->basic.lr;
        f.psr = esf->basic.xpsr;
    }
#if defined(CONFIG_CPU_CORTEX_M) && !defined(CONFIG_ARMV6_M_ARMV8_M_BASELINE)
#define RM_Z_SCB(off) (*(volatile uint32_t *)(uintptr_t)(0xE000ED00u + (off)))
    f.cfsr = RM_Z_SCB(0x28u);
    f.hfsr = RM_Z_SCB(0x2Cu);
    f.mmfar = RM_Z_SCB(0x34u);
    f.bfar = RM_Z_SCB(0x38u);
#endif
#else
    (void)esf; /* native_sim: no exception frame */
#endif
    rm_report_fault(&f);
}

/* ---- start-up and description ------------------------------------------ */
int main(void)
{
    rm_target_init();
#ifdef RM_CM_PERIODIC_IRQ
    (void)irq_connect_dynamic(RM_CM_PERIODIC_IRQ, RM_Z_PERIODIC_IRQ_PRIO, periodic_isr, NULL, 0);
#endif
#ifdef RM_CM_LOAD_IRQ
    (void)irq_connect_dynamic(RM_CM_LOAD_IRQ, RM_Z_PERIODIC_IRQ_PRIO, load_isr, NULL, 0);
#endif
    (void)rm_port_irq_connect(NULL);
    rm_thread_t runner;
    if (rm_thread_create(&runner, "runner", rm_runner_main, NULL, RM_PRIO_RUNNER, 0) != RM_OK) {
        static const char msg[] = "FATAL: k_thread_create(runner) failed\n";
        rm_target_write(msg, sizeof msg - 1u);
        rm_target_exit(1);
    }
    return 0; /* the main thread ends; the runner carries on */
}

void rm_port_sched_lock(void)
{
    k_sched_lock();
}

void rm_port_sched_unlock(void)
{
    k_sched_unlock();
}

#define RM_ONOFF(x) (IS_ENABLED(x) ? "on" : "off")

void rm_port_describe(void)
{
    rm_emit_cfg("kernel", "Zephyr " KERNEL_VERSION_STRING);
    rm_emit_cfg("zephyr_board", CONFIG_BOARD);
    rm_emit_cfg("kernel_profile", RM_Z_PROFILE);
    rm_emit_cfg_u32("tick_hz", CONFIG_SYS_CLOCK_TICKS_PER_SEC);
    rm_emit_cfg("tickless", RM_ONOFF(CONFIG_TICKLESS_KERNEL));
#if defined(CONFIG_CORTEX_M_SYSTICK)
    /* qemu_cortex_m0 ships with nRF51 TIMER0, the target's timestamp counter:
     * moved to SysTick there (app/boards/qemu_cortex_m0.*) */
    rm_emit_cfg("sys_clock", "Cortex-M SysTick");
#endif
    rm_emit_cfg("preemption", "on (all threads preemptible)");
    rm_emit_cfg("time_slicing", RM_ONOFF(CONFIG_TIMESLICING));
    rm_emit_cfg_u32("max_priorities", CONFIG_NUM_PREEMPT_PRIORITIES);
    rm_emit_cfg("priority_map", "RM_PRIO n = Zephyr preemptible priority 31-n, idle 31");
    rm_emit_cfg("assertions", RM_ONOFF(CONFIG_ASSERT));
    rm_emit_cfg("mpu", RM_ONOFF(CONFIG_ARM_MPU));
    rm_emit_cfg("hw_stack_protection", RM_ONOFF(CONFIG_HW_STACK_PROTECTION));
    rm_emit_cfg("stack_sentinel", RM_ONOFF(CONFIG_STACK_SENTINEL));
    rm_emit_cfg("thread_monitor", RM_ONOFF(CONFIG_THREAD_MONITOR));
    rm_emit_cfg("tracing", RM_ONOFF(CONFIG_TRACING));
    rm_emit_cfg("fpu", RM_ONOFF(CONFIG_FPU));
    rm_emit_cfg("fpu_sharing", RM_ONOFF(CONFIG_FPU_SHARING));
    rm_emit_cfg("timeout_64bit", RM_ONOFF(CONFIG_TIMEOUT_64BIT));
    rm_emit_cfg("kconfig_optimization", IS_ENABLED(CONFIG_SPEED_OPTIMIZATIONS)  ? "speed (-O2)"
                                        : IS_ENABLED(CONFIG_SIZE_OPTIMIZATIONS) ? "size (-Os)"
                                                                                : "other");
    rm_emit_cfg("kernel_opt_flags", RM_Z_OPT_FLAGS " (appended after Kconfig's)");
    rm_emit_cfg_u32("heap_bytes", CONFIG_HEAP_MEM_POOL_SIZE);
    rm_emit_cfg_u32("thread_stack_bytes", RM_Z_STACK_SIZE);
    rm_emit_cfg_u32("runner_stack_bytes", RM_Z_RUNNER_STACK_SIZE);
#ifdef CONFIG_ARCH_POSIX
    /* native_sim: a functional check; the harness shows no figure. */
    rm_emit_cfg("timing", "not meaningful: native_sim's simulated time stands still while "
                          "code runs (it advances only when the CPU idles)");
    rm_emit_cfg("timestamp", "k_cycle_get_32 (native_sim's simulated clock) in ns, "
                             "not CLOCK_MONOTONIC");
    rm_emit_cfg("kernel_idle", "idle thread halts the simulated CPU (time advances)");
    rm_emit_cfg("irq_path", "irq_connect_dynamic on native_sim line 31, raised by "
                            "posix_sw_set_pending_IRQ -> posix_irq_handler -> case handler");
#else
#ifdef CONFIG_RM_IDLE_SPIN
    rm_emit_cfg("kernel_idle", "idle thread, WFI skipped (z_arm_on_enter_cpu_idle returns false)");
#else
    rm_emit_cfg("kernel_idle", IS_ENABLED(CONFIG_TICKLESS_KERNEL)
                                   ? "idle thread with WFI (k_cpu_idle), tickless kernel"
                                   : "idle thread with WFI (k_cpu_idle)");
#endif
    rm_emit_cfg("irq_path", "irq_connect_dynamic: vector _isr_wrapper -> _sw_isr_table -> "
                            "case handler -> z_arm_int_exit");
#endif
    rm_emit_cfg("mailbox", "k_mbox_async_put / k_mbox_get (data copied by the receiver)");
    rm_emit_cfg("event_wait", "k_event_wait then k_event_clear (3.5: no wait-and-clear)");
    rm_emit_cfg("fifo_lifo", "k_fifo/k_lifo of port-owned items (free list, 16-byte copy; "
                             "the wait's copy out after the closing read)");
    rm_emit_cfg("stack", "k_stack of port-owned items' addresses (free list, 16-byte copy; "
                         "the wait's copy out after the closing read)");
    rm_emit_cfg("condvar_wait", "k_mutex_lock, k_condvar_wait, k_mutex_unlock");
    rm_emit_cfg("poll_signal_wait", "event state reset, k_poll, then k_poll_signal_reset");
    rm_emit_cfg("pool", "k_mem_slab");
    rm_emit_cfg("heap", "k_malloc/k_free (system heap)");
}
