/* Application group "app_schedulability": app.schedulability, Hartstone
 * (Weiderman and Kamenoff, CMU/SEI-92-TR-1) on the kernel tick
 * (docs/benchmarks.md §5). Periodic tasks with rate-monotonic
 * priorities (shorter period, more urgent) each do a fixed workload per
 * release (rm_spin units) and check their own deadline against the kernel
 * tick: a job that ends at or after its next release missed it (and the
 * runner counts a job still unfinished past its deadline when the window
 * ends: a starved task never ends its job to find out). Each
 * experiment starts from the series' baseline and raises one parameter per
 * step until a deadline is missed; the breakdown utilisation is the
 * utilisation of the last step with no miss.
 *
 * Series (periods in ticks, P0 = 8; baseline: 4 % utilisation per task):
 * - ph: harmonic, P0 x {16, 8, 4, 2, 1}; experiments: frequency (all
 *   periods P0 -> P0-1 ...: frequencies scaled, harmonic kept), workload
 *   (+4 % per task per step, then a bisection) and tasks (add a task of
 *   period 4 P0 at 8 %);
 * - pn: non-harmonic, P0 x {15, 11, 7, 5, 3}; workload;
 * - ah: ph plus an aperiodic task, most urgent, released at pseudo-random
 *   gaps (an LFSR, P0..3 P0 ticks) with the shortest task's workload and its
 *   gap as deadline; workload (all tasks);
 * - sh: ph with synchronisation: each job does half of its work holding a
 *   mutex all tasks share; workload.
 * Utilisation is computed on the target from the calibrated cost of a work
 * unit (rm_spin, timed alone by the runner) in basis points (1/100 %).
 * Per step (COUNT, the step as the period): <series>.<experiment>.util_bp
 * and .missed; META <series>.<experiment>.breakdown_bp (0 when even the
 * baseline missed) and .broke (0: no miss up to the last step: a lower bound).
 * Under a cycle counter (--unit cycles) the tick still runs in emulated
 * time, and a tick's worth of estimated cycles is not RM_TS_HZ / tick_hz
 * (the cycles of a millisecond of emulated time depend on the code): the
 * runner measures it (META tick_ts: the cycles the counter advances over
 * one tick, averaged over TICK_CAL_TICKS ticks while it runs work units,
 * the tick's handler included as on a clock: TICK_CAL_CHUNK), and sizes the jobs and
 * computes the utilisation in that estimated time: a job's share of the
 * cycles of its period. The deadlines are the kernel's, so a breakdown in
 * cycles is the same experiment as in instructions, counted in cycles.
 * A port that cannot create a tasks step's threads (its thread limit, e.g.
 * 12 on a 16 KiB Cortex-M0) ends that experiment there: META
 * ph.tasks.thread_limit (the task count it could not create), broke 0.
 */
#include "rm_case_util.h"

#define P0 8u
#define MAX_TASKS 16u
#define BASE_TASKS 5u
#define BASE_BP 400u   /* each baseline task: 4 % */
#define STEP_BP 400u   /* workload experiment: +4 % per task per step */
#define ADDED_BP 800u  /* tasks experiment: each added task 8 % */
#define MAX_STEPS 40u
#define BISECT_STEPS 7u /* workload: then 4 % / 2^7 per task */
#define WINDOW_TICKS (6u * 16u * P0) /* six hyperperiods of ph: a slow backlog shows */
#define CAL_UNITS 2000u
#define SCHED_CAPS (RM_CAP_THREAD | RM_CAP_SLEEP_UNTIL | RM_CAP_PREEMPTIVE)

typedef struct task_def {
    uint32_t period; /* ticks */
    uint32_t work;   /* rm_spin units per job */
    /* The deadline of the task's next job, set as it goes to sleep: a task
     * starved past it never ends the job to find out, so the runner checks
     * it at the end of the window. */
    volatile uint32_t pending_deadline;
    /* Waiting for or holding the shared mutex (sh): a task is never deleted
     * holding it, so the runner stops the tasks only when none is at it. */
    volatile bool at_mutex;
} task_def_t;

static task_def_t defs[MAX_TASKS + 1u]; /* + the aperiodic task */
static rm_thread_t threads[MAX_TASKS + 1u];
static volatile uint32_t missed, jobs;
static volatile uint32_t start_tick;
static volatile bool stop;
static rm_obj_t shared_mutex; /* sh only */
static uint32_t unit_ts;      /* counter ticks of CAL_UNITS units */
static uint64_t tick_ts;      /* counter ticks of one kernel tick */
#define TICK_CAL_TICKS 16u
/* Work units between two reads of the tick count while measuring: the
 * cycles of a tick are then mostly the work's own (its cycles per
 * instruction), as a job's are; a tick is detected at most a chunk late, at
 * both ends of the measurement alike. */
