/* NuttX port of the rtosmeter porting layer (bench/include/rtosmeter/port.h):
 * rtosmeter is a NuttX application (flat build, ports/nuttx/nxapp) and calls
 * NuttX's kernel interfaces, not its POSIX layer, on QEMU's mps2-an500
 * (board mps2-an500) and on the host (NuttX's sim, a Linux process).
 *
 * Design decisions
 * - Priorities: RM_PRIO n (1..30, runner 31) is NuttX priority 100 + n
 *   (101..131): above the init task (CONFIG_INIT_PRIORITY 100), below the
 *   high-priority work queue (192), which idles. Default profile: tasks are
 *   SCHED_FIFO (CONFIG_RR_INTERVAL 0); vendor: the board's round robin.
 * - Threads are NuttX tasks: nxtask_create (stack CONFIG_DEFAULT_TASK_STACKSIZE),
 *   nxtask_delete. A task's entry takes argc/argv, so argv[1] carries the
 *   index of the port's record (entry, argument, pid); the record is also
 *   how rm_thread_self() finds the caller (by pid, set-up only).
 *   RM_THREAD_SUSPENDED: create with the scheduler locked, then stop the
 *   task with nxsched_suspend, so it stops before its entry runs.
 * - Suspend/resume: nxsched_suspend (the kernel's stop, which SIGSTOP's
 *   action calls; synchronous) and SIGCONT (nxsig_kill: its dispatch
 *   continues a stopped task; 13.0.0 has no nxsched_ call for that).
 *   SIGSTOP is not used: NuttX 13.0.0 installs a task's signal actions when
 *   the task starts (nxtask_start) and drops a signal that finds none, so a
 *   task created "suspended" ran its entry (tm.preemptive's staircase of
 *   counts), and its action stops another task only when that task next
 *   runs. Every task ignores SIGCONT (thread_trampoline): it is still
 *   continued, without NuttX 13.0.0's faulty trampoline for SIGCONT's
 *   do-nothing default action; yield = sched_yield, sleep = nxsched_ticksleep,
 *   sleep_until = nxsched_abstick_sleep (the wake tick itself),
 *   priority = nxsched_get_param / nxsched_set_param.
 * - Objects: SEM nxsem (protocol SEM_PRIO_NONE: a signalling semaphore);
 *   MUTEX nxmutex (priority inheritance, CONFIG_PRIORITY_INHERITANCE); EVENT
 *   nxevent, bit 0; QUEUE a NuttX message queue (file_mq_open: the kernel
 *   side of mq_open, no file descriptor) of RM_QUEUE_DEPTH 16-byte messages,
 *   opened once blocking and once O_NONBLOCK, its name unlinked at once.
 *   Not offered (port.toml says why): MAILBOX, FIFO, LIFO, STREAM, MSGBUF,
 *   NOTIFY, CONDVAR, THREAD_MSG, THREAD_FLAGS, POLL_SIGNAL.
 * - Pool: NuttX's own block pool, mm/mempool (mempool_allocate /
 *   mempool_release), its blocks from the kernel heap. Heap: kmm_malloc /
 *   kmm_free (in a flat build, the one heap: malloc's).
 * - Interrupts (mps2-an500): NuttX owns the vector table. The case's handler
 *   is attached with irq_attach and runs from NuttX's dispatch (vector ->
 *   arm_doirq -> irq_dispatch -> handler), which switches tasks on the way
 *   out; the target's NVIC calls become up_enable_irq / up_disable_irq
 *   (NuttX's default priority). The sim has no software-triggered interrupt:
 *   rm_port_caps() withdraws IRQ, ISR_RESUME and ISR_SIGNAL there.
 * - Idle: NuttX's own idle loop; on mps2-an500 arm_idle.c spins (no WFI), as
 *   deterministic emulation needs (RM_NO_WFI): its up_idle has WFI only as
 *   an example (#if 0). lowpower (conf/lowpower.conf) sets
 *   CONFIG_ARCH_IDLE_CUSTOM, NuttX's way for a board to supply up_idle, and
 *   this file's up_idle executes WFI (as NuttX's stm32_idle.c does). No
 *   CONFIG_SCHED_TICKLESS: it depends on ARCH_HAVE_TICKLESS, which
 *   ARCH_CHIP_MPS does not select, so the 1 kHz SysTick wakes it. No
 *   CONFIG_PM: the mps chip has no PM driver or sleep states.
 * - Result stream: each record is written with sched_lock held.
 * - Faults: a panic notifier turns NuttX's assertion and fault path (which
 *   would otherwise reset the board) into the stream's FAULT record.
 */
