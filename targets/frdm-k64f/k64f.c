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
