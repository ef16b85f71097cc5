/* The case marker (rtosmeter/target.h, docs/energy.md) on the NUCLEO-L053R8:
 * PA10, Arduino D2 (CN9 pin 3) — ST UM1724 (STM32 Nucleo-64 boards),
 * "ARDUINO connectors", Table "ARDUINO connectors on NUCLEO-L053R8". Registers:
 * ST RM0367 (STM32L0x3) RCC_IOPENR, GPIO registers. */
#include <stdbool.h>
#include <stdint.h>

#include "marker_io.h"
#include "rtosmeter/target.h"

#define RCC_IOPENR 0x4002102Cu
#define GPIOA_MODER 0x50000000u
#define GPIOA_BSRR (0x50000000u + 0x18u)
#define PIN 10u

void rm_board_marker_init(void);
void rm_board_marker_init(void)
{
    RM_MK_WR(RCC_IOPENR, RM_MK_RD(RCC_IOPENR) | 1u << 0u); /* IOPAEN */
    (void)RM_MK_RD(RCC_IOPENR); /* the port's clock runs before its first access */
    RM_MK_WR(GPIOA_BSRR, 1u << (PIN + 16u)); /* low before it drives */
    /* MODER = 01 (reset: 11, analog), general-purpose output;
     * OTYPER keeps its reset push-pull. */
    RM_MK_WR(GPIOA_MODER, (RM_MK_RD(GPIOA_MODER) & ~(3u << (2u * PIN))) | 1u << (2u * PIN));
}

/* One store per edge: BSRR's low half sets the pin, its high half clears it. */
void rm_target_case_marker(bool on)
{
    RM_MK_WR(GPIOA_BSRR, on ? 1u << PIN : 1u << (PIN + 16u));
}