#include "rtosmeter/bench.h" /* with rm_port_inline.h: NuttX's headers */

/* The thread free list's critical section (rtosmeter/port_slots.h). */
#define RM_SLOTS_LOCK() sched_lock()
#define RM_SLOTS_UNLOCK() sched_unlock()
#include "rtosmeter/port_slots.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nuttx/arch.h>
#include <nuttx/clock.h>
#include <nuttx/irq.h>
#include <nuttx/panic_notifier.h>
#include <nuttx/sched.h>
#include <nuttx/version.h>

#define RM_MAX_THREADS 64u
#define RM_NX_PRIO_BASE 100
#define RM_NX_STACK CONFIG_DEFAULT_TASK_STACKSIZE

int rm_nuttx_main(int argc, char *argv[]);

/* ---- threads (struct rm_thread: rm_port_inline.h) -------------------- */
/* A free list, not a slot table: rm_thread_create and rm_thread_delete are
 * measured (lat.thread.lifecycle), and a record costs O(1) either way. */
static struct rm_thread thread_slots[RM_MAX_THREADS];
static struct rm_thread *thread_free_list;

static void thread_slots_init(void)
{
    RM_FREE_LIST_INIT(thread_free_list, thread_slots, RM_MAX_THREADS);
}

static struct rm_thread *thread_alloc(void)
{
    struct rm_thread *t;
    RM_SLOTS_LOCK();
    RM_FREE_LIST_POP(thread_free_list, t);
    RM_SLOTS_UNLOCK();
    return t;
}

static void thread_release(struct rm_thread *t)
{
    RM_SLOTS_LOCK();
    t->pid = 0;
    RM_FREE_LIST_PUSH(thread_free_list, t);
    RM_SLOTS_UNLOCK();
}

static int thread_trampoline(int argc, char *argv[])
{
    if (argc < 2)
        return 1;
    struct rm_thread *t = &thread_slots[strtoul(argv[1], NULL, 10)];
    t->pid = nxsched_gettid(); /* before the creator's nxtask_create returns */
    t->tcb = nxsched_get_tcb(t->pid);
    /* SIGCONT ignored: it still continues a stopped task (the dispatch does
     * that whatever the action), but queues no action. NuttX 13.0.0's
     * default one (nxsig_null_action, which does nothing) sets up a signal
     * trampoline on the task, and under resume-while-ready load that
     * machinery calls a NULL sigdeliver (a fault at pc 0 in arm_sigdeliver:
     * irq.blocking); a pending one also makes nxsched_suspend ignore the
     * task's next stop. */
    static const struct sigaction ignore = {.sa_handler = SIG_IGN};
    (void)nxsig_action(SIGCONT, &ignore, NULL, false);
    t->entry(t->arg);
    /* The entry returned: the task ends here, its record is free again. */
    thread_release(t);
    return 0;
}

int rm_thread_create(rm_thread_t *out, const char *name, rm_entry_t entry,
                     void *arg, int prio, unsigned flags)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER || entry == NULL)
        return RM_ERROR;
    struct rm_thread *t = thread_alloc();
    if (t == NULL)
        return RM_ERROR;
    t->entry = entry;
    t->arg = arg;
    t->pid = 0;
    *out = t; /* before the task can run and look at it */
    char index[12];
    snprintf(index, sizeof index, "%u", (unsigned)(t - thread_slots));
    char *argv[] = {index, NULL};
    bool suspended = (flags & RM_THREAD_SUSPENDED) != 0u;
    sched_lock();
    int pid = nxtask_create(name, RM_NX_PRIO_BASE + prio, NULL, RM_NX_STACK,
                            thread_trampoline, argv, NULL);
    if (pid > 0) {
        t->pid = pid;
        t->tcb = nxsched_get_tcb(pid);
        if (suspended)
            nxsched_suspend(t->tcb); /* before its entry runs */
    }
    sched_unlock();
    if (pid <= 0) {
        *out = NULL;
        thread_release(t);
        return RM_ERROR;
    }
    return RM_OK;
}

