/* µC/OS-III on the host: what the kernel's POSIX port needs, checked before
 * the kernel can refuse it.
 *
 * The POSIX port (uC-OS3 Ports/POSIX/GNU, uC-CPU POSIX/GNU) runs every task
 * as a SCHED_RR pthread at priority 50 and the tick as a SCHED_RR thread at
 * the highest priority. A task thread it cannot create raises SIGABRT; the
 * tick thread's failure is not even checked (sleeps would never end). And
 * its OSInitHook calls exit(-1) unless RLIMIT_RTPRIO is unlimited, a proxy
 * for "SCHED_RR is permitted" that is wrong both ways: root with
 * CAP_SYS_NICE may use SCHED_RR whatever the limit (a container's root may
 * lack CAP_SYS_RESOURCE and be unable to raise a hard limit of 0), and a
 * cgroup without real-time runtime refuses SCHED_RR under any limit. So,
 * before OSInit, rm_uc3_host_can_start():
 * - raises RLIMIT_RTPRIO's soft limit to its hard limit (any process may);
 * - creates and joins one thread with the kernel's attributes (SCHED_RR at
 *   the highest priority): the permission itself, tested.
 * If Linux refuses it, the kernel is not started: main() runs the runner on
 * the process's own thread, rm_port_caps() withdraws every capability and
 * rm_port_caps_note() says why, so each case is reported unsupported with
 * the reason, the calibration still runs, and nothing hangs or exits early;
 * a warning on stderr says the same. If Linux permits it, the kernel's own
 * check is answered from that test: port.cmake links the kernel with
 * --wrap=getrlimit, and __wrap_getrlimit reports RLIMIT_RTPRIO unlimited
 * once SCHED_RR has been seen to work (CFG rlimit_rtprio records the real
 * limit and this answer). No figure depends on it: it runs in OSInit.
 *
 * Deleting a task: the POSIX port's OSTaskDelHook cancels the task's thread,
 * which sleeps in sem_wait on the task's extension record, and frees that
 * record at once. The thread acts on the cancellation later and, leaving
 * sem_wait, decrements the waiter count of a semaphore in memory that
 * malloc may meanwhile have given to the next task created: that task's
 * semaphore then counts no waiter, sem_post wakes nobody, and the kernel
 * hangs (seen in lat.mutex.inheritance after lat.mutex.pass deleted its
 * tasks). rm_thread_delete therefore joins the thread (rm_uc3_host_task_
 * join) before anything can be allocated: the late decrement lands in the
 * freed block past malloc's own fields, and the thread's stack is freed
 * too (the kernel's port never joins).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "rtosmeter/bench.h"

bool rm_uc3_host_can_start(void); /* port.c's main, before OSInit */
void rm_uc3_host_describe(void);  /* port.c's rm_port_describe */
unsigned long rm_uc3_host_task_thread(const OS_TCB *tcb); /* port.c's rm_thread_delete */
void rm_uc3_host_task_join(unsigned long thread);
int __real_getrlimit(__rlimit_resource_t resource, struct rlimit *rl);
int __wrap_getrlimit(__rlimit_resource_t resource, struct rlimit *rl);

static bool kernel_can_start;
static char rlimit_note[192];
static char caps_note[256];

static void *rr_probe(void *arg)
{
    return arg;
}

/* A SCHED_RR thread at the highest priority, as uC-CPU's tick thread: 0 or
 * pthread_create's error. */
static int try_sched_rr(void)
{
    pthread_attr_t a;
    struct sched_param sp = {.sched_priority = sched_get_priority_max(SCHED_RR)};
    pthread_t t;
    pthread_attr_init(&a);
    pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
    pthread_attr_setschedpolicy(&a, SCHED_RR);
    pthread_attr_setschedparam(&a, &sp);
    int rc = pthread_create(&t, &a, rr_probe, NULL);
    pthread_attr_destroy(&a);
    if (rc == 0)
        (void)pthread_join(t, NULL);
    return rc;
}

