/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * rmcycles: the cycle counter QEMU lacks, as a TCG plugin (API version 1,
 * QEMU 7.2) for emulated ARMv7-M (Cortex-M3/M4). Two modes:
 *
 *   mode=instructions  exact count of executed guest instructions
 *   mode=cycles        an estimate from a per-instruction cycle table (model
 *                      "rmcm-1", see cycle_model.md), cpu=m3|m4, ws=<flash
 *                      wait states>, div=<SDIV/UDIV cycles>
 *
 * The firmware reads the count like a cycle counter: a `DBG #0` hint (a
 * no-op on QEMU and on real M3/M4) marks the read; when it executes, the
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

#include "rm_plugin_api.h"
#include "rmidle.h"

RM_PLUGIN_EXPORT int qemu_plugin_version = RM_PLUGIN_API_VERSION;

#define MODEL "rmcm-1" /* bump when a cost in cycle_model.md changes */

/* Exception costs (Arm DDI 0337 r2p1, 5.5 "Exception entry/return"). */
#define EXC_ENTRY 12u
#define EXC_RETURN 12u
#define EXC_TAILCHAIN 6u
#define REFILL_LOAD 3u /* PC loaded from memory: "three cycles for the pipeline reload" */

enum mode { MODE_INSTRUCTIONS, MODE_CYCLES };

static struct {
    enum mode mode;
    int cpu; /* 3 or 4 */
    unsigned ws, div;
    bool have_counter;
    uint32_t counter;
    char out[512];
} cfg = {MODE_INSTRUCTIONS, 4, 0u, 12u, false, 0u, ""};

/* Control-flow classes: how the next executed address settles an insn. */
enum cls {
    C_PLAIN,   /* falls through */
    C_BRANCH,  /* direct branch, static target (conditional or not) */
    C_CALL,    /* BL: direct, static target */
    C_CALLR,   /* BLX Rm */
    C_JUMPR,   /* BX Rm (not LR), MOV/ADD PC, LDR PC (not a pop), TBB/TBH */
    C_RETURN,  /* BX LR, POP {..PC}, LDM SP!, LDR PC,[SP],#4: may be an exception return */
};

#define F_LDPIPE 0x01u /* a single load whose successor may pipeline (dest in ld_dest) */
#define F_LSPIPE 0x02u /* a single load/store that can be pipelined after an LDR */
#define F_DBG0 0x04u   /* DBG #0: the counter read marker */
#define F_REFILL 0x08u /* taken: pays 1+P (P = 1, 2 to a 32-bit target at addr%4==2) */
#define F_ALWAYS 0x10u /* B, BL: taken even to the next address (unless in an IT block) */
#define F_IN_IT 0x20u  /* inside an IT block: conditional */

typedef struct insn {
    uint32_t addr, fall, target;
    uint16_t hw1, hw2;
    uint16_t addr_regs; /* registers the address of a load/store single uses */
    uint8_t size, cls, flags, ld_dest;
    uint8_t base; /* cycles when not taken / not pipelined */
    uint32_t *host_counter;
    struct insn *next_in_bucket;
} insn_t;

/* Dynamic state (one vCPU: TCG under -icount is single-threaded). */
static uint64_t n_insns, n_cycles, n_reads;
static uint64_t n_entries, n_returns, n_tailchains;

#define MAX_FRAMES 64
static struct frame {
    uint32_t depth;            /* calls made inside the handler, not returned yet */
    const insn_t *interrupted; /* a branch whose outcome the return address tells */
} frames[MAX_FRAMES];
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
    d->addr_regs = (uint16_t)((1u << rn) | (rm >= 0 ? 1u << rm : 0u));
    if (rn == 15u)
        d->base = (uint8_t)(d->base + cfg.ws); /* literal: a load from the code's memory */
    if (rt == 15u) {
        bool pop = rn == 13u && wb;
        d->cls = pop ? C_RETURN : C_JUMPR;
        d->base = (uint8_t)(2u + REFILL_LOAD + cfg.ws);
        return;
    }
    if (!wb) {
        d->flags |= F_LDPIPE | F_LSPIPE;
        d->ld_dest = (uint8_t)rt;
    }
}

static void set_store(insn_t *d, unsigned rn, int rm, bool wb)
{
    d->base = 2u;
    d->addr_regs = (uint16_t)((1u << rn) | (rm >= 0 ? 1u << rm : 0u));
    if (!wb)
        d->flags |= F_LSPIPE;
}

