/* STM32 clock-tree arithmetic shared by the F4, L4 and L0 chip files: the
 * AHB prescaler (RCC_CFGR HPRE, bits 7:4) has the same encoding on all three. */
#ifndef RM_STM32_CLOCK_H
#define RM_STM32_CLOCK_H

#include <stdint.h>

/* HCLK (the core clock) from SYSCLK and RCC_CFGR: HPRE 0xxx is /1, then
 * 1000..1111 divide by 2, 4, 8, 16, 64, 128, 256, 512 (32 is skipped). */
static inline uint32_t rm_stm32_hclk(uint32_t sysclk, uint32_t cfgr)
{
    uint32_t hpre = (cfgr >> 4) & 0xFu;
    if (hpre < 8u)
        return sysclk;
    uint32_t shift = hpre - 7u;
    return sysclk >> (shift < 5u ? shift : shift + 1u);
}

#endif /* RM_STM32_CLOCK_H */
