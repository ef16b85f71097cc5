/* The case marker (rtosmeter/target.h, docs/energy.md) on the STM32F407
 * (STM32F4DISCOVERY): PD1, a pin the kit's own devices leave free, on its
 * extension header P2 — ST UM1472 (STM32F4DISCOVERY), "Extension
 * connectors", Table "MCU pin description versus board function". The kit
 * has no Arduino header. Registers: ST RM0090 RCC_AHB1ENR, GPIO
 * registers. */
#include <stdbool.h>
#include <stdint.h>

#include "marker_io.h"
#include "rtosmeter/target.h"

#define RCC_AHB1ENR 0x40023830u
#define GPIOD_MODER 0x40020C00u
#define GPIOD_BSRR (0x40020C00u + 0x18u)
#define PIN 1u

void rm_board_marker_init(void);
void rm_board_marker_init(void)
{
    RM_MK_WR(RCC_AHB1ENR, RM_MK_RD(RCC_AHB1ENR) | 1u << 3u); /* GPIODEN */
    (void)RM_MK_RD(RCC_AHB1ENR); /* the port's clock runs before its first access */
    RM_MK_WR(GPIOD_BSRR, 1u << (PIN + 16u)); /* low before it drives */
    /* MODER = 01 (reset: 00, input), general-purpose output;
     * OTYPER keeps its reset push-pull. */
    RM_MK_WR(GPIOD_MODER, (RM_MK_RD(GPIOD_MODER) & ~(3u << (2u * PIN))) | 1u << (2u * PIN));
}

/* One store per edge: BSRR's low half sets the pin, its high half clears it. */
void rm_target_case_marker(bool on)
{
    RM_MK_WR(GPIOD_BSRR, on ? 1u << PIN : 1u << (PIN + 16u));
}
