/* The case marker (rtosmeter/target.h, docs/energy.md) on the FRDM-K64F:
 * PTB9, Arduino D2 (J1 pin 6) — NXP FRDM-K64F Freedom Module User's Guide
 * (FRDMK64FUG) "Input/output headers", the I/O connector pinout. Registers:
 * NXP K64P144M120SF5RM SIM_SCGC5, PORTx_PCRn, GPIO. */
#include <stdbool.h>
#include <stdint.h>

#include "marker_io.h"
#include "rtosmeter/target.h"

#define SIM_SCGC5 0x40048038u
#define PORTB_PCR(n) (0x4004A000u + 4u * (n))
#define GPIOB_PSOR 0x400FF044u
#define GPIOB_PCOR 0x400FF048u
#define GPIOB_PDDR 0x400FF054u
#define PIN 9u

void rm_board_marker_init(void);
void rm_board_marker_init(void)
{
    RM_MK_WR(SIM_SCGC5, RM_MK_RD(SIM_SCGC5) | 1u << 10); /* PORTB clock gate */
    RM_MK_WR(PORTB_PCR(PIN), 1u << 8);                   /* MUX = 1: GPIO, no pull */
    RM_MK_WR(GPIOB_PCOR, 1u << PIN);                     /* low before it drives */
    RM_MK_WR(GPIOB_PDDR, RM_MK_RD(GPIOB_PDDR) | 1u << PIN); /* output */
}

/* One store per edge: PSOR sets the pin, PCOR clears it. */
void rm_target_case_marker(bool on)
{
    RM_MK_WR(on ? GPIOB_PSOR : GPIOB_PCOR, 1u << PIN);
}
