/* Host register model for a board's clock.c (tests/test_board_clock.py):
 * built with RM_CLOCK_HOST, clock_io.h sends every access here instead of
 * to the chip. The model comes on stdin, one line each:
 *   init ADDR VALUE                       a register's reset value
 *   ready ADDR MASK                       bits that always read as 1
 *   mirror DST MASK SRC SRCMASK SHIFT     DST's MASK bits read as
 *                                         (SRC & SRCMASK) << SHIFT (>> if < 0):
 *                                         a status that follows its control bit
 *   when ADDR MASK VALUE                  the next mirror applies only while
 *                                         (ADDR & MASK) == VALUE (up to two)
 * Status bits (ready, mirrored) are read-only: a write does not store them.
 * Every write is printed ("W ADDR VALUE BYTES"), then, after
 * rm_cm_clock_init returns, each register's final value ("F ADDR VALUE");
 * a wait that gives up prints "FAIL <what>" and exits with status 4, as the
 * firmware's rm_clock_fail does. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock_io.h"

#define MAX_REGS 64
#define MAX_RULES 32

struct reg { uint32_t addr, value, ready; };
struct cond { uint32_t addr, mask, value; };
struct rule { uint32_t dst, mask, src, src_mask; int shift; unsigned n_when; struct cond when[2]; };

static struct reg regs[MAX_REGS];
static unsigned n_regs;
static struct rule rules[MAX_RULES];
static unsigned n_rules;
static struct cond pending[2];
static unsigned n_pending;

void rm_cm_clock_init(void);

static struct reg *find(uint32_t addr)
{
    for (unsigned i = 0; i < n_regs; i++)
        if (regs[i].addr == addr)
            return &regs[i];
    if (n_regs == MAX_REGS) {
        fprintf(stderr, "regs.c: more than %d registers\n", MAX_REGS);
        exit(2);
    }
    regs[n_regs] = (struct reg){addr, 0u, 0u};
    return &regs[n_regs++];
}

uint32_t rm_clk_rd(uint32_t addr, unsigned bytes)
{
    struct reg *r = find(addr);
    uint32_t v = r->value | r->ready;
    for (unsigned i = 0; i < n_rules; i++) {
        const struct rule *m = &rules[i];
        if (m->dst != addr)
            continue;
        unsigned held = 0;
        for (unsigned c = 0; c < m->n_when; c++)
            held += (find(m->when[c].addr)->value & m->when[c].mask) == m->when[c].value;
        if (held != m->n_when)
            continue;
        uint32_t src = find(m->src)->value & m->src_mask;
        src = m->shift >= 0 ? src << m->shift : src >> -m->shift;
        v = (v & ~m->mask) | (src & m->mask);
    }
    return bytes == 1u ? v & 0xFFu : v;
}

void rm_clk_wr(uint32_t addr, uint32_t value, unsigned bytes)
{
    printf("W 0x%08x 0x%08x %u\n", addr, value, bytes);
    struct reg *r = find(addr);
    uint32_t status = r->ready;
    for (unsigned i = 0; i < n_rules; i++)
        if (rules[i].dst == addr)
            status |= rules[i].mask;
    r->value = value & ~status;
}

_Noreturn void rm_clock_fail(const char *what)
{
    printf("FAIL %s\n", what);
    exit(4);
}

int main(void)
{
    char kind[16];
    while (scanf("%15s", kind) == 1) {
        long a, b, c, d, shift;
        if (kind[0] == 'i' && scanf("%li %li", &a, &b) == 2) {
            find((uint32_t)a)->value = (uint32_t)b;
        } else if (kind[0] == 'r' && scanf("%li %li", &a, &b) == 2) {
            find((uint32_t)a)->ready = (uint32_t)b;
        } else if (kind[0] == 'm' && n_rules < MAX_RULES &&
                   scanf("%li %li %li %li %li", &a, &b, &c, &d, &shift) == 5) {
            rules[n_rules] = (struct rule){(uint32_t)a, (uint32_t)b, (uint32_t)c, (uint32_t)d,
                                           (int)shift, n_pending, {pending[0], pending[1]}};
            n_rules++;
            n_pending = 0;
        } else if (kind[0] == 'w' && n_pending < 2 && scanf("%li %li %li", &a, &b, &c) == 3) {
            pending[n_pending++] = (struct cond){(uint32_t)a, (uint32_t)b, (uint32_t)c};
        } else {
            fprintf(stderr, "regs.c: bad model line starting '%s'\n", kind);
            return 2;
        }
    }
    rm_cm_clock_init();
    for (unsigned i = 0; i < n_regs; i++)
        printf("F 0x%08x 0x%08x\n", regs[i].addr, regs[i].value);
    return 0;
}
