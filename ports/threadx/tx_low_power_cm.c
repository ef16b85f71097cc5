/* ThreadX low-power timer hooks on the Cortex-M SysTick (lowpower profile).
 *
 * ThreadX's low-power utility (utility/low_power/tx_low_power.c) is called
 * from the Cortex-M scheduler's idle loop (TX_LOW_POWER, with TX_ENABLE_WFI
 * its WFI): tx_low_power_enter finds the next timer expiration and calls
 * TX_LOW_POWER_TIMER_SETUP with it; after the WFI, still with interrupts
 * masked, tx_low_power_exit asks TX_LOW_POWER_USER_TIMER_ADJUST how many
 * ticks passed and steps the kernel's timers by them (tx_time_increment).
 * The utility leaves both to the application: these are them, for the
 * SysTick that is the kernel's tick (tx_low_level_cm.c). The SysTick is
 * reloaded to fire when the next timer expires, as FreeRTOS's Cortex-M
 * vPortSuppressTicksAndSleep does, and back to one tick per period after.
 *
 * TX_LOW_POWER_TICKLESS stays undefined (tx_user.h): with no timer active
 * the SysTick sleeps as long as it can and the tick count stays exact,
 * because the port reads tx_time_get (rm_tick_now, SLEEP_UNTIL).
 */
#include <stdint.h>

#include "rm_build_config.h"
#include "tx_api.h"

#ifdef TX_LOW_POWER

#ifndef RM_CPU_HZ
#define RM_CPU_HZ RM_TS_HZ /* as tx_low_level_cm.c */
#endif

#define RM_TX_REG(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define SYST_CSR RM_TX_REG(0xE000E010u)
#define SYST_RVR RM_TX_REG(0xE000E014u)
#define SYST_CVR RM_TX_REG(0xE000E018u)
#define SCB_ICSR RM_TX_REG(0xE000ED04u)
#define CSR_STOPPED 6u /* CLKSOURCE = CPU, TICKINT; ENABLE clear */
#define CSR_RUNNING 7u
#define CSR_COUNTFLAG (1u << 16)
#define ICSR_PENDSTSET (1u << 26)
#define SYST_MAX 0x00FFFFFFu /* the 24-bit counter */

#define PERIOD ((uint32_t)(RM_CPU_HZ / TX_TIMER_TICKS_PER_SECOND))

static uint32_t idle_ticks; /* the sleep programmed, in ticks; 0: none */
static uint32_t reload;     /* the SysTick reload of that sleep */

/* `next`: the ticks before the one on which the first timer expires
 * (tx_timer_get_next), or 0xFFFFFFFF with no timer active. */
void rm_tx_low_power_timer_setup(unsigned long next)
{
    uint32_t most = SYST_MAX / PERIOD;
    uint32_t ticks = next >= most ? most : (uint32_t)next + 1u;
    idle_ticks = 0u;
    /* A timer due at the next tick, or a tick already pending: the
     * periodic SysTick is the wake-up as it is. */
    if (ticks < 2u || (SCB_ICSR & ICSR_PENDSTSET) != 0u)
        return;
    SYST_CSR = CSR_STOPPED;
    uint32_t left = SYST_CVR; /* of the tick period under way */
    if (left == 0u)
        left = PERIOD;
    reload = left + PERIOD * (ticks - 1u);
    SYST_RVR = reload - 1u;
    SYST_CVR = 0u;
    SYST_CSR = CSR_RUNNING;
    idle_ticks = ticks;
}

/* After the WFI, interrupts masked: the ticks that passed, the SysTick back
 * to one interrupt per tick, in phase with the ticks before the sleep. */
unsigned long rm_tx_low_power_timer_adjust(void)
{
    uint32_t ticks = idle_ticks;
    if (ticks == 0u)
        return 0u;
    idle_ticks = 0u;
    SYST_CSR = CSR_STOPPED; /* a write: COUNTFLAG survives until the read */
    uint32_t passed;
    if ((SYST_CSR & CSR_COUNTFLAG) != 0u) {
        /* The SysTick ended the sleep: its pending interrupt is the last
         * tick, and the period after it is already under way. */
        uint32_t into = (reload - 1u) - SYST_CVR;
        SYST_RVR = into < PERIOD - 1u ? PERIOD - 1u - into : PERIOD - 1u;
        passed = ticks - 1u;
    } else {
        /* Another interrupt ended it: whole ticks passed, the rest of the
         * current one still to run (counted from the start of the tick
         * period the sleep began in, `ticks` periods before the reload's end). */
        uint32_t done = ticks * PERIOD - SYST_CVR;
        passed = done / PERIOD;
        uint32_t rest = (passed + 1u) * PERIOD - done; /* 1..PERIOD */
        SYST_RVR = rest > 1u ? rest - 1u : PERIOD - 1u; /* RVR 0 would stop it */
    }
    SYST_CVR = 0u;
    SYST_CSR = CSR_RUNNING;
    SYST_RVR = PERIOD - 1u; /* taken at the next reload */
    return passed;
}

#endif /* TX_LOW_POWER */
