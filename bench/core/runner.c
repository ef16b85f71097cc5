/* rtosmeter runner: the thread every port starts at RM_PRIO_RUNNER. It writes
 * HELLO and the configuration, runs calib.overhead, then every case that the
 * group registered with RM_CASE (linker section `rm_cases`) in source order,
 * and ends with BYE. Also here: case control (fail/unsupported), the runner's hand-over
 * with case threads, benchmark interrupt dispatch and fault reporting.
 */
#include "rm_core.h"

/* The group name comes from a one-line source generated per executable by
 * bench/CMakeLists.txt. */
extern const char rm_group_name[];

/* Provided by GNU ld for the orphan section, or by the target's linker
 * script; weak so that a group without cases still links. */
extern const rm_case_t __start_rm_cases[] __attribute__((weak));
extern const rm_case_t __stop_rm_cases[] __attribute__((weak));

static const char *volatile case_id;
static volatile rm_case_state_t case_state = RM_CS_NONE;
static uint32_t cases_run;
static rm_thread_t runner_thread;
static volatile bool runner_waiting;
static volatile rm_irq_handler_t irq_handler;

/* ---- case state ------------------------------------------------------- */
bool rm_case_emit_ok(void)
{
    if (case_state == RM_CS_PENDING) {
        case_state = RM_CS_OPEN;
        rm_rec_begin("CASE");
        rm_rec_field("id", case_id);
        rm_rec_end();
    }
    return case_state == RM_CS_OPEN || case_state == RM_CS_NONE;
}

bool rm_case_failed(void)
{
    return case_state == RM_CS_FAILED || case_state == RM_CS_UNSUP;
}

/* FAIL with reason = a b c d concatenated: the pieces are escaped straight
 * into the record, so no buffer is needed for "FATAL: <call> failed (rc)". */
static void fail_record(const char *a, const char *b, const char *c,
                        const char *d)
{
    if (case_state == RM_CS_NONE || !rm_case_emit_ok()) {
        return; /* outside a case, or already failed: keep the first reason */
    }
    case_state = RM_CS_FAILED;
    rm_rec_begin("FAIL");
    rm_rec_field("reason", a);
    rm_rec_escaped(b);
    rm_rec_escaped(c);
    rm_rec_escaped(d);
    rm_rec_end();
}

void rm_fail(const char *reason)
{
    fail_record(reason, "", "", "");
}

void rm_fatal(const char *call, int rc)
{
    char code[16]; /* " failed (-123)" for the small RM_E* codes */
    uint32_t v = (uint32_t)(rc < 0 ? -rc : rc);
    char *p = &code[sizeof code - 1];
    *p = '\0';
    *--p = ')';
    do {
        *--p = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u && p > &code[3]);
    if (rc < 0) {
        *--p = '-';
    }
    *--p = '(';
    *--p = ' ';
    fail_record("FATAL: ", call, " failed", p);
}

void rm_unsupported(const char *reason)
{
    if (case_state == RM_CS_PENDING) {
        /* Nothing emitted yet: the case is simply unsupported. */
        case_state = RM_CS_UNSUP;
        rm_rec_begin("UNSUP");
        rm_rec_field("id", case_id);
        rm_rec_field("reason", reason);
        rm_rec_end();
        return;
    }
    fail_record("unsupported: ", reason, "", "");
}

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

/* ---- benchmark interrupt ----------------------------------------------- */
void rm_irq_set_handler(rm_irq_handler_t h)
{
    irq_handler = h;
}

int rm_irq_trigger(void)
{
    return rm_port_irq_trigger();
}

void rm_irq_dispatch(void)
{
    rm_port_isr_enter();
    rm_irq_handler_t h = irq_handler;
    if (h != NULL) {
        h();
    }
    rm_port_isr_exit();
}

/* ---- helpers ------------------------------------------------------------ */
void rm_spin(uint32_t n)
{
    for (volatile uint32_t i = 0; i < n; i++) {
    }
}

_Noreturn void rm_report_fault(const rm_fault_t *f)
{
    rm_rec_begin("FAULT");
    rm_rec_field_hex("pc", f->pc);
    rm_rec_field_hex("lr", f->lr);
    rm_rec_field_hex("psr", f->psr);
    rm_rec_field_hex("cfsr", f->cfsr);
    rm_rec_field_hex("hfsr", f->hfsr);
    rm_rec_field_hex("mmfar", f->mmfar);
    rm_rec_field_hex("bfar", f->bfar);
    rm_rec_end();
    rm_rec_begin("BYE");
    rm_rec_field_u32("cases", cases_run);
    rm_rec_field_u32("status", 3u);
    rm_rec_end();
    rm_target_exit(3);
}

/* ---- the runner ---------------------------------------------------------- */
#define RM_CAP_NAME_(name, bit, desc) [bit] = #name,
static const char *const cap_names[] = {RM_CAPS(RM_CAP_NAME_)};
#undef RM_CAP_NAME_

static uint32_t port_caps = (uint32_t)(RM_PORT_CAPS);

