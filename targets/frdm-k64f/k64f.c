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
 * the 32.768 kHz slow internal reference by its DCO range (DRST_DRS, DMX32),
 * divided by SIM_CLKDIV1 OUTDIV1 for the core: 640 x 32768 = 20.97152 MHz. */
#define MCG_C1 (*(volatile uint8_t *)0x40064000u)
#define MCG_C4 (*(volatile uint8_t *)0x40064003u)
#define MCG_C6 (*(volatile uint8_t *)0x40064005u)
#define SIM_CLKDIV1 RM_REG(0x40048044u)
#define SLOW_IRC_HZ 32768u

uint32_t rm_board_cpu_hz(void);

uint32_t rm_board_cpu_hz(void)
{
    static const uint16_t fll_factor[2][4] = {{640u, 1280u, 1920u, 2560u},
                                              {732u, 1464u, 2197u, 2929u}};
    uint8_t c1 = MCG_C1;
    uint8_t c4 = MCG_C4;
    /* FEI only: CLKS = FLL, IREFS = slow IRC, PLLS = FLL; else 0 (unknown) */
    if ((c1 >> 6) != 0u || (c1 & 0x04u) == 0u || (MCG_C6 & 0x40u) != 0u)
        return 0u;
    uint32_t mcgout = SLOW_IRC_HZ * fll_factor[c4 >> 7][(c4 >> 5) & 3u];
    return mcgout / ((SIM_CLKDIV1 >> 28) + 1u);
}
