/* Two shared measurement bodies for the latency cases, written once and
 * instantiated per object kind (static inline: each group is its own
 * firmware, and includes only what it uses).
 *
 * rm_pass: the "pass" pattern of lat.suspend_resume, lat.*.pass and the
 * s1/s2 signal/wait scenarios. A (more urgent) blocks on the object (or
 * suspends itself); B (less urgent) runs and releases it (or resumes A).
 *   block series:   A's block call until B runs
 *   release series: B's release call until A runs
 * For a mutex, B holds the mutex when A asks for it; A then unlocks and
 * suspends itself until B has taken it again (needs SUSPEND).
 *
 * rm_nocs: the "no switch" pattern of lat.*.nocs and s3/s4: the runner
 * alone signals and waits (for a mutex: locks, then unlocks).
 *
 * Both can start every iteration right after a 1-tick sleep, so that the
 * kernel tick's interference shows in the distribution (".tick" series).
 *
 * Between two timestamps there is the kind's typed call and nothing else:
 * RM_PASS_KIND(k, K) / RM_NOCS_KIND(k, K) define thread entries and a no-switch
 * body for kind k that call rm_k_wait_raw / rm_k_signal_raw directly; the
 * bodies are always inlined into them, so the calls are resolved at compile
 * time (no dispatch on the kind, no call through a pointer), the case's
 * values (object, message) are in registers before the first timestamp, so
 * that the interval holds the kernel call with its own argument set-up, and
 * the kernel's status is translated (rm_k_*_rc) after the closing one
 * (port.h). The disassembly check: assert_port_measures_alone in
 * tests/rtos_ports.py.
 */
#ifndef RTOSMETER_PASS_H
#define RTOSMETER_PASS_H

#include "rm_case_util.h"

#define RM_ALWAYS_INLINE static inline __attribute__((always_inline))

typedef rm_raw_t (*rm_signal_raw_fn_t)(rm_obj_t o, const rm_msg_t *msg);
typedef int (*rm_signal_rc_fn_t)(rm_raw_t raw);
typedef rm_raw_t (*rm_wait_raw_fn_t)(rm_obj_t o, rm_msg_t *msg, uint32_t timeout);
typedef int (*rm_wait_rc_fn_t)(rm_raw_t raw, uint32_t timeout);

typedef struct rm_pass {
    rm_obj_kind_t kind;     /* the object to create (unused by suspend/resume) */
    rm_entry_t a, b;        /* from RM_PASS_KIND / RM_PASS_SUSPEND_RESUME */
    bool suspend;           /* suspend/resume instead of an object */
    uint32_t timeout;       /* A's wait timeout (RM_FOREVER or ticks) */
    const char *block_name; /* NULL: not recorded */
    const char *block_what;
    const char *release_name; /* NULL: not recorded */
    const char *release_what;
    uint32_t samples;
    bool tick_block;   /* A sleeps 1 tick before each block */
    bool tick_release; /* B sleeps 1 tick before each release */
} rm_pass_t;

/* State of the pass body, shared by its two threads. `unused`: a group that
 * includes this header for rm_nocs alone must still build with -Werror. */
#define RM_UNUSED_OK __attribute__((unused))
RM_UNUSED_OK static const rm_pass_t *pass_p;
RM_UNUSED_OK static rm_obj_t pass_obj;
RM_UNUSED_OK static rm_thread_t pass_threads[2]; /* [0] = B (releases A), [1] = A */
RM_UNUSED_OK static volatile uint32_t pass_ta, pass_tb;
RM_UNUSED_OK static volatile bool pass_armed, pass_stop;
RM_UNUSED_OK static rm_series_t pass_block_s, pass_release_s;

/* A: blocks (suspend: suspends itself) and records B's release interval. */
RM_ALWAYS_INLINE void pass_a_body(rm_wait_raw_fn_t wait, rm_wait_rc_fn_t wait_rc, bool suspend,
                                  bool mutex)
{
    static rm_msg_t msg;
    const rm_pass_t *p = pass_p;
    rm_obj_t o = pass_obj;
    rm_thread_t self = pass_threads[1];
    uint32_t timeout = p->timeout;
    if (mutex) {
        (void)rm_thread_suspend(self); /* until B holds it */
    }
    for (uint32_t i = 0; i < p->samples && !rm_case_failed(); i++) {
        if (p->tick_block) {
            (void)rm_thread_sleep(1u);
        }
        pass_armed = true;
        pass_ta = rm_ts();
        rm_raw_t raw = suspend ? rm_thread_suspend_raw(self) : wait(o, &msg, timeout);
        uint32_t t3 = rm_ts();
        RM_SETTLE_RAW(raw);
        int rc = suspend ? rm_thread_suspend_rc(raw) : wait_rc(raw, timeout);
        if (rc != RM_OK) {
            rm_fatal("block/wait (A)", rc);
            break;
        }
        if (p->release_name != NULL) {
            rm_series_add(&pass_release_s, t3 - pass_tb);
        }
        if (mutex) {
            (void)rm_mutex_signal(o, NULL);
            (void)rm_thread_suspend(self);
        }
    }
    pass_stop = true;
    rm_finish();
}

