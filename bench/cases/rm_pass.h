/* Two shared measurement bodies for the latency cases (static inline: each
 * group is its own firmware).
 *
 * rm_pass_run: the "pass" pattern of lat.suspend_resume, lat.*.pass and the
 * s1/s2 signal/wait scenarios. A (more urgent) blocks on the object (or
 * suspends itself); B (less urgent) runs and releases it (or resumes A).
 *   block series:   A's block call until B runs
 *   release series: B's release call until A runs
 * For a mutex, B holds the mutex when A asks for it; A then unlocks and
 * suspends itself until B has taken it again (needs SUSPEND).
 *
 * rm_nocs_run: the "no switch" pattern of lat.*.nocs and s3/s4: the runner
 * alone signals and waits (for a mutex: locks, then unlocks).
 *
 * Both can start every iteration right after a 1-tick sleep, so that the
 * kernel tick's interference shows in the distribution (".tick" series).
 */
#ifndef RTOSMETER_PASS_H
#define RTOSMETER_PASS_H

#include "rm_case_util.h"

#define RM_PASS_SUSPEND (-1) /* kind: suspend/resume instead of an object */

typedef struct rm_pass {
    int kind;               /* rm_obj_kind_t or RM_PASS_SUSPEND */
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
 * includes this header for rm_nocs_run alone must still build with -Werror. */
#define RM_UNUSED_OK __attribute__((unused))
RM_UNUSED_OK static const rm_pass_t *pass_p;
RM_UNUSED_OK static rm_obj_t pass_obj;
RM_UNUSED_OK static rm_thread_t pass_threads[2]; /* [0] = B (releases A), [1] = A */
RM_UNUSED_OK static volatile uint32_t pass_ta, pass_tb;
RM_UNUSED_OK static volatile bool pass_armed, pass_stop;
RM_UNUSED_OK static rm_series_t pass_block_s, pass_release_s;

static inline int pass_block(void)
{
    static rm_msg_t msg;
    if (pass_p->kind == RM_PASS_SUSPEND) {
        return rm_thread_suspend(rm_thread_self());
    }
    return rm_obj_wait(pass_obj, &msg, pass_p->timeout);
}

static inline int pass_release(void)
{
    static const rm_msg_t msg = {{1u, 2u, 3u, 4u}};
    if (pass_p->kind == RM_PASS_SUSPEND) {
        return rm_thread_resume(pass_threads[1]);
    }
    return rm_obj_signal(pass_obj, &msg);
}

static inline void pass_a(void *arg)
{
    (void)arg;
    bool mutex = pass_p->kind == RM_OBJ_MUTEX;
    if (mutex) {
        (void)rm_thread_suspend(rm_thread_self()); /* until B holds it */
    }
    for (uint32_t i = 0; i < pass_p->samples && !rm_case_failed(); i++) {
        if (pass_p->tick_block) {
            (void)rm_thread_sleep(1u);
        }
        pass_armed = true;
        pass_ta = rm_ts();
        int rc = pass_block();
        uint32_t t3 = rm_ts();
        if (rc != RM_OK) {
            rm_fatal("block/wait (A)", rc);
            break;
        }
        if (pass_p->release_name != NULL) {
            rm_series_add(&pass_release_s, t3 - pass_tb);
        }
        if (mutex) {
            (void)rm_obj_signal(pass_obj, NULL);
            (void)rm_thread_suspend(rm_thread_self());
        }
    }
    pass_stop = true;
    rm_finish();
}

static inline void pass_b(void *arg)
{
    (void)arg;
    bool mutex = pass_p->kind == RM_OBJ_MUTEX;
    if (mutex) {
        (void)rm_obj_wait(pass_obj, NULL, RM_FOREVER);
        (void)rm_thread_resume(pass_threads[1]);
    }
    while (!pass_stop) {
        if (!pass_armed) {
            continue; /* A is sleeping a tick: spin, ready */
        }
        uint32_t t1 = rm_ts();
        pass_armed = false;
        if (pass_p->block_name != NULL) {
            rm_series_add(&pass_block_s, t1 - pass_ta);
        }
        if (pass_p->tick_release) {
            (void)rm_thread_sleep(1u);
        }
        pass_tb = rm_ts();
        int rc = pass_release();
        if (rc != RM_OK) {
            rm_fatal("release/signal (B)", rc);
            rm_finish();
        }
        if (mutex && !pass_stop) {
            (void)rm_obj_wait(pass_obj, NULL, RM_FOREVER);
            (void)rm_thread_resume(pass_threads[1]);
        }
    }
    rm_park();
}

/* Runs one pass measurement from the runner; false if it failed. */
static inline bool rm_pass_run(const rm_pass_t *p)
{
    pass_p = p;
    pass_stop = false;
    pass_armed = false;
    pass_obj = NULL;
    pass_threads[0] = pass_threads[1] = NULL;
    int rc = rm_thread_create(&pass_threads[1], "A", pass_a, NULL, RM_PRIO_MIN + 2, 0);
    if (rc == RM_OK) {
        rc = rm_thread_create(&pass_threads[0], "B", pass_b, NULL, RM_PRIO_MIN + 1, 0);
    }
    if (rc != RM_OK) {
        rm_fatal("rm_thread_create", rc);
    } else if (p->kind != RM_PASS_SUSPEND &&
               (rc = rm_obj_create(&pass_obj, (rm_obj_kind_t)p->kind, pass_threads[1], 0u)) !=
                   RM_OK) {
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
    rm_obj_kind_t kind;
    const char *signal_name; /* NULL: not recorded (but still called) */
    const char *signal_what;
    const char *wait_name; /* NULL: the wait is not called at all */
    const char *wait_what;
    uint32_t samples;
    bool tick;
} rm_nocs_t;

static inline bool rm_nocs_run(const rm_nocs_t *p)
{
    rm_obj_t o = NULL;
    rm_series_t ss, ws;
    rm_msg_t msg = {{1u, 2u, 3u, 4u}};
    int rc = rm_obj_create(&o, p->kind, rm_thread_self(), 0u);
    if (rc != RM_OK) {
        rm_fatal("rm_obj_create", rc);
        return false;
    }
    if (p->signal_name != NULL) {
        rm_series_open(&ss, p->signal_name, p->signal_what);
    }
    if (p->wait_name != NULL) {
        rm_series_open(&ws, p->wait_name, p->wait_what);
    }
    bool mutex = p->kind == RM_OBJ_MUTEX;
    for (uint32_t i = 0; i < p->samples && rc == RM_OK; i++) {
        if (p->tick) {
            (void)rm_thread_sleep(1u);
        }
        uint32_t t0 = rm_ts(), t1, t2;
        if (mutex) { /* lock (the "wait"), then unlock (the "signal") */
            rc = rm_obj_wait(o, &msg, RM_FOREVER);
            t1 = rm_ts();
            if (rc == RM_OK) {
                rc = rm_obj_signal(o, &msg);
            }
            t2 = rm_ts();
            if (p->wait_name != NULL) {
                rm_series_add(&ws, t1 - t0);
            }
            if (p->signal_name != NULL) {
                rm_series_add(&ss, t2 - t1);
            }
            continue;
        }
        rc = rm_obj_signal(o, &msg);
        t1 = rm_ts();
        if (rc == RM_OK && p->wait_name != NULL) {
            rc = rm_obj_wait(o, &msg, RM_FOREVER);
        }
        t2 = rm_ts();
        if (p->signal_name != NULL) {
            rm_series_add(&ss, t1 - t0);
        }
        if (p->wait_name != NULL) {
            rm_series_add(&ws, t2 - t1);
        }
    }
    if (rc != RM_OK) {
        rm_fatal("signal/wait (no switch)", rc);
    }
    if (p->signal_name != NULL) {
        rm_series_close(&ss);
    }
    if (p->wait_name != NULL) {
        rm_series_close(&ws);
    }
    (void)rm_obj_delete(o);
    return rc == RM_OK;
}

#endif /* RTOSMETER_PASS_H */
