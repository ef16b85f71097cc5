/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * rmcycles: the Cortex-M7 model. Arm publishes no instruction timing table
 * for the M7: its TRM (Arm DDI 0489) describes a six-stage in-order
 * superscalar pipeline that issues up to two instructions a cycle, a 64-bit
 * instruction fetch and data path to the TCMs and caches, and dynamic branch
 * prediction with a branch target address cache (BTAC). The numbers the TRM
 * leaves out come from LLVM's Cortex-M7 scheduling model
 * (llvm/lib/Target/ARM/ARMScheduleM7.td: IssueWidth 2, LoadLatency 2,
 * "Mispredict cost for forward branches is 6"). The rules, and what they
 * approximate, are listed in cycle_model.md. */
#include "rmcycles.h"

#define NO_REGS 0u
#define ALL_REGS 0xFFFFu

/* The core registers an instruction reads and writes (a conservative
 * superset; ALL_REGS where the decode below does not know). */
static void regs(const insn_t *d, uint32_t *rd, uint32_t *wr)
{
    uint16_t h = d->hw1, h2 = d->hw2;
    *rd = ALL_REGS;
    *wr = ALL_REGS;
    if (d->size == 2u) {
        if (h == 0xBF00u || h == 0xBFF0u) { /* NOP, the read marker */
            *rd = *wr = NO_REGS;
        } else if (h < 0x1800u) { /* LSL/LSR/ASR #imm */
            *rd = 1u << ((h >> 3) & 7u);
            *wr = 1u << (h & 7u);
        } else if (h < 0x2000u) { /* ADD/SUB register or imm3 */
            *rd = (1u << ((h >> 3) & 7u)) | ((h & 0x0400u) ? 0u : 1u << ((h >> 6) & 7u));
            *wr = 1u << (h & 7u);
        } else if (h < 0x4000u) { /* MOV/CMP/ADD/SUB imm8 */
            unsigned op = (h >> 11) & 3u, rdn = (h >> 8) & 7u;
            *rd = op == 0u ? NO_REGS : 1u << rdn;
            *wr = op == 1u ? NO_REGS : 1u << rdn;
        } else if (h < 0x4400u) { /* data processing register */
            *rd = (1u << (h & 7u)) | (1u << ((h >> 3) & 7u));
            *wr = 1u << (h & 7u);
        } else if (h < 0x4800u && ((h >> 8) & 3u) != 3u) { /* ADD/CMP/MOV high */
            unsigned rdn = (h & 7u) | ((h >> 4) & 8u), rm = (h >> 3) & 15u;
            unsigned op = (h >> 8) & 3u;
            *rd = (1u << rm) | (op == 2u ? 0u : 1u << rdn);
            *wr = op == 1u ? NO_REGS : 1u << rdn;
        } else if ((h & 0xF800u) == 0x4800u) { /* LDR literal */
            *rd = NO_REGS;
            *wr = 1u << ((h >> 8) & 7u);
        } else if ((h & 0xF000u) == 0x5000u) { /* load/store register offset */
            uint32_t rt = 1u << (h & 7u);
            *rd = (1u << ((h >> 3) & 7u)) | (1u << ((h >> 6) & 7u));
            if (((h >> 9) & 7u) <= 2u)
                *rd |= rt;
            else
                *wr = rt;
            if (((h >> 9) & 7u) <= 2u)
                *wr = NO_REGS;
        } else if ((h & 0xE000u) == 0x6000u || (h & 0xF000u) == 0x8000u) { /* LDR/STR imm */
            uint32_t rt = 1u << (h & 7u);
            *rd = 1u << ((h >> 3) & 7u);
            if (h & 0x0800u) {
                *wr = rt;
            } else {
                *rd |= rt;
                *wr = NO_REGS;
            }
        } else if ((h & 0xF000u) == 0x9000u) { /* LDR/STR SP-relative */
            uint32_t rt = 1u << ((h >> 8) & 7u);
            *rd = 1u << 13;
            if (h & 0x0800u) {
                *wr = rt;
            } else {
                *rd |= rt;
                *wr = NO_REGS;
            }
        } else if ((h & 0xF000u) == 0xA000u) { /* ADR, ADD Rd, SP, #imm */
            *rd = (h & 0x0800u) ? 1u << 13 : NO_REGS;
            *wr = 1u << ((h >> 8) & 7u);
        } else if ((h & 0xFF00u) == 0xB000u) { /* ADD/SUB SP, SP, #imm */
            *rd = *wr = 1u << 13;
        } else if ((h & 0xFF00u) == 0xB200u || (h & 0xFF00u) == 0xBA00u) { /* extend, REV */
            *rd = 1u << ((h >> 3) & 7u);
            *wr = 1u << (h & 7u);
        }
        return;
    }
    unsigned rn = h & 15u, rdw = (h2 >> 8) & 15u, rm = h2 & 15u;
    if ((h & 0xFE00u) == 0xEA00u) { /* data processing, shifted register */
        *rd = (1u << rn) | (1u << rm);
        *wr = 1u << rdw;
    } else if ((h & 0xF800u) == 0xF000u && !(h2 & 0x8000u)) { /* data processing, immediate */
        bool movw = (h & 0xFB70u) == 0xF240u; /* MOVW/MOVT: no Rn (MOVT keeps Rd's half) */
        *rd = movw ? ((h & 0x0080u) ? 1u << rdw : NO_REGS) : 1u << rn;
        *wr = 1u << rdw;
    } else if ((h & 0xFF00u) == 0xFA00u) { /* data processing, register */
        *rd = (1u << rn) | (1u << rm);
        *wr = 1u << rdw;
    } else if ((h & 0xFE00u) == 0xF800u) { /* load/store single */
        uint32_t rt = 1u << (h2 >> 12);
        bool reg_offset = rn != 15u && !(h & 0x80u) && (h2 & 0x0FC0u) == 0u;
        *rd = (1u << rn) | (reg_offset ? 1u << rm : 0u);
        if (h & 0x10u) {
            *wr = rt;
        } else {
            *rd |= rt;
            *wr = NO_REGS;
        }
        if (!(h & 0x80u) && (h2 & 0x0900u) == 0x0900u)
            *wr |= 1u << rn; /* write-back */
    }
}