/* B: records A's block interval, then releases A (resume: resumes it). The
 * release interval ends in A, which is more urgent, so B's status is
 * translated long after it (the composed call serves). */
RM_ALWAYS_INLINE void pass_b_body(int (*signal)(rm_obj_t o, const rm_msg_t *msg), bool resume,
                                  bool mutex)
{
    static const rm_msg_t msg = {{1u, 2u, 3u, 4u}};
    const rm_pass_t *p = pass_p;
    rm_obj_t o = pass_obj;
    rm_thread_t a = pass_threads[1];
    if (mutex) {
        (void)rm_mutex_wait(o, NULL, RM_FOREVER);
        (void)rm_thread_resume(a);
    }
    while (!pass_stop) {
        if (!pass_armed) {
            continue; /* A is sleeping a tick: spin, ready */
        }
        uint32_t t1 = rm_ts();
        pass_armed = false;
        if (p->block_name != NULL) {
            rm_series_add(&pass_block_s, t1 - pass_ta);
        }
        if (p->tick_release) {
            (void)rm_thread_sleep(1u);
        }
        pass_tb = rm_ts();
        int rc = resume ? rm_thread_resume(a) : signal(o, &msg);
        if (rc != RM_OK) {
            rm_fatal("release/signal (B)", rc);
            rm_finish();
        }
        if (mutex && !pass_stop) {
            (void)rm_mutex_wait(o, NULL, RM_FOREVER);
            (void)rm_thread_resume(a);
        }
    }
    rm_park();
}

