/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * Per-function attribution of the plugin's count, between counter reads.
 *
 * The firmware's counter reads (the DBG marker) cut the execution into
 * segments: a measured interval is the segment between its two reads, the
 * time between intervals is a segment too. The plugin cannot tell them
 * apart, so every segment is attributed and grouped by (epoch, opening
 * read's address, closing read's address), where the epoch counts entries
 * into the function the harness names (the runner's per-case reset): one
 * group per interval kind of one case. Per group: the segment count, the
 * sum and an FNV-1a hash of their lengths (what the firmware stored as
 * samples), and per function the instructions, cycles and calls. The
 * harness matches a series to the group with its samples' count, sum and
 * hash, so the breakdown of a series sums exactly to its samples.
 *
 * Cost: one callback per executed block (O(1) when the block lies in one
 * function), a hash update per read. Exactness: a block's executed part is
 * the plugin's own instruction count since the last settlement (under
 * -icount an I/O access ends a block early and QEMU re-executes the access
 * alone, without instruction callbacks), never the block's length.
 *
 * Cycles (mode=cycles): what the count rose by since the last settlement
 * goes to the function of the first instruction settled; a block's dynamic
 * costs (the refill of the branch into it, exception entry) are added by
 * rmcycles after this callback, so the arriving block pays them.
 *
 * Map file (funcs=): "rmattrib-map 1", then "epoch 0xADDR" (0: none), then
 * one "0xSTART 0xEND" line per function, sorted, not overlapping; function
 * i is line i. Output (attrib=): "rmattrib 1 functions=F", then per group
 * "group G epoch=E open=0xA close=0xB count=N sum_i=I sum_c=C hash=H", and
 * "entry G F insns cycles calls" (F = functions: outside every function).
 */
#include "attrib.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATH_MAX_LEN 512
#define FNV_OFFSET 14695981039346656037ull
#define FNV_PRIME 1099511628211ull

static char map_path[PATH_MAX_LEN], out_path[PATH_MAX_LEN];
static bool enabled;

static uint32_t n_funcs; /* index n_funcs: outside every function */
static uint32_t *f_start, *f_end;
static uint32_t epoch_addr;

static bool cycles_mode; /* the count is rm_counts()->cycles too */

/* A translated block as attribution sees it. */
typedef struct atb {
    uint32_t addr, n;
    uint32_t func;      /* the function of instruction 0 */
    bool multi;         /* spans functions: funcs[] per instruction */
    bool entry;         /* instruction 0 is its function's first */
    bool call_last;     /* the last instruction is BL / BLX */
    bool epoch;         /* starts at the epoch function */
    struct atb *next_in_bucket;
    uint32_t funcs[];
} atb_t;

#define TB_BITS 14
static atb_t *tb_buckets[1u << TB_BITS];

/* The running segment. */
static uint64_t set_i, set_c; /* counts attributed so far */
static const atb_t *cur;
static uint32_t cur_off; /* instructions of cur already attributed */
static uint32_t last_func;
static uint64_t *seg_i, *seg_c, *seg_calls;
static uint8_t *seg_seen;
static uint32_t *touched, n_touched;
static uint32_t epoch, open_site;
static uint64_t open_i, open_c;

/* Groups and their per-function entries: open addressing. */
typedef struct {
    uint32_t epoch, open, close;
    uint64_t count, sum_i, sum_c, hash;
} group_t;
static group_t *groups;
static uint32_t n_groups, cap_groups;
static uint32_t *group_index, group_index_mask; /* 0: empty, else group + 1 */

typedef struct {
    uint32_t group, func; /* group + 1: 0 marks an empty slot */
    uint64_t insns, cycles, calls;
} entry_t;
static entry_t *entries;
static uint32_t n_entries, entries_mask;

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (p == NULL)
        abort();
    return p;
}

int attrib_arg(const char *key, size_t klen, const char *value)
{
    char *dst;
    if (klen == 5 && !strncmp(key, "funcs", 5))
        dst = map_path;
    else if (klen == 6 && !strncmp(key, "attrib", 6))
        dst = out_path;
    else
        return 0;
    if (strlen(value) >= PATH_MAX_LEN || value[0] == '\0') {
        fprintf(stderr, "Error: rmcycles plugin: bad attribution path '%s'\n", value);
        return -1;
    }
    strcpy(dst, value);
    return 1;
}

