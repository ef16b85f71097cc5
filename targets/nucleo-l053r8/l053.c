/* NUCLEO-L053R8 timestamp: the Cortex-M0+ has no DWT cycle counter and
 * SysTick belongs to the kernel, and the STM32L0 has only 16-bit timers, so
 * TIM2 (low half, counting core clocks) drives TIM21 (high half) through its
 * update trigger (TIM2 TRGO -> TIM21 ITR0, external clock mode 1). A read
 * takes the high half twice to catch a carry in between.
 * Untested on silicon: check the ITR mapping in RM0367 when first run.
 */
#include <stdint.h>

#include "cm.h"
#include "stm32_clock.h"

#define RCC_APB2ENR RM_REG(0x40021034u)
#define RCC_APB1ENR RM_REG(0x40021038u)
#define TIM2 0x40000000u
#define TIM21 0x40010800u
#define TIM_CR1(b) RM_REG((b) + 0x00u)
#define TIM_CR2(b) RM_REG((b) + 0x04u)
#define TIM_SMCR(b) RM_REG((b) + 0x08u)
#define TIM_EGR(b) RM_REG((b) + 0x14u)
#define TIM_CNT(b) RM_REG((b) + 0x24u)
#define TIM_PSC(b) RM_REG((b) + 0x28u)
#define TIM_ARR(b) RM_REG((b) + 0x2Cu)

#define RCC_CR RM_REG(0x40021000u)
#define RCC_ICSCR RM_REG(0x40021004u)
#define RCC_CFGR RM_REG(0x4002100Cu)
#define FLASH_ACR RM_REG(0x40022000u)
#define HSI16_HZ 16000000u

void rm_board_init(void);
uint32_t rm_board_ts(void);
uint32_t rm_board_cpu_hz(void);
uint32_t rm_board_ts_hz(void);
uint32_t rm_board_flash_ws(void);

/* The clock as RCC says: out of reset MSI range 5, 65.536 kHz x 2^5 =
 * 2.097152 MHz; clock.c (board_clock = "max") runs the PLL from HSI16 at
 * 32 MHz; HSI16 (optionally /4) if something switched to it. */
uint32_t rm_board_cpu_hz(void)
{
    static const uint8_t pllmul[9] = {3u, 4u, 6u, 8u, 12u, 16u, 24u, 32u, 48u};
    uint32_t cfgr = RCC_CFGR;
    uint32_t sws = (cfgr >> 2) & 3u; /* 0 MSI, 1 HSI16, 2 HSE, 3 PLL */
    uint32_t hsi16 = (RCC_CR & (1u << 4)) != 0u ? HSI16_HZ / 4u : HSI16_HZ; /* HSI16DIVF */
    uint32_t sysclk;
    if (sws == 0u) {
        sysclk = 65536u << ((RCC_ICSCR >> 13) & 7u);
    } else if (sws == 1u) {
        sysclk = hsi16;
    } else if (sws == 3u && (cfgr & (1u << 16)) == 0u) { /* PLL from HSI16 */
        uint32_t mul = (cfgr >> 18) & 0xFu;
        uint32_t div = ((cfgr >> 22) & 3u) + 1u; /* 1 is /2, 2 is /3, 3 is /4 */
        if (mul > 8u || div == 1u)
            return 0u;
        sysclk = hsi16 * pllmul[mul] / div;
    } else {
        return 0u; /* HSE, or the PLL from it: the board's clock */
    }
    return rm_stm32_hclk(sysclk, cfgr);
}

uint32_t rm_board_flash_ws(void)
{
    return FLASH_ACR & 1u; /* LATENCY */
}

/* TIM2 counts its APB1 timer clock: HCLK when PPRE1 is /1, else twice PCLK1. */
uint32_t rm_board_ts_hz(void)
{
    uint32_t hclk = rm_board_cpu_hz();
    uint32_t ppre1 = (RCC_CFGR >> 8) & 7u;
    return ppre1 < 4u ? hclk : (hclk * 2u) >> (ppre1 - 3u);
}

void rm_board_init(void)
{
    RCC_APB1ENR |= 1u << 0; /* TIM2EN */
    RCC_APB2ENR |= 1u << 2; /* TIM21EN */
    TIM_PSC(TIM21) = 0u;
    TIM_ARR(TIM21) = 0xFFFFu;
    TIM_SMCR(TIM21) = (0u << 4) | 7u; /* TS = ITR0, SMS = external clock 1 */
    TIM_EGR(TIM21) = 1u;
    TIM_CR1(TIM21) = 1u;
    TIM_PSC(TIM2) = 0u;
    TIM_ARR(TIM2) = 0xFFFFu;
    TIM_CR2(TIM2) = 2u << 4; /* MMS = update -> TRGO */
    TIM_EGR(TIM2) = 1u;
    TIM_CR1(TIM2) = 1u;
}

uint32_t rm_board_ts(void)
{
    uint32_t hi = TIM_CNT(TIM21);
    uint32_t lo = TIM_CNT(TIM2);
    uint32_t hi2 = TIM_CNT(TIM21);
    if (hi2 != hi)
        lo = TIM_CNT(TIM2); /* a carry happened between the reads */
    return (hi2 << 16) | (lo & 0xFFFFu);
}