int rm_thread_delete(rm_thread_t t)
{
    if (t == NULL || t->pid <= 0 || t->pid == nxsched_gettid())
        return RM_ERROR;
    int ret = nxtask_delete(t->pid);
    thread_release(t);
    return ret == 0 ? RM_OK : RM_ERROR;
}

int rm_thread_sleep(uint32_t ticks)
{
    nxsched_ticksleep(ticks);
    return RM_OK;
}

/* nxsched_abstick_sleep wakes at an absolute tick: drift-free. (A relative
 * sleep, nxsched_ticksleep or nxsig_clockwait, adds a tick to be sure of the
 * whole delay, which a periodic loop would accumulate.) */
int rm_thread_sleep_until(uint32_t *wake, uint32_t period)
{
    *wake += period;
    clock_t now = clock_systime_ticks();
    int32_t delay = (int32_t)(*wake - (uint32_t)now);
    if (delay > 0)
        nxsched_abstick_sleep(now + (clock_t)delay);
    return RM_OK;
}

rm_thread_t rm_thread_self(void)
{
    pid_t self = nxsched_gettid();
    for (uint32_t i = 0; i < RM_MAX_THREADS; i++) {
        if (thread_slots[i].pid == self)
            return &thread_slots[i];
    }
    return NULL;
}

int rm_thread_priority(rm_thread_t t)
{
    struct sched_param param;
    if (nxsched_get_param(t->pid, &param) != 0)
        return RM_ERROR;
    return param.sched_priority - RM_NX_PRIO_BASE;
}

int rm_thread_set_priority(rm_thread_t t, int prio)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER)
        return RM_ERROR;
    struct sched_param param = {.sched_priority = RM_NX_PRIO_BASE + prio};
    return nxsched_set_param(t->pid, &param) == 0 ? RM_OK : RM_ERROR;
}

uint32_t rm_tick_count(void)
{
    return (uint32_t)clock_systime_ticks();
}

uint32_t rm_tick_hz(void)
{
    return (uint32_t)TICK_PER_SEC;
}

/* ---- IPC objects (struct rm_obj and the calls: rm_port_inline.h) ----- */
static int queue_open(struct rm_obj *o)
{
    static unsigned serial;
    char name[24];
    snprintf(name, sizeof name, "/rm_mq%u", serial++);
    struct mq_attr attr = {.mq_maxmsg = RM_QUEUE_DEPTH, .mq_msgsize = RM_MSG_SIZE};
    if (file_mq_open(&o->h.mq.wait, name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr) < 0)
        return RM_ERROR;
    int ret = file_mq_open(&o->h.mq.nowait, name, O_RDWR | O_NONBLOCK);
    (void)file_mq_unlink(name); /* the queue lives while it is open */
    if (ret < 0) {
        (void)file_mq_close(&o->h.mq.wait);
        return RM_ERROR;
    }
    return RM_OK;
}

