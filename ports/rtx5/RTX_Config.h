/* RTX_Config.h for rtosmeter: RTX5's configuration, one per profile (this
 * file replaces the template the CMSIS-RTX pack ships in Config/; every value
 * is written here, nothing is read from the template).
 *
 * port.cmake defines RM_RTX_VENDOR:
 *   0  "default", the benchmark profile of docs/benchmarks.md: 1000 Hz tick,
 *      round-robin off, thread stack check off, event hooks compiled out, no
 *      safety features.
 *   1  "vendor": the template's values (CMSIS-RTX Config/RTX_Config.h,
 *      version 5.6.1 of the pack at 5.9.1): round-robin on with a 5-tick
 *      slice, stack overflow check on, event hooks compiled in, 1000 Hz tick.
 * Both profiles share what the template leaves to the application: the
 * size of the dynamic memory that threads, stacks and objects come from
 * (RM_RTX_DYN_MEM, sized for the benchmark's threads on each target), the
 * idle and timer thread stacks, the ISR queue. No event recorder component
 * in either (RTE_Components.h does not enable it).
 */
#ifndef RTX_CONFIG_H_
#define RTX_CONFIG_H_

#ifndef RM_RTX_VENDOR
#define RM_RTX_VENDOR 0
#endif

/* ---- system ------------------------------------------------------------ */
#ifndef RM_RTX_DYN_MEM
#define RM_RTX_DYN_MEM 131072
#endif
#define OS_DYNAMIC_MEM_SIZE RM_RTX_DYN_MEM
#define OS_TICK_FREQ 1000
#if RM_RTX_VENDOR
#define OS_ROBIN_ENABLE 1
#else
#define OS_ROBIN_ENABLE 0
#endif
#define OS_ROBIN_TIMEOUT 5
#define OS_SAFETY_FEATURES 0
#define OS_SAFETY_CLASS 1
#define OS_EXECUTION_ZONE 1
#define OS_THREAD_WATCHDOG 1
#define OS_OBJ_PTR_CHECK 0
#define OS_SVC_PTR_CHECK 0
#define OS_ISR_FIFO_QUEUE 16
#define OS_OBJ_MEM_USAGE 0

/* ---- threads ----------------------------------------------------------- */
#define OS_THREAD_OBJ_MEM 0
#define OS_THREAD_NUM 1
#define OS_THREAD_DEF_STACK_NUM 0
#define OS_THREAD_USER_STACK_SIZE 0
#define OS_STACK_SIZE 1024
#ifndef RM_RTX_IDLE_STACK
#define RM_RTX_IDLE_STACK 512
#endif
#define OS_IDLE_THREAD_STACK_SIZE RM_RTX_IDLE_STACK
#define OS_IDLE_THREAD_TZ_MOD_ID 0
#define OS_IDLE_THREAD_CLASS 0
#define OS_IDLE_THREAD_ZONE 0
#if RM_RTX_VENDOR
#define OS_STACK_CHECK 1
#else
#define OS_STACK_CHECK 0
#endif
#define OS_STACK_WATERMARK 0
#define OS_PRIVILEGE_MODE 1

/* ---- timers (no user timers: the timer thread is never created) -------- */
#define OS_TIMER_OBJ_MEM 0
#define OS_TIMER_NUM 1
#define OS_TIMER_THREAD_PRIO 40
#define OS_TIMER_THREAD_STACK_SIZE 512
#define OS_TIMER_THREAD_TZ_MOD_ID 0
#define OS_TIMER_THREAD_CLASS 0
#define OS_TIMER_THREAD_ZONE 0
#define OS_TIMER_CB_QUEUE 4

/* ---- objects: all from the dynamic memory ----------------------------- */
#define OS_EVFLAGS_OBJ_MEM 0
#define OS_EVFLAGS_NUM 1
#define OS_MUTEX_OBJ_MEM 0
#define OS_MUTEX_NUM 1
#define OS_SEMAPHORE_OBJ_MEM 0
#define OS_SEMAPHORE_NUM 1
#define OS_MEMPOOL_OBJ_MEM 0
#define OS_MEMPOOL_NUM 1
#define OS_MEMPOOL_DATA_SIZE 0
#define OS_MSGQUEUE_OBJ_MEM 0
#define OS_MSGQUEUE_NUM 1
#define OS_MSGQUEUE_DATA_SIZE 0

/* ---- event recorder (inactive without the recorder component) --------- */
#define OS_EVR_INIT 0
#define OS_EVR_START 1
#define OS_EVR_LEVEL 0x00U
#define OS_EVR_MEMORY_LEVEL 0x81U
#define OS_EVR_KERNEL_LEVEL 0x81U
#define OS_EVR_THREAD_LEVEL 0x85U
#define OS_EVR_WAIT_LEVEL 0x81U
#define OS_EVR_THFLAGS_LEVEL 0x81U
#define OS_EVR_EVFLAGS_LEVEL 0x81U
#define OS_EVR_TIMER_LEVEL 0x81U
#define OS_EVR_MUTEX_LEVEL 0x81U
#define OS_EVR_SEMAPHORE_LEVEL 0x81U
#define OS_EVR_MEMPOOL_LEVEL 0x81U
#define OS_EVR_MSGQUEUE_LEVEL 0x81U
/* The per-group event hooks: as the template ships them (1) in the vendor
 * profile, where each kernel call then calls RTX's event function, an empty
 * one without the recorder component; compiled out (0) in the default
 * profile (fairness rule: tracing off). */
#if RM_RTX_VENDOR
#define RM_RTX_EVR 1
#else
#define RM_RTX_EVR 0
#endif
#define OS_EVR_MEMORY RM_RTX_EVR
#define OS_EVR_KERNEL RM_RTX_EVR
#define OS_EVR_THREAD RM_RTX_EVR
#define OS_EVR_WAIT RM_RTX_EVR
#define OS_EVR_THFLAGS RM_RTX_EVR
#define OS_EVR_EVFLAGS RM_RTX_EVR
#define OS_EVR_TIMER RM_RTX_EVR
#define OS_EVR_MUTEX RM_RTX_EVR
#define OS_EVR_SEMAPHORE RM_RTX_EVR
#define OS_EVR_MEMPOOL RM_RTX_EVR
#define OS_EVR_MSGQUEUE RM_RTX_EVR

/* newlib has no libspace: RTX's ARM-compiler C library glue is unused. */
#define OS_THREAD_LIBSPACE_NUM 4

#endif /* RTX_CONFIG_H_ */
