/* rtosmeter port for POSIX (Linux pthreads): the host reference port.
 *
 * Design decisions (recorded in every stream through rm_port_describe):
 * - One CPU: every thread is pinned to the same CPU (sched_setaffinity on
 *   the process before any thread exists), so priorities mean what they mean
 *   on a microcontroller: the most urgent ready thread runs, alone. CFG cpu
 *   records the CPU (or why pinning failed), CFG sched_rt_runtime_us and
 *   sched_rt_period_us Linux's RT throttling, which can stop a SCHED_FIFO
 *   thread that spins for most of a second.
 * - Priorities: SCHED_FIFO, native = 10 + RM priority (RM_PRIO_MIN 1 -> 11,
 *   RM_PRIO_MAX 30 -> 40, RM_PRIO_RUNNER 31 -> 41); the interrupt thread runs
 *   at 50, above everything. Without the permission for SCHED_FIFO the port
 *   falls back to SCHED_OTHER, warns on stderr and records
 *   CFG sched=SCHED_OTHER (fallback: <reason>), and withdraws at run time
 *   (rm_port_caps) every capability that needs real priorities: THREAD,
 *   SUSPEND, PREEMPTIVE, SLEEP_UNTIL, IRQ, ISR_RESUME, ISR_SIGNAL (every case
 *   with threads assumes that a less urgent thread cannot run while the
 *   runner is ready; the interrupt thread must preempt). Those cases are
 *   reported unsupported with the reason (rm_port_caps_note); the cases that
 *   run on the runner alone (lat.*.nocs, lat.pool, lat.heap) still run.
 * - Records: a PI mutex around each record (rm_port_sched_lock), with
 *   cancellation and the suspend signal held off while it is held, so no two
 *   threads interleave a record under any policy, and a thread deleted or
 *   suspended mid-record cannot keep the lock.
 * - Suspend/resume: a per-thread binary semaphore. A thread suspends itself
 *   by waiting on it; another thread is suspended with a signal whose
 *   handler waits on it. resume() posts it at most once, so a resume that
 *   arrives before the suspend is remembered (only possible without
 *   SCHED_FIFO).
 * - Delete: pthread_cancel + pthread_join (the thread ends at its next
 *   cancellation point: benchmarks leave threads parked or blocked).
 * - Objects: SEM = sem_t; MUTEX = pthread_mutex with PTHREAD_PRIO_INHERIT;
 *   QUEUE = a POSIX message queue (mq_*, a real kernel queue, unlinked as
 *   soon as it is opened so nothing is left behind); STREAM = pipe();
 *   CONDVAR = pthread_cond with its own mutex; EVENT = mutex + cond + flag
 *   word. POSIX has no mailbox, FIFO/LIFO of items, message buffer, task
 *   notification, thread messages/flags or poll signal: unsupported.
 * - Pool: POSIX has no fixed-block pool; this port provides one (a free
 *   list under a plain mutex), documented as such. HEAP = malloc/free.
 * - Interrupts: a dedicated highest-priority thread woken by a semaphore
 *   (CFG irq=thread); rm_isr_* are the thread calls.
 * - Kernel tick: emulated at 1000 Hz: rm_tick_count() is CLOCK_MONOTONIC
 *   in ms since start, and sleeps end on ms boundaries (clock_nanosleep
 *   with TIMER_ABSTIME), as a tick-driven kernel would wake a thread.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <mqueue.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "rtosmeter/bench.h"

#define NATIVE_BASE 10
#define NATIVE_IRQ 50
#define NATIVE_MAIN 60
#define STACK_SIZE (128u * 1024u)
#define TICK_NS 1000000LL /* 1000 Hz */

struct rm_thread {
    pthread_t pt;
    sem_t wake; /* suspend/resume */
    rm_entry_t entry;
    void *arg;
    int prio;
    bool start_suspended;
};

static __thread struct rm_thread *self_thread;
static bool sched_fifo = true;
static char sched_note[160] = "SCHED_FIFO";
static char caps_note[200];
static char cpu_note[96] = "not pinned";
static struct timespec t_start;
static int suspend_signal;

/* ---- helpers ----------------------------------------------------------- */
static int64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int64_t start_ns(void)
{
    return (int64_t)t_start.tv_sec * 1000000000LL + t_start.tv_nsec;
}