int rm_obj_create(rm_obj_t *out, rm_obj_kind_t kind, rm_thread_t owner,
                  uint32_t initial)
{
    (void)owner;
    struct rm_obj *o = kmm_zalloc(sizeof *o);
    if (o == NULL)
        return RM_ERROR;
    o->kind = kind;
    int ret = RM_OK;
    switch (kind) {
    case RM_OBJ_SEM:
        if (nxsem_init(&o->h.sem, 0, (int32_t)initial) != 0 ||
            nxsem_set_protocol(&o->h.sem, SEM_PRIO_NONE) != 0)
            ret = RM_ERROR;
        break;
    case RM_OBJ_MUTEX:
        ret = nxmutex_init(&o->h.mutex) == 0 ? RM_OK : RM_ERROR;
        break;
    case RM_OBJ_EVENT:
        nxevent_init(&o->h.event, initial != 0u ? 1u : 0u);
        break;
    case RM_OBJ_QUEUE:
        ret = queue_open(o);
        break;
    default:
        ret = RM_ENOTSUP;
        break;
    }
    if (ret != RM_OK) {
        kmm_free(o);
        return ret;
    }
    *out = o;
    return RM_OK;
}

int rm_obj_delete(rm_obj_t o)
{
    switch (o->kind) {
    case RM_OBJ_SEM:
        (void)nxsem_destroy(&o->h.sem);
        break;
    case RM_OBJ_MUTEX:
        (void)nxmutex_destroy(&o->h.mutex);
        break;
    case RM_OBJ_EVENT:
        (void)nxevent_destroy(&o->h.event);
        break;
    case RM_OBJ_QUEUE:
        (void)file_mq_close(&o->h.mq.nowait);
        (void)file_mq_close(&o->h.mq.wait);
        break;
    default:
        break;
    }
    kmm_free(o);
    return RM_OK;
}

/* ---- memory (alloc/free: rm_port_inline.h) ----------------------------- */
static void *pool_area_alloc(struct mempool_s *pool, size_t size)
{
    (void)pool;
    return kmm_malloc(size);
}

static void pool_area_free(struct mempool_s *pool, void *area)
{
    (void)pool;
    kmm_free(area);
}

/* mempool calls this on the next free block whenever it takes one (a hook
 * for heap-corruption checks, which it calls unconditionally): nothing to
 * check in a pool of its own area. */
static void pool_check(struct mempool_s *pool, void *block)
{
    (void)pool, (void)block;
}

int rm_pool_create(rm_pool_t *out, uint32_t block_size, uint32_t count)
{
    struct rm_pool *p = kmm_zalloc(sizeof *p);
    if (p == NULL)
        return RM_ERROR;
    p->pool.blocksize = block_size;
    /* count blocks and the header mempool_init takes from the same area
     * (MEMPOOL_HEADER_SIZE, private to mm/mempool/mempool.c). */
    p->pool.initialsize = MEMPOOL_REALBLOCKSIZE(&p->pool) * count + sizeof(sq_entry_t) +
                          CONFIG_MM_NODE_GUARDSIZE;
    p->pool.alloc = pool_area_alloc;
    p->pool.free = pool_area_free;
    p->pool.check = pool_check;
    if (mempool_init(&p->pool, "rtosmeter") != 0) {
        kmm_free(p);
        return RM_ERROR;
    }
    *out = p;
    return RM_OK;
}

/* ---- interrupts -------------------------------------------------------------- */
#ifdef CONFIG_ARCH_SIM
int rm_port_irq_connect(rm_isr_t isr)
{
    (void)isr;
    return RM_ENOTSUP;
}

uint32_t rm_port_caps(void)
{
    return RM_PORT_CAPS & ~(uint32_t)(RM_CAP_IRQ | RM_CAP_ISR_RESUME | RM_CAP_ISR_SIGNAL);
}

const char *rm_port_caps_note(void)
{
    return "NuttX's sim has no software-triggered interrupt line";
}
#else
#include "cm.h" /* rm_port_irq_enable/disable */

#ifdef CONFIG_ARCH_IDLE_CUSTOM
/* lowpower: NuttX's idle loop (nx_start) calls up_idle until something is
 * ready. An interrupt that readies a task switches to it on the way out of
 * arm_doirq, so WFI waits only while the system is idle. */
void up_idle(void)
{
    __asm volatile("dsb\n wfi" ::: "memory");
}
#endif

/* NVIC external interrupt n is NuttX interrupt NVIC_IRQ_FIRST (16) + n. */
#define RM_NX_IRQ(n) (16 + (int)(n))

