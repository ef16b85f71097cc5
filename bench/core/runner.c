/* rtosmeter runner: the thread every port starts at RM_PRIO_RUNNER. It writes
 * HELLO and the configuration, runs calib.overhead, then every case that the
 * group registered with RM_CASE (linker section `rm_cases`) in source order,
 * and ends with BYE. Also here: the runner's hand-over with case threads,
 * the throughput period in ticks and fault reporting. The case's state is
 * stream.c's (it gates the case's records): the runner sets it, stream.c
 * never calls back here.
 */
#include "rm_core.h"

#ifndef RM_TM_PERIOD_MS
#error "RM_TM_PERIOD_MS is not set in rm_build_config.h: regenerate it with rtosmeter.build"
#endif

/* The group name comes from a one-line source generated per executable by
 * bench/CMakeLists.txt. */
extern const char rm_group_name[];

/* Provided by GNU ld for the orphan section, or by the target's linker
 * script; weak so that a group without cases still links. */
extern const rm_case_t __start_rm_cases[] __attribute__((weak));
extern const rm_case_t __stop_rm_cases[] __attribute__((weak));

static uint32_t cases_run;
static rm_thread_t runner_thread;
static volatile bool runner_waiting;

/* ---- runner / case thread hand-over ------------------------------------ */
/* The runner is the most urgent thread: case threads run only while it is
 * suspended here, so setting the flag before suspending is race-free. */
void rm_case_wait_done(void)
{
    runner_waiting = true;
    while (runner_waiting) {
        (void)rm_thread_suspend(runner_thread);
    }
}

void rm_case_done(void)
{
    if (runner_waiting) {
        runner_waiting = false;
        (void)rm_thread_resume(runner_thread);
    }
}

RM_COLD_BEGIN /* the fault report and the runner */

_Noreturn void rm_report_fault(const rm_fault_t *f)
{
    /* Handler mode: no kernel call, so no record lock. */
    rm_rec_break();
    rm_rec_unlocked("FAULT pc=%x lr=%x psr=%x cfsr=%x hfsr=%x mmfar=%x bfar=%x", f->pc,
                    f->lr, f->psr, f->cfsr, f->hfsr, f->mmfar, f->bfar);
    rm_rec_unlocked("BYE cases=%u status=%u", cases_run, (uint32_t)3u);
    rm_target_exit(3);
}

RM_COLD_END

/* ---- the runner ---------------------------------------------------------- */
static uint32_t port_caps;

uint32_t rm_tm_period_ticks(void)
{
    /* Exact for whole milliseconds of any tick rate up to 100 kHz (30 s). */
    uint32_t hz = rm_tick_hz();
    uint32_t ticks = (uint32_t)(RM_TM_PERIOD_MS) * hz / 1000u;
    return ticks != 0u ? ticks : (uint32_t)(hz != 0u); /* 1, or 0 without a tick */
}

RM_COLD_BEGIN

static void write_hello(void)
{
    rm_rec("HELLO v=1 port=%s target=%s group=%s ts=%s unit=%s hz=%u samples=%u batch=%u "
           "tm_period=%u tm_periods=%u tm_period_ms=%u tick_hz=%u profile=%s",
           RM_PORT_NAME, RM_TARGET_NAME, rm_group_name, RM_TS_NAME, RM_TS_UNIT,
           (uint32_t)(RM_TS_HZ), (uint32_t)(RM_SAMPLES), (uint32_t)(RM_BATCH),
           rm_tm_period_ticks(), (uint32_t)(RM_TM_PERIODS), (uint32_t)(RM_TM_PERIOD_MS),
           rm_tick_hz(), RM_PROFILE);
}

/* The measurement method: which code lies between the timestamps. Raised
 * whenever that changes, so that results of two methods are never compared
 * as if alike (rtosmeter compare refuses to). 1: a generic signal/wait
 * layer and a forwarding interrupt path; 2: typed inline calls, the
 * handler as the vector, Thread-Metric's loop bodies; 3: as 2, but tm.*
 * calls Thread-Metric's porting layer (its own translation unit). */
#define RM_METHOD 3u

static void write_cfg(void)
{
    rm_emit_cfg_u32("method", RM_METHOD);
    rm_port_describe();
#if defined(__clang__)
    rm_emit_cfg("compiler", "clang " __VERSION__);
#elif defined(__GNUC__)
    rm_emit_cfg("compiler", "gcc " __VERSION__);
#endif
    /* (The profile is in HELLO; tick_hz too, kept here for older readers.) */
    rm_emit_cfg_u32("tick_hz", rm_tick_hz());
    /* The clocks as the firmware found them (target.h): what the harness
     * converts counts with, checked against target.toml. */
    uint32_t ts_hz = rm_target_ts_hz();
    uint32_t cpu_hz = rm_target_cpu_hz();
    if (ts_hz != 0u) {
        rm_emit_cfg_u32("ts_hz", ts_hz);
    }
    if (cpu_hz != 0u) {
        rm_emit_cfg_u32("cpu_hz", cpu_hz);
    }
#ifdef RM_TARGET_FLASH_WS
    rm_emit_cfg_u32("flash_ws", rm_target_flash_ws());
#endif
#ifdef RM_NO_WFI
    rm_emit_cfg("idle", "no WFI");
#endif
    /* What the port honours in this run: never more than port.toml says. */
    port_caps = rm_port_caps() & (uint32_t)(RM_PORT_CAPS);
}

