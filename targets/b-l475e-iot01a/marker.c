/* The case marker (rtosmeter/target.h, docs/energy.md) on the B-L475E-IOT01A:
 * PD14, Arduino D2 — ST UM2153 (Discovery kit for IoT node),
 * "ARDUINO Uno V3 connectors", Table "ARDUINO connector pinout". Registers:
 * ST RM0351 (STM32L4) RCC_AHB2ENR, GPIO registers. */
#include <stdbool.h>
#include <stdint.h>

#include "cm.h"
#include "rtosmeter/target.h"

#define RCC_AHB2ENR RM_REG(0x4002104Cu)
#define GPIOD_MODER RM_REG(0x48000C00u)
#define GPIOD_BSRR RM_REG(0x48000C18u)
#define PIN 14u

void rm_board_marker_init(void);
void rm_board_marker_init(void)
{
    RCC_AHB2ENR |= 1u << 3; /* GPIODEN */
    (void)RCC_AHB2ENR;      /* the port's clock runs before its first access */
    GPIOD_BSRR = 1u << (PIN + 16u); /* low before it drives */
    /* MODER = 01 (reset: 11, analog), general-purpose output; OTYPER keeps
     * its reset push-pull. */
    GPIOD_MODER = (GPIOD_MODER & ~(3u << (2u * PIN))) | (1u << (2u * PIN));
}

void rm_target_case_marker(bool on)
{
    GPIOD_BSRR = on ? 1u << PIN : 1u << (PIN + 16u);
}