#define TICK_CAL_CHUNK 64u

static void job_work(task_def_t *d, uint32_t work)
{
    if (shared_mutex == NULL) {
        rm_spin(work);
        return;
    }
    rm_spin(work - work / 2u);
    d->at_mutex = true;
    (void)rm_mutex_wait(shared_mutex, NULL, RM_FOREVER);
    rm_spin(work / 2u);
    (void)rm_mutex_signal(shared_mutex, NULL);
    d->at_mutex = false;
}

static void periodic_task(void *arg)
{
    task_def_t *d = arg;
    uint32_t wake = start_tick;
    while (!stop) {
        d->pending_deadline = wake + 2u * d->period;
        (void)rm_thread_sleep_until(&wake, d->period);
        uint32_t release = wake; /* sleep_until advanced wake to this release */
        if (stop)
            break;
        job_work(d, d->work);
        jobs++;
        if (rm_tick_count() - release >= d->period)
            missed++;
    }
    rm_park();
}

/* Aperiodic arrivals: gaps from a 16-bit Galois LFSR, P0..3 P0 ticks. */
static void aperiodic_task(void *arg)
{
    task_def_t *d = arg;
    uint32_t lfsr = 0xACE1u;
    uint32_t wake = start_tick;
    while (!stop) {
        lfsr = (lfsr >> 1) ^ (-(lfsr & 1u) & 0xB400u);
        uint32_t gap = P0 + lfsr % (2u * P0 + 1u);
        d->pending_deadline = wake + 2u * gap; /* the next gap is not known yet */
        (void)rm_thread_sleep_until(&wake, gap);
        uint32_t release = wake;
        if (stop)
            break;
        job_work(d, d->work);
        jobs++;
        if (rm_tick_count() - release >= gap)
            missed++;
    }
    rm_park();
}

/* Work units for `bp` basis points of a task of `period` ticks. */
static uint32_t units_for(uint32_t bp, uint32_t period)
{
    return (uint32_t)((uint64_t)bp * period * tick_ts * CAL_UNITS / (10000u * (uint64_t)unit_ts));
}

/* Basis points of the task set (the aperiodic task at its mean gap, 2 P0). */
static uint32_t util_bp(unsigned n, bool aperiodic)
{
    uint64_t bp = 0u;
    for (unsigned i = 0; i < n + (aperiodic ? 1u : 0u); i++) {
        uint32_t period = i < n ? defs[i].period : 2u * P0;
        bp += (uint64_t)defs[i].work * unit_ts * 10000u / ((uint64_t)CAL_UNITS * period * tick_ts);
    }
    return (uint32_t)bp;
}

static bool any_at_mutex(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (defs[i].at_mutex)
            return true;
    }
    return false;
}

/* Run the set for WINDOW_TICKS; the misses, or UINT32_MAX on a set-up failure. */
static uint32_t run_set(unsigned n, bool aperiodic)
{
    missed = jobs = 0u;
    stop = false;
    /* Now, not the next tick: a first wake time in the future reads as a
     * tick-count wrap to xTaskDelayUntil, which then never sleeps. */
    start_tick = rm_tick_count();
    int prio = RM_PRIO_MAX - 1;
    unsigned all = n + (aperiodic ? 1u : 0u);
    for (unsigned i = 0; i < all; i++) {
        defs[i].pending_deadline = start_tick + 2u * (i < n ? defs[i].period : 3u * P0);
        defs[i].at_mutex = false;
    }
    for (unsigned i = 0; i < all; i++)
        threads[i] = NULL;
    bool created = !aperiodic || rm_thread_create(&threads[n], "aper", aperiodic_task, &defs[n],
                                                  RM_PRIO_MAX, 0) == RM_OK;
    for (unsigned i = 0; created && i < n; i++) { /* sorted by period: rate monotonic */
        created = rm_thread_create(&threads[i], "hart", periodic_task, &defs[i],
                                   prio - (int)i, 0) == RM_OK;
        if (!created)
            threads[i] = NULL;
    }
    if (!created) { /* the port's thread limit: stop those created */
        stop = true;
        rm_stop_threads(threads, all);
        return UINT32_MAX;
    }
    (void)rm_thread_sleep(WINDOW_TICKS + 1u);
    stop = true;
    uint32_t m = missed, now = rm_tick_count();
    for (unsigned i = 0; i < all; i++) {
        if ((int32_t)(now - defs[i].pending_deadline) >= 0)
            m++; /* released, never ran to its end before its deadline */
    }
    /* No task starts a job any more; let those at the mutex leave it. The
     * runner, the most urgent, then stops them all before any runs again. */
    for (uint32_t t = 0; t < WINDOW_TICKS && any_at_mutex(all); t++)
        (void)rm_thread_sleep(1u);
    rm_stop_threads(threads, all);
    return m;
}

