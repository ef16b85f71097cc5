/* STM32L475 clock read-back: the reset clock is MSI at range 6 (4 MHz); the
 * firmware reports what RCC says it runs at (MSI at its range, or HSI16). */
#include <stdint.h>

#include "cm.h"
#include "stm32_clock.h"

#define RCC_CR RM_REG(0x40021000u)
#define RCC_CFGR RM_REG(0x40021008u)
#define RCC_CSR RM_REG(0x40021094u)
#define HSI16_HZ 16000000u

uint32_t rm_board_cpu_hz(void);

uint32_t rm_board_cpu_hz(void)
{
    static const uint32_t msi_hz[12] = {100000u,  200000u,   400000u,   800000u,
                                        1000000u, 2000000u,  4000000u,  8000000u,
                                        16000000u, 24000000u, 32000000u, 48000000u};
    uint32_t cfgr = RCC_CFGR;
    uint32_t sws = (cfgr >> 2) & 3u; /* 0 MSI, 1 HSI16, 2 HSE, 3 PLL */
    uint32_t sysclk;
    if (sws == 0u) {
        uint32_t cr = RCC_CR;
        /* MSIRGSEL: the range is in CR, else (out of reset) MSISRANGE in CSR */
        uint32_t range = (cr & (1u << 3)) != 0u ? (cr >> 4) & 0xFu : (RCC_CSR >> 8) & 0xFu;
        if (range >= 12u)
            return 0u;
        sysclk = msi_hz[range];
    } else if (sws == 1u) {
        sysclk = HSI16_HZ;
    } else {
        return 0u; /* HSE or PLL: not set up by this firmware */
    }
    return rm_stm32_hclk(sysclk, cfgr);
}
