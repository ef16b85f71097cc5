/* nRF52840 DK: the core runs at 64 MHz from reset (HFINT); Nordic's code
 * starts the 32 MHz crystal (HFXO) as the HFCLK source and turns on the
 * flash instruction cache: nrfx hal/nrf_clock.h task HFCLKSTART and event
 * HFCLKSTARTED, as nrfx drivers/src/nrfx_clock.c starts it, and
 * NVMC ICACHECNF CACHEEN, as Zephyr's Nordic SoC start-up does under
 * CONFIG_NRF_ENABLE_ICACHE (soc/nordic/.../soc.c).
 * Registers: nRF52840 Product Specification v1.7, 6.4.8 (CLOCK), 4.3.9
 * (NVMC ICACHECNF). The flash has no wait-state setting to make.
 */
#include <stdint.h>

#include "clock_io.h"

#define CLOCK_TASKS_HFCLKSTART 0x40000000u
#define CLOCK_EVENTS_HFCLKSTARTED 0x40000100u
#define CLOCK_HFCLKSTAT 0x4000040Cu
#define NVMC_ICACHECNF 0x4001E540u

#define HFCLKSTAT_SRC_XTAL 1u
#define HFCLKSTAT_STATE (1u << 16)
#define ICACHECNF_CACHEEN 1u

void rm_cm_clock_init(void);

void rm_cm_clock_init(void)
{
    RM_CLK_WR32(CLOCK_EVENTS_HFCLKSTARTED, 0u);
    RM_CLK_WR32(CLOCK_TASKS_HFCLKSTART, 1u);
    rm_clock_wait(CLOCK_EVENTS_HFCLKSTARTED, 1u, 1u, 4u, "CLOCK EVENTS_HFCLKSTARTED (HFXO)");
    rm_clock_wait(CLOCK_HFCLKSTAT, HFCLKSTAT_SRC_XTAL | HFCLKSTAT_STATE,
                  HFCLKSTAT_SRC_XTAL | HFCLKSTAT_STATE, 4u,
                  "CLOCK HFCLKSTAT SRC = Xtal, STATE = running");
    RM_CLK_WR32(CLOCK_EVENTS_HFCLKSTARTED, 0u);
    RM_CLK_WR32(NVMC_ICACHECNF, RM_CLK_RD32(NVMC_ICACHECNF) | ICACHECNF_CACHEEN);
}
