/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * What the rmcycles plugin's files share: the decoded instruction, the
 * plugin's arguments, and a core's cycle model (one per file: rmcycles.c
 * holds the ARMv7-M decode and the M3/M4 table, model_m0.c the M0/M0+,
 * model_m7.c the M7). See cycle_model.md. */
#ifndef RMCYCLES_H
#define RMCYCLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mode { MODE_INSTRUCTIONS, MODE_CYCLES };

/* A board's flash memory system (memory.c); off: the flat `ws` rule. */
struct memory {
    bool on;
    unsigned ws, line, icache, dcache, ways; /* wait states, bytes, bytes, bytes, ways */
    bool prefetch;
};

struct config {
    enum mode mode;
    const struct core *core;
    unsigned ws, div, mul, bp;
    struct memory mem;
    bool have_counter;
    uint32_t counter;
    char out[512];
};
extern struct config cfg;

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
#define F_DBG0 0x04u   /* DBG #0 (HINT #15 on ARMv6-M): the counter read marker */
#define F_REFILL 0x08u /* taken: pays the core's refill (or, on the M7, a misprediction) */
#define F_ALWAYS 0x10u /* B, BL: taken even to the next address (unless in an IT block) */
#define F_IN_IT 0x20u  /* inside an IT block: conditional */
#define F_MEM 0x40u    /* a load or store (the M7 issues one per cycle) */
#define F_SOLO 0x80u   /* the M7 issues it alone (multiple, multiply, FP, barrier, ...) */
#define F_FP 0x100u    /* an FPU instruction: sets CONTROL.FPCA, may start a lazy FP save */
#define F_FPMEM 0x200u /* an FPU load or store (VLDR/VSTR/VLDM/VSTM/VPUSH/VPOP) */
#define F_MSR_CONTROL 0x400u /* MSR CONTROL, Rn: taken to clear CONTROL.FPCA */

typedef struct insn {
    uint32_t addr, fall, target;
    uint16_t hw1, hw2;
    uint16_t addr_regs; /* registers the address of a load/store single uses */
    uint16_t flags;
    uint8_t size, cls, ld_dest;
    uint8_t base;         /* cycles when not taken / not pipelined */
    uint8_t predicted;    /* M7: the direction this branch site last went (1 taken) */
    uint32_t last_target; /* M7: where this indirect branch site last went */
    uint32_t literal;     /* a PC-relative load's address (0: none) */
    uint32_t *host_counter;
    struct insn *next_in_bucket;
} insn_t;

/* One core's cycle model: the constants of the shared rules, and hooks for
 * what differs. NULL hooks take the M3/M4 behaviour. */
typedef struct core {
    const char *name;       /* the cpu= argument */
    unsigned entry, ret, tailchain;
    /* Cycles of the lazy FP save (S0-S15, FPSCR) into an extended frame, and
     * of unstacking it at the return; 0: the core has no FPU. */
    unsigned fp_lazy;
    unsigned refill;        /* P of a taken branch whose target decode knows */
    bool odd32;             /* P + 1 to a 32-bit target at an address = 2 mod 4 */
    unsigned refill_load;   /* P of a PC loaded from memory */
    bool load_pipeline;     /* the M3/M4 rule: a load/store after a load saves a cycle */
    void (*adjust)(insn_t *d); /* after the ARMv7-M decode: this core's costs */
    /* The cost of cur following prev in one block; *slot is the issue state
     * (M7: whether prev started a cycle cur may share). */
    unsigned (*step)(const insn_t *prev, const insn_t *cur, bool *slot);
    /* What a branch costs, given whether it was taken and where it went. */
    unsigned (*branch)(insn_t *b, const insn_t *to, bool taken);
} core_t;

extern const core_t core_m0, core_m0plus, core_m7;

/* The refill of a taken branch to `to` on cores without prediction. */
unsigned refill_cost(const insn_t *to);

/* The board's memory system (memory.c). */
bool mem_init(void);
unsigned mem_fetch(uint32_t first, uint32_t end);
unsigned mem_literal(uint32_t addr);

#endif /* RMCYCLES_H */
