/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * rmidle: where the guest sleeps. Every executed WFI is a sleep; it ends at
 * the next executed instruction (the wake-up), whose cause is the first
 * exception entered after it (a block starting at a vector of the table at
 * address 0). Time asleep is the growth of QEMU's icount bias across the
 * sleep (under -icount sleep=off the bias grows only by warps to the next
 * timer deadline while every vCPU is halted); time awake is instructions <<
 * shift. DBG #1 opens a window, DBG #2 closes it; the whole run is window 0.
 * In the windows DBG #1 opens, every exception entered is counted too (a
 * spinning idle takes its ticks without sleeping). Only a handler's first
 * block and the block after a WFI carry a callback (see rm_idle_translate).
 *
 * Exact sleep (docs/idle.md): QEMU 7.2 runs an expired periodic ptimer
 * (SysTick, the CMSDK timers) by re-arming it first and raising its
 * interrupt after (ptimer_transaction_commit). The re-arm's timer_mod_ns
 * calls icount_start_warp_timer while the halted vCPU has no work yet, so
 * virtual time warps a second time, to the next period, before the vCPU
 * wakes: every WFI sleep lasted one period too long (a 10 ms sleep 20 ms).
 * rmidle arms a timer of its own at the earliest pending deadline when the
 * guest executes WFI. Timers of equal expiry run in insertion order, so it
 * is still pending while the device's timer re-arms: the deadline that warp
 * computes is 0 and it does not warp. It then expires doing nothing.
 * That needs four QEMU symbols (dynamic exports of the Debian build) and two
 * private layouts, checked at start and at first use; any mismatch is an
 * error, never a silent inexact figure.
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

static struct {
    bool on;
    unsigned shift;
    const volatile char *ts;     /* timers_state */
    void *const *tlg;            /* main_loop_tlg: QEMUTimerList *tl[] */
    timer_mod_ns_fn timer_mod_ns;
    qtimer_t guard;
    const uint64_t *n_insns;
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
static int64_t bias_at_wfi;

static int64_t bias(void)
{
    return *(const volatile int64_t *)(q.ts + TS_BIAS);
}

static void guard_expired(void *opaque)
{
    (void)opaque; /* its being pending was its job */
}

bool rm_idle_init(unsigned shift)
{
    q.ts = dlsym(RTLD_DEFAULT, "timers_state");
    q.tlg = dlsym(RTLD_DEFAULT, "main_loop_tlg");
    timer_init_full_fn init = (timer_init_full_fn)dlsym(RTLD_DEFAULT, "timer_init_full");
    q.timer_mod_ns = (timer_mod_ns_fn)dlsym(RTLD_DEFAULT, "timer_mod_ns");
    if (q.ts == NULL || q.tlg == NULL || init == NULL || q.timer_mod_ns == NULL) {
        fputs("Error: rmcycles plugin: idle= needs QEMU 7.2's timers_state, main_loop_tlg, "
              "timer_init_full and timer_mod_ns among its dynamic symbols (Debian's "
              "qemu-system-arm exports them)\n", stderr);
        return false;
    }
    int16_t got = *(const volatile int16_t *)(q.ts + TS_SHIFT);
    if (got != (int16_t)shift) {
        fprintf(stderr, "Error: rmcycles plugin: idle=%u but QEMU's icount shift reads %d: "
                        "this QEMU's TimersState is not 7.2's, or -icount has another shift\n",
                shift, got);
        return false;
    }
    init(&q.guard, NULL, CLOCK_VIRTUAL, 1 /* SCALE_NS */, 0, guard_expired, NULL);
    q.shift = shift;
    q.on = true;
    windows[0].open = true;
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

static void on_wfi(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    (void)udata;
    if (asleep) /* the last sleep ended without a block we watch (no exception yet) */
        woke();
    int64_t at = earliest_deadline();
    if (at >= 0)
        q.timer_mod_ns(&q.guard, at); /* pending through the expiry at `at` */
    bias_at_wfi = bias();
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

/* The sleep begun at the last WFI has ended. */
static void woke(void)
{
    uint64_t slept = (uint64_t)(bias() - bias_at_wfi);
    for (unsigned w = 0; w < n_windows; w++)
        if (windows[w].open) {
            windows[w].asleep += slept;
            windows[w].wakeups++;
        }
    asleep = false;
    awaiting_cause = true;
}

static void on_block(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    uint32_t addr = (uint32_t)(uintptr_t)udata;
    if (asleep)
        woke();
    if (n_open_cases > 0u) { /* a case's window: every exception entered, by vector */
        unsigned v = vector_of(addr);
        for (unsigned w = 1u; v < N_VECTORS && w < n_windows; w++)
            if (windows[w].open)
                windows[w].entries[v]++;
    }
    if (awaiting_cause) {
        unsigned v = vector_of(addr);
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
            windows[n_windows].insns0 = *q.n_insns;
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
            windows[w].insns = *q.n_insns - windows[w].insns0;
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
void rm_idle_translate(struct qemu_plugin_tb *tb, const uint64_t *n_insns)
{
    if (!q.on)
        return;
    q.n_insns = n_insns;
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);
        uint32_t addr = (uint32_t)qemu_plugin_insn_vaddr(qi);
        const uint8_t *b = qemu_plugin_insn_data(qi);
        uint16_t hw1 = (uint16_t)(b[0] | b[1] << 8);
        uint16_t hw2 = qemu_plugin_insn_size(qi) >= 4u ? (uint16_t)(b[2] | b[3] << 8) : 0u;
        if (q.vectors == NULL && addr < 0x400000u) { /* the code block holds the table at 0 */
            uint8_t *h = qemu_plugin_insn_haddr(qi);
            if (h != NULL)
                q.vectors = (const uint32_t *)(const void *)(h - addr);
        }
        if (i == 0u && (vector_of(addr) < N_VECTORS || is_after_wfi(addr)))
            qemu_plugin_register_vcpu_insn_exec_cb(qi, on_block, QEMU_PLUGIN_CB_NO_REGS,
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
    windows[0].insns = *q.n_insns;
    fprintf(f, ", \"idle\": {\"shift\": %u, \"windows\": [", q.shift);
    for (unsigned w = 0; w < n_windows; w++) {
        const window_t *x = &windows[w];
        uint64_t insns = x->closed || w == 0u ? x->insns : *q.n_insns - x->insns0;
        fprintf(f, "%s{\"closed\": %s, \"instructions\": %" PRIu64 ", \"asleep_ns\": %" PRIu64
                   ", \"wakeups\": %" PRIu64 ", \"causes\": {",
                w ? ", " : "", x->closed || w == 0u ? "true" : "false", insns, x->asleep,
                x->wakeups);
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
