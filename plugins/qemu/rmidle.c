/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * rmidle: where the guest sleeps. Every executed WFI is a sleep; it ends at
 * the next executed instruction (the wake-up), whose cause is the first
 * exception entered after it: its number read from IPSR where the API can
 * read registers (QEMU 9.0 on), else the vector whose handler starts the
 * block. Time awake is instructions << shift. Time asleep is the growth of
 * QEMU's icount bias across the sleep (under -icount sleep=off the bias
 * grows only by warps to the next timer deadline while every vCPU is
 * halted), read by one of three clocks (idleclock=, docs/qemu.md):
 *
 *   guard72  QEMU 7.2. It runs an expired periodic ptimer (SysTick, the
 *            CMSDK timers) by re-arming it first and raising its interrupt
 *            after (ptimer_transaction_commit). The re-arm's timer_mod_ns
 *            calls icount_start_warp_timer while the halted vCPU has no work
 *            yet, so virtual time warps a second time, to the next period,
 *            before the vCPU wakes: a 10 ms sleep lasted 20 ms. rmidle arms
 *            a timer of its own at the earliest pending deadline when the
 *            guest executes WFI. Timers of equal expiry run in insertion
 *            order, so it is still pending while the device's timer re-arms:
 *            the deadline that warp computes is 0 and it does not warp. It
 *            then expires doing nothing. The bias is read from 7.2's
 *            TimersState. Four QEMU symbols and two private layouts, checked
 *            at start and at first use.
 *   discon   QEMU 10.1 on: the discontinuity callbacks (every interrupt,
 *            exception and host call) run between blocks, where QEMU's
 *            exported qemu_clock_get_ns may read the virtual clock; the bias
 *            is that less our own instruction count << shift. It changes
 *            only while halted, so it is read at the interrupt that ends a
 *            sleep, or, for a sleep that ends with interrupts masked (a
 *            tickless idle), at the next exception or interrupt; the sleep
 *            counts in the windows open then.
 *   none     any other QEMU: no way to read virtual time; wake-ups, causes
 *            and instructions are counted, asleep time is not ("clock":
 *            "none" and the reason in the summary).
 *
 * A clock that cannot start falls back to none with its reason: idle never
 * stops a run. DBG #1 opens a window, DBG #2 closes it; the whole run is
 * window 0. In the windows DBG #1 opens, every exception entered is counted
 * too (a spinning idle takes its ticks without sleeping). Only a handler's
 * first block and the block after a WFI carry a callback (rm_idle_translate).
 */
#define _GNU_SOURCE
#include "rmidle.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WINDOWS 64
#define N_VECTORS 64 /* 16 system exceptions + 48 interrupts: the MPS2 NVIC lines used */
#define CLOCK_VIRTUAL 1

/* QEMU 7.2's private layouts (softmmu/timers-state.h, util/qemu-timer.c). */
#define TS_SHIFT 26   /* int16_t icount_time_shift */
#define TS_BIAS 40    /* int64_t qemu_icount_bias */
#define TL_LOCK 8     /* QEMUTimerList.active_timers_lock (pthread mutex first) */
#define TL_ACTIVE 56  /* QEMUTimerList.active_timers */
typedef struct qtimer { /* include/qemu/timer.h QEMUTimer */
    int64_t expire_time;
    void *timer_list;
    void (*cb)(void *);
    void *opaque;
    struct qtimer *next;
    int attributes, scale;
} qtimer_t;

typedef void (*timer_init_full_fn)(qtimer_t *, void *, int, int, int, void (*)(void *), void *);
typedef void (*timer_mod_ns_fn)(qtimer_t *, int64_t);
typedef int64_t (*clock_get_ns_fn)(int);

enum clock { CLOCK_NONE, CLOCK_GUARD72, CLOCK_DISCON };
static const char *const clock_names[] = {"none", "guard72", "discon"};

static struct {
    bool on;
    unsigned shift;
    enum clock clock;
    char why[300];               /* why the clock is none ("" when asked for none) */
    clock_get_ns_fn clock_get_ns; /* discon */
    int64_t last_bias;           /* discon: the bias at the last interrupt */
    const volatile char *ts;     /* timers_state */
    void *const *tlg;            /* main_loop_tlg: QEMUTimerList *tl[] */
    timer_mod_ns_fn timer_mod_ns;
    qtimer_t guard;
    const uint32_t *vectors;     /* host view of the guest's table at 0, once known */
} q;

