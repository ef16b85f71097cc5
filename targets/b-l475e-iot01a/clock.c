/* B-L475E-IOT01A (STM32L475VG) to 80 MHz, as ST's start-up code does it:
 * STM32CubeL4 Projects/B-L475E-IOT01A/Templates/Src/main.c SystemClock_Config
 * (MSI range 6 = 4 MHz -> PLL M 1, N 40, R 2 = 80 MHz; P 7, Q 4; AHB/APB /1;
 * FLASH_LATENCY_4) through stm32l4xx_hal_rcc.c HAL_RCC_OscConfig /
 * HAL_RCC_ClockConfig, with HAL_Init's flash accelerator (prefetch,
 * instruction and data caches). Values: RM0351 rev 9, 5.4 (RCC), 3.7 (FLASH),
 * 5.1.8 (range 1 for 80 MHz); 4 wait states: RM0351 Table 12 (64-80 MHz).
 * Runs from Reset_Handler before main (startup.c rm_cm_clock_init).
 */
#include <stdint.h>

#include "clock_io.h"

#define RCC_CR 0x40021000u
#define RCC_CFGR 0x40021008u
#define RCC_PLLCFGR 0x4002100Cu
#define RCC_APB1ENR1 0x40021058u
#define PWR_CR1 0x40007000u
#define PWR_SR2 0x40007014u
#define FLASH_ACR 0x40022000u

#define CR_MSIRDY (1u << 1)
#define CR_MSIRGSEL (1u << 3)
#define CR_MSIRANGE_MASK (0xFu << 4)
#define CR_MSIRANGE_4MHZ (6u << 4)
#define CR_PLLON (1u << 24)
#define CR_PLLRDY (1u << 25)
#define APB1ENR1_PWREN (1u << 28)
#define PWR_CR1_VOS_MASK (3u << 9)
#define PWR_CR1_VOS_RANGE1 (1u << 9)
#define PWR_SR2_VOSF (1u << 10)
/* PLLSRC = MSI (1), PLLM = /1 (0), PLLN = 40, PLLP = /7 (0), PLLQ = /4 (1),
 * PLLREN (the system clock output), PLLR = /2 (0). */
#define PLLCFGR_80MHZ (1u | (0u << 4) | (40u << 8) | (0u << 17) | (1u << 21) | (1u << 24) | \
                       (0u << 25))
#define ACR_LATENCY_MASK 7u
#define ACR_LATENCY_4WS 4u
#define ACR_PRFTEN (1u << 8)
#define ACR_ICEN (1u << 9)
#define ACR_DCEN (1u << 10)
#define CFGR_SW_MASK 3u
#define CFGR_SW_PLL 3u
#define CFGR_SWS_MASK (3u << 2)
#define CFGR_SWS_PLL (3u << 2)
#define CFGR_DIVIDERS_MASK ((0xFu << 4) | (7u << 8) | (7u << 11)) /* HPRE, PPRE1, PPRE2 */

void rm_cm_clock_init(void);

void rm_cm_clock_init(void)
{
    /* Range 1, needed above 26 MHz (it is the reset value; set as the HAL does). */
    RM_CLK_WR32(RCC_APB1ENR1, RM_CLK_RD32(RCC_APB1ENR1) | APB1ENR1_PWREN);
    RM_CLK_WR32(PWR_CR1, (RM_CLK_RD32(PWR_CR1) & ~PWR_CR1_VOS_MASK) | PWR_CR1_VOS_RANGE1);
    rm_clock_wait(PWR_SR2, PWR_SR2_VOSF, 0u, 4u, "PWR_SR2 VOSF (voltage range 1)");
    /* MSI range 6 (4 MHz), selected in RCC_CR: the PLL's input. */
    rm_clock_wait(RCC_CR, CR_MSIRDY, CR_MSIRDY, 4u, "RCC_CR MSIRDY (MSI)");
    RM_CLK_WR32(RCC_CR, (RM_CLK_RD32(RCC_CR) & ~CR_MSIRANGE_MASK) | CR_MSIRANGE_4MHZ |
                            CR_MSIRGSEL);
    /* The PLL is configured while off. */
    RM_CLK_WR32(RCC_CR, RM_CLK_RD32(RCC_CR) & ~CR_PLLON);
    rm_clock_wait(RCC_CR, CR_PLLRDY, 0u, 4u, "RCC_CR PLLRDY clear (PLL off)");
    RM_CLK_WR32(RCC_PLLCFGR, PLLCFGR_80MHZ);
    RM_CLK_WR32(RCC_CR, RM_CLK_RD32(RCC_CR) | CR_PLLON);
    rm_clock_wait(RCC_CR, CR_PLLRDY, CR_PLLRDY, 4u, "RCC_CR PLLRDY (PLL lock)");
    /* Wait states first (read back), then the accelerator, then the switch. */
    rm_clock_write_verify(FLASH_ACR, ACR_LATENCY_MASK, ACR_LATENCY_4WS,
                          "FLASH_ACR LATENCY = 4 (read back)");
    RM_CLK_WR32(FLASH_ACR, RM_CLK_RD32(FLASH_ACR) | ACR_PRFTEN | ACR_ICEN | ACR_DCEN);
    RM_CLK_WR32(RCC_CFGR, RM_CLK_RD32(RCC_CFGR) & ~CFGR_DIVIDERS_MASK); /* AHB, APB1, APB2 /1 */
    RM_CLK_WR32(RCC_CFGR, (RM_CLK_RD32(RCC_CFGR) & ~CFGR_SW_MASK) | CFGR_SW_PLL);
    rm_clock_wait(RCC_CFGR, CFGR_SWS_MASK, CFGR_SWS_PLL, 4u, "RCC_CFGR SWS = PLL");
}
