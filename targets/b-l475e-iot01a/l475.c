/* STM32L475 clock read-back: out of reset MSI at range 6 (4 MHz); clock.c
 * (the default, board_clock = "max") runs the PLL from it at 80 MHz. The
 * firmware reports what RCC says it runs at (MSI at its range, HSI16, or the
 * PLL from either) and the wait states FLASH_ACR holds. */
#include <stdint.h>

#include "cm.h"
#include "stm32_clock.h"

#define RCC_CR RM_REG(0x40021000u)
#define RCC_CFGR RM_REG(0x40021008u)
#define RCC_PLLCFGR RM_REG(0x4002100Cu)
#define RCC_CSR RM_REG(0x40021094u)
#define FLASH_ACR RM_REG(0x40022000u)
#define HSI16_HZ 16000000u

uint32_t rm_board_cpu_hz(void);
uint32_t rm_board_flash_ws(void);

static uint32_t msi_hz(void)
{
    static const uint32_t range_hz[12] = {100000u,  200000u,   400000u,   800000u,
                                          1000000u, 2000000u,  4000000u,  8000000u,
                                          16000000u, 24000000u, 32000000u, 48000000u};
    uint32_t cr = RCC_CR;
    /* MSIRGSEL: the range is in CR, else (out of reset) MSISRANGE in CSR */
    uint32_t range = (cr & (1u << 3)) != 0u ? (cr >> 4) & 0xFu : (RCC_CSR >> 8) & 0xFu;
    return range < 12u ? range_hz[range] : 0u;
}

uint32_t rm_board_cpu_hz(void)
{
    uint32_t cfgr = RCC_CFGR;
    uint32_t sws = (cfgr >> 2) & 3u; /* 0 MSI, 1 HSI16, 2 HSE, 3 PLL */
    uint32_t sysclk;
    if (sws == 0u) {
        sysclk = msi_hz();
    } else if (sws == 1u) {
        sysclk = HSI16_HZ;
    } else if (sws == 3u) {
        uint32_t pll = RCC_PLLCFGR;
        uint32_t src = pll & 3u; /* 1 MSI, 2 HSI16, 3 HSE */
        uint32_t in = src == 1u ? msi_hz() : src == 2u ? HSI16_HZ : 0u;
        uint32_t m = ((pll >> 4) & 7u) + 1u;
        uint32_t n = (pll >> 8) & 0x7Fu;
        uint32_t r = (((pll >> 25) & 3u) + 1u) * 2u;
        sysclk = (uint32_t)((uint64_t)in / m * n / r); /* 0 from HSE: the board's crystal */
    } else {
        return 0u; /* HSE: not set up by this firmware */
    }
    return sysclk != 0u ? rm_stm32_hclk(sysclk, cfgr) : 0u;
}

uint32_t rm_board_flash_ws(void)
{
    return FLASH_ACR & 7u; /* LATENCY */
}
