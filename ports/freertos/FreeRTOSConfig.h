/* FreeRTOSConfig.h for rtosmeter: one kernel configuration per profile.
 *
 * port.cmake selects the profile from the CMake variable RM_PROFILE:
 *   RM_FREERTOS_VENDOR=0  "default", the benchmark profile of docs/benchmarks.md:
 *                         preemption on, time slicing off, 1000 Hz tick,
 *                         configASSERT, stack checks, tracing and run-time
 *                         statistics off.
 *   RM_FREERTOS_VENDOR=1  "vendor": what FreeRTOS ships (the kernel's own
 *                         defaults in FreeRTOS.h and the template in
 *                         examples/template_configuration): time slicing on,
 *                         configASSERT on, stack overflow check 2, handler
 *                         installation check on, generic task selection,
 *                         heap cleared on free.
 * Both profiles share the tick rate (fairness rule: the same 1000 Hz tick for
 * every port), the priority range, the heap and the task set (no timer task),
 * so they differ only in checks and scheduling policy.
 * RM_FREERTOS_POSIX=1 marks the host build (FreeRTOS's GCC_POSIX port).
 * RM_FREERTOS_VERSION (port.cmake, from the tree's task.h: V9.0.0 = 90000)
 * picks the spelling each kernel version understands; the configuration is
 * the same for all.
 */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#ifndef RM_FREERTOS_VENDOR
#define RM_FREERTOS_VENDOR 0
#endif
#ifndef RM_FREERTOS_POSIX
#define RM_FREERTOS_POSIX 0
#endif
#ifndef RM_FREERTOS_VERSION
#define RM_FREERTOS_VERSION 110100
#endif

/* ---- clocks and tick ------------------------------------------------- */
/* The kernel's own files see the target's clock too (RM_CPU_HZ). */
#if __has_include("rm_build_config.h")
#include "rm_build_config.h"
#endif
/* MPS2 machines (AN385/AN386/AN500) clock the core and SysTick at 25 MHz;
 * a target with another clock passes RM_CPU_HZ. */
#ifndef RM_CPU_HZ
#define RM_CPU_HZ 25000000u
#endif
#define configCPU_CLOCK_HZ RM_CPU_HZ
#define configTICK_RATE_HZ 1000
#if RM_FREERTOS_VERSION >= 100600
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS
#else
#define configUSE_16_BIT_TICKS 0 /* 32-bit ticks, as spelt before V10.6.0 */
#endif

/* ---- scheduling ------------------------------------------------------ */
/* RM_PRIO_MIN..RM_PRIO_RUNNER (1..31) map one to one onto FreeRTOS
 * priorities 1..31; 0 is the idle task's. */
#define configMAX_PRIORITIES 32
#define configUSE_PREEMPTION 1
#if defined(RM_IDLE_KERNEL) && defined(__arm__)
/* lowpower: the Cortex-M port's own tickless idle (vPortSuppressTicksAndSleep:
 * SysTick stopped and reloaded for the expected idle time, WFI). */
#define configUSE_TICKLESS_IDLE 1
#else
#define configUSE_TICKLESS_IDLE 0 /* idle spins: no WFI (RM_NO_WFI) */
#endif
#define configIDLE_SHOULD_YIELD 1
#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 0
#if RM_FREERTOS_VENDOR
#define configUSE_TIME_SLICING 1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#else
#define configUSE_TIME_SLICING 0
/* The Cortex-M ports find the top ready priority with CLZ (FreeRTOS's own
 * Cortex-M demos do the same); the POSIX port has only the generic search. */
#if RM_FREERTOS_POSIX || defined(RM_FREERTOS_NO_CLZ)
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#else
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 1
#endif
#endif

/* ---- tasks and memory ------------------------------------------------ */
/* Sized by the target's RAM tier (RM_RAM_SMALL / RM_RAM_MEDIUM, from the
 * linker script: targets/common/cortex-m/cortex-m.cmake; docs/memory.md). */
#if defined(RM_RAM_SMALL)
/* 16 KiB of RAM or less (micro:bit, NUCLEO-L053R8): small stacks (the runner,
 * which writes the records, a larger one) and a small heap. */
#define configMINIMAL_STACK_SIZE 64
#define RM_FREERTOS_STACK_WORDS 80 /* every other rtosmeter thread */
#define RM_FREERTOS_RUNNER_STACK_WORDS 256
#elif defined(RM_RAM_MEDIUM)
/* The boards' 96-256 KiB: 2 KiB stacks. */
#define configMINIMAL_STACK_SIZE 256
#define RM_FREERTOS_STACK_WORDS 512
#define RM_FREERTOS_RUNNER_STACK_WORDS 1024
#else
#define configMINIMAL_STACK_SIZE 256
#define RM_FREERTOS_STACK_WORDS 1024 /* every rtosmeter thread */
#define RM_FREERTOS_RUNNER_STACK_WORDS 1024
#endif
#define configMAX_TASK_NAME_LEN 16
#define configSTACK_DEPTH_TYPE uint32_t
#define configSUPPORT_STATIC_ALLOCATION 0
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#if RM_FREERTOS_POSIX
#define configTOTAL_HEAP_SIZE (1024u * 1024u)
#elif defined(RM_RAM_SMALL)
#define configTOTAL_HEAP_SIZE (6u * 1024u)
#elif defined(RM_RAM_MEDIUM)
/* Half the RAM holds every task's stack and TCB; the rest is .data/.bss of
 * the benchmarks, the port and the kernel, and the main stack. */