typedef enum { EXP_FREQUENCY, EXP_WORKLOAD, EXP_TASKS } experiment_t;

static const uint32_t PH[BASE_TASKS] = {1u, 2u, 4u, 8u, 16u}; /* x P0, most urgent first */
static const uint32_t PN[BASE_TASKS] = {3u, 5u, 7u, 11u, 15u};

/* The set of one step: n tasks (returned) in defs. `level`: the period
 * scale (frequency), basis points per task (workload), added tasks (tasks). */
static unsigned make_set(const uint32_t *mult, experiment_t e, uint32_t level, bool aperiodic)
{
    uint32_t p0 = e == EXP_FREQUENCY ? level : P0;
    uint32_t bp = e == EXP_WORKLOAD ? level : BASE_BP;
    uint32_t step = e == EXP_TASKS ? level : 0u;
    unsigned n = BASE_TASKS;
    for (unsigned i = 0; i < BASE_TASKS; i++) {
        defs[i].period = mult[i] * p0;
        /* frequency: the same work per job as at P0 */
        defs[i].work = units_for(bp, mult[i] * P0);
    }
    if (e == EXP_TASKS) {
        for (uint32_t k = 0; k < step && n < MAX_TASKS; k++, n++) {
            /* insert at its rate-monotonic place: after the period-4 P0 task */
            for (unsigned j = n; j > 3u; j--)
                defs[j] = defs[j - 1u];
            defs[3].period = 4u * P0;
            defs[3].work = units_for(ADDED_BP, 4u * P0);
        }
    }
    if (aperiodic) {
        defs[n].period = 0u;
        defs[n].work = units_for(bp, P0);
    }
    return n;
}

static const char *key(const char *series, const char *exp, const char *what)
{
    static char buf[40];
    size_t k = 0;
    for (const char *p = series; *p != '\0';)
        buf[k++] = *p++;
    buf[k++] = '.';
    for (const char *p = exp; *p != '\0';)
        buf[k++] = *p++;
    buf[k++] = '.';
    for (const char *p = what; *p != '\0' && k < sizeof buf - 1u;)
        buf[k++] = *p++;
    buf[k] = '\0';
    return buf;
}

/* The level of step k, before any miss. */
static uint32_t level_of(experiment_t e, uint32_t k)
{
    return e == EXP_FREQUENCY ? P0 - k : e == EXP_WORKLOAD ? BASE_BP + k * STEP_BP : k;
}

/* Run one step; its misses (UINT32_MAX: set-up failed, the case is failed). */
static uint32_t step_at(const char *series, const char *exp, const uint32_t *mult,
                        experiment_t e, uint32_t level, uint32_t step, bool aperiodic,
                        uint32_t *bp)
{
    unsigned n = make_set(mult, e, level, aperiodic);
    *bp = util_bp(n, aperiodic);
    uint32_t m = run_set(n, aperiodic);
    if (m == UINT32_MAX) {
        /* The tasks experiment past its baseline ends at the port's thread
         * limit (experiment); any other set must be created. */
        if (e != EXP_TASKS || level == 0u)
            rm_fatal("creation of the Hartstone tasks", RM_ERROR);
        return m;
    }
    rm_count(key(series, exp, "util_bp"), step, *bp);
    rm_count(key(series, exp, "missed"), step, m);
    return m;
}

/* Raise the level until a miss; the workload experiment then bisects
 * between the last level without a miss and the first with one. */
