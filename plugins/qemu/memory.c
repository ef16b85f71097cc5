/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * rmcycles: a board's flash memory system (cycle_model.md, "A board's
 * memory"): flash read in units of `line` bytes with `ws` wait states each,
 * behind an optional prefetch buffer and optional instruction and data
 * caches (set-associative, LRU). Given, it replaces the flat `ws` rule: a
 * taken branch pays its pipeline refill, and the flash wait only when its
 * target's line is neither cached nor prefetched. */
#include <stdlib.h>
#include <string.h>

#include "rmcycles.h"

#define MAX_ENTRIES 4096u

typedef struct cache {
    unsigned sets, ways;
    uint32_t *tag;  /* sets x ways, UINT32_MAX = invalid */
    uint32_t *used; /* last access stamp, for LRU */
} cache_t;

static cache_t icache, dcache;
static uint32_t stamp;
static uint32_t last_unit = UINT32_MAX; /* the line the fetch buffer holds */

static bool cache_init(cache_t *c, unsigned bytes, unsigned ways)
{
    if (bytes == 0u)
        return true;
    unsigned entries = bytes / cfg.mem.line;
    if (entries == 0u || entries > MAX_ENTRIES || ways == 0u || entries % ways != 0u)
        return false;
    c->ways = ways;
    c->sets = entries / ways;
    c->tag = malloc(entries * sizeof *c->tag);
    c->used = calloc(entries, sizeof *c->used);
    if (c->tag == NULL || c->used == NULL)
        abort();
    memset(c->tag, 0xFF, entries * sizeof *c->tag);
    return true;
}

/* Whether `unit` was cached; it is afterwards (least recently used out). */
static bool cache_access(cache_t *c, uint32_t unit)
{
    if (c->sets == 0u)
        return false;
    uint32_t *tag = c->tag + (unit % c->sets) * c->ways;
    uint32_t *used = c->used + (unit % c->sets) * c->ways;
    unsigned victim = 0u;
    stamp++;
    for (unsigned w = 0; w < c->ways; w++) {
        if (tag[w] == unit) {
            used[w] = stamp;
            return true;
        }
        if (used[w] < used[victim])
            victim = w;
    }
    tag[victim] = unit;
    used[victim] = stamp;
    return false;
}

bool mem_init(void)
{
    return cache_init(&icache, cfg.mem.icache, cfg.mem.ways)
           && cache_init(&dcache, cfg.mem.dcache, cfg.mem.ways);
}

/* The wait for the code bytes [first, end) a block executes, in order. */
unsigned mem_fetch(uint32_t first, uint32_t end)
{
    unsigned cost = 0u;
    for (uint32_t unit = first / cfg.mem.line; unit <= (end - 1u) / cfg.mem.line; unit++) {
        if (unit == last_unit)
            continue; /* still in the fetch buffer */
        bool sequential = unit == last_unit + 1u;
        bool hit = cache_access(&icache, unit);
        if (!hit && !(cfg.mem.prefetch && sequential))
            cost += cfg.mem.ws; /* fetched from flash, nothing hides the wait */
        last_unit = unit;
    }
    return cost;
}

/* The wait for a literal load from the flash at `addr`. */
unsigned mem_literal(uint32_t addr)
{
    return cache_access(&dcache, addr / cfg.mem.line) ? 0u : cfg.mem.ws;
}
