/* os_cfg.h for rtosmeter's µC/OS-III port: one kernel configuration per
 * profile (rtosmeter's own file, not a copy of the kernel's template).
 *
 * port.cmake sets RM_UC_VENDOR from the CMake variable RM_PROFILE:
 *   RM_UC_VENDOR=0  "default", the benchmark profile of docs/benchmarks.md:
 *                   argument, object-type, created-object, invalid-call and
 *                   called-from-ISR checks off; statistics task, timer task,
 *                   task profiling and application hooks off.
 *   RM_UC_VENDOR=1  "vendor": the values of Cfg/Template/os_cfg.h shipped
 *                   with µC/OS-III v3.08 (every check on, statistics task
 *                   with stack checking, timer task, task profiling,
 *                   application hooks); round-robin scheduling enabled with
 *                   the kernel's default quantum (port.c).
 * Both keep the template's OS_CFG_PRIO_MAX (64), tick rate (1000 Hz, the
 * fairness rule's rate too), OS_CFG_SCHED_ROUND_ROBIN_EN (the yield,
 * OSSchedRoundRobinYield, needs it: the default profile gives every task an
 * endless quantum so that nothing is time-sliced), task semaphores and task
 * queues (NOTIFY, THREAD_MSG). On the host (RM_UC3_POSIX) the kernel's
 * POSIX port needs OS_CFG_DBG_EN (CFG debug_fields says so).
 * The lowpower profile (rm_build_config.h RM_IDLE_KERNEL, docs/idle.md) is
 * default's configuration plus the application hooks, of which only the idle
 * task's is installed (app_hooks.c: WFI). OS_CFG_DYN_TICK_EN stays 0 (see
 * docs/idle.md): every tick wakes the idle task.
 */
#ifndef OS_CFG_H
#define OS_CFG_H

#include "../ucos_common/uc_os_cfg.h" /* the idle and profile, shared with µC/OS-II */

/* ---- miscellaneous ------------------------------------------------------ */
#define OS_CFG_APP_HOOKS_EN (RM_UC_ON_VENDOR | RM_UC_IDLE_WFI)
#define OS_CFG_ARG_CHK_EN RM_UC_ON_VENDOR
#define OS_CFG_CALLED_FROM_ISR_CHK_EN RM_UC_ON_VENDOR
/* The POSIX port (host) starts each task's thread from the TCB's
 * TaskEntryAddr/TaskEntryArg, which exist only with the debug fields on. */
#if RM_UC3_POSIX
#define OS_CFG_DBG_EN 1u
#else
#define OS_CFG_DBG_EN 0u
#endif
#define OS_CFG_TICK_EN 1u
#define OS_CFG_DYN_TICK_EN 0u
#define OS_CFG_INVALID_OS_CALLS_CHK_EN RM_UC_ON_VENDOR
#define OS_CFG_OBJ_TYPE_CHK_EN RM_UC_ON_VENDOR
#define OS_CFG_OBJ_CREATED_CHK_EN RM_UC_ON_VENDOR
#define OS_CFG_TS_EN 0u
#define OS_CFG_PRIO_MAX 64u
#define OS_CFG_SCHED_LOCK_TIME_MEAS_EN 0u
#define OS_CFG_SCHED_ROUND_ROBIN_EN 1u
#define OS_CFG_STK_SIZE_MIN 64u

/* ---- event flags -------------------------------------------------------- */
#define OS_CFG_FLAG_EN 1u
#define OS_CFG_FLAG_DEL_EN 1u
#define OS_CFG_FLAG_MODE_CLR_EN RM_UC_ON_VENDOR
#define OS_CFG_FLAG_PEND_ABORT_EN RM_UC_ON_VENDOR

/* ---- memory management -------------------------------------------------- */
#define OS_CFG_MEM_EN 1u

/* ---- mutual exclusion semaphores ----------------------------------------- */
#define OS_CFG_MUTEX_EN 1u
#define OS_CFG_MUTEX_DEL_EN 1u
#define OS_CFG_MUTEX_PEND_ABORT_EN RM_UC_ON_VENDOR

/* ---- message queues -------------------------------------------------------- */
#define OS_CFG_Q_EN 1u
#define OS_CFG_Q_DEL_EN 1u
#define OS_CFG_Q_FLUSH_EN 1u
#define OS_CFG_Q_PEND_ABORT_EN RM_UC_ON_VENDOR

/* ---- semaphores -------------------------------------------------------------- */
#define OS_CFG_SEM_EN 1u
#define OS_CFG_SEM_DEL_EN 1u
#define OS_CFG_SEM_PEND_ABORT_EN RM_UC_ON_VENDOR
#define OS_CFG_SEM_SET_EN RM_UC_ON_VENDOR

/* ---- task management ---------------------------------------------------------- */
#define OS_CFG_STAT_TASK_EN RM_UC_ON_VENDOR
#define OS_CFG_STAT_TASK_STK_CHK_EN RM_UC_ON_VENDOR
#define OS_CFG_TASK_CHANGE_PRIO_EN 1u
#define OS_CFG_TASK_DEL_EN 1u
#define OS_CFG_TASK_IDLE_EN 1u
#define OS_CFG_TASK_PROFILE_EN RM_UC_ON_VENDOR
#define OS_CFG_TASK_Q_EN 1u
#define OS_CFG_TASK_Q_PEND_ABORT_EN RM_UC_ON_VENDOR
#define OS_CFG_TASK_REG_TBL_SIZE RM_UC_ON_VENDOR
#define OS_CFG_TASK_STK_REDZONE_EN 0u
#define OS_CFG_TASK_STK_REDZONE_DEPTH 8u
#define OS_CFG_TASK_SEM_PEND_ABORT_EN RM_UC_ON_VENDOR
#define OS_CFG_TASK_SUSPEND_EN 1u

/* ---- task local storage ---------------------------------------------------------- */
#define OS_CFG_TLS_TBL_SIZE 0u

/* ---- time management --------------------------------------------------------------- */
#define OS_CFG_TIME_DLY_HMSM_EN RM_UC_ON_VENDOR
#define OS_CFG_TIME_DLY_RESUME_EN RM_UC_ON_VENDOR

/* ---- timer management ----------------------------------------------------------------- */
#define OS_CFG_TMR_EN RM_UC_ON_VENDOR
#define OS_CFG_TMR_DEL_EN RM_UC_ON_VENDOR

/* ---- trace -------------------------------------------------------------------------------- */
#define OS_CFG_TRACE_EN 0u
#define OS_CFG_TRACE_API_ENTER_EN 0u
#define OS_CFG_TRACE_API_EXIT_EN 0u

#endif /* OS_CFG_H */