static void write_hello(void)
{
    rm_rec_begin("HELLO");
    rm_rec_field_u32("v", 1u);
    rm_rec_field("port", RM_PORT_NAME);
    rm_rec_field("target", RM_TARGET_NAME);
    rm_rec_field("group", rm_group_name);
    rm_rec_field("ts", RM_TS_NAME);
    rm_rec_field("unit", RM_TS_UNIT);
    rm_rec_field_u32("hz", (uint32_t)(RM_TS_HZ));
    rm_rec_field_u32("samples", (uint32_t)(RM_SAMPLES));
    rm_rec_field_u32("batch", (uint32_t)(RM_BATCH));
    rm_rec_field_u32("tm_period", (uint32_t)(RM_TM_PERIOD_TICKS));
    rm_rec_field_u32("tm_periods", (uint32_t)(RM_TM_PERIODS));
    rm_rec_field("profile", RM_PROFILE);
    rm_rec_end();
}

static void write_cfg(void)
{
    rm_port_describe();
#if defined(__clang__)
    rm_emit_cfg("compiler", "clang " __VERSION__);
#elif defined(__GNUC__)
    rm_emit_cfg("compiler", "gcc " __VERSION__);
#endif
    rm_emit_cfg("profile", RM_PROFILE);
    rm_emit_cfg_u32("tick_hz", rm_tick_hz());
#ifdef RM_NO_WFI
    rm_emit_cfg("idle", "no WFI (deterministic emulation)");
#endif
    if (rm_port_irq_connect() != RM_OK) {
        port_caps &= ~(uint32_t)RM_CAP_IRQ;
        rm_emit_cfg("irq_connect", "failed: IRQ cases unsupported");
    }
}

/* calib.overhead: two back-to-back timestamp reads, the cost the harness
 * subtracts from every interval of this stream. */
static void run_calibration(void)
{
    rm_series_t s;
    rm_series_open(&s, "overhead", "two back-to-back rm_ts() reads");
    for (uint32_t i = 0; i < (uint32_t)(RM_SAMPLES); i++) {
        uint32_t t0 = rm_ts();
        uint32_t t1 = rm_ts();
        rm_series_add(&s, t1 - t0);
    }
    rm_series_close(&s);
}

/* Runs one case (c == NULL: the calibration); true if it failed. */
static bool run_one(const char *id, const rm_case_t *c)
{
    case_id = id;
    case_state = RM_CS_PENDING;
    rm_series_reset_all();
    cases_run++;
    uint32_t missing = c != NULL ? c->needs & ~port_caps : 0u;
    if (missing != 0u) {
        case_state = RM_CS_UNSUP;
        rm_rec_begin("UNSUP");
        rm_rec_field("id", id);
        rm_rec_field("reason", "port lacks ");
        const char *sep = "";
        for (uint32_t bit = 0; bit < 32u; bit++) {
            if ((missing & (1ul << bit)) != 0u) {
                rm_rec_escaped(sep);
                rm_rec_escaped(bit < sizeof cap_names / sizeof cap_names[0] &&
                                       cap_names[bit] != NULL
                                   ? cap_names[bit]
                                   : "?");
                sep = ", ";
            }
        }
        rm_rec_end();
    } else {
        if (c != NULL) {
            c->run(c);
        } else {
            run_calibration();
        }
    }
    bool failed = case_state == RM_CS_FAILED;
    if (case_state != RM_CS_UNSUP) {
        (void)rm_case_emit_ok();
        rm_rec_begin("END");
        rm_rec_field("id", id);
        rm_rec_field("status", failed ? "failed" : "ok");
        rm_rec_end();
    }
    case_state = RM_CS_NONE;
    return failed;
}

/* The case after `prev` in source order (prev == NULL: the first one), or
 * NULL. The section's own order is the toolchain's choice, so the runner
 * orders by the RM_CASE line (ties, which need two RM_CASE on one line, by
 * address). A quadratic scan: a group has a dozen cases, and it keeps the
 * const table in flash and needs no RAM. */
static bool case_before(const rm_case_t *a, const rm_case_t *b)
{
    return a->line < b->line || (a->line == b->line && a < b);
}

static const rm_case_t *next_case(const rm_case_t *prev)
{
    const rm_case_t *best = NULL;
    const rm_case_t *first = __start_rm_cases, *end = __stop_rm_cases;
    if (first == NULL) {
        return NULL; /* the group registered no case: the weak symbols are 0 */
    }
    for (const rm_case_t *c = first; c < end; c++) {
        if ((prev == NULL || case_before(prev, c)) && (best == NULL || case_before(c, best))) {
            best = c;
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
    bool failed = run_one("calib.overhead", NULL);
    for (const rm_case_t *c = next_case(NULL); c != NULL; c = next_case(c)) {
        failed = run_one(c->id, c) || failed;
    }
    rm_rec_begin("BYE");
    rm_rec_field_u32("cases", cases_run);
    rm_rec_field_u32("status", failed ? 1u : 0u);
    rm_rec_end();
    rm_target_exit(failed ? 1 : 0);
}
