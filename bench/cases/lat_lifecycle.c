/* Latency group "lat_lifecycle": lat.thread.lifecycle. The runner creates a
 * thread X (suspended, at RM_PRIO_MAX), starts it (resume), suspends it,
 * resumes it and deletes it, timing each call alone; X is less urgent than
 * the runner, so it never runs in between.
 *
 * Ready-list dimension (docs/benchmarks.md): the same with N = 5, 10, 15, 20
 * other ready threads (they spin, but never run while the runner measures)
 * at priority gaps g = 1..5: other thread i (0-based) is at
 * RM_PRIO_MIN + i * g. They stay below X, so a layout that does not fit
 * (1 + 19 * g > RM_PRIO_MAX - 1, e.g. 20 threads at gap 2) is clamped: the
 * threads past the top share priority RM_PRIO_MAX - 1, and
 * META clamped@<N>/g<g> says how many did.
 *
 * Series names: "<call>" with no other thread; "<call>@<N>" for gap 1 (the
 * names of the first version, so stored gap-1 results stay comparable);
 * "<call>@<N>/g<g>" for gaps 2..5. Calls: create, start, suspend, resume,
 * delete. A series alone has RM_SAMPLES samples, a loaded one
 * LOADED_SAMPLES: 20 loaded layouts x 5 calls at full length would make this
 * the longest group of the campaign. At most two series are open at once
 * (bench core), hence three passes per layout: create+start,
 * suspend+resume, delete. The runner never blocks: under the OS's network
 * stack it breathes between two samples (rm_load_breathe), the other threads
 * held, so that the stack's threads, below it, are served as in every other
 * case.
 */
#include "rm_case_util.h"

#define MAX_OTHERS 20u
#define COUNT_STEP 5u
#define MAX_GAP 5u
#define X_PRIO RM_PRIO_MAX
#define OTHERS_TOP (RM_PRIO_MAX - 1) /* clamp: the others stay below X */
#define LOADED_SAMPLES \
    ((uint32_t)(RM_SAMPLES) / 8u < 16u ? 16u : (uint32_t)(RM_SAMPLES) / 8u)

enum { CREATE, START, SUSPEND, RESUME, DELETE, N_CALLS };

static const char *const call_name[N_CALLS] = {"create", "start", "suspend", "resume",
                                               "delete"};
static const char *const call_what[N_CALLS] = {
    "create a thread (suspended)", "start it (resume)", "suspend it", "resume it",
    "delete it"};

static rm_thread_t others[MAX_OTHERS];
static volatile bool others_stop;

static void other_thread(void *arg)
{
    (void)arg;
    while (!others_stop) {
        rm_spin(100u); /* ready, never runs while the runner measures */
    }
    rm_park();
}

static void x_thread(void *arg)
{
    (void)arg;
    rm_park();
}

/* "<call>", "<call>@<n>" or "<call>@<n>/g<gap>" into buf (no printf: it is
 * large on a microcontroller's libc). */
static char *put_str(char *p, const char *s)
{
    while (*s != '\0') {
        *p++ = *s++;
    }
    return p;
}

static char *put_uint(char *p, unsigned v)
{
    if (v >= 10u) {
        p = put_uint(p, v / 10u);
    }
    *p++ = (char)('0' + v % 10u);
    return p;
}

static void layout_name(char buf[24], const char *prefix, unsigned n, unsigned gap)
{
    char *p = put_str(buf, prefix);
    if (n > 0u) {
        p = put_uint(put_str(p, "@"), n);
    }
    if (gap > 1u) {
        p = put_uint(put_str(p, "/g"), gap);
    }
    *p = '\0';
}

/* One pass: run the whole life cycle `samples` times with the current
 * layout (n others at `gap`), record calls a and b (b < 0: only a). */