typedef struct window {
    uint64_t insns0, asleep, wakeups, causes[N_VECTORS + 1]; /* [N_VECTORS]: unknown */
    uint64_t entries[N_VECTORS]; /* exceptions entered (windows 1..: asleep or not) */
    uint64_t insns; /* at close */
    bool open, closed;
} window_t;

static window_t windows[MAX_WINDOWS];
static unsigned n_windows = 1u; /* window 0: the whole run */
static unsigned n_open_cases;   /* windows 1.. open now: entries are counted then */

/* Sleep state (one vCPU: TCG under -icount is single-threaded). */
static bool asleep, awaiting_cause;

/* guard72: the bias now. discon: the bias at the last interrupt taken,
 * which is the bias now while the guest is awake. */
static int64_t bias(void)
{
    if (q.clock == CLOCK_GUARD72)
        return *(const volatile int64_t *)(q.ts + TS_BIAS);
    return q.last_bias;
}

static void guard_expired(void *opaque)
{
    (void)opaque; /* its being pending was its job */
}

static bool no_clock(const char *why)
{
    snprintf(q.why, sizeof q.why, "%s", why);
    q.clock = CLOCK_NONE;
    return false;
}

static bool start_guard72(unsigned shift)
{
    q.ts = dlsym(RTLD_DEFAULT, "timers_state");
    q.tlg = dlsym(RTLD_DEFAULT, "main_loop_tlg");
    timer_init_full_fn init = (timer_init_full_fn)dlsym(RTLD_DEFAULT, "timer_init_full");
    q.timer_mod_ns = (timer_mod_ns_fn)dlsym(RTLD_DEFAULT, "timer_mod_ns");
    if (q.ts == NULL || q.tlg == NULL || init == NULL || q.timer_mod_ns == NULL)
        return no_clock("this QEMU does not export timers_state, main_loop_tlg, "
                        "timer_init_full and timer_mod_ns (Debian's 7.2 does)");
    int16_t got = *(const volatile int16_t *)(q.ts + TS_SHIFT);
    if (got != (int16_t)shift)
        return no_clock("the icount shift in this QEMU's TimersState does not read as "
                        "-icount's: its layout is not 7.2's");
    init(&q.guard, NULL, CLOCK_VIRTUAL, 1 /* SCALE_NS */, 0, guard_expired, NULL);
    return true;
}

static void on_interrupt(void)
{
    int64_t b = q.clock_get_ns(CLOCK_VIRTUAL) - (int64_t)(rm_counts()->insns << q.shift);
    q.last_bias = b > q.last_bias ? b : q.last_bias;
}

static bool start_discon(qemu_plugin_id_t id)
{
    q.clock_get_ns = (clock_get_ns_fn)dlsym(RTLD_DEFAULT, "qemu_clock_get_ns");
    if (q.clock_get_ns == NULL)
        return no_clock("this QEMU does not export qemu_clock_get_ns");
    if (!rm_on_interrupt(id, on_interrupt))
        return no_clock("this QEMU has no discontinuity callbacks (QEMU 10.1 on)");
    return true;
}

bool rm_idle_init(qemu_plugin_id_t id, unsigned shift, const char *clock)
{
    q.shift = shift;
    q.on = true;
    windows[0].open = true;
    if (strcmp(clock, "guard72") == 0) {
        q.clock = start_guard72(shift) ? CLOCK_GUARD72 : CLOCK_NONE;
    } else if (strcmp(clock, "discon") == 0) {
        q.clock = start_discon(id) ? CLOCK_DISCON : CLOCK_NONE;
    } else if (strcmp(clock, "none") == 0) {
        q.clock = CLOCK_NONE;
    } else {
        return false;
    }
    return true;
}

/* The earliest pending virtual-clock deadline other than ours; -1: none. */
static int64_t earliest_deadline(void)
{
    char *tl = q.tlg[CLOCK_VIRTUAL];
    pthread_mutex_t *lock = (pthread_mutex_t *)(void *)(tl + TL_LOCK);
    int64_t at = -1;
    pthread_mutex_lock(lock);
    for (qtimer_t *t = *(qtimer_t **)(void *)(tl + TL_ACTIVE); t != NULL; t = t->next) {
        if (t->timer_list != tl) {
            fputs("Error: rmcycles plugin: QEMU's timer list is not laid out as in 7.2\n",
                  stderr);
            abort();
        }
        if (t != &q.guard) {
            at = t->expire_time;
            break;
        }
    }
    pthread_mutex_unlock(lock);
    return at;
}

