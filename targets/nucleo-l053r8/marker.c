/* The case marker (rtosmeter/target.h, docs/energy.md) on the NUCLEO-L053R8:
 * PA10, Arduino D2 (CN9 pin 3) — ST UM1724 (STM32 Nucleo-64 boards),
 * "ARDUINO connectors", Table "ARDUINO connectors on NUCLEO-L053R8". Registers:
 * ST RM0367 (STM32L0x3) RCC_IOPENR, GPIO registers. */
#include <stdbool.h>
#include <stdint.h>

#include "cm.h"
#include "rtosmeter/target.h"

#define RCC_IOPENR RM_REG(0x4002102Cu)
#define GPIOA_MODER RM_REG(0x50000000u)
#define GPIOA_BSRR RM_REG(0x50000018u)
#define PIN 10u

void rm_board_marker_init(void);
void rm_board_marker_init(void)
{
    RCC_IOPENR |= 1u << 0; /* IOPAEN */
    (void)RCC_IOPENR;      /* the port's clock runs before its first access */
    GPIOA_BSRR = 1u << (PIN + 16u); /* low before it drives */
    /* MODER = 01, general-purpose output; OTYPER keeps its reset push-pull. */
    GPIOA_MODER = (GPIOA_MODER & ~(3u << (2u * PIN))) | (1u << (2u * PIN));
}

void rm_target_case_marker(bool on)
{
    GPIOA_BSRR = on ? 1u << PIN : 1u << (PIN + 16u);
}