static struct timespec ns_to_ts(int64_t ns)
{
    struct timespec t = {.tv_sec = (time_t)(ns / 1000000000LL),
                         .tv_nsec = (long)(ns % 1000000000LL)};
    return t;
}

/* Absolute CLOCK_REALTIME deadline `ticks` ms from now (mq, PI mutexes). */
static struct timespec realtime_in(uint32_t ticks)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    int64_t ns = (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec +
                 (int64_t)ticks * TICK_NS;
    return ns_to_ts(ns);
}

static struct timespec monotonic_in(uint32_t ticks)
{
    return ns_to_ts(mono_ns() + (int64_t)ticks * TICK_NS);
}

static int sem_wait_ticks(sem_t *s, uint32_t timeout)
{
    int rc;
    if (timeout == RM_NO_WAIT) {
        rc = sem_trywait(s);
        return rc == 0 ? RM_OK : RM_EAGAIN;
    }
    if (timeout == RM_FOREVER) {
        while ((rc = sem_wait(s)) != 0 && errno == EINTR) {
        }
        return rc == 0 ? RM_OK : RM_ERROR;
    }
    struct timespec dl = monotonic_in(timeout);
    while ((rc = sem_clockwait(s, CLOCK_MONOTONIC, &dl)) != 0 && errno == EINTR) {
    }
    if (rc == 0) {
        return RM_OK;
    }
    return errno == ETIMEDOUT ? RM_ETIMEOUT : RM_ERROR;
}

/* ---- threads ----------------------------------------------------------- */
static void suspend_wait(struct rm_thread *t)
{
    while (sem_wait(&t->wake) != 0 && errno == EINTR) {
    }
}

/* Another thread asked us to suspend: wait here until resumed. */
static void on_suspend_signal(int sig)
{
    (void)sig;
    int saved = errno;
    if (self_thread != NULL) {
        suspend_wait(self_thread);
    }
    errno = saved;
}

static void *thread_main(void *p)
{
    struct rm_thread *t = p;
    self_thread = t;
    if (t->start_suspended) {
        suspend_wait(t);
    }
    t->entry(t->arg);
    return NULL; /* the thread ends; rm_thread_delete joins it */
}

static int native_prio(int prio)
{
    return prio == RM_PRIO_RUNNER + 1 ? NATIVE_IRQ : NATIVE_BASE + prio;
}

static int create_native(struct rm_thread *t)
{
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, STACK_SIZE);
    if (sched_fifo) {
        struct sched_param sp = {.sched_priority = native_prio(t->prio)};
        pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
        pthread_attr_setschedpolicy(&a, SCHED_FIFO);
        pthread_attr_setschedparam(&a, &sp);
    }
    int rc = pthread_create(&t->pt, &a, thread_main, t);
    for (int retry = 0; rc == EAGAIN && retry < 1000; retry++) {
        /* Linux reaps a joined thread's kernel task asynchronously: under a
         * create/delete loop pthread_create can briefly fail with EAGAIN. */
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
        rc = pthread_create(&t->pt, &a, thread_main, t);
    }
    pthread_attr_destroy(&a);
    return rc == 0 ? RM_OK : RM_ERROR;
}

static int thread_new(rm_thread_t *out, const char *name, rm_entry_t entry,
                      void *arg, int prio, unsigned flags)
{
    struct rm_thread *t = calloc(1, sizeof *t);
    if (t == NULL) {
        return RM_ERROR;
    }
    t->entry = entry;
    t->arg = arg;
    t->prio = prio;
    t->start_suspended = (flags & RM_THREAD_SUSPENDED) != 0u;
    sem_init(&t->wake, 0, 0);
    if (create_native(t) != RM_OK) {
        sem_destroy(&t->wake);
        free(t);
        return RM_ERROR;
    }
    char n[16];
    strncpy(n, name, sizeof n - 1);
    n[sizeof n - 1] = '\0';
    (void)pthread_setname_np(t->pt, n);
    *out = t;
    return RM_OK;
}

int rm_thread_create(rm_thread_t *out, const char *name, rm_entry_t entry,
                     void *arg, int prio, unsigned flags)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER) {
        return RM_ERROR;
    }
    return thread_new(out, name, entry, arg, prio, flags);
}