#define configTOTAL_HEAP_SIZE (RM_TARGET_RAM_BYTES / 2u)
#else
#define configTOTAL_HEAP_SIZE (256u * 1024u)
#endif
#define configAPPLICATION_ALLOCATED_HEAP 0
#define configUSE_MALLOC_FAILED_HOOK 0
#define configNUM_THREAD_LOCAL_STORAGE_POINTERS 1 /* rm_thread_self() */
#define configUSE_NEWLIB_REENTRANT 0
#define configENABLE_BACKWARD_COMPATIBILITY 0
#define configUSE_MINI_LIST_ITEM 1
#define configMESSAGE_BUFFER_LENGTH_TYPE size_t
#if RM_FREERTOS_VENDOR
#define configHEAP_CLEAR_MEMORY_ON_FREE 1
#else
#define configHEAP_CLEAR_MEMORY_ON_FREE 0
#endif

/* ---- kernel objects -------------------------------------------------- */
#define configUSE_MUTEXES 1
#ifdef RM_LOAD_NET
/* lwIP's FreeRTOS sys_arch makes its sys_mutex a recursive mutex (lwip.cmake) */
#define configUSE_RECURSIVE_MUTEXES 1
#else
#define configUSE_RECURSIVE_MUTEXES 0
#endif
#define configUSE_COUNTING_SEMAPHORES 1
#define configUSE_QUEUE_SETS 0
#define configQUEUE_REGISTRY_SIZE 0
#define configUSE_EVENT_GROUPS 1
#define configUSE_STREAM_BUFFERS 1
#define configUSE_TASK_NOTIFICATIONS 1
/* Index 0: NOTIFY (counting give/take); index 1: THREAD_FLAGS (bits).
 * Before V10.4.0 a task has one notification (index 0 only). */
#define configTASK_NOTIFICATION_ARRAY_ENTRIES 2
/* No timer task: one task set for both profiles. Consequence: event groups
 * cannot be set from an interrupt (xEventGroupSetBitsFromISR defers to the
 * timer task); rtosmeter signals only semaphores from interrupts. */
#define configUSE_TIMERS 0
#define configUSE_CO_ROUTINES 0
#define configUSE_APPLICATION_TASK_TAG 0
#define configUSE_POSIX_ERRNO 0

/* ---- checks, tracing, statistics --------------------------------------- */
#define configGENERATE_RUN_TIME_STATS 0
#define configUSE_TRACE_FACILITY 0
#define configUSE_STATS_FORMATTING_FUNCTIONS 0
#if RM_FREERTOS_VENDOR
#define configCHECK_FOR_STACK_OVERFLOW 2
#define configCHECK_HANDLER_INSTALLATION 1
/* Reports the failing file and line, then ends the run (port.c). */
void rm_freertos_assert_failed(const char *file, int line);
#define configASSERT(x)                                   \
    do {                                                  \
        if ((x) == 0)                                     \
            rm_freertos_assert_failed(__FILE__, __LINE__); \
    } while (0)
#else
#define configCHECK_FOR_STACK_OVERFLOW 0
#define configCHECK_HANDLER_INSTALLATION 0
#endif

/* ---- interrupt priorities (Cortex-M) ------------------------------------ */
#define configENABLE_MPU 0 /* asked for by V11's ARMv6-M port */
/* Written for 3 implemented priority bits (MPS2 silicon; QEMU implements 8,
 * which accepts the same values). Every interrupt that calls a FromISR
 * function must be maskable by the kernel's critical sections (BASEPRI =
 * configMAX_SYSCALL_INTERRUPT_PRIORITY, 0x80): the MPS2 targets put the
 * benchmark interrupt at 0xC0 and the periodic timer at 0x80, both inside;
 * the tick and PendSV run at the lowest level. */
#define configPRIO_BITS 3
#define configLIBRARY_LOWEST_INTERRUPT_PRIORITY 7
#define configLIBRARY_MAX_SYSCALL_INTERRUPT_PRIORITY 4
#define configKERNEL_INTERRUPT_PRIORITY \
    (configLIBRARY_LOWEST_INTERRUPT_PRIORITY << (8 - configPRIO_BITS))
#define configMAX_SYSCALL_INTERRUPT_PRIORITY \
    (configLIBRARY_MAX_SYSCALL_INTERRUPT_PRIORITY << (8 - configPRIO_BITS))

/* The Cortex-M ports' handlers, under the names of the target's vector table
 * (targets/common/cortex-m/startup.c). */
#define vPortSVCHandler SVC_Handler
#define xPortPendSVHandler PendSV_Handler
#define xPortSysTickHandler SysTick_Handler

/* ---- optional API ---------------------------------------------------- */
#define INCLUDE_vTaskPrioritySet 1
#define INCLUDE_uxTaskPriorityGet 1
#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskSuspend 1
#if RM_FREERTOS_VERSION >= 100402
#define INCLUDE_xTaskDelayUntil 1 /* not also INCLUDE_vTaskDelayUntil (V11) */
#else
#define INCLUDE_vTaskDelayUntil 1 /* xTaskDelayUntil came with V10.4.2 */
#endif
#define INCLUDE_vTaskDelay 1
#define INCLUDE_xTaskGetSchedulerState 1
#define INCLUDE_xTaskGetCurrentTaskHandle 1
#define INCLUDE_xTaskResumeFromISR 1
#define INCLUDE_uxTaskGetStackHighWaterMark 0
#define INCLUDE_xTaskGetIdleTaskHandle 0
#define INCLUDE_eTaskGetState 0
#define INCLUDE_xTimerPendFunctionCall 0
#define INCLUDE_xTaskAbortDelay 0
#define INCLUDE_xTaskGetHandle 0

#endif /* FREERTOS_CONFIG_H */