/* Issued alone, whatever its neighbours: branches (direct and indirect),
 * multiples, multiplies and divides, FP, system and hint instructions. */
static bool pairable(const insn_t *d)
{
    uint32_t rd, wr;
    if (d->cls != C_PLAIN || (d->flags & (F_SOLO | F_DBG0 | F_REFILL)) || d->base != 1u)
        return false;
    regs(d, &rd, &wr);
    return rd != ALL_REGS && wr != ALL_REGS;
}

static void adjust_m7(insn_t *d)
{
    uint16_t h = d->hw1, h2 = d->hw2;
    bool pc_load = (d->flags & F_MEM) && (d->cls == C_RETURN || d->cls == C_JUMPR);
    if (d->flags & F_SOLO) { /* LDM/STM/PUSH/POP: two registers a cycle */
        unsigned n = (unsigned)d->base - 1u - (pc_load ? cfg.ws : 0u);
        d->base = (uint8_t)(1u + (n + 1u) / 2u);
    } else if (pc_load && d->size == 4u && (h & 0xFFF0u) == 0xE8D0u) { /* TBB/TBH */
        d->base = 2u;
        d->flags |= F_SOLO;
    } else if (d->flags & F_MEM) { /* LDR/STR single: one cycle (+ ws from flash) */
        bool literal = d->size == 2u ? (h & 0xF800u) == 0x4800u : (h & 15u) == 15u;
        d->base = (uint8_t)(1u + (literal && !pc_load ? cfg.ws : 0u));
        if (pc_load)
            d->flags |= F_SOLO;
    } else if (d->size == 4u && (h & 0xFE40u) == 0xE840u) { /* LDRD/STRD: one 64-bit access */
        d->base = 1u;
        d->flags |= F_MEM | F_SOLO;
    } else if (d->size == 4u && ((h & 0xFF00u) == 0xFB00u || (h & 0xEC00u) == 0xEC00u)) {
        d->flags |= F_SOLO; /* multiply/divide (divide keeps div=), FP (the M4's costs) */
        if ((h & 0xFF80u) == 0xFB00u || ((h & 0xFF80u) == 0xFB80u && d->base != cfg.div))
            d->base = 1u;
    } else if (d->size == 4u && (h & 0xF800u) == 0xF000u && (h2 & 0x8000u)) {
        d->flags |= F_SOLO; /* branches, MSR/MRS, barriers, DBG */
        if (h == 0xF3BFu && (h2 & 0xFFF0u) == 0x8F60u)
            d->base = (uint8_t)(1u + cfg.bp); /* ISB: a pipeline flush */
    } else if (d->size == 2u && (h & 0xFF00u) == 0xBF00u && h != 0xBF00u) {
        d->flags |= F_SOLO; /* IT, WFI/WFE, SEV, YIELD */
    } else if (d->size == 2u && ((h & 0xFFE0u) == 0xB660u || (h & 0xFF00u) == 0xBE00u
                                 || (h & 0xFE00u) == 0xDE00u)) {
        d->flags |= F_SOLO; /* CPS, BKPT, UDF, SVC */
    }
    if (pc_load)
        d->flags |= F_REFILL; /* predicted like any indirect branch */
}