static void woke(void);
static void account_asleep(void);
static int64_t accounted;

static void on_wfi(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    (void)udata;
    if (asleep) /* the last sleep ended without a block we watch (no exception yet) */
        woke();
    if (q.clock == CLOCK_GUARD72) {
        int64_t at = earliest_deadline();
        if (at >= 0)
            q.timer_mod_ns(&q.guard, at); /* pending through the expiry at `at` */
    }
    if (q.clock == CLOCK_GUARD72)
        accounted = bias(); /* a sleep is the bias's growth from here to the wake-up */
    else
        account_asleep();
    asleep = true;
    awaiting_cause = false;
}

/* The exception whose vector is addr. A handler that several vectors share
 * cannot say which one was taken: it reads as the first of them, the
 * interrupts (16..) before the system exceptions, so that a kernel entering
 * SysTick and every IRQ through one handler (NuttX's exception_common) reads
 * "interrupt", not "tick". */
static unsigned vector_of(uint32_t addr)
{
    if (q.vectors == NULL)
        return N_VECTORS;
    for (unsigned k = 0u; k < N_VECTORS - 2u; k++) {
        unsigned i = k < N_VECTORS - 16u ? 16u + k : 2u + k - (N_VECTORS - 16u);
        if ((q.vectors[i] & ~1u) == addr && q.vectors[i] != 0u)
            return i;
    }
    return N_VECTORS;
}

/* Time asleep since the last account, to the windows open now. guard72
 * accounts at each wake-up. discon reads the bias at the discontinuity that
 * ends a sleep, which comes before the wake-up's block or, when the sleep
 * ends with interrupts masked (a tickless idle), after it (RTX5's
 * osKernelResume is an SVC): so it accounts at the wake-up and at each
 * exception entered. */
static void account_asleep(void)
{
    if (q.clock == CLOCK_NONE)
        return;
    int64_t now = bias();
    uint64_t slept = (uint64_t)(now - accounted);
    accounted = now;
    for (unsigned w = 0; slept && w < n_windows; w++)
        if (windows[w].open)
            windows[w].asleep += slept;
}

/* The sleep begun at the last WFI has ended. */
static void woke(void)
{
    account_asleep();
    for (unsigned w = 0; w < n_windows; w++)
        if (windows[w].open)
            windows[w].wakeups++;
    asleep = false;
    awaiting_cause = true;
}

/* The exception whose handler starts at addr: IPSR where it can be read
 * (the block's callback then reads registers), else by address. */
static unsigned exception_at(uint32_t addr)
{
    int ipsr = rm_exception_number();
    if (ipsr > 0 && ipsr < (int)N_VECTORS && vector_of(addr) < N_VECTORS)
        return (unsigned)ipsr;
    return vector_of(addr);
}

static void on_block(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    uint32_t addr = (uint32_t)(uintptr_t)udata;
    if (asleep)
        woke();
    else if (q.clock == CLOCK_DISCON)
        account_asleep(); /* a sleep that ended masked: its interrupt now */
    if (n_open_cases > 0u) { /* a case's window: every exception entered, by vector */
        unsigned v = exception_at(addr);
        for (unsigned w = 1u; v < N_VECTORS && w < n_windows; w++)
            if (windows[w].open)
                windows[w].entries[v]++;
    }
    if (awaiting_cause) {
        unsigned v = exception_at(addr);
        if (v < N_VECTORS) {
            for (unsigned w = 0; w < n_windows; w++)
                if (windows[w].open)
                    windows[w].causes[v]++;
            awaiting_cause = false;
        }
    }
}

static void on_window(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    if (udata != NULL) { /* DBG #1: open the next window */
        if (n_windows < MAX_WINDOWS) {
            windows[n_windows].open = true;
            windows[n_windows].insns0 = rm_counts()->insns;
            n_windows++;
            n_open_cases++;
        }
        return;
    }
    for (unsigned w = n_windows; w-- > 1u;) /* DBG #2: close the innermost open one */
        if (windows[w].open) {
            windows[w].open = false;
            windows[w].closed = true;
            n_open_cases--;
            windows[w].insns = rm_counts()->insns - windows[w].insns0;
            return;
        }
}

/* Addresses right after a WFI: the block there is where a wake-up with
 * interrupts masked (a tickless idle's) resumes. */
