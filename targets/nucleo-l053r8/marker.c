/* The case marker (rtosmeter/target.h, docs/energy.md) on the NUCLEO-L053R8:
 * PA10, Arduino D2 (CN9 pin 3) — ST UM1724 (STM32 Nucleo-64 boards),
 * "ARDUINO connectors", Table "ARDUINO connectors on NUCLEO-L053R8". Registers:
 * ST RM0367 (STM32L0x3) RCC_IOPENR, GPIO registers (GPIOA_MODER resets to
 * 11, analog, but SWD's pins). */
#include <stdbool.h>

#include "rtosmeter/target.h"
#include "stm32_marker.h"

#define RCC_IOPENR 0x4002102Cu
#define IOPAEN 0u
#define GPIOA 0x50000000u
#define PIN 10u

void rm_board_marker_init(void);
void rm_board_marker_init(void)
{
    rm_stm32_marker_init(RCC_IOPENR, IOPAEN, GPIOA, PIN);
}

void rm_target_case_marker(bool on)
{
    rm_stm32_marker_edge(GPIOA, PIN, on);
}
