/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * rmcycles: the cycle counter QEMU lacks, as a TCG plugin (QEMU 7.2 on: one
 * build per plugin API generation, rm_plugin_api.h) for emulated Cortex-M
 * cores. Two modes:
 *
 *   mode=instructions  exact count of executed guest instructions
 *   mode=cycles        an estimate from a per-core cycle model (model
 *                      "rmcm-3", see cycle_model.md),
 *                      cpu=m0|m0plus|m3|m4|m7, ws=<flash wait states>,
 *                      div=<SDIV/UDIV cycles>, mul=<MULS cycles, M0/M0+>,
 *                      bp=<M7 branch misprediction penalty>
 *
 * The firmware reads the count like a cycle counter: a `DBG #0` hint (a
 * no-op on QEMU and on real M3/M4/M7; `HINT #15` = 0xBFF0 on ARMv6-M, which
 * has no DBG) marks the read; when it executes, the
 * plugin stores the low 32 bits of the running count into the guest word at
 * counter=<address> (a NOLOAD word in the same RAM block as the code, so its
 * host address is the DBG's host address plus the guest distance), and the
 * next instruction loads it. out=<file> gets a JSON summary at exit.
 *
 * Counting is per instruction, never per translation block: under -icount a
 * memory-mapped access ends a block early, and QEMU re-executes the rest in
 * a new block (a per-block count was 4.4 % high). Instruction sizes come from
 * the Thumb encoding (qemu_plugin_insn_size can be wrong beside a page end).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "rm_plugin_api.h"
#include "rmcycles.h"
#include "rmidle.h"

#define MODEL "rmcm-3" /* bump when a cost in cycle_model.md changes */

/* M3/M4: exception costs (Arm DDI 0337 r2p1, 5.5 "Exception entry/return");
 * a PC loaded from memory: "three cycles for the pipeline reload". The
 * M4F's lazy FP save: an extended frame's S0-S15 and FPSCR, 17 words, the
 * 29 - 12 cycles that Arm's AN298 gives for stacking them at entry. */
#define FP_LAZY_M4 17u
static const core_t core_m3 = {"m3", 12u, 12u, 6u, 0u, 1u, true, 3u, true, NULL, NULL, NULL};
static const core_t core_m4 = {"m4", 12u, 12u, 6u, FP_LAZY_M4, 1u, true, 3u, true, NULL, NULL, NULL};
static const core_t *const cores[] = {&core_m0, &core_m0plus, &core_m3, &core_m4, &core_m7};

struct config cfg = {MODE_INSTRUCTIONS, &core_m4, 0u, 12u, 1u, 6u,
                     {false, 0u, 0u, 0u, 0u, 2u, false}, false, 0u, ""};

/* Dynamic state (one vCPU: TCG under -icount is single-threaded). */
static rm_counts_t *ctr; /* insns, cycles: inline ops add to them (api.c) */
static uint64_t n_reads;
static uint64_t n_entries, n_returns, n_tailchains;
static uint64_t n_fp_frames, n_lazy_saves;

#define MAX_FRAMES 64
static struct frame {
    uint32_t depth;            /* calls made inside the handler, not returned yet */
    const insn_t *interrupted; /* a branch whose outcome the return address tells */
    bool fp_ext;               /* an extended frame: room for the FP state (FPCA was set) */
    bool fp_saved;             /* its FP state was saved (lazily, at the first FP instruction) */
    /* Where the interrupted code can go on: its block's addresses, or the
     * target of the branch that ended it (all 0: not known). */
    uint32_t resume_lo, resume_hi, resume_target;
} frames[MAX_FRAMES];

/* The addresses of the block running (set at each block's start). */
static uint32_t running_lo, running_hi;
static int n_frames;

/* Handler entry addresses seen (exception entries that were unambiguous),
 * to recognise a handler entered right after an indirect branch. */
#define MAX_HANDLERS 256
static uint32_t handlers[MAX_HANDLERS];
static int n_handlers;

/* Instructions are looked up by (address, encoding): QEMU retranslates
 * blocks (one-shot I/O blocks under icount), the table keeps one copy. */
#define HASH_BITS 16
static insn_t *buckets[1u << HASH_BITS];

static bool is32(uint16_t hw1)
{
    return (hw1 & 0xF800u) == 0xE800u || (hw1 & 0xF000u) == 0xF000u;
}

static uint8_t popcount16(uint32_t v)
{
    return (uint8_t)__builtin_popcount(v & 0xFFFFu);
}

static void set_load(insn_t *d, unsigned rt, unsigned rn, int rm, bool wb, unsigned cost)
{
    d->base = (uint8_t)cost;
    d->flags |= F_MEM;
    d->ld_dest = (uint8_t)rt; /* the M7's load-use interlock reads it; F_LDPIPE gates the M3's */
    d->addr_regs = (uint16_t)((1u << rn) | (rm >= 0 ? 1u << rm : 0u));
    if (rn == 15u)
        d->base = (uint8_t)(d->base + cfg.ws); /* literal: a load from the code's memory */
    if (rt == 15u) {
        bool pop = rn == 13u && wb;
        d->cls = pop ? C_RETURN : C_JUMPR;
        d->base = (uint8_t)(2u + cfg.core->refill_load + cfg.ws);
        return;
    }
    if (!wb)
        d->flags |= F_LDPIPE | F_LSPIPE;
}

static void set_store(insn_t *d, unsigned rn, int rm, bool wb)
{
    d->base = 2u;
    d->flags |= F_MEM;
    d->addr_regs = (uint16_t)((1u << rn) | (rm >= 0 ? 1u << rm : 0u));
    if (!wb)
        d->flags |= F_LSPIPE;
}

static void set_multiple(insn_t *d, uint32_t list, bool load, unsigned rn, bool wb)
{
    unsigned n = popcount16(list);
    d->base = (uint8_t)(1u + n);
    d->flags |= F_MEM | F_SOLO;
    if (load && (list & 0x8000u)) {
        d->cls = (rn == 13u && wb) ? C_RETURN : C_JUMPR;
        d->base = (uint8_t)(d->base + cfg.core->refill_load + cfg.ws);
    }
}

static void set_branch(insn_t *d, enum cls c, int32_t offset)
{
    d->cls = (uint8_t)c;
    d->flags |= F_REFILL;
    d->target = (uint32_t)((int32_t)(d->addr + 4u) + offset);
}

static int32_t sext(uint32_t v, unsigned bits)
{
    uint32_t m = 1u << (bits - 1u);
    return (int32_t)((v ^ m) - m);
}

static void decode16(insn_t *d)
{
    uint16_t h = d->hw1;
    d->base = 1u;
    if ((h & 0xFC00u) == 0x4400u) { /* special data processing, BX/BLX */
        unsigned op = (h >> 8) & 3u;
        unsigned rd = (h & 7u) | ((h >> 4) & 8u);
        unsigned rm = (h >> 3) & 15u;
        if (op == 3u) {
            d->cls = (h & 0x80u) ? C_CALLR : (rm == 14u ? C_RETURN : C_JUMPR);
            d->flags |= F_REFILL;
        } else if (op != 1u && rd == 15u) { /* ADD/MOV PC */
            d->cls = C_JUMPR;
            d->flags |= F_REFILL;
        }
        return;
    }
    if ((h & 0xF800u) == 0x4800u) /* LDR Rt,[PC,#imm] */
        return set_load(d, (h >> 8) & 7u, 15u, -1, false, 2u);
    if ((h & 0xF000u) == 0x5000u) { /* load/store register offset */
        unsigned opb = (h >> 9) & 7u;
        if (opb <= 2u)
            return set_store(d, (h >> 3) & 7u, (h >> 6) & 7, false);
        return set_load(d, h & 7u, (h >> 3) & 7u, (h >> 6) & 7, false, 2u);
    }
    if ((h & 0xE000u) == 0x6000u || (h & 0xF000u) == 0x8000u) { /* LDR/STR(B/H) imm */
        if (h & 0x0800u)
            return set_load(d, h & 7u, (h >> 3) & 7u, -1, false, 2u);
        return set_store(d, (h >> 3) & 7u, -1, false);
    }
    if ((h & 0xF000u) == 0x9000u) { /* LDR/STR SP-relative */
        if (h & 0x0800u)
            return set_load(d, (h >> 8) & 7u, 13u, -1, false, 2u);
        return set_store(d, 13u, -1, false);
    }
    if ((h & 0xF500u) == 0xB100u) { /* CBZ/CBNZ */
        uint32_t imm = (((h >> 3) & 0x1Fu) << 1) | (((h >> 9) & 1u) << 6);
        return set_branch(d, C_BRANCH, (int32_t)imm);
    }
    if ((h & 0xFE00u) == 0xB400u) /* PUSH */
        return set_multiple(d, (h & 0xFFu) | ((h & 0x100u) << 6), false, 13u, true);
    if ((h & 0xFE00u) == 0xBC00u) /* POP */
        return set_multiple(d, (h & 0xFFu) | ((h & 0x100u) << 7), true, 13u, true);
    if ((h & 0xF000u) == 0xC000u) { /* STM/LDM Rn! */
        unsigned rn = (h >> 8) & 7u;
        bool load = (h & 0x0800u) != 0u;
        return set_multiple(d, h & 0xFFu, load, rn, !(load && (h & (1u << rn))));
    }
    if ((h & 0xF000u) == 0xD000u) { /* B<c>, UDF, SVC */
        unsigned cond = (h >> 8) & 15u;
        if (cond < 14u)
            set_branch(d, C_BRANCH, sext((h & 0xFFu) << 1, 9));
        return;
    }
    if ((h & 0xF800u) == 0xE000u) { /* B */
        d->flags |= F_ALWAYS;
        return set_branch(d, C_BRANCH, sext((h & 0x7FFu) << 1, 12));
    }
    if (h == 0xBFF0u) /* HINT #15: the ARMv6-M read marker */
        d->flags |= F_DBG0;
    /* Everything else (ALU, MOV/CMP, MULS, ADR, ADD SP, extend, REV, CPS,
     * IT, hints, BKPT, SVC) is one cycle. */
}

static void decode_fp(insn_t *d)
{
    uint16_t h = d->hw1, h2 = d->hw2;
    d->base = 1u;
    d->flags |= F_FP;
    if ((h & 0xFE00u) == 0xEC00u) {
        /* coprocessor load/store and 64-bit transfers */
        if ((h & 0xFFE0u) == 0xEC40u) { /* VMOV two core registers */
            d->base = 2u;
            return;
        }
        unsigned p = (h >> 8) & 1u, w = (h >> 5) & 1u;
        d->flags |= F_FPMEM;
        if (p == 1u && w == 0u) { /* VLDR/VSTR */
            d->base = (uint8_t)(2u + ((h & 0x000Fu) == 15u ? cfg.ws : 0u));
            return;
        }
        d->base = (uint8_t)(1u + (h2 & 0xFFu)); /* VLDM/VSTM/VPUSH/VPOP: 1+N words */
        return;
    }
    if ((h & 0xFF00u) == 0xEE00u && (h2 & 0x0E10u) == 0x0A00u) { /* VFP data processing */
        unsigned opc1 = ((h >> 4) & 0x8u) | ((h >> 4) & 0x3u); /* bits 23, 21:20 */
        if (opc1 == 0x8u) { /* VDIV */
            d->base = 14u;
        } else if ((h & 0xFFBFu) == 0xEEB1u && (h2 & 0x00C0u) == 0x00C0u) { /* VSQRT */
            d->base = 14u;
        } else if (opc1 <= 1u || opc1 == 9u || opc1 == 10u) { /* VMLA/VMLS/VNMLA/VNMLS, VFMA.. */
            d->base = 3u;
        }
    }
}

static void decode32(insn_t *d)
{
    uint16_t h = d->hw1, h2 = d->hw2;
    d->base = 1u;
    if ((h & 0xFE40u) == 0xE800u) { /* LDM/STM (PUSH.W/POP.W) */
        unsigned rn = h & 15u;
        return set_multiple(d, h2, (h & 0x10u) != 0u, rn, (h & 0x20u) != 0u);
    }
    if ((h & 0xFE40u) == 0xE840u) { /* exclusive, dual, table branch */
        unsigned rn = h & 15u;
        unsigned op1 = (h >> 7) & 3u, op2 = (h >> 4) & 3u;
        if (op1 == 0u && op2 <= 1u) { /* STREX / LDREX */
            if (op2 == 1u)
                return set_load(d, h2 >> 12, rn, -1, false, 2u);
            set_store(d, rn, -1, false);
            return;
        }
        if (op1 == 1u && op2 == 1u && ((h2 >> 4) & 0xFu) <= 1u) { /* TBB/TBH */
            d->cls = C_JUMPR;
            d->base = (uint8_t)(2u + 1u + cfg.core->refill_load + cfg.ws);
            return;
        }
        if (op1 == 1u && op2 <= 1u) { /* STREXB/H, LDREXB/H */
            if (op2 == 1u)
                return set_load(d, h2 >> 12, rn, -1, false, 2u);
            set_store(d, rn, -1, false);
            return;
        }
        d->base = 3u; /* LDRD/STRD: 1+N, the two words pipelined together */
        return;
    }
    if ((h & 0xEC00u) == 0xEC00u) /* coprocessor: the FPU on the M4F */
        return decode_fp(d);
    if ((h & 0xF800u) == 0xF000u && (h2 & 0x8000u)) { /* branches and misc control */
        unsigned op = (h2 >> 12) & 5u;
        uint32_t s = (h >> 10) & 1u, j1 = (h2 >> 13) & 1u, j2 = (h2 >> 11) & 1u;
        if (op == 0u) { /* B<c>.W or misc */
            if (((h >> 7) & 7u) != 7u) {
                uint32_t imm = (s << 20) | (j2 << 19) | (j1 << 18) | ((h & 0x3Fu) << 12)
                               | ((h2 & 0x7FFu) << 1);
                return set_branch(d, C_BRANCH, sext(imm, 21));
            }
            if (h == 0xF3AFu && h2 == 0x80F0u)
                d->flags |= F_DBG0;
            if (h == 0xF3BFu && (h2 & 0xFFF0u) == 0x8F60u) /* ISB: a pipeline refill */
                d->base = 2u;
            if ((h & 0xFFF0u) == 0xF380u && h2 == 0x8814u) /* MSR CONTROL, Rn */
                d->flags |= F_MSR_CONTROL;
            return;
        }
        uint32_t i1 = !(j1 ^ s), i2 = !(j2 ^ s);
        uint32_t imm = (s << 24) | (i1 << 23) | (i2 << 22) | ((h & 0x3FFu) << 12)
                       | ((h2 & 0x7FFu) << 1);
        if (op == 1u || op == 5u) {
            d->flags |= F_ALWAYS;
            return set_branch(d, op == 1u ? C_BRANCH : C_CALL, sext(imm, 25));
        }
        return;
    }
    if ((h & 0xFE00u) == 0xF800u) { /* load/store single */
        unsigned rn = h & 15u, rt = h2 >> 12;
        bool load = (h & 0x10u) != 0u;
        int rm = -1;
        bool wb = false;
        if (rn != 15u && !(h & 0x80u)) {
            if ((h2 & 0x0FC0u) == 0u)
                rm = h2 & 15u; /* register offset */
            else if ((h2 & 0x0800u) && (h2 & 0x0100u))
                wb = true; /* imm8 with writeback */
        }
        if (!load)
            return set_store(d, rn, rm, wb);
        if (rt == 15u && ((h >> 5) & 3u) != 2u)
            return; /* PLD/PLI and hints: one cycle */
        return set_load(d, rt, rn, rm, wb, 2u);
    }
    if ((h & 0xFF80u) == 0xFB00u) { /* MUL/MLA/MLS and the M4's 32-bit DSP multiplies */
        unsigned op1 = (h >> 4) & 7u, ra = h2 >> 12;
        bool accumulate = ra != 15u || ((h2 >> 4) & 3u) == 1u; /* MLA, MLS */
        if (cfg.core == &core_m3 && op1 == 0u && accumulate)
            d->base = 2u; /* M3: MLA/MLS 2 */
        return;
    }
    if ((h & 0xFF80u) == 0xFB80u) { /* long multiply, divide */
        unsigned op1 = (h >> 4) & 7u;
        if (op1 == 1u || op1 == 3u)
            d->base = (uint8_t)cfg.div;
        else if (cfg.core == &core_m3)
            d->base = op1 >= 4u ? 7u : 5u; /* M3: 3-5 / 4-7, the worst case */
        return;
    }
    /* data processing (immediate, shifted register, register), MSR/MRS,
     * hints, barriers: one cycle */
}

static insn_t *decode(uint32_t addr, const uint8_t *bytes)
{
    insn_t *d = calloc(1, sizeof *d);
    if (d == NULL)
        abort();
    d->addr = addr;
    d->hw1 = (uint16_t)(bytes[0] | bytes[1] << 8);
    d->size = is32(d->hw1) ? 4u : 2u;
    if (d->size == 4u)
        d->hw2 = (uint16_t)(bytes[2] | bytes[3] << 8);
    d->fall = addr + d->size;
    d->cls = C_PLAIN;
    d->ld_dest = 0xFFu;
    if (d->size == 2u)
        decode16(d);
    else
        decode32(d);
    if (d->size == 2u && (d->hw1 & 0xF800u) == 0x4800u) /* LDR Rt,[PC,#imm8*4] */
        d->literal = ((addr + 4u) & ~3u) + ((d->hw1 & 0xFFu) << 2);
    else if (d->size == 4u && (d->hw1 & 0xFF7Fu) == 0xF85Fu) /* LDR.W Rt,[PC,#+-imm12] */
        d->literal = ((addr + 4u) & ~3u) + ((d->hw1 & 0x80u) ? (d->hw2 & 0xFFFu)
                                                              : -(uint32_t)(d->hw2 & 0xFFFu));
    if (cfg.core->adjust != NULL)
        cfg.core->adjust(d);
    return d;
}

static insn_t *lookup(uint32_t addr, const uint8_t *bytes)
{
    uint16_t hw1 = (uint16_t)(bytes[0] | bytes[1] << 8);
    uint16_t hw2 = is32(hw1) ? (uint16_t)(bytes[2] | bytes[3] << 8) : 0u;
    uint32_t h = ((addr >> 1) * 2654435761u) >> (32 - HASH_BITS);
    for (insn_t *d = buckets[h]; d != NULL; d = d->next_in_bucket)
        if (d->addr == addr && d->hw1 == hw1 && d->hw2 == hw2)
            return d;
    insn_t *d = decode(addr, bytes);
    d->next_in_bucket = buckets[h];
    buckets[h] = d;
    return d;
}

/* ---- the cycle model at run time ---- */

static bool is_handler(uint32_t addr)
{
    for (int i = 0; i < n_handlers; i++)
        if (handlers[i] == addr)
            return true;
    return false;
}

static void learn_handler(uint32_t addr)
{
    if (!is_handler(addr) && n_handlers < MAX_HANDLERS)
        handlers[n_handlers++] = addr;
}

/* The refill of a taken branch to `to`: P = 1 on the M3/M4, or 2 when the
 * target is a 32-bit instruction on an odd halfword (DDI 0337 table 3.1, P
 * "1 to 3"); the core's own P elsewhere. */
unsigned refill_cost(const insn_t *to)
{
    bool odd = cfg.core->odd32 && to != NULL && to->size == 4u && (to->addr & 2u);
    return cfg.core->refill + (odd ? 1u : 0u) + cfg.ws;
}

static unsigned branch_cost(const insn_t *b, const insn_t *to, bool taken)
{
    if (cfg.core->branch != NULL) /* the M7 keeps per-site prediction state */
        return cfg.core->branch((insn_t *)(uintptr_t)b, to, taken);
    return taken ? refill_cost(to) : 0u;
}

/* Settle branch b given the address that executed after it. */
static void settle(const insn_t *b, const insn_t *next)
{
    bool always = (b->flags & (F_ALWAYS | F_IN_IT)) == F_ALWAYS;
    if (b->flags & F_REFILL)
        ctr->cycles += branch_cost(b, next, always || next->addr != b->fall);
}

/* CONTROL.FPCA of the running context: set by its first FP instruction,
 * cleared on exception entry, restored by the return (EXC_RETURN bit 4). */
static bool fpca;

static void push_frame(const struct frame *f)
{
    if (n_frames < MAX_FRAMES)
        frames[n_frames] = *f;
    n_frames++;
}

/* Entry after `p` (NULL: after an indirect branch, settled apart): the
 * basic frame's 8 words, or with FPCA set an
 * extended frame whose FP part is only reserved (lazy stacking, the reset
 * default of FPCCR.LSPEN): the latency stays the basic one. */
static void exception_entry(const insn_t *p)
{
    n_entries++;
    ctr->cycles += cfg.core->entry;
    struct frame f = {0u, p != NULL && p->cls != C_PLAIN ? p : NULL,
                      fpca && cfg.core->fp_lazy != 0u, false, running_lo, running_hi, 0u};
    if (p != NULL && (p->cls == C_BRANCH || p->cls == C_CALL))
        f.resume_target = p->target;
    n_fp_frames += f.fp_ext ? 1u : 0u;
    push_frame(&f);
    fpca = false;
}

/* An FP instruction executed: in a handler whose frame has room for an FP
 * state not yet saved, the core saves it first (the lazy save). */
static void fp_executed(void)
{
    if (n_frames > 0 && n_frames <= MAX_FRAMES && frames[n_frames - 1].fp_ext
        && !frames[n_frames - 1].fp_saved) {
        frames[n_frames - 1].fp_saved = true;
        n_lazy_saves++;
        ctr->cycles += cfg.core->fp_lazy;
    }
    fpca = true;
}

static bool pipelines(const insn_t *p, const insn_t *cur)
{
    return cfg.core->load_pipeline && (p->flags & F_LDPIPE) && (cur->flags & F_LSPIPE)
           && !(cur->addr_regs & (1u << p->ld_dest));
}

/* Control passes from p (the last instruction executed) to cur: settle p's
 * branch, recognise exception entry, return and tail-chain, track the call
 * depth inside handlers. Returns whether cur pipelines after p. */
static bool transition(const insn_t *p, const insn_t *cur)
{
    bool successor = cur->addr == p->fall
                     || ((p->cls == C_BRANCH || p->cls == C_CALL) && cur->addr == p->target);
    if (successor) {
        settle(p, cur);
        if (p->cls == C_CALL && n_frames > 0 && n_frames <= MAX_FRAMES)
            frames[n_frames - 1].depth++;
        return pipelines(p, cur);
    }
    if (p->cls == C_RETURN && n_frames > 0
        && (n_frames > MAX_FRAMES || frames[n_frames - 1].depth == 0u)) {
        /* an exception return (EXC_RETURN through BX LR / POP PC) */
        /* the refill of an exception return: EXC_RETURN is never predicted */
        ctr->cycles += (p->flags & F_REFILL) && cfg.core->branch == NULL ? refill_cost(cur) : 0u;
        struct frame top = {0u, NULL, false, false, 0u, 0u, 0u};
        if (n_frames <= MAX_FRAMES)
            top = frames[n_frames - 1];
        n_frames--;
        if (is_handler(cur->addr)) { /* tail-chained into the next handler: the same frame */
            n_tailchains++;
            ctr->cycles += cfg.core->tailchain;
            push_frame(&top);
            fpca = false;
        } else {
            /* The frame the core unstacks is the one stacked at entry when
             * execution goes on where it was interrupted; after a context
             * switch it is another thread's, whose type (EXC_RETURN bit 4)
             * the plugin cannot read: taken as basic. An FP state saved
             * into the frame is unstacked too; one never saved is still in
             * the FPU's registers. */
            bool same = top.resume_hi == 0u || cur->addr == top.resume_target
                        || (top.resume_lo <= cur->addr && cur->addr <= top.resume_hi);
            n_returns++;
            ctr->cycles += cfg.core->ret + (same && top.fp_saved ? cfg.core->fp_lazy : 0u);
            fpca = same && top.fp_ext;
            if (top.interrupted != NULL)
                settle(top.interrupted, cur);
        }
    } else if (p->cls == C_PLAIN || p->cls == C_BRANCH || p->cls == C_CALL) {
        /* not where p leads: an exception was taken after p */
        learn_handler(cur->addr);
        exception_entry(p);
    } else if (is_handler(cur->addr)) {
        /* an indirect branch, then an exception before its target ran */
        ctr->cycles += (p->flags & F_REFILL) ? branch_cost(p, NULL, true) : 0u;
        exception_entry(NULL);
    } else {
        /* an indirect branch to its target */
        ctr->cycles += (p->flags & F_REFILL) ? branch_cost(p, cur, true) : 0u;
        if (n_frames > 0 && n_frames <= MAX_FRAMES) {
            if (p->cls == C_CALLR)
                frames[n_frames - 1].depth++;
            else if (p->cls == C_RETURN && frames[n_frames - 1].depth > 0u)
                frames[n_frames - 1].depth--;
        }
    }
    return false;
}

/* A translation block as the cycle model sees it. Control flow changes only
 * between blocks (QEMU ends a block at every branch, exception and I/O
 * instruction), so the model needs one callback per block: the static costs
 * (with pipelining inside the block) are inline adds. */
typedef struct tbinfo {
    uint32_t n;
    /* Cores that issue two a cycle (a step hook): the block's static costs
     * assume its first instruction starts a cycle; when it issues with the
     * previous block's last one instead (a block QEMU split where the core
     * runs straight on: a page end, an I/O access), the rest of the block
     * costs `delta` more, and ends in issue state end_slot[1], not [0]. */
    int32_t delta;
    bool end_slot[2];
    struct tbinfo *next_in_bucket;
    const insn_t *insn[];
} tbinfo_t;

static tbinfo_t *tb_buckets[1u << HASH_BITS];
static const tbinfo_t *last_tb;
static bool last_paired; /* the last block began paired with the one before (end_slot[1]) */

/* The instruction executed before the block starting at `cur`: the last
 * one of the previous block, or the one after which it stopped early (under
 * -icount an I/O access ends a block and QEMU re-executes from there). */
static const insn_t *previous(const insn_t *cur)
{
    if (last_tb == NULL)
        return NULL;
    const insn_t *last = last_tb->insn[last_tb->n - 1u];
    if (cur->addr == last->fall
        || ((last->cls == C_BRANCH || last->cls == C_CALL) && cur->addr == last->target))
        return last;
    for (uint32_t i = 0; i + 1u < last_tb->n; i++)
        if (last_tb->insn[i]->fall == cur->addr)
            return last_tb->insn[i];
    return last;
}

/* A read marker's own instruction is counted here, after the read, never
 * by an inline add: QEMU 7.2 runs an instruction's callbacks before its
 * inline ops, QEMU 9.0 on in the order they were registered, so an inline
 * add would put the marker on either side of the read by QEMU version (the
 * samples, differences of reads, would agree; attribution, which settles
 * segments at the reads, would move one instruction per read between the
 * functions around it). */
static void read_marker(const insn_t *cur)
{
    n_reads++;
    if (cur->host_counter != NULL)
        *cur->host_counter = (uint32_t)ctr->cycles;
    attrib_read(cur->addr);
    ctr->insns++;
}

/* The flash's wait for an instruction's code line (when it starts one) and
 * literal: charged as it executes, so a read marker sees what came before. */
static void charge_memory(const insn_t *d)
{
    ctr->cycles += mem_fetch(d->addr, d->fall);
    if (d->literal != 0u)
        ctr->cycles += mem_literal(d->literal);
}

static void on_memory(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    charge_memory(udata);
}

/* An instruction in an IT block whose condition fails is skipped: it takes
 * one cycle (assumed, as a branch not taken; the TRMs time executed
 * instructions) and accesses nothing. QEMU runs the callbacks of a skipped
 * instruction all the same, so a conditional load or store is charged one
 * cycle before it and the rest of its cost at its first access. */
static bool it_armed;
static unsigned it_extra;
static uint64_t n_it_conditional, n_it_done;

static void it_arm(unsigned extra)
{
    it_armed = true;
    it_extra = extra;
    n_it_conditional++;
}

static void on_it_start(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    it_arm((unsigned)(uintptr_t)udata);
}

static void on_it_access(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
                         void *udata)
{
    (void)vcpu;
    (void)info;
    (void)vaddr;
    const insn_t *d = udata;
    if (!it_armed)
        return;
    it_armed = false;
    n_it_done++;
    ctr->cycles += it_extra;
    if ((d->flags & F_FP) && cfg.core->fp_lazy != 0u)
        fp_executed();
}

static void on_fp(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    (void)udata;
    fp_executed();
}

/* The plugin cannot read the value written to CONTROL: a write is taken to
 * clear FPCA, as RTOS ports do before a first thread and at a switch (a
 * thread's next FP instruction sets it again). */
static void on_msr_control(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    (void)udata;
    fpca = false;
}

static bool it_memory(const insn_t *d)
{
    return (d->flags & F_IN_IT) && (d->flags & (F_MEM | F_FPMEM));
}

/* Charge `cost` for d: all of it, or one cycle now and the rest at d's first
 * access when d is a conditional load or store. */
static unsigned charge_now(const insn_t *d, unsigned cost)
{
    if (!it_memory(d))
        return cost;
    unsigned now = cost < 1u ? cost : 1u;
    it_arm(cost - now);
    return now;
}

static void on_tb_start(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    const tbinfo_t *tb = udata;
    const insn_t *cur = tb->insn[0];
    const insn_t *p = previous(cur);
    bool pipelined = p != NULL && transition(p, cur);
    if (cfg.core->fp_lazy != 0u && (cur->flags & F_FP) && !it_memory(cur))
        fp_executed(); /* in the handler the transition entered, if it entered one */
    if (cfg.core->fp_lazy != 0u && (cur->flags & F_MSR_CONTROL))
        fpca = false;
    running_lo = cur->addr;
    running_hi = tb->insn[tb->n - 1u]->fall;
    if (cur->flags & F_DBG0)
        read_marker(cur);
    if (cfg.mem.on)
        charge_memory(cur);
    if (cfg.core->step != NULL) {
        /* straight on from the previous block's last instruction: cur may
         * issue beside it (or wait for its load) */
        bool on = p != NULL && last_tb != NULL && p == last_tb->insn[last_tb->n - 1u]
                  && p->cls == C_PLAIN && cur->addr == p->fall;
        bool slot = on && last_tb->end_slot[last_paired ? 1 : 0];
        unsigned cost = cfg.core->step(on ? p : NULL, cur, &slot);
        last_paired = cost < cur->base;
        ctr->cycles += charge_now(cur, cost) + (uint64_t)(int64_t)(last_paired ? tb->delta : 0);
    } else {
        ctr->cycles += charge_now(cur, cur->base - (pipelined ? 1u : 0u));
    }
    last_tb = tb;
}

static void on_dbg_cycles(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    const insn_t *cur = udata;
    read_marker(cur);
    ctr->cycles += cur->base;
}

static tbinfo_t *intern_tb(const insn_t **insns, uint32_t n)
{
    uint32_t h = ((insns[0]->addr >> 1) * 2654435761u + n) >> (32 - HASH_BITS);
    for (tbinfo_t *t = tb_buckets[h]; t != NULL; t = t->next_in_bucket)
        if (t->n == n && !memcmp(t->insn, insns, n * sizeof insns[0]))
            return t;
    tbinfo_t *t = malloc(sizeof *t + n * sizeof insns[0]);
    if (t == NULL)
        abort();
    t->n = n;
    t->delta = 0;
    t->end_slot[0] = t->end_slot[1] = false;
    if (cfg.core->step != NULL) { /* the two ways the block can begin */
        bool slot[2] = {false, false};
        cfg.core->step(NULL, insns[0], &slot[0]); /* insn 0 starts a cycle */
        for (uint32_t i = 1; i < n; i++)
            t->delta += (int32_t)cfg.core->step(insns[i - 1u], insns[i], &slot[1])
                        - (int32_t)cfg.core->step(insns[i - 1u], insns[i], &slot[0]);
        t->end_slot[0] = slot[0];
        t->end_slot[1] = slot[1];
    }
    memcpy(t->insn, insns, n * sizeof insns[0]);
    t->next_in_bucket = tb_buckets[h];
    tb_buckets[h] = t;
    return t;
}

static void on_dbg_instructions(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    const insn_t *cur = udata;
    n_reads++;
    if (cur->host_counter != NULL)
        *cur->host_counter = (uint32_t)ctr->insns;
    attrib_read(cur->addr);
    ctr->insns++; /* the marker itself, after the read (read_marker says why) */
}

static void on_translate(struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    if (n == 0u)
        return;
    ctr = rm_counts_at_translation();
    if (attrib_enabled())
        attrib_translate(tb); /* first: it settles a block before on_tb_start adds the next's */
    const insn_t **insns = calloc(n, sizeof *insns);
    if (insns == NULL)
        abort();
    unsigned it_left = 0u; /* instructions of an IT block still to come */
    bool slot = false;     /* M7: the block starts a new issue cycle */
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);
        uint32_t addr = (uint32_t)qemu_plugin_insn_vaddr(qi);
        uint8_t bytes[4];
        rm_insn_bytes(qi, bytes);
        insn_t *d = lookup(addr, bytes);
        if (it_left > 0u) {
            d->flags |= F_IN_IT;
            it_left--;
        } else if ((d->hw1 & 0xFF00u) == 0xBF00u && (d->hw1 & 0xFu) != 0u) {
            it_left = 4u - (unsigned)__builtin_ctz(d->hw1 & 0xFu); /* IT: 1..4 */
        }
        if ((d->flags & F_DBG0) && cfg.have_counter && d->host_counter == NULL) {
            uint8_t *h = qemu_plugin_insn_haddr(qi);
            if (h != NULL)
                d->host_counter = (uint32_t *)(void *)(h + ((int64_t)cfg.counter - addr));
        }
        insns[i] = d;
    }
    tbinfo_t *info = cfg.mode == MODE_CYCLES ? intern_tb(insns, (uint32_t)n) : NULL;
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);
        const insn_t *d = insns[i];
        if (!(d->flags & F_DBG0)) /* a marker counts itself (read_marker) */
            rm_inline_add(qi, &ctr->insns, 1u);
        if (cfg.mode != MODE_CYCLES) {
            if (d->flags & F_DBG0)
                qemu_plugin_register_vcpu_insn_exec_cb(qi, on_dbg_instructions,
                                                       QEMU_PLUGIN_CB_NO_REGS, (void *)d);
            continue;
        }
        /* the static cost inside the block (the first one's is settled at
         * run time, against the block executed before it) */
        unsigned cost = cfg.core->step != NULL
                            ? cfg.core->step(i > 0u ? insns[i - 1u] : NULL, d, &slot)
                            : d->base - (i > 0u && pipelines(insns[i - 1u], d) ? 1u : 0u);
        bool new_line = i > 0u && cfg.mem.on
                        && ((d->fall - 1u) / cfg.mem.line != (insns[i - 1u]->fall - 1u) / cfg.mem.line
                            || d->literal != 0u);
        if (new_line)
            qemu_plugin_register_vcpu_insn_exec_cb(qi, on_memory, QEMU_PLUGIN_CB_NO_REGS,
                                                   (void *)d);
        bool fp = (d->flags & F_FP) && cfg.core->fp_lazy != 0u;
        if (it_memory(d))
            qemu_plugin_register_vcpu_mem_cb(qi, on_it_access, QEMU_PLUGIN_CB_NO_REGS,
                                             QEMU_PLUGIN_MEM_RW, (void *)d);
        else if (fp && i > 0u) /* a block's first: on_tb_start, after the transition */
            qemu_plugin_register_vcpu_insn_exec_cb(qi, on_fp, QEMU_PLUGIN_CB_NO_REGS, NULL);
        if ((d->flags & F_MSR_CONTROL) && cfg.core->fp_lazy != 0u && i > 0u)
            qemu_plugin_register_vcpu_insn_exec_cb(qi, on_msr_control, QEMU_PLUGIN_CB_NO_REGS,
                                                   NULL);
        if (i == 0u) {
            qemu_plugin_register_vcpu_insn_exec_cb(qi, on_tb_start, QEMU_PLUGIN_CB_NO_REGS, info);
        } else if (d->flags & F_DBG0) { /* its cost is its base: it never pairs or pipelines */
            qemu_plugin_register_vcpu_insn_exec_cb(qi, on_dbg_cycles, QEMU_PLUGIN_CB_NO_REGS,
                                                   (void *)d);
        } else if (it_memory(d)) {
            unsigned now = cost < 1u ? cost : 1u;
            qemu_plugin_register_vcpu_insn_exec_cb(qi, on_it_start, QEMU_PLUGIN_CB_NO_REGS,
                                                   (void *)(uintptr_t)(cost - now));
            if (now != 0u)
                rm_inline_add(qi, &ctr->cycles, now);
        } else if (cost != 0u) {
            rm_inline_add(qi, &ctr->cycles, cost);
        }
    }
    free(insns);
    rm_idle_translate(tb);
}

