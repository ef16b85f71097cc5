/* The case marker (rtosmeter/target.h, docs/energy.md) on the B-L475E-IOT01A:
 * PD14, Arduino D2 — ST UM2153 (Discovery kit for IoT node),
 * "ARDUINO Uno V3 connectors", Table "ARDUINO connector pinout". Registers:
 * ST RM0351 (STM32L4) RCC_AHB2ENR, GPIO registers (GPIOD_MODER resets to
 * 11, analog). */
#include <stdbool.h>

#include "rtosmeter/target.h"
#include "stm32_marker.h"

#define RCC_AHB2ENR 0x4002104Cu
#define GPIODEN 3u
#define GPIOD 0x48000C00u
#define PIN 14u

void rm_board_marker_init(void);
void rm_board_marker_init(void)
{
    rm_stm32_marker_init(RCC_AHB2ENR, GPIODEN, GPIOD, PIN);
}

void rm_target_case_marker(bool on)
{
    rm_stm32_marker_edge(GPIOD, PIN, on);
}
