/* NUCLEO-L053R8 (STM32L053R8) to 32 MHz from HSI16, as ST's code for the
 * part does it: the SystemClock_Config STM32CubeMX generates for the
 * STM32L0 at 32 MHz (PWR_REGULATOR_VOLTAGE_SCALE1; HSI on; PLL from HSI,
 * PLLMUL_4, PLLDIV_2; AHB/APB /1; FLASH_LATENCY_1) through
 * stm32l0xx_hal_rcc.c, with HAL_Init's prefetch (PREFETCH_ENABLE).
 * Values: RM0367 rev 7, 7.3 (RCC), 6.1.5 (range 1 above 16 MHz), 3.7.1
 * (FLASH_ACR); 1 wait state above 16 MHz in range 1: RM0367 Table 13.
 */
#include <stdint.h>

#include "clock_io.h"

#define RCC_CR 0x40021000u
#define RCC_CFGR 0x4002100Cu
#define RCC_APB1ENR 0x40021038u
#define PWR_CR 0x40007000u
#define PWR_CSR 0x40007004u
#define FLASH_ACR 0x40022000u

#define CR_HSI16ON (1u << 0)
#define CR_HSI16RDYF (1u << 2)
#define CR_PLLON (1u << 24)
#define CR_PLLRDY (1u << 25)
#define APB1ENR_PWREN (1u << 28)
#define PWR_CR_VOS_MASK (3u << 11)
#define PWR_CR_VOS_RANGE1 (1u << 11)
#define PWR_CSR_VOSF (1u << 4)
#define ACR_LATENCY 1u
#define ACR_PRFTEN (1u << 1)
#define CFGR_SW_MASK 3u
#define CFGR_SW_PLL 3u
#define CFGR_SWS_MASK (3u << 2)
#define CFGR_SWS_PLL (3u << 2)
#define CFGR_DIVIDERS_MASK ((0xFu << 4) | (7u << 8) | (7u << 11)) /* HPRE, PPRE1, PPRE2 */
/* PLLSRC = HSI16 (bit 16 clear), PLLMUL = x4 (1), PLLDIV = /2 (1) */
#define CFGR_PLL_MASK ((1u << 16) | (0xFu << 18) | (3u << 22))
#define CFGR_PLL_32MHZ ((0u << 16) | (1u << 18) | (1u << 22))

void rm_cm_clock_init(void);

void rm_cm_clock_init(void)
{
    /* Range 1 (1.8 V): the reset value is range 2, which stops at 16 MHz. */
    RM_CLK_WR32(RCC_APB1ENR, RM_CLK_RD32(RCC_APB1ENR) | APB1ENR_PWREN);
    rm_clock_wait(PWR_CSR, PWR_CSR_VOSF, 0u, 4u, "PWR_CSR VOSF (regulator before range 1)");
    RM_CLK_WR32(PWR_CR, (RM_CLK_RD32(PWR_CR) & ~PWR_CR_VOS_MASK) | PWR_CR_VOS_RANGE1);
    rm_clock_wait(PWR_CSR, PWR_CSR_VOSF, 0u, 4u, "PWR_CSR VOSF (voltage range 1)");
    RM_CLK_WR32(RCC_CR, RM_CLK_RD32(RCC_CR) | CR_HSI16ON);
    rm_clock_wait(RCC_CR, CR_HSI16RDYF, CR_HSI16RDYF, 4u, "RCC_CR HSI16RDYF (HSI16)");
    RM_CLK_WR32(RCC_CR, RM_CLK_RD32(RCC_CR) & ~CR_PLLON);
    rm_clock_wait(RCC_CR, CR_PLLRDY, 0u, 4u, "RCC_CR PLLRDY clear (PLL off)");
    RM_CLK_WR32(RCC_CFGR, (RM_CLK_RD32(RCC_CFGR) & ~CFGR_PLL_MASK) | CFGR_PLL_32MHZ);
    RM_CLK_WR32(RCC_CR, RM_CLK_RD32(RCC_CR) | CR_PLLON);
    rm_clock_wait(RCC_CR, CR_PLLRDY, CR_PLLRDY, 4u, "RCC_CR PLLRDY (PLL lock)");
    rm_clock_write_verify(FLASH_ACR, ACR_LATENCY, ACR_LATENCY, "FLASH_ACR LATENCY = 1 (read back)");
    RM_CLK_WR32(FLASH_ACR, RM_CLK_RD32(FLASH_ACR) | ACR_PRFTEN);
    RM_CLK_WR32(RCC_CFGR, RM_CLK_RD32(RCC_CFGR) & ~CFGR_DIVIDERS_MASK); /* AHB, APB1, APB2 /1 */
    RM_CLK_WR32(RCC_CFGR, (RM_CLK_RD32(RCC_CFGR) & ~CFGR_SW_MASK) | CFGR_SW_PLL);
    rm_clock_wait(RCC_CFGR, CFGR_SWS_MASK, CFGR_SWS_PLL, 4u, "RCC_CFGR SWS = PLL");
}
