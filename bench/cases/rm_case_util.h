/* Helpers shared by the benchmark case files (static inline: each group is
 * its own firmware and includes only what it uses).
 *
 * Conventions of every case:
 * - The runner (RM_PRIO_RUNNER, the most urgent thread) creates the case's
 *   threads and objects, waits in rm_case_wait_done(), then deletes them.
 *   No case thread runs before the runner waits, so set-up order is free
 *   (a thread may be created before the object it uses).
 * - Case threads never return: they end parked (suspended forever), the one
 *   that finishes calling rm_case_done() first. Latency loops test a `stop`
 *   flag outside their measured intervals so a thread the runner is about
 *   to delete parks instead of spinning (on POSIX a delete completes at the
 *   thread's next blocking call); Thread-Metric loops have none and are
 *   stopped with rm_stop_threads.
 * What ports must provide for this is listed in rtosmeter/port.h.
 */
#ifndef RTOSMETER_CASE_UTIL_H
#define RTOSMETER_CASE_UTIL_H

#include "rtosmeter/bench.h"
#include "rtosmeter/tm_porting_layer.h"

/* Makes v look redefined at this point. A measured call is timed as
 *     t0 = rm_ts(); raw = rm_<call>_raw(...); t1 = rm_ts(); RM_SETTLE_RAW(raw);
 *     rc = rm_<call>_rc(raw ...);
 * so that its status translation (a compare and a select) cannot be hoisted
 * above the closing read into the interval (port.h); a case tests rc before
 * the next interval starts, so that the test cannot sink into it either. */
#define RM_SETTLE(v) __asm volatile("" : "+r"(v))

/* RM_SETTLE for what a measured call returned (its raw status), which is in
 * the ABI's return register: kept there up to this point, so that the
 * register allocator does not copy it elsewhere between the call and the
 * closing timestamp (one `mov` inside the interval). Where the return
 * register is not named here, RM_SETTLE. */
#if defined(__arm__)
#define RM_RET_REG "r0"
#elif defined(__x86_64__)
#define RM_RET_REG "rax"
#elif defined(__i386__)
#define RM_RET_REG "eax"
#endif
#ifdef RM_RET_REG
#define RM_SETTLE_RAW(raw)                                                 \
    do {                                                                   \
        register __typeof__(raw) rm_ret_ __asm__(RM_RET_REG) = (raw);      \
        __asm volatile("" : "+r"(rm_ret_));                                \
        (raw) = rm_ret_;                                                   \
    } while (0)
#else
#define RM_SETTLE_RAW(raw) RM_SETTLE(raw)
#endif

/* Suspend forever (a parked thread is deleted by the runner). */
static inline void rm_park(void)
{
    for (;;) {
        (void)rm_thread_suspend(rm_thread_self());
    }
}

/* Tell the runner the case is over, then park. */
static inline void rm_finish(void)
{
    rm_case_done();
    rm_park();
}

/* Threads a case created, deleted in array order (NULLs are skipped). Put a
 * thread that resumes or signals others before them in the array: on POSIX
 * a thread may still run up to its next blocking call while being deleted. */
static inline void rm_delete_threads(rm_thread_t *t, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (t[i] != NULL) {
            if (rm_thread_delete(t[i]) != RM_OK) {
                rm_fail("rm_thread_delete failed");
            }
            t[i] = NULL;
        }
    }
}

/* Stop threads that loop for ever (Thread-Metric's loops carry no stop
 * flag: it would cost a load and a branch per iteration): suspend each one
 * (the runner is the most urgent thread, so none runs in between), let a
 * tick pass so that every suspension has taken effect, then delete them.
 * This parks a thread that spins in calls without a cancellation point
 * before it is deleted (the POSIX port suspends with a signal and deletes
 * with pthread_cancel; both pending at once, the suspension would never
 * see the cancellation). */
static inline void rm_stop_threads(rm_thread_t *t, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (t[i] != NULL) {
            (void)rm_thread_suspend(t[i]);
        }
    }
    (void)rm_thread_sleep(1u);
    rm_delete_threads(t, n);
}

/* Cases built on yielding to an equal-priority thread first ask whether
 * the port has a yield: the runner is alone at its priority, so its yield
 * does nothing where there is one, and returns RM_ENOTSUP where the kernel
 * has none (uC/OS-II: one task per priority). Then the case is unsupported,
 * with the reason, instead of a number from threads that never switch
 * (lat.yield, tm.cooperative, irq.blocking, whose hammers take turns). */
