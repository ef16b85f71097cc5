/* FRDM-K64F (MK64FN1M0VLL12) to 120 MHz, as NXP's start-up code for the
 * board does it: MCUXpresso SDK boards/frdmk64f/clock_config.c
 * BOARD_BootClockRUN (MCG FEI -> FBE -> PBE -> PEE from the 50 MHz clock the
 * board's Ethernet PHY feeds to EXTAL0: OSC0 external-clock mode, RANGE very
 * high, PLL PRDIV 0x13 (/20), VDIV 0x18 (x48) = 120 MHz; SIM_CLKDIV1
 * 0x01240000: core /1, bus /2, FlexBus /3, flash /5 = 24 MHz), in the order
 * of devices/MK64F12/drivers/fsl_clock.c CLOCK_SetSimSafeDivs,
 * CLOCK_InitOsc0, CLOCK_SetInternalRefClkConfig, CLOCK_BootToPeeMode,
 * CLOCK_SetSimConfig. The flash memory controller's caches and prefetch
 * (FMC_PFB0CR/PFB1CR) are on out of reset; they are set again here so the
 * build says so. Registers: K64P144M120SF5RM rev 2, 25.3 (MCG), 26.71 (OSC),
 * 12.2 (SIM), 29.4 (FMC).
 */
#include <stdint.h>

#include "clock_io.h"

#define SIM_SOPT1 0x40047000u
#define SIM_SOPT2 0x40048004u
#define SIM_CLKDIV1 0x40048044u
#define OSC_CR 0x40065000u
#define MCG_C1 0x40064000u
#define MCG_C2 0x40064001u
#define MCG_C5 0x40064004u
#define MCG_C6 0x40064005u
#define MCG_S 0x40064006u
#define MCG_C7 0x4006400Cu
/* FMC base 0x4001F000, PFB0CR +4, PFB1CR +8 (K64 RM ch. 29; as NuttX's kinetis_k64fmc.h). */
#define FMC_PFB0CR 0x4001F004u
#define FMC_PFB1CR 0x4001F008u

#define CLKDIV1_120MHZ 0x01240000u /* OUTDIV1 /1, OUTDIV2 /2, OUTDIV3 /3, OUTDIV4 /5 */
#define OSC_CR_ERCLKEN 0x80u
#define C1_CLKS_MASK 0xC0u
#define C1_CLKS_EXT 0x80u
#define C1_FRDIV_MASK 0x38u
#define C1_IREFS 0x04u
#define C1_IRCLKEN 0x02u
#define C1_IREFSTEN 0x01u
#define C2_OSC_MODE_MASK 0x3Cu /* RANGE0, HGO0, EREFS0 */
#define C2_RANGE_VERY_HIGH 0x20u /* RANGE0 = 2: above 8 MHz; EREFS0 = 0: a clock, not a crystal */
#define C2_LP 0x02u
#define C5_PRDIV_20 0x13u
#define C5_PLLCLKEN0 0x40u
#define C6_VDIV_MASK 0x1Fu
#define C6_VDIV_48 0x18u
#define C6_PLLS 0x40u
#define C7_OSCSEL_MASK 0x03u
#define S_IREFST 0x10u
#define S_CLKST_MASK 0x0Cu
#define S_CLKST_EXT 0x08u
#define S_CLKST_PLL 0x0Cu
#define S_PLLST 0x20u
#define S_LOCK0 0x40u
#define SOPT2_PLLFLLSEL_MASK (3u << 16)
#define SOPT2_PLLFLLSEL_PLL (1u << 16)
#define SOPT1_OSC32KSEL_MASK (3u << 18)
#define SOPT1_OSC32KSEL_RTC (2u << 18)
#define PFBCR_CACHES 0x1Fu /* SEBE, IPE, DPE, ICE, DCE */

void rm_cm_clock_init(void);

