/* STM32F407 clock read-back: the firmware leaves the reset clock tree (HSI,
 * 16 MHz, no prescaler), and reports what RCC says it runs at, so that a
 * bootloader or a port that switched to the PLL is reported as such. */
#include <stdint.h>

#include "cm.h"
#include "stm32_clock.h"

#define RCC_PLLCFGR RM_REG(0x40023804u)
#define RCC_CFGR RM_REG(0x40023808u)
#define HSI_HZ 16000000u

uint32_t rm_board_cpu_hz(void);

uint32_t rm_board_cpu_hz(void)
{
    uint32_t cfgr = RCC_CFGR;
    uint32_t sws = (cfgr >> 2) & 3u; /* 0 HSI, 1 HSE, 2 PLL */
    uint32_t sysclk = HSI_HZ;
    if (sws == 2u) {
        uint32_t pll = RCC_PLLCFGR;
        uint32_t m = pll & 0x3Fu;
        uint32_t n = (pll >> 6) & 0x1FFu;
        uint32_t p = (((pll >> 16) & 3u) + 1u) * 2u;
        if ((pll & (1u << 22)) != 0u || m == 0u)
            return 0u; /* PLL from HSE: the crystal's rate is the board's */
        sysclk = (uint32_t)((uint64_t)HSI_HZ * n / m / p);
    } else if (sws != 0u) {
        return 0u; /* HSE */
    }
    return rm_stm32_hclk(sysclk, cfgr);
}
