/* The case marker (rtosmeter/target.h, docs/energy.md) on the FRDM-K64F:
 * PTB9, Arduino D2 (J1 pin 6) — NXP FRDM-K64F Freedom Module User's Guide
 * (FRDMK64FUG) "Input/output headers", the I/O connector pinout. Registers:
 * NXP K64P144M120SF5RM SIM_SCGC5, PORTx_PCRn, GPIO. */
#include <stdbool.h>
#include <stdint.h>

#include "cm.h"
#include "rtosmeter/target.h"

#define SIM_SCGC5 RM_REG(0x40048038u)
#define PORTB_PCR(n) RM_REG(0x4004A000u + 4u * (n))
#define GPIOB_PSOR RM_REG(0x400FF044u)
#define GPIOB_PCOR RM_REG(0x400FF048u)
#define GPIOB_PDDR RM_REG(0x400FF054u)
#define PIN 9u

void rm_board_marker_init(void);
void rm_board_marker_init(void)
{
    SIM_SCGC5 |= 1u << 10;         /* PORTB */
    PORTB_PCR(PIN) = 1u << 8;      /* MUX = 1: GPIO; no pull, push-pull */
    GPIOB_PCOR = 1u << PIN;        /* low before it drives */
    GPIOB_PDDR |= 1u << PIN;       /* output */
}

void rm_target_case_marker(bool on)
{
    if (on) {
        GPIOB_PSOR = 1u << PIN;
    } else {
        GPIOB_PCOR = 1u << PIN;
    }
}