bool attrib_enabled(void)
{
    return enabled;
}

static bool load_map(void)
{
    FILE *f = fopen(map_path, "r");
    if (f == NULL) {
        fprintf(stderr, "Error: rmcycles plugin: cannot read the function map '%s'\n", map_path);
        return false;
    }
    unsigned version = 0;
    unsigned long epoch_value = 0;
    bool ok = fscanf(f, "rmattrib-map %u epoch %lx", &version, &epoch_value) == 2
              && version == 1u;
    uint32_t cap = 1024;
    f_start = xcalloc(cap, sizeof *f_start);
    f_end = xcalloc(cap, sizeof *f_end);
    unsigned long s, e;
    while (ok && fscanf(f, "%lx %lx", &s, &e) == 2) {
        if (e <= s || s > 0xFFFFFFFFul || e > 0x100000000ul
            || (n_funcs > 0 && s < f_end[n_funcs - 1])) {
            ok = false;
            break;
        }
        if (n_funcs == cap) {
            cap *= 2;
            f_start = realloc(f_start, cap * sizeof *f_start);
            f_end = realloc(f_end, cap * sizeof *f_end);
            if (f_start == NULL || f_end == NULL)
                abort();
        }
        f_start[n_funcs] = (uint32_t)s;
        f_end[n_funcs] = (uint32_t)(e - 1u) + 1u; /* 0x100000000 wraps to 0: the top */
        n_funcs++;
    }
    ok = ok && feof(f);
    fclose(f);
    if (!ok)
        fprintf(stderr, "Error: rmcycles plugin: the function map '%s' is malformed "
                        "(want 'rmattrib-map 1', 'epoch 0xADDR', then sorted "
                        "'0xSTART 0xEND' lines)\n", map_path);
    epoch_addr = (uint32_t)epoch_value;
    return ok;
}

bool attrib_start(bool cycles)
{
    if (map_path[0] == '\0' && out_path[0] == '\0')
        return true;
    if (map_path[0] == '\0' || out_path[0] == '\0') {
        fputs("Error: rmcycles plugin: attribution needs both funcs=<map> and "
              "attrib=<out>\n", stderr);
        return false;
    }
    if (!load_map())
        return false;
    cycles_mode = cycles;
    seg_i = xcalloc(n_funcs + 1u, sizeof *seg_i);
    seg_c = xcalloc(n_funcs + 1u, sizeof *seg_c);
    seg_calls = xcalloc(n_funcs + 1u, sizeof *seg_calls);
    seg_seen = xcalloc(n_funcs + 1u, 1);
    touched = xcalloc(n_funcs + 1u, sizeof *touched);
    cap_groups = 256;
    groups = xcalloc(cap_groups, sizeof *groups);
    group_index_mask = 1023u;
    group_index = xcalloc(group_index_mask + 1u, sizeof *group_index);
    entries_mask = (1u << 14) - 1u;
    entries = xcalloc(entries_mask + 1u, sizeof *entries);
    last_func = n_funcs;
    enabled = true;
    return true;
}

static uint32_t func_of(uint32_t addr)
{
    uint32_t lo = 0, hi = n_funcs; /* the last start <= addr */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (f_start[mid] <= addr)
            lo = mid + 1u;
        else
            hi = mid;
    }
    if (lo == 0u)
        return n_funcs;
    uint32_t i = lo - 1u;
    return (f_end[i] == 0u || addr < f_end[i]) ? i : n_funcs;
}

/* ---- the running segment ---- */

static void add(uint32_t f, uint64_t di, uint64_t dc, uint64_t calls)
{
    if (!seg_seen[f]) {
        seg_seen[f] = 1;
        touched[n_touched++] = f;
    }
    seg_i[f] += di;
    seg_c[f] += dc;
    seg_calls[f] += calls;
}

/* Attributes what the counts rose by since the last settlement to the
 * current block's instructions, from where the last settlement left off. */
