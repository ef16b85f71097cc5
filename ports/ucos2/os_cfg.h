/* os_cfg.h for rtosmeter's µC/OS-II port: one kernel configuration per
 * profile (rtosmeter's own file, not a copy of the kernel's template).
 *
 * port.cmake sets RM_UC_VENDOR from the CMake variable RM_PROFILE:
 *   RM_UC_VENDOR=0  "default", the benchmark profile of docs/benchmarks.md:
 *                   argument checking, statistics task, timer task, debug
 *                   variables, names, profiling, application hooks off.
 *   RM_UC_VENDOR=1  "vendor": the values of Cfg/Template/os_cfg.h shipped
 *                   with µC/OS-II v2.93 (argument checking, statistics task
 *                   with stack checking, timer task at 10 Hz, debug
 *                   variables, names, task profiling, application hooks,
 *                   OSEventPendMulti, tick stepping).
 * Both profiles share what the port needs to exist at all, and say so here:
 * - OS_TICKS_PER_SEC 1000 (the template has 100; fairness rule: the same
 *   1000 Hz tick for every port);
 * - OS_LOWEST_PRIO 254, 130 on ARMv6-M (the template has 63): µC/OS-II gives every task its
 *   own priority, and the port maps rtosmeter's 31 shared levels onto bands
 *   of native priorities (port.c);
 * - OS_CPU_HOOKS_EN and OS_TASK_SW_HOOK_EN 1: the Cortex-M port's hooks set
 *   up the exception stack and save the FPU registers on a switch;
 * - the object counts (enough for every case) and, on the Cortex-M0 target
 *   (16 KiB of RAM), smaller tables and idle stack.
 * The lowpower profile (rm_build_config.h RM_IDLE_KERNEL, docs/idle.md) is
 * default's configuration plus the application hooks: the idle task's
 * OSTaskIdleHook calls App_TaskIdleHook (app_hooks.c), which executes WFI.
 * µC/OS-II has no tickless mode: every tick wakes the idle task.
 */
#ifndef OS_CFG_H
#define OS_CFG_H

#include "../ucos_common/uc_os_cfg.h" /* the idle and profile, shared with µC/OS-III */

/* ---- miscellaneous --------------------------------------------------- */
/* lowpower: App_TaskIdleHook is the WFI (the other application hooks are
 * empty, as in the vendor profile). */
#define OS_APP_HOOKS_EN (RM_UC_ON_VENDOR | RM_UC_IDLE_WFI)
#define OS_ARG_CHK_EN RM_UC_ON_VENDOR
#define OS_CPU_HOOKS_EN 1u
#define OS_DEBUG_EN RM_UC_ON_VENDOR
#define OS_EVENT_MULTI_EN RM_UC_ON_VENDOR
#define OS_EVENT_NAME_EN RM_UC_ON_VENDOR
#if defined(RM_RAM_SMALL)
#define OS_LOWEST_PRIO 130u /* priority bands of 4: port.c */
#else
#define OS_LOWEST_PRIO 254u
#endif
/* Kernel object counts: enough for every case; fewer on the Cortex-M0
 * target (16 KiB of RAM). */
#ifndef RM_UC_MAX_EVENTS
#if defined(RM_RAM_SMALL)
#define RM_UC_MAX_EVENTS 6u
#else
#define RM_UC_MAX_EVENTS 24u
#endif
#endif
#define OS_MAX_EVENTS RM_UC_MAX_EVENTS
#if defined(RM_RAM_SMALL)
#define OS_MAX_FLAGS 2u
#define OS_MAX_MEM_PART 1u
#define OS_MAX_QS 3u
#else
#define OS_MAX_FLAGS 8u
#define OS_MAX_MEM_PART 8u
#define OS_MAX_QS 8u
#endif
#ifndef RM_UC_MAX_TASKS
#if defined(RM_RAM_SMALL)
#define RM_UC_MAX_TASKS 15u
#else
#define RM_UC_MAX_TASKS 32u
#endif
#endif
#define OS_MAX_TASKS RM_UC_MAX_TASKS
#define OS_SCHED_LOCK_EN 1u
#define OS_TICK_STEP_EN RM_UC_ON_VENDOR
#define OS_TICKS_PER_SEC 1000u
#define OS_TLS_TBL_SIZE 0u

/* ---- task stack sizes (OS_STK entries) ---------------------------------- */
#define OS_TASK_TMR_STK_SIZE 128u
#define OS_TASK_STAT_STK_SIZE 128u
#if defined(RM_RAM_SMALL)
#define OS_TASK_IDLE_STK_SIZE 64u
#else
#define OS_TASK_IDLE_STK_SIZE 128u
#endif