int rm_thread_delete(rm_thread_t t)
{
    if (t == NULL || t == self_thread) {
        return RM_ERROR;
    }
    (void)pthread_cancel(t->pt);
    if (pthread_join(t->pt, NULL) != 0) {
        return RM_ERROR;
    }
    sem_destroy(&t->wake);
    free(t);
    return RM_OK;
}

rm_raw_t rm_thread_suspend_raw(rm_thread_t t)
{
    if (t == self_thread) {
        suspend_wait(t);
        return RM_OK;
    }
    return pthread_kill(t->pt, suspend_signal) == 0 ? RM_OK : RM_ERROR;
}

rm_raw_t rm_thread_resume_raw(rm_thread_t t)
{
    int v = 0;
    (void)sem_getvalue(&t->wake, &v);
    if (v == 0) {
        return sem_post(&t->wake) == 0 ? RM_OK : RM_ERROR;
    }
    return RM_OK;
}

rm_raw_t rm_thread_yield_raw(void)
{
    return sched_yield() == 0 ? RM_OK : RM_ERROR;
}

/* Sleeps end on a tick boundary, as with a kernel tick: sleep(n) wakes at
 * the n-th tick from now. */
static int sleep_until_tick(int64_t tick)
{
    struct timespec dl = ns_to_ts(start_ns() + tick * TICK_NS);
    int rc;
    while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &dl, NULL)) == EINTR) {
    }
    return rc == 0 ? RM_OK : RM_ERROR;
}

int rm_thread_sleep(uint32_t ticks)
{
    int64_t now = (mono_ns() - start_ns()) / TICK_NS;
    return sleep_until_tick(now + (int64_t)ticks);
}

int rm_thread_sleep_until(uint32_t *wake, uint32_t period)
{
    *wake += period;
    /* The tick counter is 32-bit (49 days): widen relative to now. */
    int64_t now = (mono_ns() - start_ns()) / TICK_NS;
    int64_t target = now + (int32_t)(*wake - (uint32_t)now);
    return sleep_until_tick(target);
}

rm_thread_t rm_thread_self(void)
{
    return self_thread;
}

int rm_thread_priority(rm_thread_t t)
{
    return t->prio; /* base priority: Linux does not report the PI boost */
}

int rm_thread_set_priority(rm_thread_t t, int prio)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER) {
        return RM_ERROR;
    }
    t->prio = prio;
    if (!sched_fifo) {
        return RM_OK;
    }
    return pthread_setschedprio(t->pt, native_prio(prio)) == 0 ? RM_OK : RM_ERROR;
}

uint32_t rm_tick_count(void)
{
    return (uint32_t)((mono_ns() - start_ns()) / TICK_NS);
}

uint32_t rm_tick_hz(void)
{
    return 1000u;
}

/* ---- objects ----------------------------------------------------------- */
struct rm_obj {
    rm_obj_kind_t kind;
    sem_t sem;
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    uint32_t flags;
    mqd_t mq;
    int pipe_fd[2];
};

static void unlock_cleanup(void *m)
{
    pthread_mutex_unlock(m);
}

int rm_obj_create(rm_obj_t *out, rm_obj_kind_t kind, rm_thread_t owner,
                  uint32_t initial)
{
    (void)owner;
    struct rm_obj *o = calloc(1, sizeof *o);
    if (o == NULL) {
        return RM_ERROR;
    }
    o->kind = kind;
    int rc = RM_OK;
    switch (kind) {
    case RM_OBJ_SEM:
        rc = sem_init(&o->sem, 0, initial) == 0 ? RM_OK : RM_ERROR;
        break;
    case RM_OBJ_MUTEX: {
        pthread_mutexattr_t ma;
        pthread_mutexattr_init(&ma);
        pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
        rc = pthread_mutex_init(&o->mutex, &ma) == 0 ? RM_OK : RM_ERROR;
        pthread_mutexattr_destroy(&ma);
        break;
    }
    case RM_OBJ_EVENT:
    case RM_OBJ_CONDVAR: {
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_mutex_init(&o->mutex, NULL);
        rc = pthread_cond_init(&o->cond, &ca) == 0 ? RM_OK : RM_ERROR;
        pthread_condattr_destroy(&ca);
        o->flags = initial != 0u ? 1u : 0u;
        break;
    }
    case RM_OBJ_QUEUE: {
        static unsigned serial;
        char name[48];
        snprintf(name, sizeof name, "/rtosmeter-%d-%u", (int)getpid(), serial++);
        struct mq_attr qa = {.mq_maxmsg = RM_QUEUE_DEPTH, .mq_msgsize = RM_MSG_SIZE};
        o->mq = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &qa);
        if (o->mq == (mqd_t)-1) {
            rc = RM_ERROR;
        } else {
            (void)mq_unlink(name); /* the descriptor keeps it alive */
        }
        break;
    }
    case RM_OBJ_STREAM:
        rc = pipe(o->pipe_fd) == 0 ? RM_OK : RM_ERROR;
        break;
    default:
        rc = RM_ENOTSUP;
        break;
    }
    if (rc != RM_OK) {
        free(o);
        return rc;
    }
    *out = o;
    return RM_OK;
}