static void limit_text(char *out, size_t n, rlim_t v)
{
    if (v == RLIM_INFINITY)
        snprintf(out, n, "unlimited");
    else
        snprintf(out, n, "%lu", (unsigned long)v);
}

/* RLIMIT_RTPRIO's soft limit raised to the hard one; its value as text. */
static void raise_rtprio(char *out, size_t n)
{
    struct rlimit rl;
    if (__real_getrlimit(RLIMIT_RTPRIO, &rl) != 0) {
        snprintf(out, n, "unknown (getrlimit: %s)", strerror(errno));
        return;
    }
    if (rl.rlim_cur != rl.rlim_max) {
        struct rlimit raised = {rl.rlim_max, rl.rlim_max};
        if (setrlimit(RLIMIT_RTPRIO, &raised) == 0)
            rl.rlim_cur = rl.rlim_max;
    }
    limit_text(out, n, rl.rlim_cur);
}

bool rm_uc3_host_can_start(void)
{
    char limit[48];
    raise_rtprio(limit, sizeof limit);
    int err = try_sched_rr();
    kernel_can_start = err == 0;
    if (kernel_can_start) {
        snprintf(rlimit_note, sizeof rlimit_note,
                 strcmp(limit, "unlimited") == 0
                     ? "%s"
                     : "%s (SCHED_RR is permitted: the kernel's check for unlimited is "
                       "answered unlimited)",
                 limit);
        return true;
    }
    snprintf(rlimit_note, sizeof rlimit_note, "%s", limit);
    snprintf(caps_note, sizeof caps_note,
             "uC/OS-III's POSIX port needs SCHED_RR, refused (%.64s; RLIMIT_RTPRIO %s): run as "
             "root or raise RLIMIT_RTPRIO to unlimited",
             strerror(err), limit);
    fprintf(stderr,
            "rtosmeter ucos3 port: warning: the kernel was not started: %s. Every case that "
            "needs the kernel is reported unsupported.\n",
            caps_note);
    return false;
}

/* The task's thread: the first member of the POSIX port's task extension
 * (os_cpu_c.c, OS_TCB_EXT_POSIX), which OSTaskCreateHook puts in ExtPtr. */
unsigned long rm_uc3_host_task_thread(const OS_TCB *tcb)
{
    _Static_assert(sizeof(pthread_t) == sizeof(unsigned long), "pthread_t is not a long");
    return (unsigned long)*(const pthread_t *)tcb->ExtPtr;
}

/* After OSTaskDel cancelled it: wait until it is gone. With the tick
 * signal blocked, as the kernel deletes: joining frees the thread's memory,
 * and the tick's handler frees memory too (uC-CPU's CPU_ISR_End), which
 * must not interrupt a free() of the same thread. */
void rm_uc3_host_task_join(unsigned long thread)
{
    CPU_SR_ALLOC();
    CPU_CRITICAL_ENTER();
    (void)pthread_join((pthread_t)thread, NULL);
    CPU_CRITICAL_EXIT();
}

/* The kernel's OSInitHook: RLIMIT_RTPRIO "unlimited" once SCHED_RR works. */
int __wrap_getrlimit(__rlimit_resource_t resource, struct rlimit *rl)
{
    int rc = __real_getrlimit(resource, rl);
    if (rc == 0 && kernel_can_start && resource == RLIMIT_RTPRIO)
        rl->rlim_cur = rl->rlim_max = RLIM_INFINITY;
    return rc;
}

void rm_uc3_host_describe(void)
{
    rm_emit_cfg("rlimit_rtprio", rlimit_note);
    rm_emit_cfg("sched", kernel_can_start
                             ? "SCHED_RR: tasks at 50, the tick thread at the highest "
                               "priority (the kernel's POSIX port)"
                             : caps_note);
    rm_emit_cfg("kernel_started", kernel_can_start ? "yes" : "no");
}

uint32_t rm_port_caps(void)
{
    return kernel_can_start ? (uint32_t)(RM_PORT_CAPS) : 0u;
}

const char *rm_port_caps_note(void)
{
    return kernel_can_start ? NULL : caps_note;
}
