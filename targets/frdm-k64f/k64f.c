/* FRDM-K64F chip set-up: the Kinetis watchdog runs out of reset and must be
 * disabled first thing; the flash configuration field at 0x400 keeps the
 * chip unsecured (FSEC = 0xFE) so a probe can always erase it. */
#include <stdint.h>

#include "cm.h"

#define WDOG_STCTRLH (*(volatile uint16_t *)0x40052000u)
#define WDOG_UNLOCK (*(volatile uint16_t *)0x4005200Eu)

__attribute__((used, section(".flash_config")))
const uint32_t rm_k64f_flash_config[4] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFEu};

void rm_cm_early_init(void)
{
    WDOG_UNLOCK = 0xC520u; /* the two-write unlock sequence */
    WDOG_UNLOCK = 0xD928u;
    WDOG_STCTRLH = 0x01D2u; /* WDOGEN = 0, ALLOWUPDATE = 1 */
}

/* The clock as the MCG left it: out of reset FEI mode, the FLL multiplying
 * the 32.768 kHz slow internal reference by its DCO range (DRST_DRS, DMX32):
 * 640 x 32768 = 20.97152 MHz; clock.c (board_clock = "max") switches to PEE,
 * the PLL from the 50 MHz EXTAL0 clock. Divided by SIM_CLKDIV1 OUTDIV1 for
 * the core. */
#define MCG_C1 (*(volatile uint8_t *)0x40064000u)
#define MCG_C4 (*(volatile uint8_t *)0x40064003u)
#define MCG_C5 (*(volatile uint8_t *)0x40064004u)
#define MCG_C6 (*(volatile uint8_t *)0x40064005u)
#define MCG_C7 (*(volatile uint8_t *)0x4006400Cu)
#define SIM_CLKDIV1 RM_REG(0x40048044u)
#define SLOW_IRC_HZ 32768u
#define EXTAL0_HZ 50000000u /* the FRDM-K64F's PHY clock on EXTAL0 */

uint32_t rm_board_cpu_hz(void);

uint32_t rm_board_cpu_hz(void)
{
    static const uint16_t fll_factor[2][4] = {{640u, 1280u, 1920u, 2560u},
                                              {732u, 1464u, 2197u, 2929u}};
    uint8_t c1 = MCG_C1;
    uint8_t c4 = MCG_C4;
    uint32_t mcgout;
    if ((c1 >> 6) == 0u && (MCG_C6 & 0x40u) != 0u && (MCG_C7 & 3u) == 0u) {
        /* PEE from OSCCLK: / (PRDIV0 + 1) x (VDIV0 + 24) */
        mcgout = EXTAL0_HZ / ((MCG_C5 & 0x1Fu) + 1u) * ((MCG_C6 & 0x1Fu) + 24u);
    } else if ((c1 >> 6) == 0u && (c1 & 0x04u) != 0u && (MCG_C6 & 0x40u) == 0u) {
        mcgout = SLOW_IRC_HZ * fll_factor[c4 >> 7][(c4 >> 5) & 3u]; /* FEI */
    } else {
        return 0u; /* another mode: unknown */
    }
    return mcgout / ((SIM_CLKDIV1 >> 28) + 1u);
}