int rm_obj_delete(rm_obj_t o)
{
    switch (o->kind) {
    case RM_OBJ_SEM:
        sem_destroy(&o->sem);
        break;
    case RM_OBJ_MUTEX:
        pthread_mutex_destroy(&o->mutex);
        break;
    case RM_OBJ_EVENT:
    case RM_OBJ_CONDVAR:
        pthread_cond_destroy(&o->cond);
        pthread_mutex_destroy(&o->mutex);
        break;
    case RM_OBJ_QUEUE:
        mq_close(o->mq);
        break;
    case RM_OBJ_STREAM:
        close(o->pipe_fd[0]);
        close(o->pipe_fd[1]);
        break;
    default:
        break;
    }
    free(o);
    return RM_OK;
}

/* ---- the typed signal/wait calls (port.h) ---------------------------------
 * Functions here, not inline: on the host a call costs a nanosecond, below
 * the host clock's noise, and the kernel operations are system calls. */
rm_raw_t rm_sem_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return sem_post(&o->sem) == 0 ? RM_OK : RM_ERROR;
}

rm_raw_t rm_mutex_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return pthread_mutex_unlock(&o->mutex) == 0 ? RM_OK : RM_ERROR;
}

rm_raw_t rm_event_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    pthread_mutex_lock(&o->mutex);
    o->flags |= 1u;
    pthread_cond_broadcast(&o->cond);
    pthread_mutex_unlock(&o->mutex);
    return RM_OK;
}

rm_raw_t rm_condvar_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    pthread_mutex_lock(&o->mutex);
    pthread_cond_signal(&o->cond);
    pthread_mutex_unlock(&o->mutex);
    return RM_OK;
}

rm_raw_t rm_queue_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    return mq_send(o->mq, (const char *)msg, RM_MSG_SIZE, 0) == 0 ? RM_OK : RM_ERROR;
}

rm_raw_t rm_stream_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    return write(o->pipe_fd[1], msg, RM_MSG_SIZE) == (ssize_t)RM_MSG_SIZE ? RM_OK : RM_ERROR;
}

static int cond_wait_ticks(rm_obj_t o, uint32_t timeout, bool need_flag)
{
    int rc = 0;
    struct timespec dl = monotonic_in(timeout == RM_FOREVER ? 0u : timeout);
    pthread_mutex_lock(&o->mutex);
    pthread_cleanup_push(unlock_cleanup, &o->mutex);
    if (need_flag) {
        while ((o->flags & 1u) == 0u && rc == 0) {
            if (timeout == RM_NO_WAIT) {
                rc = ETIMEDOUT;
            } else if (timeout == RM_FOREVER) {
                rc = pthread_cond_wait(&o->cond, &o->mutex);
            } else {
                rc = pthread_cond_timedwait(&o->cond, &o->mutex, &dl);
            }
        }
        if (rc == 0) {
            o->flags &= ~1u;
        }
    } else if (timeout == RM_NO_WAIT) {
        rc = ETIMEDOUT; /* a condition variable is never "already signalled" */
    } else if (timeout == RM_FOREVER) {
        rc = pthread_cond_wait(&o->cond, &o->mutex);
    } else {
        rc = pthread_cond_timedwait(&o->cond, &o->mutex, &dl);
    }
    pthread_cleanup_pop(1);
    if (rc == 0) {
        return RM_OK;
    }
    if (rc == ETIMEDOUT) {
        return rm_wait_failed(timeout);
    }
    return RM_ERROR;
}

