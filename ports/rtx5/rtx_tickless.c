/* RTX5's tickless idle on the Cortex-M SysTick (lowpower profile), the
 * wake-up of CMSIS-RTOS2's documented pattern in osRtxIdleThread (port.c):
 * osKernelSuspend stops the SysTick (os_systick.c OS_Tick_Disable) and gives
 * the ticks to the next timeout; this sleeps in WFI until that many tick
 * boundaries have passed, or an interrupt comes first, and returns the ticks
 * that passed, for osKernelResume, with the SysTick left running in phase
 * with the ticks before the sleep. As in FreeRTOS's
 * vPortSuppressTicksAndSleep, the counts that pass while the SysTick is
 * stopped (from osKernelSuspend to the sleep's start) are lost to the
 * kernel's time (docs/idle.md).
 */
#include <stdint.h>

#include "rm_build_config.h"
#include "RTX_Config.h" /* OS_TICK_FREQ */

extern uint32_t SystemCoreClock; /* port.c: the clock os_systick.c programs SysTick from */
uint32_t rm_rtx_tickless_sleep(uint32_t ticks);

#define RM_RTX_REG(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define SYST_CSR RM_RTX_REG(0xE000E010u)
#define SYST_RVR RM_RTX_REG(0xE000E014u)
#define SYST_CVR RM_RTX_REG(0xE000E018u)
#define SCB_ICSR RM_RTX_REG(0xE000ED04u)
#define CSR_STOPPED 6u /* CLKSOURCE = CPU, TICKINT (os_systick.c's OS_Tick_Setup) */
#define CSR_RUNNING 7u
#define CSR_COUNTFLAG (1u << 16)
#define ICSR_PENDSTCLR (1u << 25)
#define SYST_MAX 0x00FFFFFFu

/* Called with interrupts masked and the SysTick stopped, its count frozen
 * within the current tick period. `ticks`: osKernelSuspend's (osWaitForever
 * with no timeout: as long as the SysTick can count). */
uint32_t rm_rtx_tickless_sleep(uint32_t ticks)
{
    const uint32_t period = SystemCoreClock / OS_TICK_FREQ;
    const uint32_t most = SYST_MAX / period;
    if (ticks == 0u) /* not suspended (osKernelSuspend's error): no sleep */
        return 0u;
    if (ticks > most)
        ticks = most;
    uint32_t left = SYST_CVR;
    if (left == 0u)
        left = period;
    const uint32_t reload = left + period * (ticks - 1u);
    SYST_RVR = reload - 1u;
    SYST_CVR = 0u;
    SYST_CSR = CSR_RUNNING;
    __asm volatile("dsb\n wfi\n isb" ::: "memory");
    SYST_CSR = CSR_STOPPED; /* a write: COUNTFLAG survives until the read */
    uint32_t passed, rest;
    if ((SYST_CSR & CSR_COUNTFLAG) != 0u) {
        /* The SysTick ended the sleep: its tick is counted here, for
         * osKernelResume, and its pending interrupt cleared (left for RTX's
         * tick handler to count, idle.sampling hung under QEMU; why is not
         * known); the next period is already under way. */
        SCB_ICSR = ICSR_PENDSTCLR;
        const uint32_t into = (reload - 1u) - SYST_CVR;
        rest = into < period - 1u ? period - into : period;
        passed = ticks;
    } else {
        /* Another interrupt: whole ticks since the start of the period the
         * sleep began in, and the rest of the current one. */
        const uint32_t done = ticks * period - SYST_CVR;
        passed = done / period;
        rest = (passed + 1u) * period - done;
    }
    /* Count `rest` (a write of the count only clears it) and one period
     * after it, running on: osKernelResume's OS_Tick_Enable finds it
     * enabled. (Stopped here instead, QEMU's SysTick loses the rest: it
     * reloads a cleared count only as it runs.) */
    SYST_RVR = rest > 1u ? rest - 1u : 1u;
    SYST_CVR = 0u;
    SYST_CSR = CSR_RUNNING;
    SYST_RVR = period - 1u;
    return passed;
}
