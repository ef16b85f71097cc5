/* rtconfig.h for rtosmeter: RT-Thread's configuration, one per profile
 * (this file replaces the template RT-Thread Nano ships in
 * bsp/_template/rtconfig.h; every value is written here).
 *
 * port.cmake defines RM_RTT_VENDOR:
 *   0  "default", the benchmark profile of docs/benchmarks.md: 1000 Hz tick,
 *      kernel debug (RT_DEBUG, assertions), stack overflow check and hooks
 *      off; port.c gives every thread a time slice that never runs out
 *      (time slicing off).
 *   1  "vendor": the template's values (RT-Thread Nano 4.1.1,
 *      bsp/_template/rtconfig.h): 1000 Hz tick, 32 priorities, alignment 4,
 *      names of 8, components initialisation and user main on, main thread
 *      stack 256 bytes, RT_DEBUG / overflow check / hooks off as shipped;
 *      port.c gives threads the 20-tick slice RT-Thread gives its own main
 *      thread (time slicing on).
 * "lowpower" is "default" with the idle hook (RM_RTT_IDLE_HOOK, below).
 * Both profiles enable what the benchmark measures and the template leaves
 * to the application's wizard (mutex, event, message queue, memory pool,
 * off in the template): a kernel object the template leaves out would only
 * make its cases unsupported. RT_USING_SMALL_MEM_AS_HEAP is set in both: the
 * template's RT_USING_SMALL_MEM alone leaves rt_malloc returning NULL in
 * 4.1.1 (the kernel selects its heap with the *_AS_HEAP macros).
 */
#ifndef __RTTHREAD_CFG_H__
#define __RTTHREAD_CFG_H__

#ifndef RM_RTT_VENDOR
#define RM_RTT_VENDOR 0
#endif

/* ---- basic ------------------------------------------------------------- */
#define RT_THREAD_PRIORITY_MAX 32
#define RT_TICK_PER_SECOND 1000
#define RT_ALIGN_SIZE 4
#define RT_NAME_MAX 8
#define RT_USING_USER_MAIN
#if RM_RTT_VENDOR
#define RT_USING_COMPONENTS_INIT
#define RT_MAIN_THREAD_STACK_SIZE 256
#else
#define RT_MAIN_THREAD_STACK_SIZE 512
#endif
#define RT_DEBUG_INIT 0

/* ---- debug, checks and hooks: off in both (the template ships them off) */
/* #define RT_DEBUG */
/* #define RT_USING_OVERFLOW_CHECK */
/* #define RT_USING_HOOK */
#if RM_RTT_IDLE_HOOK
/* lowpower (port.cmake: the profile's idle = "kernel"): the idle thread
 * calls the hook port.c sets with rt_thread_idle_sethook, WFI. */
#define RT_USING_IDLE_HOOK
#endif

/* ---- software timers: off (timeouts expire in the tick interrupt) ------- */
#define RT_TIMER_THREAD_PRIO 4
#define RT_TIMER_THREAD_STACK_SIZE 512

/* ---- IPC --------------------------------------------------------------- */
#define RT_USING_SEMAPHORE
#define RT_USING_MUTEX
#define RT_USING_EVENT
#define RT_USING_MAILBOX
#define RT_USING_MESSAGEQUEUE

/* ---- memory ------------------------------------------------------------ */
#define RT_USING_MEMPOOL
#define RT_USING_HEAP
#define RT_USING_SMALL_MEM
#define RT_USING_SMALL_MEM_AS_HEAP

/* ---- console and devices: none (rtosmeter writes its own stream) ------- */
#define RT_CONSOLEBUF_SIZE 256

#endif /* __RTTHREAD_CFG_H__ */