static inline bool rm_yield_supported(void)
{
    if (rm_thread_yield() == RM_ENOTSUP) {
        rm_unsupported("the port has no yield: rm_thread_yield is RM_ENOTSUP "
                       "(no equal-priority threads in the kernel)");
        return false;
    }
    return true;
}

/* Whether the port honours every capability of `need` in this run (what
 * port.toml declares, less what rm_port_caps() withdrew): for a case that
 * picks a body, or skips a part, by capability, never by port name. */
static inline bool rm_has_caps(uint32_t need)
{
    return (rm_port_caps() & (uint32_t)(RM_PORT_CAPS) & need) == need;
}

static inline void rm_delete_obj(rm_obj_t *o)
{
    if (*o != NULL) {
        (void)rm_obj_delete(*o);
        *o = NULL;
    }
}

/* ---- throughput (Thread-Metric style) ---------------------------------- */
#define RM_TM_MAX_THREADS 5u

/* The reporter: the runner sleeps RM_TM_PERIOD_MS (rm_tm_period_ticks()
 * kernel ticks, through the porting layer's tm_thread_sleep_ticks, as
 * Thread-Metric's reporter calls tm_thread_sleep) per period and snapshots `n` counters at each period end;
 * after the last period it emits their per-period increments (`total` and
 * t0..t<n-1>). Leaves the final (cumulative) values in `final`, and the
 * values of the `n_extra` uncounted counters (handler counts...) read at the
 * same moment in `extra_final`.
 * Every period is the same: it starts on a tick boundary (a sleep of n ticks
 * ends at the n-th tick from now, so a period begun mid-tick would be short
 * by up to a tick: 10 % of 100 ms at 100 Hz), and the runner writes nothing
 * until the end (a record written between periods would take its time from
 * the next one). To reach the boundary the runner spins on the tick count
 * before the case's threads have run (it is the most urgent thread), so the
 * runner wakes the same number of times as there are periods. */
/* Whether the timestamp is a clock: false for a counter of estimated cycles
 * (the QEMU plugin, --unit cycles, RM_TS_IS_TIME 0), whose rate varies with
 * the code. Cases that derive expected times from RM_TS_HZ need a clock. */
static inline bool rm_ts_is_clock(void)
{
#if defined(RM_TS_IS_TIME) && !RM_TS_IS_TIME
    return false;
#else
    return true;
#endif
}

/* Under a cycle counter the target's timers and the kernel's tick still run
 * in emulated time; only the counter is estimated. A case driven by a timer
 * or the tick keeps its periods in emulated time (that is what raises the
 * events) and gives what it reports in estimated time by measuring, with the
 * counter, the cycles its periods actually took, as the Thread-Metric
 * reporter below does: never by taking RM_TS_HZ cycles per second of
 * emulated time (the cycles in a second of emulated time are its
 * instructions times the code's cycles per instruction: two to three times
 * RM_TS_HZ at the nominal rate, a third to a half of the board's clock
 * under --as-board). A timestamp period p
 * given to rm_target_periodic_start is p / RM_TS_HZ seconds of emulated
 * time on every target. A case that counts a timer's expiries counts them
 * in the target's own time (rm_target_vtime), this many of its units a
 * timestamp period `ts` of emulated time spans: */
static inline uint32_t rm_vtime_of(uint32_t ts)
{
    return (uint32_t)((uint64_t)ts * rm_target_vtime_hz() / (uint32_t)(RM_TS_HZ));
}

#define RM_TS_NO_VTIME                                                                     \
    "the timestamp counts estimated cycles (--unit cycles) and the target has no clock "   \
    "of its own time (rm_target_vtime) to count the timer's events in"

/* Under --unit cycles (the timestamp counts estimated cycles, not time), a
 * period is RM_TM_PERIOD_MS of estimated time: RM_TS_HZ * RM_TM_PERIOD_MS /
 * 1000 cycles of the counter (RM_TS_HZ: the board's clock with --as-board,
 * else one cycle per instruction's virtual time), not the kernel ticks of
 * emulated time. The reporter sleeps in ticks (the only way a thread sleeps)
 * until the counter has advanced that far: first half the period's ticks,
 * then as many as the cycles per tick seen so far predict, one short, then
 * one at a time. It returns the cycles the period took (at most a tick's
 * worth over), by which each count is scaled back to the period. */
#define RM_TM_PERIOD_TS ((uint32_t)((uint64_t)(RM_TS_HZ) * (RM_TM_PERIOD_MS) / 1000u))