RM_COLD_END

/* calib.overhead: two back-to-back timestamp reads, the cost the harness
 * subtracts from every interval of this stream. An ordinary case on line 0,
 * so that the runner treats it like any other. */
static void run_calibration(const rm_case_t *c)
{
    (void)c;
    rm_series_t s;
    rm_series_open(&s, "overhead", "rm_ts() twice in a row");
    for (uint32_t i = 0; i < (uint32_t)(RM_SAMPLES); i++) {
        uint32_t t0 = rm_ts();
        uint32_t t1 = rm_ts();
        rm_series_add(&s, t1 - t0);
    }
    rm_series_close(&s);
}

static const rm_case_t calib_case = {"calib.overhead", 0u, run_calibration, NULL, 0u};

RM_COLD_BEGIN

#ifdef RM_LOAD_KIND
/* A loaded firmware runs every case but the calibration under its load
 * profile (load.c), the port's own body as much as the shared one (Contiki-
 * NG's Thread-Metric processes); the load's counts end the case as META load.*. */
static void run_loaded(const rm_case_t *c, rm_port_body_t own)
{
    if (c == &calib_case) {
        c->run(c);
        return;
    }
    int rc = rm_load_start();
    if (rc == RM_ENOTSUP) {
        rm_unsupported("the load profile " RM_LOAD_NAME " needs the target's load timer "
                       "(rm_target_load_timer_start), which this target lacks");
    } else if (rc != RM_OK) {
        rm_fatal("start of the load profile " RM_LOAD_NAME, rc);
    } else if (own != NULL) {
        own();
    } else {
        c->run(c);
    }
    rm_load_stop(rm_case_state <= RM_CS_OPEN);
}
#endif

/* Runs one case; true if it failed. */
static bool run_one(const rm_case_t *c)
{
    rm_case_id = c->id;
    rm_case_state = RM_CS_PENDING;
    rm_series_reset_all();
    cases_run++;
    rm_port_body_t own = rm_port_case_body(c->id); /* the port's own body, if any */
    uint32_t missing = own != NULL ? 0u : c->needs & ~port_caps;
#ifdef RM_LOAD_KIND
    if (c != &calib_case)
        missing |= rm_load_needs() & ~port_caps;
#endif
    if (missing != 0u) {
        /* The mask only: the host names the bits (RM_CAPS). A declared cap
         * that is missing was withdrawn at run time: the port says why. */
        const char *note = (missing & (uint32_t)(RM_PORT_CAPS)) != 0u ? rm_port_caps_note()
                                                                      : NULL;
#ifdef RM_LOAD_KIND
        if (c != &calib_case && (rm_load_needs() & ~port_caps) != 0u)
            note = "the load profile " RM_LOAD_NAME " needs them";
#endif
        rm_case_state = RM_CS_UNSUP;
        rm_rec("UNSUP id=%s missing=%x%r%s", c->id, missing, note ? " note=" : "",
               note ? note : "");
    } else {
        /* The energy marker's pulse spans the case's body, outside its
         * intervals; an unsupported case gets none (docs/energy.md). */
        rm_target_case_marker(true);
#ifdef RM_LOAD_KIND
        run_loaded(c, own);
#else
        if (own != NULL) {
            own();
        } else {
            c->run(c);
        }
#endif
        rm_target_case_marker(false);
    }
    bool failed = rm_case_state == RM_CS_FAILED;
    if (rm_case_state != RM_CS_UNSUP) {
        (void)rm_case_open();
        rm_rec("END id=%s status=%s", c->id, failed ? "failed" : "ok");
    }
    rm_case_state = RM_CS_NONE;
    return failed;
}

/* The case registered on the first line after `after` (0: the first case),
 * or NULL. The section's own order is the toolchain's choice, so the runner
 * orders by the RM_CASE line (one per line: the catalog requires it too). A
 * quadratic scan: a group has a dozen cases, and it keeps the const table in
 * flash and needs no RAM. A group without cases has the weak bounds 0, 0. */
static const rm_case_t *next_case(uint32_t after)
{
    const rm_case_t *best = NULL;
    uint32_t best_line = UINT32_MAX;
    for (const rm_case_t *c = __start_rm_cases; c < __stop_rm_cases; c++) {
        if (c->line > after && c->line < best_line) {
            best = c;
            best_line = c->line;
        }
    }
    return best;
}

void rm_runner_main(void *arg)
{
    (void)arg;
    runner_thread = rm_thread_self();
    write_hello();
    write_cfg();
    bool failed = false;
    /* The calibration (line 0) first, then the group's cases: one call site
     * each, so neither is inlined twice. */
    for (const rm_case_t *c = &calib_case; c != NULL; c = next_case(c->line)) {
        failed = run_one(c) || failed;
    }
    rm_rec("BYE cases=%u status=%u", cases_run, (uint32_t)(failed ? 1u : 0u));
    rm_target_exit(failed ? 1 : 0);
}

RM_COLD_END
