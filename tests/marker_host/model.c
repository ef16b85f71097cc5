/* Host register model for a board's marker.c (tests/test_case_marker.py):
 * built with RM_MARKER_HOST, marker_io.h sends every access here. Reset
 * values come on stdin, one "init ADDR VALUE" a line (others read 0). It
 * runs the set-up, then a rising and a falling edge, printing each phase
 * ("P init", "P on", "P off") and every access in it ("R ADDR VALUE",
 * "W ADDR VALUE"), then each register's final value ("F ADDR VALUE"). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "marker_io.h"

#define MAX_REGS 32

struct reg { uint32_t addr, value; };

static struct reg regs[MAX_REGS];
static unsigned n_regs;

void rm_board_marker_init(void);
void rm_target_case_marker(bool on);

static struct reg *find(uint32_t addr)
{
    for (unsigned i = 0; i < n_regs; i++)
        if (regs[i].addr == addr)
            return &regs[i];
    if (n_regs == MAX_REGS) {
        fprintf(stderr, "model.c: more than %d registers\n", MAX_REGS);
        exit(2);
    }
    regs[n_regs] = (struct reg){addr, 0u};
    return &regs[n_regs++];
}

uint32_t rm_marker_rd(uint32_t addr)
{
    uint32_t v = find(addr)->value;
    printf("R 0x%08X 0x%08X\n", (unsigned)addr, (unsigned)v);
    return v;
}

void rm_marker_wr(uint32_t addr, uint32_t value)
{
    find(addr)->value = value;
    printf("W 0x%08X 0x%08X\n", (unsigned)addr, (unsigned)value);
}

int main(void)
{
    unsigned addr, value;
    while (scanf(" init %x %x", &addr, &value) == 2)
        find(addr)->value = value;
    puts("P init");
    rm_board_marker_init();
    puts("P on");
    rm_target_case_marker(true);
    puts("P off");
    rm_target_case_marker(false);
    for (unsigned i = 0; i < n_regs; i++)
        printf("F 0x%08X 0x%08X\n", (unsigned)regs[i].addr, (unsigned)regs[i].value);
    return 0;
}