static inline uint32_t rm_tm_sleep_cycles(uint32_t ticks)
{
    uint32_t want = RM_TM_PERIOD_TS, t0 = rm_ts(), spent = 0u;
    uint32_t n = ticks > 1u ? ticks / 2u : 1u;
    while (spent < want) {
        uint32_t s0 = rm_ts();
        tm_thread_sleep_ticks(n);
        uint32_t per_tick = (rm_ts() - s0) / n;
        spent = rm_ts() - t0;
        n = (spent < want && per_tick != 0u) ? (want - spent) / per_tick : 1u;
        n = n > 1u ? n - 1u : 1u;
    }
    return spent;
}

static inline uint32_t rm_tm_scaled(uint32_t count, uint32_t spent)
{
    return (uint32_t)(((uint64_t)count * RM_TM_PERIOD_TS + spent / 2u) / spent);
}

static inline void rm_tm_report_ex(volatile uint32_t *counters, unsigned n,
                                   uint32_t *final, volatile uint32_t *const *extra,
                                   unsigned n_extra, uint32_t *extra_final)
{
    static const char *const names[RM_TM_MAX_THREADS] = {"t0", "t1", "t2", "t3", "t4"};
    static uint32_t snap[RM_TM_PERIODS][RM_TM_MAX_THREADS];
    static uint32_t spent[RM_TM_PERIODS]; /* cycles each period took (estimated cycles) */
    uint32_t ticks = rm_tm_period_ticks();
    uint32_t tick0 = rm_tick_count(), ts0 = rm_ts();
    while (rm_tick_count() == tick0 && rm_ts() - ts0 < (uint32_t)(RM_TS_HZ)) {
        /* at most a second of the counter: a port whose tick stands still */
    }
    uint32_t last[RM_TM_MAX_THREADS];
    for (unsigned i = 0; i < n; i++) {
        last[i] = counters[i]; /* 0 unless a case thread ran before the reporter */
    }
    for (uint32_t p = 0; p < (uint32_t)(RM_TM_PERIODS); p++) {
        if (rm_ts_is_clock()) {
            tm_thread_sleep_ticks(ticks);
        } else {
            spent[p] = rm_tm_sleep_cycles(ticks);
        }
        for (unsigned i = 0; i < n; i++) {
            snap[p][i] = counters[i]; /* the runner preempts all: a consistent cut */
        }
        for (unsigned i = 0; i < n_extra; i++) {
            extra_final[i] = *extra[i];
        }
    }
    for (uint32_t p = 0; p < (uint32_t)(RM_TM_PERIODS); p++) {
        uint32_t total = 0u, counts[RM_TM_MAX_THREADS];
        for (unsigned i = 0; i < n; i++) {
            counts[i] = snap[p][i] - last[i];
            if (!rm_ts_is_clock()) {
                counts[i] = rm_tm_scaled(counts[i], spent[p]);
            }
            total += counts[i];
        }
        rm_count("total", p + 1u, total);
        for (unsigned i = 0; i < n; i++) {
            if (n > 1u) { /* with one thread, "total" is its count */
                rm_count(names[i], p + 1u, counts[i]);
            }
            last[i] = snap[p][i];
        }
    }
    for (unsigned i = 0; i < n; i++) {
        final[i] = last[i];
    }
}

static inline void rm_tm_report(volatile uint32_t *counters, unsigned n, uint32_t *final)
{
    rm_tm_report_ex(counters, n, final, NULL, 0u, NULL);
}

/* CHECK that every counter is within 1 of their mean, the way Thread-Metric
 * checks it (tm_cooperative_scheduling_test.c): the mean is the integer
 * average, and each counter must lie in [average - 1, average + 1].
 * got = the largest deviation from that average. */
static inline void rm_tm_check_within_1(const char *name, const uint32_t *c, unsigned n)
{
    uint64_t sum = 0u;
    for (unsigned i = 0; i < n; i++) {
        sum += c[i];
    }
    uint64_t average = sum / n;
    uint64_t worst = 0u;
    for (unsigned i = 0; i < n; i++) {
        uint64_t d = c[i] > average ? c[i] - average : average - c[i];
        worst = d > worst ? d : worst;
    }
    rm_check(name, worst <= 1u, (uint32_t)worst, 1u);
}

/* CHECK that two counts agree within 1. */
static inline void rm_check_within_1(const char *name, uint32_t a, uint32_t b)
{
    uint32_t d = a > b ? a - b : b - a;
    rm_check(name, d <= 1u, d, 1u);
}

#endif /* RTOSMETER_CASE_UTIL_H */
