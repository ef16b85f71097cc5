/* STM32F407 (STM32F4DISCOVERY) to 168 MHz from its 8 MHz HSE crystal, as
 * ST's start-up code for that board does it: STM32CubeF4
 * Projects/STM32F4-Discovery/Templates/Src/main.c SystemClock_Config (PWR
 * scale 1; HSE on; PLL M 8, N 336, P 2, Q 7 = 168 MHz; AHB /1, APB1 /4,
 * APB2 /2; FLASH_LATENCY_5) through stm32f4xx_hal_rcc.c, with HAL_Init's
 * ART accelerator (prefetch, instruction and data caches; prefetch as the
 * template enables it on revision Z). Values: RM0090 rev 19, 7.3 (RCC),
 * 3.9 (FLASH); 5 wait states: RM0090 Table 10 (150-168 MHz at 2.7-3.6 V).
 * A board without an 8 MHz HSE keeps HSERDY clear: the bounded wait says so.
 */
#include <stdint.h>

#include "clock_io.h"

#define RCC_CR 0x40023800u
#define RCC_PLLCFGR 0x40023804u
#define RCC_CFGR 0x40023808u
#define RCC_APB1ENR 0x40023840u
#define PWR_CR 0x40007000u
#define FLASH_ACR 0x40023C00u

#define CR_HSEON (1u << 16)
#define CR_HSERDY (1u << 17)
#define CR_PLLON (1u << 24)
#define CR_PLLRDY (1u << 25)
#define APB1ENR_PWREN (1u << 28)
#define PWR_CR_VOS (1u << 14) /* scale 1 */
/* PLLM = 8, PLLN = 336, PLLP = /2 (0), PLLSRC = HSE, PLLQ = 7 */
#define PLLCFGR_168MHZ (8u | (336u << 6) | (0u << 16) | (1u << 22) | (7u << 24))
#define ACR_LATENCY_MASK 7u
#define ACR_LATENCY_5WS 5u
#define ACR_PRFTEN (1u << 8)
#define ACR_ICEN (1u << 9)
#define ACR_DCEN (1u << 10)
#define CFGR_SW_MASK 3u
#define CFGR_SW_PLL 2u
#define CFGR_SWS_MASK (3u << 2)
#define CFGR_SWS_PLL (2u << 2)
#define CFGR_HPRE_MASK (0xFu << 4)
#define CFGR_PPRE1_MASK (7u << 10)
#define CFGR_PPRE2_MASK (7u << 13)
#define CFGR_PPRE1_DIV4 (5u << 10) /* APB1 42 MHz, its maximum */
#define CFGR_PPRE2_DIV2 (4u << 13) /* APB2 84 MHz, its maximum */

void rm_cm_clock_init(void);

void rm_cm_clock_init(void)
{
    RM_CLK_WR32(RCC_APB1ENR, RM_CLK_RD32(RCC_APB1ENR) | APB1ENR_PWREN);
    RM_CLK_WR32(PWR_CR, RM_CLK_RD32(PWR_CR) | PWR_CR_VOS);
    RM_CLK_WR32(RCC_CR, RM_CLK_RD32(RCC_CR) | CR_HSEON);
    rm_clock_wait(RCC_CR, CR_HSERDY, CR_HSERDY, 4u, "RCC_CR HSERDY (8 MHz HSE crystal)");
    RM_CLK_WR32(RCC_CR, RM_CLK_RD32(RCC_CR) & ~CR_PLLON);
    rm_clock_wait(RCC_CR, CR_PLLRDY, 0u, 4u, "RCC_CR PLLRDY clear (PLL off)");
    RM_CLK_WR32(RCC_PLLCFGR, PLLCFGR_168MHZ);
    RM_CLK_WR32(RCC_CR, RM_CLK_RD32(RCC_CR) | CR_PLLON);
    rm_clock_wait(RCC_CR, CR_PLLRDY, CR_PLLRDY, 4u, "RCC_CR PLLRDY (PLL lock)");
    rm_clock_write_verify(FLASH_ACR, ACR_LATENCY_MASK, ACR_LATENCY_5WS,
                          "FLASH_ACR LATENCY = 5 (read back)");
    RM_CLK_WR32(FLASH_ACR, RM_CLK_RD32(FLASH_ACR) | ACR_PRFTEN | ACR_ICEN | ACR_DCEN);
    /* The APB dividers before the switch, so no bus runs above its limit. */
    RM_CLK_WR32(RCC_CFGR, (RM_CLK_RD32(RCC_CFGR) &
                           ~(CFGR_HPRE_MASK | CFGR_PPRE1_MASK | CFGR_PPRE2_MASK)) |
                              CFGR_PPRE1_DIV4 | CFGR_PPRE2_DIV2);
    RM_CLK_WR32(RCC_CFGR, (RM_CLK_RD32(RCC_CFGR) & ~CFGR_SW_MASK) | CFGR_SW_PLL);
    rm_clock_wait(RCC_CFGR, CFGR_SWS_MASK, CFGR_SWS_PLL, 4u, "RCC_CFGR SWS = PLL");
}
