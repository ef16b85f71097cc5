/* The case marker (rtosmeter/target.h, docs/energy.md) on the nRF52840 DK:
 * P1.03, Arduino D2 — Nordic nRF52840 DK User Guide, "Connector
 * interface" (the Arduino Uno Rev3 pin-out of the DK's headers). Registers:
 * Nordic nRF52840 Product Specification GPIO (P1 at 0x50000300; the
 * GPIO is clocked always: no gate to open). */
#include <stdbool.h>
#include <stdint.h>

#include "cm.h"
#include "rtosmeter/target.h"

#define P1_OUTSET RM_REG(0x50000808u)
#define P1_OUTCLR RM_REG(0x5000080Cu)
#define P1_PIN_CNF(n) RM_REG(0x50000A00u + 4u * (n))
#define PIN 3u

void rm_board_marker_init(void);
void rm_board_marker_init(void)
{
    P1_OUTCLR = 1u << PIN;  /* low before it drives */
    P1_PIN_CNF(PIN) = 3u;   /* DIR = output, INPUT = disconnect, S0S1 push-pull */
}

void rm_target_case_marker(bool on)
{
    if (on) {
        P1_OUTSET = 1u << PIN;
    } else {
        P1_OUTCLR = 1u << PIN;
    }
}