static void set_multiple(insn_t *d, uint32_t list, bool load, unsigned rn, bool wb)
{
    unsigned n = popcount16(list);
    d->base = (uint8_t)(1u + n);
    if (load && (list & 0x8000u)) {
        d->cls = (rn == 13u && wb) ? C_RETURN : C_JUMPR;
        d->base = (uint8_t)(d->base + REFILL_LOAD + cfg.ws);
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
    /* Everything else (ALU, MOV/CMP, MULS, ADR, ADD SP, extend, REV, CPS,
     * IT, hints, BKPT, SVC) is one cycle. */
}

static void decode_fp(insn_t *d)
{
    uint16_t h = d->hw1, h2 = d->hw2;
    d->base = 1u;
    if ((h & 0xFE00u) == 0xEC00u) {
        /* coprocessor load/store and 64-bit transfers */
        if ((h & 0xFFE0u) == 0xEC40u) { /* VMOV two core registers */
            d->base = 2u;
            return;
        }
        unsigned p = (h >> 8) & 1u, w = (h >> 5) & 1u;
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
            d->base = (uint8_t)(2u + 1u + REFILL_LOAD + cfg.ws);
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
            if (h == 0xF3AFu && (h2 & 0xFFF0u) == 0x80F0u && (h2 & 15u) == 0u)
                d->flags |= F_DBG0;
            if (h == 0xF3BFu && (h2 & 0xFFF0u) == 0x8F60u) /* ISB: a pipeline refill */
                d->base = 2u;
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
        if (cfg.cpu == 3 && op1 == 0u && accumulate)
            d->base = 2u; /* M3: MLA/MLS 2 */
        return;
    }
    if ((h & 0xFF80u) == 0xFB80u) { /* long multiply, divide */
        unsigned op1 = (h >> 4) & 7u;
        if (op1 == 1u || op1 == 3u)
            d->base = (uint8_t)cfg.div;
        else if (cfg.cpu == 3)
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

/* The refill of a taken branch to `to`: P = 1, or 2 when the target is a
 * 32-bit instruction on an odd halfword (DDI 0337 table 3.1, P "1 to 3"). */
static unsigned taken_cost(const insn_t *to)
{
    unsigned p = (to != NULL && to->size == 4u && (to->addr & 2u)) ? 2u : 1u;
    return p + cfg.ws;
}

/* Settle branch b given the address that executed after it. */
static void settle(const insn_t *b, const insn_t *next)
{
    bool always = (b->flags & (F_ALWAYS | F_IN_IT)) == F_ALWAYS;
    if ((b->flags & F_REFILL) && (always || next->addr != b->fall))
        n_cycles += taken_cost(next);
}

static void exception_entry(const insn_t *interrupted, const insn_t *cur)
{
    n_entries++;
    n_cycles += EXC_ENTRY;
    if (n_frames < MAX_FRAMES) {
        frames[n_frames].depth = 0u;
        frames[n_frames].interrupted = interrupted;
    }
    n_frames++;
    (void)cur;
}

static bool pipelines(const insn_t *p, const insn_t *cur)
{
    return (p->flags & F_LDPIPE) && (cur->flags & F_LSPIPE)
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
        n_cycles += (p->flags & F_REFILL) ? taken_cost(cur) : 0u;
        const insn_t *interrupted = n_frames <= MAX_FRAMES ? frames[n_frames - 1].interrupted
                                                           : NULL;
        n_frames--;
        if (is_handler(cur->addr)) { /* tail-chained into the next handler */
            n_tailchains++;
            n_cycles += EXC_TAILCHAIN;
            if (n_frames < MAX_FRAMES) {
                frames[n_frames].depth = 0u;
                frames[n_frames].interrupted = interrupted;
            }
            n_frames++;
        } else {
            n_returns++;
            n_cycles += EXC_RETURN;
            if (interrupted != NULL)
                settle(interrupted, cur);
        }
    } else if (p->cls == C_PLAIN || p->cls == C_BRANCH || p->cls == C_CALL) {
        /* not where p leads: an exception was taken after p */
        learn_handler(cur->addr);
        exception_entry(p->cls != C_PLAIN ? p : NULL, cur);
    } else if (is_handler(cur->addr)) {
        /* an indirect branch, then an exception before its target ran */
        n_cycles += (p->flags & F_REFILL) ? taken_cost(NULL) : 0u;
        exception_entry(NULL, cur);
    } else {
        /* an indirect branch to its target */
        n_cycles += (p->flags & F_REFILL) ? taken_cost(cur) : 0u;
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
    struct tbinfo *next_in_bucket;
    const insn_t *insn[];
} tbinfo_t;

static tbinfo_t *tb_buckets[1u << HASH_BITS];
static const tbinfo_t *last_tb;

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

static void read_marker(const insn_t *cur)
{
    n_reads++;
    if (cur->host_counter != NULL)
        *cur->host_counter = (uint32_t)n_cycles;
}

static void on_tb_start(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    const tbinfo_t *tb = udata;
    const insn_t *cur = tb->insn[0];
    const insn_t *p = previous(cur);
    bool pipelined = p != NULL && transition(p, cur);
    if (cur->flags & F_DBG0)
        read_marker(cur);
    n_cycles += cur->base - (pipelined ? 1u : 0u);
    last_tb = tb;
}

static void on_dbg_cycles(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    const insn_t *cur = udata;
    read_marker(cur);
    n_cycles += cur->base;
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
        *cur->host_counter = (uint32_t)n_insns;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    if (n == 0u)
        return;
    const insn_t **insns = calloc(n, sizeof *insns);
    if (insns == NULL)
        abort();
    unsigned it_left = 0u; /* instructions of an IT block still to come */
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);
        uint32_t addr = (uint32_t)qemu_plugin_insn_vaddr(qi);
        insn_t *d = lookup(addr, qemu_plugin_insn_data(qi));
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
        qemu_plugin_register_vcpu_insn_exec_inline(qi, QEMU_PLUGIN_INLINE_ADD_U64, &n_insns, 1u);
        if (cfg.mode != MODE_CYCLES) {
            if (d->flags & F_DBG0)
                qemu_plugin_register_vcpu_insn_exec_cb(qi, on_dbg_instructions,
                                                       QEMU_PLUGIN_CB_NO_REGS, (void *)d);
        } else if (i == 0u) {
            qemu_plugin_register_vcpu_insn_exec_cb(qi, on_tb_start, QEMU_PLUGIN_CB_NO_REGS, info);
        } else if (d->flags & F_DBG0) {
            qemu_plugin_register_vcpu_insn_exec_cb(qi, on_dbg_cycles, QEMU_PLUGIN_CB_NO_REGS,
                                                   (void *)d);
        } else {
            unsigned cost = d->base - (pipelines(insns[i - 1u], d) ? 1u : 0u);
            if (cost != 0u)
                qemu_plugin_register_vcpu_insn_exec_inline(qi, QEMU_PLUGIN_INLINE_ADD_U64,
                                                           &n_cycles, cost);
        }
    }
    free(insns);
    rm_idle_translate(tb, &n_insns);
}

static void on_plugin_exit(qemu_plugin_id_t id, void *udata)
{
    (void)id;
    (void)udata;
    if (cfg.out[0] == '\0')
        return;
    FILE *f = fopen(cfg.out, "w");
    if (f == NULL)
        return;
    fprintf(f, "{\"plugin\": \"rmcycles\", \"model\": \"%s\", \"mode\": \"%s\", "
               "\"cpu\": \"m%d\", \"ws\": %u, \"div\": %u, \"instructions\": %" PRIu64,
            MODEL, cfg.mode == MODE_CYCLES ? "cycles" : "instructions", cfg.cpu, cfg.ws,
            cfg.div, n_insns);
    if (cfg.mode == MODE_CYCLES)
        fprintf(f, ", \"cycles\": %" PRIu64 ", \"exception_entries\": %" PRIu64
                   ", \"exception_returns\": %" PRIu64 ", \"tail_chains\": %" PRIu64
                   ", \"handlers\": %d",
                n_cycles, n_entries, n_returns, n_tailchains, n_handlers);
    fprintf(f, ", \"reads\": %" PRIu64, n_reads);
    rm_idle_write(f);
    fputs("}\n", f);
    fclose(f);
}

static int fail(const char *what, const char *arg)
{
    char msg[700];
    snprintf(msg, sizeof msg,
             "Error: rmcycles plugin: %s '%s'. Arguments: mode=instructions|cycles, "
             "cpu=m3|m4, ws=<0..15>, div=<2..12>, counter=<hex address>, idle=<icount shift>, "
             "out=<file>\n",
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
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = strchr(a, '=');
        if (eq == NULL)
            return fail("argument without '='", a);
        size_t klen = (size_t)(eq - a);
        const char *v = eq + 1;
        unsigned long x;
        if (klen == 4 && !strncmp(a, "mode", 4)) {
            if (!strcmp(v, "instructions"))
                cfg.mode = MODE_INSTRUCTIONS;
            else if (!strcmp(v, "cycles"))
                cfg.mode = MODE_CYCLES;
            else
                return fail("unknown mode", v);
        } else if (klen == 3 && !strncmp(a, "cpu", 3)) {
            if (!strcmp(v, "m3"))
                cfg.cpu = 3;
            else if (!strcmp(v, "m4"))
                cfg.cpu = 4;
            else
                return fail("no cycle table for cpu (m3, m4)", v);
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
            if (!parse_uint(v, 10, &x) || !rm_idle_init((unsigned)x))
                return fail("bad idle (the -icount shift)", v);
        } else if (klen == 3 && !strncmp(a, "out", 3)) {
            if (strlen(v) >= sizeof cfg.out)
                return fail("out path too long", v);
            strcpy(cfg.out, v);
        } else {
            return fail("unknown argument", a);
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_plugin_exit, NULL);
    return 0;
}
