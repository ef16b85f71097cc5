/* The case marker (rtosmeter/target.h, docs/energy.md) on the B-L475E-IOT01A:
 * PD14, Arduino D2 — ST UM2153 (Discovery kit for IoT node),
 * "ARDUINO Uno V3 connectors", Table "ARDUINO connector pinout". Registers:
 * ST RM0351 (STM32L4) RCC_AHB2ENR, GPIO registers. */
#include <stdbool.h>
#include <stdint.h>

#include "marker_io.h"
#include "rtosmeter/target.h"

#define RCC_AHB2ENR 0x4002104Cu
#define GPIOD_MODER 0x48000C00u
#define GPIOD_BSRR (0x48000C00u + 0x18u)
#define PIN 14u

void rm_board_marker_init(void);
void rm_board_marker_init(void)
{
    RM_MK_WR(RCC_AHB2ENR, RM_MK_RD(RCC_AHB2ENR) | 1u << 3u); /* GPIODEN */
    (void)RM_MK_RD(RCC_AHB2ENR); /* the port's clock runs before its first access */
    RM_MK_WR(GPIOD_BSRR, 1u << (PIN + 16u)); /* low before it drives */
    /* MODER = 01 (reset: 11, analog), general-purpose output;
     * OTYPER keeps its reset push-pull. */
    RM_MK_WR(GPIOD_MODER, (RM_MK_RD(GPIOD_MODER) & ~(3u << (2u * PIN))) | 1u << (2u * PIN));
}

/* One store per edge: BSRR's low half sets the pin, its high half clears it. */
void rm_target_case_marker(bool on)
{
    RM_MK_WR(GPIOD_BSRR, on ? 1u << PIN : 1u << (PIN + 16u));
}