static bool lifecycle_pass(unsigned n, unsigned gap, uint32_t samples, int a, int b)
{
    rm_series_t sa, sb;
    char name[24];
    layout_name(name, call_name[a], n, gap);
    rm_series_open(&sa, name, call_what[a]);
    if (b >= 0) {
        layout_name(name, call_name[b], n, gap);
        rm_series_open(&sb, name, call_what[b]);
    }
    bool ok = true;
    for (uint32_t i = 0; i < samples && ok; i++) {
        rm_thread_t x = NULL;
        uint32_t t0[N_CALLS], t1[N_CALLS]; /* each call: its own start and end */
        /* Each status stays in a local (a register) up to its call's closing
         * read and is settled there (a store into an array could land before
         * the read); the measured calls' statuses are translated there and
         * settled before the next opening read (rm_case_util.h). */
        int created, started, suspended, resumed, deleted;
        t0[CREATE] = rm_ts();
        created = rm_thread_create(&x, "X", x_thread, NULL, X_PRIO, RM_THREAD_SUSPENDED);
        t1[CREATE] = rm_ts();
        RM_SETTLE_RAW(created);
        if (created != RM_OK) {
            rm_fatal("rm_thread_create", created);
            break;
        }
        rm_raw_t raw;
        t0[START] = rm_ts();
        raw = rm_thread_resume_raw(x);
        t1[START] = rm_ts();
        RM_SETTLE_RAW(raw);
        started = rm_thread_resume_rc(raw);
        RM_SETTLE(started);
        t0[SUSPEND] = rm_ts();
        raw = rm_thread_suspend_raw(x);
        t1[SUSPEND] = rm_ts();
        RM_SETTLE_RAW(raw);
        suspended = rm_thread_suspend_rc(raw);
        RM_SETTLE(suspended);
        t0[RESUME] = rm_ts();
        raw = rm_thread_resume_raw(x);
        t1[RESUME] = rm_ts();
        RM_SETTLE_RAW(raw);
        resumed = rm_thread_resume_rc(raw);
        RM_SETTLE(resumed);
        t0[DELETE] = rm_ts();
        deleted = rm_thread_delete(x);
        t1[DELETE] = rm_ts();
        RM_SETTLE_RAW(deleted);
        const int rc[N_CALLS] = {created, started, suspended, resumed, deleted};
        for (int k = START; k < N_CALLS; k++) {
            if (rc[k] != RM_OK) {
                rm_fatal(call_name[k], rc[k]);
                ok = false;
            }
        }
        rm_series_add(&sa, t1[a] - t0[a]);
        if (b >= 0) {
            rm_series_add(&sb, t1[b] - t0[b]);
        }
        rm_load_breathe(others, n); /* the OS's network stack runs here (bench.h) */
    }
    rm_series_close(&sa);
    if (b >= 0) {
        rm_series_close(&sb);
    }
    return ok;
}

static bool lifecycle_layout(unsigned n, unsigned gap, uint32_t samples)
{
    return lifecycle_pass(n, gap, samples, CREATE, START) &&
           lifecycle_pass(n, gap, samples, SUSPEND, RESUME) &&
           lifecycle_pass(n, gap, samples, DELETE, -1);
}

/* All counts at one gap: the others are added 5 at a time, then deleted. */
static void lifecycle_gap(unsigned gap)
{
    unsigned created = 0u, clamped = 0u;
    others_stop = false;
    for (unsigned n = COUNT_STEP; n <= MAX_OTHERS && !rm_case_failed(); n += COUNT_STEP) {
        for (; created < n; created++) {
            int prio = RM_PRIO_MIN + (int)(created * gap);
            if (prio > OTHERS_TOP) {
                prio = OTHERS_TOP;
                clamped++;
            }
            others[created] = NULL;
            int rc = rm_thread_create(&others[created], "other", other_thread, NULL, prio, 0);
            if (rc != RM_OK) {
                rm_fatal("rm_thread_create (other threads)", rc);
                break;
            }
        }
        if (rm_case_failed()) {
            break;
        }
        if (clamped != 0u) { /* META clamped@<n>/g<gap> = threads at OTHERS_TOP */
            char key[24];
            *put_uint(put_str(put_uint(put_str(key, "clamped@"), n), "/g"), gap) = '\0';
            rm_meta(key, clamped);
        }
        (void)lifecycle_layout(n, gap, LOADED_SAMPLES);
    }
    others_stop = true; /* the others park, so a port may delete them anywhere */
    rm_delete_threads(others, created);
}

static void run_lifecycle(const rm_case_t *c)
{
    (void)c;
    rm_meta("x_prio", (uint32_t)X_PRIO);
    rm_meta("others_prio_max", (uint32_t)OTHERS_TOP);
    rm_meta("max_gap", MAX_GAP);
    rm_meta("loaded_samples", LOADED_SAMPLES);
    if (!lifecycle_layout(0u, 1u, (uint32_t)(RM_SAMPLES))) {
        return;
    }
    for (unsigned gap = 1u; gap <= MAX_GAP && !rm_case_failed(); gap++) {
        lifecycle_gap(gap);
    }
}

RM_CASE(lifecycle, "lat.thread.lifecycle", RM_CAP_THREAD | RM_CAP_SUSPEND, run_lifecycle, NULL);