/* One cycle per instruction, minus a second instruction issued with the
 * first (both pairable, at most one memory access, no register the first
 * writes), plus the load-use interlock (LoadLatency 2: one stall). */
static unsigned step_m7(const insn_t *prev, const insn_t *cur, bool *slot)
{
    unsigned cost = cur->base;
    uint32_t rd, wr, prd, pwr;
    regs(cur, &rd, &wr);
    if (prev != NULL && (prev->flags & F_MEM) && !(prev->flags & F_SOLO) && prev->ld_dest < 15u
        && (rd & (1u << prev->ld_dest)))
        cost += 1u;
    else if (prev != NULL && *slot && pairable(cur)) {
        regs(prev, &prd, &pwr);
        bool both_mem = (prev->flags & F_MEM) && (cur->flags & F_MEM);
        if (!both_mem && !(rd & pwr) && !(wr & pwr)) {
            *slot = false;
            return cost - 1u;
        }
    }
    *slot = pairable(cur);
    return cost;
}

/* Direct branches: a two-bit counter per site (the BTAC's history); a site
 * not seen yet is predicted statically (backward or unconditional: weakly
 * taken; forward conditional: weakly not taken). Indirect branches and
 * returns: predicted to where the site last went. A correct prediction costs
 * nothing more, a wrong one bp (+ ws for the refetch from flash). */
static unsigned branch_m7(insn_t *b, const insn_t *to, bool taken)
{
    bool right;
    if (b->cls == C_BRANCH || b->cls == C_CALL) {
        unsigned c = b->predicted != 0u ? b->predicted - 1u
                                        : ((b->flags & F_ALWAYS) || b->target <= b->addr) ? 2u
                                                                                          : 1u;
        right = (c >= 2u) == taken;
        c = taken ? (c < 3u ? c + 1u : 3u) : (c > 0u ? c - 1u : 0u);
        b->predicted = (uint8_t)(c + 1u);
    } else {
        right = to != NULL && b->predicted != 0u && b->last_target == to->addr;
        if (to != NULL) {
            b->predicted = 1u;
            b->last_target = to->addr;
        }
    }
    return right ? 0u : cfg.bp + cfg.ws;
}

/* Exception entry 12, return 12, tail-chain 6 as on the M3 (the M7 TRM
 * states a 12-cycle interrupt latency; the rest is assumed), and the lazy
 * FP save of the M4 (assumed: no M7 figure is published). */
#define FP_LAZY_M7 17u
const core_t core_m7 = {"m7", 12u, 12u, 6u, FP_LAZY_M7, 0u, false, 0u, false,
                        adjust_m7, step_m7, branch_m7};
