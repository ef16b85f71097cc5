/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * rmcycles: the Cortex-M0 and Cortex-M0+ cycle tables (ARMv6-M), applied
 * after the shared Thumb decode of rmcycles.c. Sources (cycle_model.md):
 * Cortex-M0 TRM (Arm DDI 0432C) table 3-1 "Cortex-M0 instruction summary",
 * Cortex-M0+ TRM (Arm DDI 0484C) table 3-2 "Cortex-M0+ instruction summary";
 * both for a zero-wait-state system. What the decode already charges as on
 * the M3 (ALU 1, loads/stores 2, LDM/STM/PUSH/POP 1+N) is the same here,
 * minus the M3's load pipelining, which ARMv6-M cores do not have. */
#include "rmcycles.h"

/* MSR, MRS, DMB, DSB, ISB: M0 4, M0+ 3; WFI, WFE 2; MULS 1 or 32 (the
 * implementer's choice: mul=). */
static void adjust(insn_t *d, unsigned system)
{
    uint16_t h = d->hw1, h2 = d->hw2;
    if (d->size == 2u) {
        if ((h & 0xFFC0u) == 0x4340u) /* MULS */
            d->base = (uint8_t)cfg.mul;
        else if (h == 0xBF20u || h == 0xBF30u) /* WFE, WFI */
            d->base = 2u;
        return;
    }
    if ((h & 0xF800u) == 0xF000u && (h2 & 0xD000u) == 0xD000u) { /* BL: 1 + the refill */
        d->base = 2u;
        return;
    }
    if ((h & 0xFFE0u) == 0xF380u || (h & 0xFFE0u) == 0xF3E0u || h == 0xF3BFu)
        d->base = (uint8_t)system; /* MSR, MRS, barriers */
}

static void adjust_m0(insn_t *d)
{
    adjust(d, 4u);
}

static void adjust_m0plus(insn_t *d)
{
    adjust(d, 3u);
}

/* M0: taken B/B<c>/BX/BLX/MOV PC 3 = 1 + 2, BL 4 = 2 + 2, POP {..,PC}
 * 4 + N = 1 + N + 3. Exception entry: "16 cycles" interrupt latency (DDI
 * 0432C 5.x); return and tail-chain are not in the TRM (cycle_model.md). */
const core_t core_m0 = {"m0", 16u, 16u, 6u, 0u, 2u, false, 3u, false, adjust_m0, NULL, NULL};

/* M0+ (two-stage pipeline): taken branches 2 = 1 + 1, BL 3 = 2 + 1, POP
 * {..,PC} 3 + N = 1 + N + 2; interrupt latency 15 cycles. */
const core_t core_m0plus = {"m0plus", 15u, 15u, 6u, 0u, 1u, false, 2u, false, adjust_m0plus, NULL,
                            NULL};
