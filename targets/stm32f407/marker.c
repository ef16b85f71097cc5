/* The case marker (rtosmeter/target.h, docs/energy.md) on the STM32F407
 * (STM32F4DISCOVERY): PD1, a pin the kit's own devices leave free, on its
 * extension header P2 — ST UM1472 (STM32F4DISCOVERY), "Extension
 * connectors", Table "MCU pin description versus board function". The kit
 * has no Arduino header. Registers: ST RM0090 RCC_AHB1ENR, GPIO
 * registers. */
#include <stdbool.h>
#include <stdint.h>

#include "cm.h"
#include "rtosmeter/target.h"

#define RCC_AHB1ENR RM_REG(0x40023830u)
#define GPIOD_MODER RM_REG(0x40020C00u)
#define GPIOD_BSRR RM_REG(0x40020C18u)
#define PIN 1u

void rm_board_marker_init(void);
void rm_board_marker_init(void)
{
    RCC_AHB1ENR |= 1u << 3; /* GPIODEN */
    (void)RCC_AHB1ENR;      /* the port's clock runs before its first access */
    GPIOD_BSRR = 1u << (PIN + 16u); /* low before it drives */
    /* MODER = 01, general-purpose output; OTYPER keeps its reset push-pull. */
    GPIOD_MODER = (GPIOD_MODER & ~(3u << (2u * PIN))) | (1u << (2u * PIN));
}

void rm_target_case_marker(bool on)
{
    GPIOD_BSRR = on ? 1u << PIN : 1u << (PIN + 16u);
}