static void on_plugin_exit(void)
{
    attrib_exit();
    if (cfg.out[0] == '\0')
        return;
    FILE *f = fopen(cfg.out, "w");
    if (f == NULL)
        return;
    fprintf(f, "{\"plugin\": \"rmcycles\", \"model\": \"%s\", \"mode\": \"%s\", "
               "\"cpu\": \"%s\", \"ws\": %u, \"div\": %u, \"mul\": %u, \"bp\": %u, "
               "\"instructions\": %" PRIu64,
            MODEL, cfg.mode == MODE_CYCLES ? "cycles" : "instructions", cfg.core->name,
            cfg.mem.on ? cfg.mem.ws : cfg.ws,
            cfg.div, cfg.mul, cfg.bp, ctr->insns);
    if (cfg.mode == MODE_CYCLES)
        fprintf(f, ", \"cycles\": %" PRIu64 ", \"exception_entries\": %" PRIu64
                   ", \"exception_returns\": %" PRIu64 ", \"tail_chains\": %" PRIu64
                   ", \"handlers\": %d",
                ctr->cycles, n_entries, n_returns, n_tailchains, n_handlers);
    if (cfg.mode == MODE_CYCLES)
        fprintf(f, ", \"it_conditional_accesses\": %" PRIu64 ", \"it_skipped\": %" PRIu64
                   ", \"fp_frames\": %" PRIu64 ", \"lazy_fp_saves\": %" PRIu64,
                n_it_conditional, n_it_conditional - n_it_done, n_fp_frames, n_lazy_saves);
    fprintf(f, ", \"reads\": %" PRIu64, n_reads);
    rm_idle_write(f);
    rm_api_write(f);
    fputs("}\n", f);
    fclose(f);
}