static int idle_isr(int irq, void *context, void *arg)
{
    (void)irq, (void)context, (void)arg;
    return 0;
}

int rm_port_irq_connect(rm_isr_t isr)
{
    /* The case's handler takes no arguments: called with NuttX's three, it
     * ignores them (AAPCS), and irq_dispatch ignores its return value. */
    xcpt_t handler = isr != NULL ? (xcpt_t)isr : idle_isr;
    up_disable_irq(RM_NX_IRQ(RM_CM_BENCH_IRQ));
    if (irq_attach(RM_NX_IRQ(RM_CM_BENCH_IRQ), handler, NULL) != 0)
        return RM_ERROR;
    up_enable_irq(RM_NX_IRQ(RM_CM_BENCH_IRQ));
    return RM_OK;
}

void rm_target_irq_set_vector(void (*isr)(void))
{
    (void)rm_port_irq_connect(isr);
}

/* The target's NVIC calls, through NuttX: NuttX owns the NVIC (port.toml
 * owns_nvic; targets/common/cortex-m/cm.h). */
void rm_port_irq_enable(unsigned irq, unsigned prio)
{
    (void)prio;
    up_enable_irq(RM_NX_IRQ(irq));
}

void rm_port_irq_disable(unsigned irq)
{
    up_disable_irq(RM_NX_IRQ(irq));
}

void RM_Periodic_IRQHandler(void); /* targets/mps2/mps2.c */
static int periodic_isr(int irq, void *context, void *arg)
{
    (void)irq, (void)context, (void)arg;
    RM_Periodic_IRQHandler();
    return 0;
}

#ifdef RM_CM_LOAD_IRQ
void RM_Load_IRQHandler(void); /* targets/mps2/mps2.c: the load profiles' timer */
static int load_isr(int irq, void *context, void *arg)
{
    (void)irq, (void)context, (void)arg;
    RM_Load_IRQHandler();
    return 0;
}
#endif
#endif

/* ---- faults ------------------------------------------------------------------ */
static void write_str(const char *s)
{
    rm_target_write(s, strlen(s));
}

static int on_panic(struct notifier_block *nb, unsigned long action, void *data)
{
    (void)nb, (void)action;
    const struct panic_notifier_s *p = data;
    char line[24];
    write_str("\nNuttX panic: ");
    write_str(p->msg != NULL ? p->msg : "");
    write_str(" at ");
    write_str(p->filename != NULL ? p->filename : "?");
    snprintf(line, sizeof line, ":%d, task ", p->linenum);
    write_str(line);
#if CONFIG_TASK_NAME_SIZE > 0
    write_str(p->rtcb != NULL ? p->rtcb->name : "?");
#endif
    write_str("\n"); /* console noise the harness keeps */
    rm_fault_t f = {0};
#ifndef CONFIG_ARCH_SIM
    const uint32_t *regs = p->regs;
    if (regs != NULL) {
        f.pc = regs[REG_PC];
        f.lr = regs[REG_LR];
        f.psr = regs[REG_XPSR];
    }
    f.cfsr = *(volatile uint32_t *)0xE000ED28u;
    f.hfsr = *(volatile uint32_t *)0xE000ED2Cu;
#endif
    rm_report_fault(&f);
}

static struct notifier_block panic_block = {.notifier_call = on_panic};

/* ---- start-up and description ------------------------------------------ */
/* CONFIG_INIT_ENTRYPOINT: NuttX's init task, which ends once the runner runs. */
int rm_nuttx_main(int argc, char *argv[])
{
    (void)argc, (void)argv;
    thread_slots_init();
    panic_notifier_chain_register(&panic_block);
#ifndef CONFIG_ARCH_SIM
    (void)irq_attach(RM_NX_IRQ(RM_CM_BENCH_IRQ), idle_isr, NULL);
    (void)irq_attach(RM_NX_IRQ(RM_CM_PERIODIC_IRQ), periodic_isr, NULL);
#ifdef RM_CM_LOAD_IRQ
    (void)irq_attach(RM_NX_IRQ(RM_CM_LOAD_IRQ), load_isr, NULL);
#endif
#endif
    rm_target_init();
    rm_thread_t runner;
    if (rm_thread_create(&runner, "runner", rm_runner_main, NULL, RM_PRIO_RUNNER, 0) != RM_OK) {
        static const char msg[] = "FATAL: nxtask_create(runner) failed\n";
        rm_target_write(msg, sizeof msg - 1u);
        rm_target_exit(1);
    }
    return 0;
}