#define MAX_WFI 64
static uint32_t after_wfi[MAX_WFI];
static unsigned n_after_wfi;

static bool is_after_wfi(uint32_t addr)
{
    for (unsigned i = 0; i < n_after_wfi; i++)
        if (after_wfi[i] == addr)
            return true;
    return false;
}

/* Only blocks that can be a wake-up need the block callback: a handler's
 * first block (an exception entered) and the block after a WFI. Counting
 * is then nearly free for firmware that never sleeps. */
void rm_idle_translate(struct qemu_plugin_tb *tb)
{
    if (!q.on)
        return;
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);
        uint32_t addr = (uint32_t)qemu_plugin_insn_vaddr(qi);
        uint8_t b[4];
        rm_insn_bytes(qi, b);
        uint16_t hw1 = (uint16_t)(b[0] | b[1] << 8);
        uint16_t hw2 = (uint16_t)(b[2] | b[3] << 8); /* 0 for a 16-bit instruction */
        if (q.vectors == NULL && addr < 0x400000u) { /* the code block holds the table at 0 */
            uint8_t *h = qemu_plugin_insn_haddr(qi);
            if (h != NULL)
                q.vectors = (const uint32_t *)(const void *)(h - addr);
        }
        if (i == 0u && (vector_of(addr) < N_VECTORS || is_after_wfi(addr)))
            qemu_plugin_register_vcpu_insn_exec_cb(
                qi, on_block, rm_can_read_ipsr() ? QEMU_PLUGIN_CB_R_REGS : QEMU_PLUGIN_CB_NO_REGS,
                (void *)(uintptr_t)addr);
        if (hw1 == 0xBF30u || (hw1 == 0xF3AFu && hw2 == 0x8003u)) { /* WFI, WFI.W */
            qemu_plugin_register_vcpu_insn_exec_cb(qi, on_wfi, QEMU_PLUGIN_CB_NO_REGS, NULL);
            uint32_t next = addr + (hw1 == 0xBF30u ? 2u : 4u);
            if (!is_after_wfi(next)) {
                if (n_after_wfi == MAX_WFI) {
                    fputs("Error: rmcycles plugin: more than 64 WFI instructions\n", stderr);
                    abort();
                }
                after_wfi[n_after_wfi++] = next;
            }
        }
        if (hw1 == 0xF3AFu && (hw2 == 0x80F1u || hw2 == 0x80F2u)) /* DBG #1, DBG #2 */
            qemu_plugin_register_vcpu_insn_exec_cb(qi, on_window, QEMU_PLUGIN_CB_NO_REGS,
                                                   hw2 == 0x80F1u ? (void *)1 : NULL);
    }
}

void rm_idle_write(FILE *f)
{
    if (!q.on)
        return;
    uint64_t now = rm_counts()->insns;
    windows[0].insns = now;
    fprintf(f, ", \"idle\": {\"shift\": %u, \"clock\": \"%s\", \"why\": \"%s\", "
               "\"causes_by\": \"%s\", \"windows\": [",
            q.shift, clock_names[q.clock], q.why, rm_can_read_ipsr() ? "ipsr" : "address");
    for (unsigned w = 0; w < n_windows; w++) {
        const window_t *x = &windows[w];
        uint64_t insns = x->closed || w == 0u ? x->insns : now - x->insns0;
        fprintf(f, "%s{\"closed\": %s, \"instructions\": %" PRIu64 ", \"asleep_ns\": ",
                w ? ", " : "", x->closed || w == 0u ? "true" : "false", insns);
        if (q.clock == CLOCK_NONE)
            fputs("null", f);
        else
            fprintf(f, "%" PRIu64, x->asleep);
        fprintf(f, ", \"wakeups\": %" PRIu64 ", \"causes\": {", x->wakeups);
        const char *sep = "";
        for (unsigned v = 0; v <= N_VECTORS; v++)
            if (x->causes[v]) {
                fprintf(f, "%s\"%d\": %" PRIu64, sep, v < N_VECTORS ? (int)v : -1, x->causes[v]);
                sep = ", ";
            }
        fputs("}, \"entries\": {", f);
        sep = "";
        for (unsigned v = 0; v < N_VECTORS; v++)
            if (x->entries[v]) {
                fprintf(f, "%s\"%u\": %" PRIu64, sep, v, x->entries[v]);
                sep = ", ";
            }
        fputs("}}", f);
    }
    fputs("]}", f);
}