static void settle(void)
{
    const rm_counts_t *c = rm_counts();
    uint64_t ni = c->insns, nc = cycles_mode ? c->cycles : 0u;
    uint64_t di = ni - set_i, dc = nc - set_c;
    if (di == 0u && dc == 0u)
        return;
    set_i = ni;
    set_c = nc;
    if (cur == NULL) {
        add(n_funcs, di, dc, 0u);
        return;
    }
    if (!cur->multi) {
        add(cur->func, di, dc, 0u);
        cur_off += (uint32_t)di;
        last_func = cur->func;
        return;
    }
    add(cur_off < cur->n ? cur->funcs[cur_off] : n_funcs, 0u, dc, 0u);
    for (uint64_t k = 0; k < di; k++, cur_off++) {
        uint32_t f = cur_off < cur->n ? cur->funcs[cur_off] : n_funcs;
        add(f, 1u, 0u, 0u);
        last_func = f;
    }
}

static void on_block(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    const atb_t *x = udata;
    settle();
    /* An entry: arriving at a function's first instruction from another
     * function (a call, tail call, exception) or by BL/BLX (recursion). */
    bool called = cur != NULL && cur_off == cur->n && cur->call_last;
    if (x->entry && (called || last_func != x->func))
        add(x->func, 0u, 0u, 1u);
    if (x->epoch)
        epoch++;
    cur = x;
    cur_off = 0u;
}

/* ---- groups ---- */

static uint32_t hash3(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t h = ((uint64_t)a * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)b * 0xC2B2AE3D27D4EB4Full)
                 ^ ((uint64_t)c * 0x165667B19E3779F9ull);
    return (uint32_t)(h ^ (h >> 29));
}

static void grow_group_index(void)
{
    uint32_t mask = group_index_mask * 2u + 1u;
    uint32_t *idx = xcalloc(mask + 1u, sizeof *idx);
    for (uint32_t g = 0; g < n_groups; g++) {
        uint32_t h = hash3(groups[g].epoch, groups[g].open, groups[g].close) & mask;
        while (idx[h] != 0u)
            h = (h + 1u) & mask;
        idx[h] = g + 1u;
    }
    free(group_index);
    group_index = idx;
    group_index_mask = mask;
}

static uint32_t group_for(uint32_t ep, uint32_t open, uint32_t close)
{
    uint32_t h = hash3(ep, open, close) & group_index_mask;
    for (; group_index[h] != 0u; h = (h + 1u) & group_index_mask) {
        const group_t *g = &groups[group_index[h] - 1u];
        if (g->epoch == ep && g->open == open && g->close == close)
            return group_index[h] - 1u;
    }
    if (n_groups == cap_groups) {
        cap_groups *= 2u;
        groups = realloc(groups, cap_groups * sizeof *groups);
        if (groups == NULL)
            abort();
    }
    groups[n_groups] = (group_t){ep, open, close, 0u, 0u, 0u, FNV_OFFSET};
    group_index[h] = ++n_groups;
    if (n_groups * 2u > group_index_mask)
        grow_group_index();
    return n_groups - 1u;
}

static entry_t *entry_slot(entry_t *table, uint32_t mask, uint32_t group, uint32_t func)
{
    uint32_t h = hash3(group, func, 0u) & mask;
    while (table[h].group != 0u && (table[h].group != group + 1u || table[h].func != func))
        h = (h + 1u) & mask;
    return &table[h];
}

static void grow_entries(void)
{
    uint32_t mask = entries_mask * 2u + 1u;
    entry_t *table = xcalloc(mask + 1u, sizeof *table);
    for (uint32_t i = 0; i <= entries_mask; i++)
        if (entries[i].group != 0u)
            *entry_slot(table, mask, entries[i].group - 1u, entries[i].func) = entries[i];
    free(entries);
    entries = table;
    entries_mask = mask;
}

void attrib_read(uint32_t site)
{
    if (!enabled)
        return;
    settle();
    uint64_t len_i = set_i - open_i, len_c = set_c - open_c;
    uint32_t gi = group_for(epoch, open_site, site);
    group_t *g = &groups[gi];
    g->count++;
    g->sum_i += len_i;
    g->sum_c += len_c;
    /* the sample as the firmware stores it: 32 bits of the counter's difference */
    uint32_t sample = (uint32_t)(cycles_mode ? len_c : len_i);
    for (int b = 0; b < 4; b++)
        g->hash = (g->hash ^ ((sample >> (8 * b)) & 0xFFu)) * FNV_PRIME;
    for (uint32_t t = 0; t < n_touched; t++) {
        uint32_t f = touched[t];
        entry_t *e = entry_slot(entries, entries_mask, gi, f);
        if (e->group == 0u) {
            e->group = gi + 1u;
            e->func = f;
            n_entries++;
        }
        e->insns += seg_i[f];
        e->cycles += seg_c[f];
        e->calls += seg_calls[f];
        seg_i[f] = seg_c[f] = seg_calls[f] = 0u;
        seg_seen[f] = 0;
        if (n_entries * 2u > entries_mask) {
            grow_entries();
        }
    }
    n_touched = 0u;
    open_site = site;
    open_i = set_i;
    open_c = set_c;
}