static int mq_wait_ticks(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    char buf[RM_MSG_SIZE];
    ssize_t n;
    if (timeout == RM_FOREVER) {
        while ((n = mq_receive(o->mq, buf, sizeof buf, NULL)) < 0 && errno == EINTR) {
        }
    } else {
        struct timespec dl = realtime_in(timeout);
        while ((n = mq_timedreceive(o->mq, buf, sizeof buf, NULL, &dl)) < 0 &&
               errno == EINTR) {
        }
    }
    if (n == (ssize_t)RM_MSG_SIZE) {
        if (msg != NULL) {
            memcpy(msg, buf, RM_MSG_SIZE);
        }
        return RM_OK;
    }
    if (n < 0 && errno == ETIMEDOUT) {
        return rm_wait_failed(timeout);
    }
    return RM_ERROR;
}

static int pipe_wait_ticks(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    if (timeout != RM_FOREVER) {
        struct pollfd pf = {.fd = o->pipe_fd[0], .events = POLLIN};
        int64_t ms = timeout; /* one tick = 1 ms */
        int rc;
        while ((rc = poll(&pf, 1, (int)ms)) < 0 && errno == EINTR) {
        }
        if (rc == 0) {
            return rm_wait_failed(timeout);
        }
    }
    rm_msg_t tmp;
    size_t got = 0;
    while (got < RM_MSG_SIZE) {
        ssize_t n = read(o->pipe_fd[0], (char *)&tmp + got, RM_MSG_SIZE - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return RM_ERROR;
        }
        got += (size_t)n;
    }
    if (msg != NULL) {
        *msg = tmp;
    }
    return RM_OK;
}

rm_raw_t rm_sem_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return sem_wait_ticks(&o->sem, timeout);
}

rm_raw_t rm_mutex_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    int rc;
    if (timeout == RM_FOREVER) {
        rc = pthread_mutex_lock(&o->mutex);
    } else if (timeout == RM_NO_WAIT) {
        rc = pthread_mutex_trylock(&o->mutex);
        rc = rc == EBUSY ? ETIMEDOUT : rc;
    } else {
        /* PI futexes time out against CLOCK_REALTIME */
        struct timespec dl = realtime_in(timeout);
        rc = pthread_mutex_timedlock(&o->mutex, &dl);
    }
    if (rc == ETIMEDOUT) {
        return rm_wait_failed(timeout);
    }
    return rc == 0 ? RM_OK : RM_ERROR;
}

rm_raw_t rm_event_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return cond_wait_ticks(o, timeout, true);
}

rm_raw_t rm_condvar_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return cond_wait_ticks(o, timeout, false);
}

rm_raw_t rm_queue_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return mq_wait_ticks(o, msg, timeout);
}

rm_raw_t rm_stream_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return pipe_wait_ticks(o, msg, timeout);
}

/* ---- memory: a port-provided fixed-block pool (POSIX has none) ------------ */
struct rm_pool {
    pthread_mutex_t lock;
    void *free_list;
};

int rm_pool_create(rm_pool_t *out, uint32_t block_size, uint32_t count)
{
    if (block_size < sizeof(void *) || count == 0u) {
        return RM_ERROR;
    }
    struct rm_pool *p = calloc(1, sizeof *p);
    char *mem = calloc(count, block_size);
    if (p == NULL || mem == NULL) {
        free(p);
        free(mem);
        return RM_ERROR;
    }
    pthread_mutex_init(&p->lock, NULL);
    for (uint32_t i = 0; i < count; i++) {
        void **blk = (void **)(void *)(mem + (size_t)i * block_size);
        *blk = p->free_list;
        p->free_list = blk;
    }
    *out = p; /* pools live as long as the program (no delete in port.h) */
    return RM_OK;
}

rm_raw_t rm_pool_alloc_raw(rm_pool_t p, void **block)
{
    pthread_mutex_lock(&p->lock);
    void **blk = p->free_list;
    if (blk != NULL) {
        p->free_list = *blk;
    }
    pthread_mutex_unlock(&p->lock);
    *block = blk;
    return blk != NULL ? RM_OK : RM_EAGAIN;
}