static int fail(const char *what, const char *arg)
{
    char msg[700];
    snprintf(msg, sizeof msg,
             "Error: rmcycles plugin: %s '%s'. Arguments: mode=instructions|cycles, "
             "cpu=m0|m0plus|m3|m4|m7, ws=<0..15>, div=<2..12>, mul=<1|32>, bp=<1..15>, "
             "line=<bytes>, icache=<bytes>, dcache=<bytes>, ways=<n>, prefetch=0|1, "
             "counter=<hex address>, idle=<icount shift>, idleclock=guard72|discon|none, out=<file>, funcs=<function map> with attrib=<file>\n",
             what, arg);
    fputs(msg, stderr);
    return -1;
}

static bool parse_uint(const char *s, unsigned long max, unsigned long *v)
{
    char *end = NULL;
    unsigned long x = strtoul(s, &end, 0);
    if (end == s || *end != '\0' || x > max)
        return false;
    *v = x;
    return true;
}

RM_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                         char **argv)
{
    if (info == NULL || info->target_name == NULL || strcmp(info->target_name, "arm") != 0)
        return fail("needs qemu-system-arm, not", info && info->target_name ? info->target_name
                                                                          : "?");
    if (!rm_api_start(info))
        return -1;
    ctr = rm_counts(); /* until the first translation (API 2: no vCPU yet) */
    int idle_shift = -1;
    const char *idle_clock = "none";
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = strchr(a, '=');
        if (eq == NULL)
            return fail("argument without '='", a);
        size_t klen = (size_t)(eq - a);
        const char *v = eq + 1;
        unsigned long x;
        int own = attrib_arg(a, klen, v);
        if (own < 0)
            return -1;
        if (own > 0) {
            continue;
        } else if (klen == 4 && !strncmp(a, "mode", 4)) {
            if (!strcmp(v, "instructions"))
                cfg.mode = MODE_INSTRUCTIONS;
            else if (!strcmp(v, "cycles"))
                cfg.mode = MODE_CYCLES;
            else
                return fail("unknown mode", v);
        } else if (klen == 3 && !strncmp(a, "cpu", 3)) {
            const core_t *found = NULL;
            for (size_t c = 0; c < sizeof cores / sizeof cores[0]; c++)
                if (!strcmp(v, cores[c]->name))
                    found = cores[c];
            if (found == NULL)
                return fail("no cycle model for cpu (m0, m0plus, m3, m4, m7)", v);
            cfg.core = found;
        } else if (klen == 4 && !strncmp(a, "line", 4)) {
            if (!parse_uint(v, 64, &x) || x < 4 || (x & (x - 1u)))
                return fail("bad flash line bytes (4, 8, 16, 32 or 64)", v);
            cfg.mem.line = (unsigned)x;
            cfg.mem.on = true;
        } else if ((klen == 6 && !strncmp(a, "icache", 6)) || (klen == 6 && !strncmp(a, "dcache", 6))) {
            if (!parse_uint(v, 65536, &x))
                return fail("bad cache bytes", v);
            *(a[0] == 'i' ? &cfg.mem.icache : &cfg.mem.dcache) = (unsigned)x;
        } else if (klen == 4 && !strncmp(a, "ways", 4)) {
            if (!parse_uint(v, 16, &x) || x < 1)
                return fail("bad cache ways", v);
            cfg.mem.ways = (unsigned)x;
        } else if (klen == 8 && !strncmp(a, "prefetch", 8)) {
            if (!parse_uint(v, 1, &x))
                return fail("bad prefetch (0 or 1)", v);
            cfg.mem.prefetch = x != 0u;
        } else if (klen == 3 && !strncmp(a, "mul", 3)) {
            if (!parse_uint(v, 32, &x) || (x != 1 && x != 32))
                return fail("bad multiply cycles (1 or 32)", v);
            cfg.mul = (unsigned)x;
        } else if (klen == 2 && !strncmp(a, "bp", 2)) {
            if (!parse_uint(v, 15, &x) || x < 1)
                return fail("bad branch misprediction penalty", v);
            cfg.bp = (unsigned)x;
        } else if (klen == 2 && !strncmp(a, "ws", 2)) {
            if (!parse_uint(v, 15, &x))
                return fail("bad wait states", v);
            cfg.ws = (unsigned)x;
        } else if (klen == 3 && !strncmp(a, "div", 3)) {
            if (!parse_uint(v, 12, &x) || x < 2)
                return fail("bad divide cycles", v);
            cfg.div = (unsigned)x;
        } else if (klen == 7 && !strncmp(a, "counter", 7)) {
            if (!parse_uint(v, 0xFFFFFFFCul, &x) || (x & 3u))
                return fail("bad counter address", v);
            cfg.counter = (uint32_t)x;
            cfg.have_counter = true;
        } else if (klen == 4 && !strncmp(a, "idle", 4)) {
            if (!parse_uint(v, 10, &x))
                return fail("bad idle (the -icount shift)", v);
            idle_shift = (int)x;
        } else if (klen == 9 && !strncmp(a, "idleclock", 9)) {
            idle_clock = v;
        } else if (klen == 3 && !strncmp(a, "out", 3)) {
            if (strlen(v) >= sizeof cfg.out)
                return fail("out path too long", v);
            strcpy(cfg.out, v);
        } else {
            return fail("unknown argument", a);
        }
    }
    if (idle_shift >= 0 && !rm_idle_init(id, (unsigned)idle_shift, idle_clock))
        return fail("unknown idleclock (guard72, discon or none)", idle_clock);
    if (cfg.mem.on) { /* ws is the flash's, charged per line fetched, not per refill */
        cfg.mem.ws = cfg.ws;
        cfg.ws = 0u;
        if (!mem_init())
            return fail("cache sizes do not fit line and ways (at most 4096 lines)", "icache/dcache");
    } else if (cfg.mem.icache || cfg.mem.dcache || cfg.mem.prefetch) {
        return fail("a cache or prefetch needs the flash line size", "line=");
    }
    if (!attrib_start(cfg.mode == MODE_CYCLES))
        return -1;
    rm_on_translate(id, on_translate);
    rm_on_exit(id, on_plugin_exit);
    return 0;
}
