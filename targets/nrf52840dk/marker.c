/* The case marker (rtosmeter/target.h, docs/energy.md) on the nRF52840 DK:
 * P1.03, Arduino D2 — Nordic nRF52840 DK User Guide, "Connector
 * interface" (the Arduino Uno Rev3 pin-out of the DK's headers). Registers:
 * Nordic nRF52840 Product Specification GPIO (P1 at 0x50000300; the
 * GPIO is clocked always: no gate to open). */
#include <stdbool.h>
#include <stdint.h>

#include "marker_io.h"
#include "rtosmeter/target.h"

#define P1_OUTSET 0x50000808u
#define P1_OUTCLR 0x5000080Cu
#define P1_PIN_CNF(n) (0x50000A00u + 4u * (n))
#define PIN 3u

void rm_board_marker_init(void);
void rm_board_marker_init(void)
{
    RM_MK_WR(P1_OUTCLR, 1u << PIN); /* low before it drives */
    RM_MK_WR(P1_PIN_CNF(PIN), 3u);  /* DIR = output, INPUT = disconnect, S0S1 push-pull */
}

/* One store per edge: OUTSET sets the pin, OUTCLR clears it. */
void rm_target_case_marker(bool on)
{
    RM_MK_WR(on ? P1_OUTSET : P1_OUTCLR, 1u << PIN);
}