rm_raw_t rm_pool_free_raw(rm_pool_t p, void *block)
{
    pthread_mutex_lock(&p->lock);
    *(void **)block = p->free_list;
    p->free_list = block;
    pthread_mutex_unlock(&p->lock);
    return RM_OK;
}

rm_raw_t rm_heap_alloc_raw(size_t size, void **mem)
{
    *mem = malloc(size);
    return *mem != NULL ? RM_OK : RM_ERROR;
}

rm_raw_t rm_heap_free_raw(void *mem)
{
    free(mem);
    return RM_OK;
}

/* ---- interrupts: a highest-priority thread stands in for the line ------ */
static sem_t irq_sem;
static rm_isr_t volatile irq_handler;

static void irq_thread(void *arg)
{
    (void)arg;
    for (;;) {
        while (sem_wait(&irq_sem) != 0 && errno == EINTR) {
        }
        rm_isr_t isr = irq_handler;
        if (isr != NULL) {
            isr();
        }
    }
}

int rm_port_irq_connect(rm_isr_t isr)
{
    irq_handler = isr; /* the thread is started by main() */
    return RM_OK;
}

void rm_posix_irq_trigger(void)
{
    (void)sem_post(&irq_sem);
}

int rm_isr_resume(rm_thread_t t)
{
    return rm_thread_resume(t);
}

int rm_isr_sem_signal(rm_obj_t o)
{
    return rm_sem_signal(o, NULL);
}

/* ---- start-up and description ------------------------------------------- */
/* Linux RT throttling: SCHED_FIFO threads together get at most runtime_us
 * of every period_us (default 950000 of 1000000; -1 = no limit), so a
 * thread that spins for longer than that is stopped for the rest of the
 * period (a 50 ms hole in a throughput count or a latency sample). Recorded
 * as read, one CFG line per file. */
static void emit_proc_cfg(const char *key, const char *path)
{
    char buf[32] = "";
    FILE *f = fopen(path, "r");
    if (f == NULL || fgets(buf, sizeof buf, f) == NULL) {
        snprintf(buf, sizeof buf, "unknown (%s)", strerror(errno));
    }
    if (f != NULL) {
        fclose(f);
    }
    buf[strcspn(buf, "\n")] = '\0';
    rm_emit_cfg(key, buf);
}

void rm_port_describe(void)
{
    struct utsname u;
    char buf[200];
    if (uname(&u) == 0) {
        snprintf(buf, sizeof buf, "%s %s %s", u.sysname, u.release, u.machine);
        rm_emit_cfg("kernel", buf);
    }
    rm_emit_cfg("libc", gnu_get_libc_version());
    rm_emit_cfg("sched", sched_note);
    rm_emit_cfg("cpu", cpu_note);
    emit_proc_cfg("sched_rt_runtime_us", "/proc/sys/kernel/sched_rt_runtime_us");
    emit_proc_cfg("sched_rt_period_us", "/proc/sys/kernel/sched_rt_period_us");
    rm_emit_cfg("prio_map", "native = 10 + prio (SCHED_FIFO 11..41), irq thread 50");
    rm_emit_cfg("tick", "1000 Hz emulated (CLOCK_MONOTONIC ms, clock_nanosleep)");
    rm_emit_cfg("irq", "thread");
    rm_emit_cfg("stand_in.IRQ", "a highest-priority thread woken by a semaphore (no interrupts "
                                "in a Linux process)");
    rm_emit_cfg("suspend", "per-thread semaphore; other threads via signal");
    rm_emit_cfg("queue", "POSIX mq");
    rm_emit_cfg("stream", "pipe");
    rm_emit_cfg("stand_in.POOL", "the port's own fixed-block free list under a pthread mutex "
                                 "(POSIX has no block pool)");
    rm_emit_cfg("heap", "malloc (glibc)");
    rm_emit_cfg("mutex", "pthread_mutex PTHREAD_PRIO_INHERIT");
    rm_emit_cfg("stand_in.EVENT", "a flag word under a mutex and condition variable (POSIX has "
                                  "no event flags)");
}

/* ---- run-time capabilities and the record lock --------------------------- */
/* Without SCHED_FIFO, priorities are not enforced: withdraw what needs them. */
#define RT_CAPS                                                                 \
    (RM_CAP_THREAD | RM_CAP_SUSPEND | RM_CAP_PREEMPTIVE | RM_CAP_SLEEP_UNTIL |    \
     RM_CAP_IRQ | RM_CAP_ISR_RESUME | RM_CAP_ISR_SIGNAL)

