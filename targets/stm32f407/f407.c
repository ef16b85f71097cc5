/* STM32F407 clock read-back: out of reset HSI, 16 MHz; clock.c (the
 * default, board_clock = "max") runs the PLL from the STM32F4DISCOVERY's
 * 8 MHz HSE crystal at 168 MHz. The firmware reports what RCC says it runs
 * at (a bootloader or a port that switched is reported as such) and the
 * wait states FLASH_ACR holds. */
#include <stdint.h>

#include "cm.h"
#include "stm32_clock.h"

#define RCC_PLLCFGR RM_REG(0x40023804u)
#define RCC_CFGR RM_REG(0x40023808u)
#define FLASH_ACR RM_REG(0x40023C00u)
#define HSI_HZ 16000000u
#define HSE_HZ 8000000u /* the STM32F4DISCOVERY's crystal (X2), which clock.c starts */

uint32_t rm_board_cpu_hz(void);
uint32_t rm_board_flash_ws(void);

uint32_t rm_board_cpu_hz(void)
{
    uint32_t cfgr = RCC_CFGR;
    uint32_t sws = (cfgr >> 2) & 3u; /* 0 HSI, 1 HSE, 2 PLL */
    uint32_t sysclk = sws == 1u ? HSE_HZ : HSI_HZ;
    if (sws == 2u) {
        uint32_t pll = RCC_PLLCFGR;
        uint32_t m = pll & 0x3Fu;
        uint32_t n = (pll >> 6) & 0x1FFu;
        uint32_t p = (((pll >> 16) & 3u) + 1u) * 2u;
        uint32_t in = (pll & (1u << 22)) != 0u ? HSE_HZ : HSI_HZ;
        if (m == 0u)
            return 0u;
        sysclk = (uint32_t)((uint64_t)in * n / m / p);
    } else if (sws == 3u) {
        return 0u; /* not a source */
    }
    return rm_stm32_hclk(sysclk, cfgr);
}

uint32_t rm_board_flash_ws(void)
{
    return FLASH_ACR & 7u; /* LATENCY (0-7 on the F407) */
}