void rm_port_sched_lock(void)
{
    sched_lock();
}

void rm_port_sched_unlock(void)
{
    sched_unlock();
}

#define RM_STR_(x) #x
#define RM_STR(x) RM_STR_(x)

void rm_port_describe(void)
{
    rm_emit_cfg("kernel", "NuttX " CONFIG_VERSION_STRING);
    rm_emit_cfg("kernel_build", CONFIG_VERSION_BUILD);
    rm_emit_cfg("board", CONFIG_ARCH_BOARD);
    rm_emit_cfg("api", "NuttX kernel interfaces (nxtask, nxsem, nxmutex, nxevent, "
                       "file_mq, nxsig, mempool), flat build");
    rm_emit_cfg("preemption", "on");
#if CONFIG_RR_INTERVAL > 0
    rm_emit_cfg("time_slicing", "on (SCHED_RR, " RM_STR(CONFIG_RR_INTERVAL) " ms)");
#else
    rm_emit_cfg("time_slicing", "off (SCHED_FIFO)");
#endif
    rm_emit_cfg("priority_map", "RM_PRIO n = NuttX priority 100 + n (runner 131), init task 100");
#ifdef CONFIG_DEBUG_ASSERTIONS
    rm_emit_cfg("assertions", "on (CONFIG_DEBUG_ASSERTIONS)");
#else
    rm_emit_cfg("assertions", "off");
#endif
#ifdef CONFIG_STACK_COLORATION
    rm_emit_cfg("stack_coloration", "on");
#else
    rm_emit_cfg("stack_coloration", "off");
#endif
#ifdef CONFIG_SCHED_IRQMONITOR
    rm_emit_cfg("irq_monitor", "on");
#else
    rm_emit_cfg("irq_monitor", "off");
#endif
#ifdef CONFIG_DEBUG_SCHED
    rm_emit_cfg("sched_debug", "on");
#else
    rm_emit_cfg("sched_debug", "off");
#endif
    rm_emit_cfg_u32("tick_hz", (uint32_t)TICK_PER_SEC);
    rm_emit_cfg_u32("thread_stack_bytes", RM_NX_STACK);
    rm_emit_cfg("suspend", "nxsched_suspend / nxsig_kill SIGCONT (SIGCONT's action ignored: "
                           "it continues the task without a signal trampoline)");
    rm_emit_cfg("queue", "NuttX message queue, file_mq_send (O_NONBLOCK) / file_mq_receive");
    rm_emit_cfg("pool", "mm/mempool: mempool_allocate / mempool_release");
    rm_emit_cfg("heap", "kmm_malloc / kmm_free (mm_heap)");
#ifdef CONFIG_ARCH_SIM
    rm_emit_cfg("kernel_idle", "sim idle loop (host)");
#else
#ifdef CONFIG_ARCH_IDLE_CUSTOM
    rm_emit_cfg("kernel_idle", "idle loop, up_idle with WFI (CONFIG_ARCH_IDLE_CUSTOM), "
                               "1 kHz tick (no tickless on mps)");
#else
    rm_emit_cfg("kernel_idle", "arm_idle.c busy loop (no WFI)");
#endif
    rm_emit_cfg("systick_clock", "25 MHz (QEMU's mps2-an500; NuttX's board.h says 32 MHz)");
    rm_emit_cfg("irq_path", "irq_attach: vector -> arm_doirq -> irq_dispatch -> case handler");
#endif
    rm_emit_cfg("kernel_opt_flags", RM_STR(CONFIG_DEBUG_OPTLEVEL));
}
