/* The case marker (rtosmeter/target.h, docs/energy.md) on the STM32F407
 * (STM32F4DISCOVERY): PD1, a pin the kit's own devices leave free, on its
 * extension header P2 — ST UM1472 (STM32F4DISCOVERY), "Extension
 * connectors", Table "MCU pin description versus board function". The kit
 * has no Arduino header. Registers: ST RM0090 RCC_AHB1ENR, GPIO
 * registers (GPIOD_MODER resets to 00, input). */
#include <stdbool.h>

#include "rtosmeter/target.h"
#include "stm32_marker.h"

#define RCC_AHB1ENR 0x40023830u
#define GPIODEN 3u
#define GPIOD 0x40020C00u
#define PIN 1u

void rm_board_marker_init(void);
void rm_board_marker_init(void)
{
    rm_stm32_marker_init(RCC_AHB1ENR, GPIODEN, GPIOD, PIN);
}

void rm_target_case_marker(bool on)
{
    rm_stm32_marker_edge(GPIOD, PIN, on);
}