void rm_cm_clock_init(void)
{
    RM_CLK_WR32(SIM_CLKDIV1, CLKDIV1_120MHZ); /* safe dividers for every step */
    /* OSC0 in external-clock mode: no OSCINIT0 to wait for. */
    RM_CLK_WR8(MCG_C2, (RM_CLK_RD8(MCG_C2) & ~C2_OSC_MODE_MASK) | C2_RANGE_VERY_HIGH);
    RM_CLK_WR8(OSC_CR, OSC_CR_ERCLKEN);
    /* MCGIRCLK on (slow IRC), FLL external divider /32 (unused in PEE). */
    RM_CLK_WR8(MCG_C1, (RM_CLK_RD8(MCG_C1) & ~(C1_IRCLKEN | C1_IREFSTEN)) | C1_IRCLKEN);
    RM_CLK_WR8(MCG_C1, RM_CLK_RD8(MCG_C1) & ~C1_FRDIV_MASK);
    RM_CLK_WR8(MCG_C7, RM_CLK_RD8(MCG_C7) & ~C7_OSCSEL_MASK); /* OSCCLK */
    /* FBE: the external clock drives MCGOUTCLK. */
    RM_CLK_WR8(MCG_C2, RM_CLK_RD8(MCG_C2) & ~C2_LP);
    RM_CLK_WR8(MCG_C1, (RM_CLK_RD8(MCG_C1) & ~(C1_CLKS_MASK | C1_IREFS)) | C1_CLKS_EXT);
    rm_clock_wait(MCG_S, S_IREFST | S_CLKST_MASK, S_CLKST_EXT, 1u,
                  "MCG_S IREFST clear, CLKST = external (FBE: the 50 MHz EXTAL0 clock)");
    RM_CLK_WR8(MCG_C6, RM_CLK_RD8(MCG_C6) & ~C6_PLLS);
    rm_clock_wait(MCG_S, S_PLLST, 0u, 1u, "MCG_S PLLST clear (FLL selected)");
    /* PLL0: 50 MHz / 20 x 48 = 120 MHz. */
    RM_CLK_WR8(MCG_C5, C5_PRDIV_20);
    RM_CLK_WR8(MCG_C6, (RM_CLK_RD8(MCG_C6) & ~C6_VDIV_MASK) | C6_VDIV_48);
    RM_CLK_WR8(MCG_C5, RM_CLK_RD8(MCG_C5) | C5_PLLCLKEN0);
    rm_clock_wait(MCG_S, S_LOCK0, S_LOCK0, 1u, "MCG_S LOCK0 (PLL lock)");
    /* PBE, then PEE. */
    RM_CLK_WR8(MCG_C6, RM_CLK_RD8(MCG_C6) | C6_PLLS);
    rm_clock_wait(MCG_S, S_PLLST, S_PLLST, 1u, "MCG_S PLLST (PLL selected)");
    RM_CLK_WR8(MCG_C1, RM_CLK_RD8(MCG_C1) & ~C1_CLKS_MASK);
    rm_clock_wait(MCG_S, S_CLKST_MASK, S_CLKST_PLL, 1u, "MCG_S CLKST = PLL (PEE)");
    RM_CLK_WR32(SIM_CLKDIV1, CLKDIV1_120MHZ);
    RM_CLK_WR32(SIM_SOPT2, (RM_CLK_RD32(SIM_SOPT2) & ~SOPT2_PLLFLLSEL_MASK) | SOPT2_PLLFLLSEL_PLL);
    RM_CLK_WR32(SIM_SOPT1, (RM_CLK_RD32(SIM_SOPT1) & ~SOPT1_OSC32KSEL_MASK) | SOPT1_OSC32KSEL_RTC);
    RM_CLK_WR32(FMC_PFB0CR, RM_CLK_RD32(FMC_PFB0CR) | PFBCR_CACHES);
    RM_CLK_WR32(FMC_PFB1CR, RM_CLK_RD32(FMC_PFB1CR) | PFBCR_CACHES);
}