/* ---- translation ---- */

static bool is_call(const uint8_t *b, size_t size)
{
    uint16_t h1 = (uint16_t)(b[0] | b[1] << 8);
    if (size == 2u)
        return (h1 & 0xFF87u) == 0x4780u; /* BLX Rm */
    uint16_t h2 = (uint16_t)(b[2] | b[3] << 8);
    return (h1 & 0xF800u) == 0xF000u && (h2 & 0xD000u) == 0xD000u; /* BL */
}

void attrib_translate(struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    if (n == 0u)
        return;
    struct qemu_plugin_insn *first = qemu_plugin_tb_get_insn(tb, 0);
    uint32_t addr = (uint32_t)qemu_plugin_insn_vaddr(first);
    uint32_t h = ((addr >> 1) * 2654435761u + (uint32_t)n) >> (32 - TB_BITS);
    atb_t *x = tb_buckets[h];
    while (x != NULL && (x->addr != addr || x->n != n))
        x = x->next_in_bucket;
    if (x == NULL) {
        x = xcalloc(1, sizeof *x + n * sizeof x->funcs[0]);
        x->addr = addr;
        x->n = (uint32_t)n;
        x->func = func_of(addr);
        x->entry = x->func < n_funcs && f_start[x->func] == addr;
        x->epoch = epoch_addr != 0u && addr == epoch_addr;
        for (size_t i = 0; i < n; i++) {
            struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);
            x->funcs[i] = func_of((uint32_t)qemu_plugin_insn_vaddr(qi));
            x->multi = x->multi || x->funcs[i] != x->func;
            if (i + 1u == n) {
                /* the Thumb size from the encoding, as rmcycles.c reads it */
                uint8_t b[4];
                rm_insn_bytes(qi, b);
                uint16_t h1 = (uint16_t)(b[0] | b[1] << 8);
                bool wide = (h1 & 0xF800u) == 0xE800u || (h1 & 0xF000u) == 0xF000u;
                x->call_last = is_call(b, wide ? 4u : 2u);
            }
        }
        x->next_in_bucket = tb_buckets[h];
        tb_buckets[h] = x;
    }
    qemu_plugin_register_vcpu_insn_exec_cb(first, on_block, QEMU_PLUGIN_CB_NO_REGS, x);
}

void attrib_exit(void)
{
    if (!enabled)
        return;
    attrib_read(0u); /* the last segment, up to the exit */
    FILE *f = fopen(out_path, "w");
    if (f == NULL) {
        fprintf(stderr, "Error: rmcycles plugin: cannot write '%s'\n", out_path);
        return;
    }
    fprintf(f, "rmattrib 1 functions=%" PRIu32 " mode=%s\n", n_funcs,
            cycles_mode ? "cycles" : "instructions");
    for (uint32_t g = 0; g < n_groups; g++)
        fprintf(f, "group %" PRIu32 " epoch=%" PRIu32 " open=0x%" PRIx32 " close=0x%" PRIx32
                   " count=%" PRIu64 " sum_i=%" PRIu64 " sum_c=%" PRIu64 " hash=%016" PRIx64 "\n",
                g, groups[g].epoch, groups[g].open, groups[g].close, groups[g].count,
                groups[g].sum_i, groups[g].sum_c, groups[g].hash);
    for (uint32_t i = 0; i <= entries_mask; i++)
        if (entries[i].group != 0u)
            fprintf(f, "entry %" PRIu32 " %" PRIu32 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
                    entries[i].group - 1u, entries[i].func, entries[i].insns, entries[i].cycles,
                    entries[i].calls);
    fclose(f);
}