/* Thread entries pass_<k>_a / pass_<k>_b for kind k / RM_OBJ_<K>. */
#define RM_PASS_KIND(k, K)                                                 \
    static void pass_##k##_a(void *arg)                                    \
    {                                                                      \
        (void)arg;                                                         \
        pass_a_body(rm_##k##_wait_raw, rm_##k##_wait_rc, false,            \
                    RM_OBJ_##K == RM_OBJ_MUTEX);                           \
    }                                                                      \
    static void pass_##k##_b(void *arg)                                    \
    {                                                                      \
        (void)arg;                                                         \
        pass_b_body(rm_##k##_signal, false, RM_OBJ_##K == RM_OBJ_MUTEX);   \
    }

/* Thread entries pass_suspend_a / pass_suspend_b: suspend and resume. */
#define RM_PASS_SUSPEND_RESUME()                                           \
    static void pass_suspend_a(void *arg)                                  \
    {                                                                      \
        (void)arg;                                                         \
        pass_a_body(NULL, NULL, true, false);                              \
    }                                                                      \
    static void pass_suspend_b(void *arg)                                  \
    {                                                                      \
        (void)arg;                                                         \
        pass_b_body(NULL, true, false);                                    \
    }

/* Runs one pass measurement from the runner; false if it failed. */
static inline bool rm_pass_run(const rm_pass_t *p)
{
    pass_p = p;
    pass_stop = false;
    pass_armed = false;
    pass_obj = NULL;
    pass_threads[0] = pass_threads[1] = NULL;
    int rc = rm_thread_create(&pass_threads[1], "A", p->a, NULL, RM_PRIO_MIN + 2, 0);
    if (rc == RM_OK) {
        rc = rm_thread_create(&pass_threads[0], "B", p->b, NULL, RM_PRIO_MIN + 1, 0);
    }
    if (rc != RM_OK) {
        rm_fatal("rm_thread_create", rc);
    } else if (!p->suspend &&
               (rc = rm_obj_create(&pass_obj, p->kind, pass_threads[1], 0u)) != RM_OK) {
        rm_fatal("rm_obj_create", rc);
    } else {
        if (p->block_name != NULL) {
            rm_series_open(&pass_block_s, p->block_name, p->block_what);
        }
        if (p->release_name != NULL) {
            rm_series_open(&pass_release_s, p->release_name, p->release_what);
        }
        rm_case_wait_done();
        if (p->block_name != NULL) {
            rm_series_close(&pass_block_s);
        }
        if (p->release_name != NULL) {
            rm_series_close(&pass_release_s);
        }
    }
    pass_stop = true;
    rm_delete_threads(pass_threads, 2u);
    rm_delete_obj(&pass_obj);
    return !rm_case_failed();
}

/* ---- no switch ---------------------------------------------------------- */
typedef struct rm_nocs {
    const char *signal_name; /* NULL: not recorded (but still called) */
    const char *signal_what;
    const char *wait_name; /* NULL: the wait is not called at all */
    const char *wait_what;
    uint32_t samples;
    bool tick;
} rm_nocs_t;

/* `held` (a constant at each instance, so that the others' code is as if
 * it were not there): a mutex the runner locks once before the samples, so
 * that each sample's lock nests (lat.mutex.recursive). */
RM_ALWAYS_INLINE bool rm_nocs_body(const rm_nocs_t *p, rm_obj_kind_t kind,
                                   rm_signal_raw_fn_t signal, rm_signal_rc_fn_t signal_rc,
                                   rm_wait_raw_fn_t wait, rm_wait_rc_fn_t wait_rc, bool held)
{
    rm_obj_t created = NULL;
    rm_series_t ss, ws;
    rm_msg_t msg = {{1u, 2u, 3u, 4u}};
    int rc = rm_obj_create(&created, kind, rm_thread_self(), 0u);
    if (rc != RM_OK) {
        rm_fatal("rm_obj_create", rc);
        return false;
    }
    rm_obj_t o = created; /* in a register: `created` is in memory (its address was taken) */
    const bool mutex = kind == RM_OBJ_MUTEX;
    /* Before the series open: their calls, not a timestamp, follow this lock
     * (the disassembly check takes a call that a read follows as measured). */
    if (mutex && held && (rc = wait_rc(wait(o, &msg, RM_FOREVER), RM_FOREVER)) != RM_OK) {
        rm_fatal("the first lock of the held mutex", rc);
        (void)rm_obj_delete(o);
        return false;
    }
    if (p->signal_name != NULL) {
        rm_series_open(&ss, p->signal_name, p->signal_what);
    }
    if (p->wait_name != NULL) {
        rm_series_open(&ws, p->wait_name, p->wait_what);
    }
    const bool do_wait = p->wait_name != NULL;
    for (uint32_t i = 0; i < p->samples; i++) {
        if (p->tick) {
            (void)rm_thread_sleep(1u);
        }
        uint32_t t0, t1, t2, t3;
        rm_raw_t raw;
        if (mutex) { /* lock (the "wait"), then unlock (the "signal") */
            t0 = rm_ts();
            raw = wait(o, &msg, RM_FOREVER);
            t1 = rm_ts();
            RM_SETTLE_RAW(raw);
            if ((rc = wait_rc(raw, RM_FOREVER)) != RM_OK) {
                break;
            }
            t2 = rm_ts();
            raw = signal(o, &msg);
            t3 = rm_ts();
            RM_SETTLE_RAW(raw);
            if ((rc = signal_rc(raw)) != RM_OK) {
                break;
            }
            if (do_wait) {
                rm_series_add(&ws, t1 - t0);
            }
            if (p->signal_name != NULL) {
                rm_series_add(&ss, t3 - t2);
            }
            continue;
        }
        t0 = rm_ts();
        raw = signal(o, &msg);
        t1 = rm_ts();
        RM_SETTLE_RAW(raw);
        if ((rc = signal_rc(raw)) != RM_OK) {
            break;
        }
        if (p->signal_name != NULL) {
            rm_series_add(&ss, t1 - t0);
        }
        if (!do_wait) { /* tested here, not inside the wait's interval */
            continue;
        }
        t2 = rm_ts();
        raw = wait(o, &msg, RM_FOREVER);
        t3 = rm_ts();
        RM_SETTLE_RAW(raw);
        if ((rc = wait_rc(raw, RM_FOREVER)) != RM_OK) {
            break;
        }
        rm_series_add(&ws, t3 - t2);
    }
    if (rc != RM_OK) {
        rm_fatal("signal/wait (no switch)", rc);
    }
    if (mutex && held && rc == RM_OK && (rc = signal_rc(signal(o, &msg))) != RM_OK) {
        rm_fatal("the last unlock of the held mutex", rc);
    }
    if (p->signal_name != NULL) {
        rm_series_close(&ss);
    }
    if (do_wait) {
        rm_series_close(&ws);
    }
    (void)rm_obj_delete(o);
    return rc == RM_OK;
}

/* nocs_<k>(p): the no-switch body for kind k. A second case of a kind
 * calls rm_nocs_body itself (lat.mutex.recursive): one nocs_<k> with two
 * callers would stay out of line, shared, its parameters run-time values. */
#define RM_NOCS_KIND(k, K)                                                 \
    static bool nocs_##k(const rm_nocs_t *p)                               \
    {                                                                      \
        return rm_nocs_body(p, RM_OBJ_##K, rm_##k##_signal_raw, rm_##k##_signal_rc, \
                            rm_##k##_wait_raw, rm_##k##_wait_rc, false);          \
    }

#endif /* RTOSMETER_PASS_H */