uint32_t rm_port_caps(void)
{
    uint32_t caps = (uint32_t)(RM_PORT_CAPS);
    return sched_fifo ? caps : caps & ~(uint32_t)(RT_CAPS);
}

const char *rm_port_caps_note(void)
{
    return sched_fifo ? NULL : caps_note;
}

static pthread_mutex_t rec_lock;
static sigset_t rec_blocked; /* the suspend signal */
static __thread sigset_t rec_saved_mask;
static __thread int rec_saved_cancel;

void rm_port_sched_lock(void)
{
    /* Neither cancelled (rm_thread_delete) nor suspended while holding it. */
    (void)pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &rec_saved_cancel);
    (void)pthread_sigmask(SIG_BLOCK, &rec_blocked, &rec_saved_mask);
    (void)pthread_mutex_lock(&rec_lock);
}

void rm_port_sched_unlock(void)
{
    (void)pthread_mutex_unlock(&rec_lock);
    (void)pthread_sigmask(SIG_SETMASK, &rec_saved_mask, NULL);
    (void)pthread_setcancelstate(rec_saved_cancel, NULL);
}

static void rec_lock_init(void)
{
    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
    /* A less urgent writer holding it is boosted past a spinning thread. */
    pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
    pthread_mutex_init(&rec_lock, &ma);
    pthread_mutexattr_destroy(&ma);
    sigemptyset(&rec_blocked);
    sigaddset(&rec_blocked, suspend_signal);
}

/* Pin the process (and so every thread it creates) to the last CPU it may
 * use; CFG cpu records which, or why not. */
static void pin_one_cpu(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        snprintf(cpu_note, sizeof cpu_note, "not pinned (sched_getaffinity: %s)",
                 strerror(errno));
        return;
    }
    for (int cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--) {
        if (CPU_ISSET(cpu, &set)) {
            CPU_ZERO(&set);
            CPU_SET(cpu, &set);
            if (sched_setaffinity(0, sizeof set, &set) == 0) {
                snprintf(cpu_note, sizeof cpu_note, "%d", cpu);
            } else {
                snprintf(cpu_note, sizeof cpu_note, "not pinned (sched_setaffinity: %s)",
                         strerror(errno));
            }
            return;
        }
    }
}

static void setup_scheduling(void)
{
    pin_one_cpu();
    struct sched_param sp = {.sched_priority = NATIVE_MAIN};
    int rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
    if (rc != 0) {
        sched_fifo = false;
        snprintf(sched_note, sizeof sched_note, "SCHED_OTHER (fallback: %s)", strerror(rc));
        snprintf(caps_note, sizeof caps_note,
                 "SCHED_FIFO refused (%s): run as root or raise RLIMIT_RTPRIO / grant "
                 "CAP_SYS_NICE",
                 strerror(rc));
        fprintf(stderr,
                "rtosmeter posix port: warning: SCHED_FIFO not permitted (%s); "
                "running with SCHED_OTHER, priorities are not enforced and the "
                "results are not comparable: the cases that need real priorities are "
                "reported unsupported. Run as root, raise RLIMIT_RTPRIO or grant "
                "CAP_SYS_NICE.\n",
                strerror(rc));
    }
}

int main(void)
{
    rm_target_init();
    clock_gettime(CLOCK_MONOTONIC, &t_start);
    setup_scheduling();

    suspend_signal = SIGRTMIN;
    struct sigaction sa = {0};
    sa.sa_handler = on_suspend_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(suspend_signal, &sa, NULL);
    rec_lock_init();

    sem_init(&irq_sem, 0, 0);
    rm_thread_t irq, runner;
    if (thread_new(&irq, "rm_irq", irq_thread, NULL, RM_PRIO_RUNNER + 1, 0) != RM_OK ||
        rm_thread_create(&runner, "rm_runner", rm_runner_main, NULL, RM_PRIO_RUNNER, 0) !=
            RM_OK) {
        fprintf(stderr, "Error: thread creation failed in the posix port (%s). "
                        "Check ulimit -u and memory.\n", strerror(errno));
        return 2;
    }
    pthread_join(runner->pt, NULL); /* the runner ends the process */
    return 0;
}