static void experiment(const char *series, const uint32_t *mult, experiment_t e, bool aperiodic)
{
    static const char *const names[] = {"frequency", "workload", "tasks"};
    const char *exp = names[e];
    uint32_t last_ok = 0u, ok_level = 0u, miss_level = 0u, step = 0u, bp = 0u;
    uint32_t steps = e == EXP_FREQUENCY ? P0 : e == EXP_TASKS ? MAX_TASKS - BASE_TASKS + 1u
                                                               : MAX_STEPS;
    for (uint32_t k = 0; k < steps && miss_level == 0u; k++) {
        uint32_t m = step_at(series, exp, mult, e, level_of(e, k), step++, aperiodic, &bp);
        if (m == UINT32_MAX && e == EXP_TASKS && k > 0u) {
            /* No miss up to the port's thread limit: a lower bound (broke 0). */
            rm_meta(key(series, exp, "thread_limit"), BASE_TASKS + k);
            break;
        }
        if (m == UINT32_MAX)
            return;
        if (m != 0u)
            miss_level = level_of(e, k);
        else {
            ok_level = level_of(e, k);
            last_ok = bp;
        }
    }
    for (uint32_t k = 0; e == EXP_WORKLOAD && miss_level != 0u && ok_level != 0u &&
                         k < BISECT_STEPS && miss_level - ok_level > 1u; k++) {
        uint32_t mid = ok_level + (miss_level - ok_level) / 2u;
        uint32_t m = step_at(series, exp, mult, e, mid, step++, aperiodic, &bp);
        if (m == UINT32_MAX)
            return;
        if (m != 0u)
            miss_level = mid;
        else {
            ok_level = mid;
            last_ok = bp;
        }
    }
    rm_meta(key(series, exp, "breakdown_bp"), last_ok);
    rm_meta(key(series, exp, "broke"), miss_level != 0u ? 1u : 0u);
}

/* Under a cycle counter: the cycles of one kernel tick, running work units
 * from a tick boundary for TICK_CAL_TICKS ticks (the runner is the most
 * urgent thread: only the tick interrupts it). */
static uint64_t measure_tick_ts(void)
{
    uint32_t t = rm_tick_count();
    while (rm_tick_count() == t) {
        rm_spin(TICK_CAL_CHUNK);
    }
    uint32_t t0 = rm_tick_count(), c0 = rm_ts();
    while (rm_tick_count() - t0 < TICK_CAL_TICKS) {
        rm_spin(TICK_CAL_CHUNK);
    }
    return (uint64_t)(rm_ts() - c0) / TICK_CAL_TICKS;
}

static void run_schedulability(const rm_case_t *c)
{
    (void)c;
    if (rm_tick_hz() == 0u) {
        rm_unsupported("the port has no kernel tick");
        return;
    }
    tick_ts = rm_ts_is_clock() ? (uint64_t)(RM_TS_HZ) / rm_tick_hz() : measure_tick_ts();
    if (tick_ts == 0u) {
        rm_fail("the timestamp counter did not advance over a kernel tick");
        return;
    }
    /* The cost of a work unit: the shortest of a few timings (the runner is
     * the most urgent thread; the shortest has no tick in it). */
    unit_ts = UINT32_MAX;
    for (int i = 0; i < 5; i++) {
        uint32_t t0 = rm_ts();
        rm_spin(CAL_UNITS);
        uint32_t d = rm_ts() - t0;
        unit_ts = d < unit_ts ? d : unit_ts;
    }
    if (unit_ts == 0u) {
        /* Every workload is sized by this figure (a division). */
        rm_fail("the timestamp counter did not advance over a unit of work");
        return;
    }
    rm_meta("calibration_units", CAL_UNITS);
    rm_meta("calibration_ticks", unit_ts);
    rm_meta("window_ticks", WINDOW_TICKS);
    rm_meta("tick_ts", (uint32_t)tick_ts);
    if (!rm_ts_is_clock())
        rm_meta_str("tick_ts_from", "measured: cycles over a tick of emulated time");
    shared_mutex = NULL;
    experiment("ph", PH, EXP_FREQUENCY, false);
    experiment("ph", PH, EXP_WORKLOAD, false);
    experiment("ph", PH, EXP_TASKS, false);
    experiment("pn", PN, EXP_WORKLOAD, false);
    experiment("ah", PH, EXP_WORKLOAD, true);
    if (rm_has_caps(RM_CAP_MUTEX)) {
        RM_TRY(rm_obj_create(&shared_mutex, RM_OBJ_MUTEX, NULL, 0u));
        experiment("sh", PH, EXP_WORKLOAD, false);
        rm_delete_obj(&shared_mutex);
    } else {
        rm_meta_str("sh", "skipped: the port has no mutex");
    }
}

RM_CASE(app_schedulability, "app.schedulability", SCHED_CAPS, run_schedulability, NULL);
