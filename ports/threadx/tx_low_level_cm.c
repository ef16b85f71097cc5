/* ThreadX low-level initialisation for rtosmeter's Cortex-M targets.
 *
 * Replaces ThreadX's example tx_initialize_low_level.S, which brings its own
 * vector table: here the target (targets/common/cortex-m) owns start-up and
 * the vector table, and ThreadX's handlers are connected by name. ThreadX's
 * tx_thread_schedule.S defines PendSV_Handler (strong, overriding the
 * target's weak one); this file defines SysTick_Handler. ThreadX on
 * Cortex-M0/M3/M4/M7 does not use SVC, so SVC_Handler stays the target's.
 */
#include <stdint.h>

#include "rm_build_config.h"
#include "tx_api.h"
#include "tx_initialize.h"
#include "tx_thread.h"

/* The CPU clock that feeds SysTick (CLKSOURCE = processor clock). On the
 * MPS2 machines the timestamp timer runs on the same 25 MHz system clock; a
 * board whose counter differs defines RM_CPU_HZ in rm_build_config.h. */
#ifndef RM_CPU_HZ
#define RM_CPU_HZ RM_TS_HZ
#endif
#ifndef RM_TX_HEAP_SIZE
#if defined(RM_RAM_SMALL)
#define RM_TX_HEAP_SIZE 512u /* as port.c: 16 KiB of RAM or less */
#elif defined(RM_RAM_MEDIUM)
#define RM_TX_HEAP_SIZE 8192u /* as port.c: the 96-256 KiB boards */
#else
#define RM_TX_HEAP_SIZE 16384u
#endif
#endif

#define RM_TX_REG(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define RM_TX_SYST_CSR RM_TX_REG(0xE000E010u)
#define RM_TX_SYST_RVR RM_TX_REG(0xE000E014u)
#define RM_TX_SYST_CVR RM_TX_REG(0xE000E018u)
#define RM_TX_SCB_VTOR RM_TX_REG(0xE000ED08u)
#define RM_TX_SCB_SHPR2 RM_TX_REG(0xE000ED1Cu)
#define RM_TX_SCB_SHPR3 RM_TX_REG(0xE000ED20u)

/* What tx_application_define receives: the port's heap (a byte pool). */
static ULONG rm_tx_free_memory[RM_TX_HEAP_SIZE / sizeof(ULONG)] __attribute__((aligned(8)));

VOID _tx_initialize_low_level(VOID)
{
    __asm volatile("cpsid i" ::: "memory");

    _tx_initialize_unused_memory = rm_tx_free_memory;

    /* The system (interrupt) stack is the reset MSP: word 0 of the vector
     * table the target installed. */
    _tx_thread_system_stack_ptr =
        (VOID *)(uintptr_t)(*(volatile uint32_t *)(uintptr_t)RM_TX_SCB_VTOR);

    /* SVC (SHPR2[31:24]) and PendSV (SHPR3[23:16]) lowest, so a context
     * switch never preempts a handler; SysTick (SHPR3[31:24]) at 0x40 as in
     * ThreadX's example. The benchmark interrupt keeps the target's level. */
    RM_TX_SCB_SHPR2 = (RM_TX_SCB_SHPR2 & 0x00FFFFFFu) | 0xFF000000u;
    RM_TX_SCB_SHPR3 = (RM_TX_SCB_SHPR3 & 0x0000FFFFu) | 0x40FF0000u;

    /* The kernel tick: TX_TIMER_TICKS_PER_SECOND from the processor clock. */
    RM_TX_SYST_CSR = 0;
    RM_TX_SYST_RVR = (uint32_t)(RM_CPU_HZ / TX_TIMER_TICKS_PER_SECOND) - 1u;
    RM_TX_SYST_CVR = 0;
    RM_TX_SYST_CSR = 7u; /* CLKSOURCE = CPU, TICKINT, ENABLE */
}

/* ThreadX's tick processing (tx_timer_interrupt.S); no header declares it. */
VOID _tx_timer_interrupt(VOID);
void SysTick_Handler(void);
void SysTick_Handler(void)
{
    _tx_timer_interrupt();
}
