/* The case marker on an STM32 (targets/<board>/marker.c): the same steps on
 * every STM32 GPIO port, each board giving its clock-gate register and bit,
 * its port's base and its pin. Registers: the GPIO chapter common to ST's
 * reference manuals (RM0351 L4, RM0090 F4, RM0367 L0): MODER at +0x00,
 * BSRR at +0x18. Inline: each edge stays one store, no call. */
#ifndef RM_STM32_MARKER_H
#define RM_STM32_MARKER_H

#include <stdbool.h>
#include <stdint.h>

#include "marker_io.h"

#define RM_STM32_MODER(port) (port)
#define RM_STM32_BSRR(port) ((port) + 0x18u)

/* Open the port's clock gate, drive the pin low, then make it a push-pull
 * output (MODER = 01; OTYPER keeps its reset push-pull). */
static inline __attribute__((always_inline)) void
rm_stm32_marker_init(uint32_t gate, uint32_t gate_bit, uint32_t port, uint32_t pin)
{
    RM_MK_WR(gate, RM_MK_RD(gate) | 1u << gate_bit);
    (void)RM_MK_RD(gate); /* the port's clock runs before its first access */
    RM_MK_WR(RM_STM32_BSRR(port), 1u << (pin + 16u)); /* low before it drives */
    RM_MK_WR(RM_STM32_MODER(port),
             (RM_MK_RD(RM_STM32_MODER(port)) & ~(3u << (2u * pin))) | 1u << (2u * pin));
}

/* One store per edge: BSRR's low half sets the pin, its high half clears it. */
static inline __attribute__((always_inline)) void
rm_stm32_marker_edge(uint32_t port, uint32_t pin, bool on)
{
    RM_MK_WR(RM_STM32_BSRR(port), on ? 1u << pin : 1u << (pin + 16u));
}

#endif /* RM_STM32_MARKER_H */
