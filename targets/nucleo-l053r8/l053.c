/* NUCLEO-L053R8 timestamp: the Cortex-M0+ has no DWT cycle counter and
 * SysTick belongs to the kernel, and the STM32L0 has only 16-bit timers, so
 * TIM2 (low half, counting core clocks) drives TIM21 (high half) through its
 * update trigger (TIM2 TRGO -> TIM21 ITR0, external clock mode 1). A read
 * takes the high half twice to catch a carry in between.
 * Untested on silicon: check the ITR mapping in RM0367 when first run.
 */
#include <stdint.h>

#include "cm.h"

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

void rm_board_init(void);
uint32_t rm_board_ts(void);

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