/* ---- task management ------------------------------------------------- */
#define OS_TASK_CHANGE_PRIO_EN 1u
#define OS_TASK_CREATE_EN 1u
#define OS_TASK_CREATE_EXT_EN 1u
#define OS_TASK_DEL_EN 1u
#define OS_TASK_NAME_EN RM_UC_ON_VENDOR
#define OS_TASK_PROFILE_EN RM_UC_ON_VENDOR
#define OS_TASK_QUERY_EN 1u
#define OS_TASK_REG_TBL_SIZE RM_UC_ON_VENDOR
#define OS_TASK_STAT_EN RM_UC_ON_VENDOR
#define OS_TASK_STAT_STK_CHK_EN RM_UC_ON_VENDOR
#define OS_TASK_SUSPEND_EN 1u
#define OS_TASK_SW_HOOK_EN 1u

/* ---- event flags ------------------------------------------------------ */
#define OS_FLAG_EN 1u
#define OS_FLAG_ACCEPT_EN 1u
#define OS_FLAG_DEL_EN 1u
#define OS_FLAG_NAME_EN RM_UC_ON_VENDOR
#define OS_FLAG_QUERY_EN RM_UC_ON_VENDOR
#define OS_FLAG_WAIT_CLR_EN RM_UC_ON_VENDOR
#define OS_FLAGS_NBITS 16u

/* ---- mailboxes ---------------------------------------------------------- */
#define OS_MBOX_EN 1u
#define OS_MBOX_ACCEPT_EN 1u
#define OS_MBOX_DEL_EN 1u
#define OS_MBOX_PEND_ABORT_EN RM_UC_ON_VENDOR
#define OS_MBOX_POST_EN 1u
#define OS_MBOX_POST_OPT_EN RM_UC_ON_VENDOR
#define OS_MBOX_QUERY_EN RM_UC_ON_VENDOR

/* ---- memory partitions -------------------------------------------------- */
#define OS_MEM_EN 1u
#define OS_MEM_NAME_EN RM_UC_ON_VENDOR
#define OS_MEM_QUERY_EN RM_UC_ON_VENDOR

/* ---- mutual exclusion semaphores ----------------------------------------- */
#define OS_MUTEX_EN 1u
#define OS_MUTEX_ACCEPT_EN 1u
#define OS_MUTEX_DEL_EN 1u
#define OS_MUTEX_QUERY_EN RM_UC_ON_VENDOR

/* ---- message queues ------------------------------------------------------ */
#define OS_Q_EN 1u
#define OS_Q_ACCEPT_EN 1u
#define OS_Q_DEL_EN 1u
#define OS_Q_FLUSH_EN RM_UC_ON_VENDOR
#define OS_Q_PEND_ABORT_EN RM_UC_ON_VENDOR
#define OS_Q_POST_EN 1u
#define OS_Q_POST_FRONT_EN 1u
#define OS_Q_POST_OPT_EN RM_UC_ON_VENDOR
#define OS_Q_QUERY_EN RM_UC_ON_VENDOR

/* ---- semaphores ---------------------------------------------------------- */
#define OS_SEM_EN 1u
#define OS_SEM_ACCEPT_EN 1u
#define OS_SEM_DEL_EN 1u
#define OS_SEM_PEND_ABORT_EN RM_UC_ON_VENDOR
#define OS_SEM_QUERY_EN RM_UC_ON_VENDOR
#define OS_SEM_SET_EN RM_UC_ON_VENDOR

/* ---- time management ---------------------------------------------------- */
#define OS_TIME_DLY_HMSM_EN RM_UC_ON_VENDOR
#define OS_TIME_DLY_RESUME_EN RM_UC_ON_VENDOR
#define OS_TIME_GET_SET_EN 1u
#define OS_TIME_TICK_HOOK_EN RM_UC_ON_VENDOR

/* ---- timer management ---------------------------------------------------- */
#define OS_TMR_EN RM_UC_ON_VENDOR
#define OS_TMR_CFG_MAX 16u
#define OS_TMR_CFG_NAME_EN RM_UC_ON_VENDOR
#define OS_TMR_CFG_WHEEL_SIZE 7u
#define OS_TMR_CFG_TICKS_PER_SEC 10u

/* ---- trace --------------------------------------------------------------- */
#define OS_TRACE_EN 0u
#define OS_TRACE_API_ENTER_EN 0u
#define OS_TRACE_API_EXIT_EN 0u

#endif /* OS_CFG_H */
