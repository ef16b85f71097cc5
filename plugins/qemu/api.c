/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * The bridge between rmcycles and the QEMU plugin API it is built for
 * (RM_PLUGIN_API, rm_plugin_api.h): the exported version, the callbacks'
 * shapes, the counters the inline ops add to, instruction bytes, and the
 * exception number.
 *
 * API 1 (QEMU 7.2, 8.x): the counters are a static struct and the inline
 * adds take its fields' addresses. API 2 (QEMU 9.0 on): they live in a
 * per-vCPU scoreboard, and the inline adds name (scoreboard, offset).
 * A vCPU's element exists once QEMU has started that vCPU (after the
 * plugin's installation), and QEMU grows a scoreboard only when a vCPU
 * beyond its allocation starts; the MPS2 machines have one, so vCPU 0's
 * element never moves. rm_counts_at_translation() checks that at every
 * translation rather than trusting it.
 *
 * The exception number (IPSR, in xPSR) is read with the register API of
 * QEMU 9.0 on, looked up at run time: an older QEMU reads wake-up causes
 * by handler address only (rmidle.c says what that cannot tell apart).
 */
#define _GNU_SOURCE
#include "rm_plugin_api.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The version each build declares: QEMU loads it when it lies in the range
 * it supports (11.x: 7 alone). */
#if RM_PLUGIN_API >= 3
RM_PLUGIN_EXPORT int qemu_plugin_version = 7;
#else
RM_PLUGIN_EXPORT int qemu_plugin_version = RM_PLUGIN_API;
#endif

static int qemu_min, qemu_cur; /* the API range this QEMU loads */

/* ---- callbacks: API 1 and 2 pass the plugin id, API 3 the userdata ---- */

static void (*translate_fn)(struct qemu_plugin_tb *);
static void (*exit_fn)(void);
static void (*interrupt_fn)(void);
/* enum qemu_plugin_discon_type: interrupts, exceptions (SVC) and host calls
 * (semihosting): every point between blocks where QEMU changes course. */
enum { DISCON_EVERY = 1 | 2 | 4 };

#if RM_PLUGIN_API >= 3
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           void (*cb)(struct qemu_plugin_tb *, void *),
                                           void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, void (*cb)(void *), void *userdata);
typedef void (*discon_cb_t)(unsigned int vcpu, int type, uint64_t from, uint64_t to,
                            void *userdata);
typedef void (*register_discon_fn)(qemu_plugin_id_t, int, discon_cb_t, void *);

static void on_tb(struct qemu_plugin_tb *tb, void *userdata)
{
    (void)userdata;
    translate_fn(tb);
}

static void on_exit_cb(void *userdata)
{
    (void)userdata;
    exit_fn();
}

static void on_discon(unsigned int vcpu, int type, uint64_t from, uint64_t to, void *userdata)
{
    (void)vcpu, (void)type, (void)from, (void)to, (void)userdata;
    interrupt_fn();
}

static void register_discon(void *reg, qemu_plugin_id_t id)
{
    ((register_discon_fn)reg)(id, DISCON_EVERY, on_discon, NULL);
}
#else
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, void *),
                                    void *userdata);
/* QEMU 10.1 (plugin API 5): the callback takes the plugin id first. */
typedef void (*discon_cb_t)(qemu_plugin_id_t id, unsigned int vcpu, int type, uint64_t from,
                            uint64_t to);
typedef void (*register_discon_fn)(qemu_plugin_id_t, int, discon_cb_t);

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    translate_fn(tb);
}

static void on_exit_cb(qemu_plugin_id_t id, void *userdata)
{
    (void)id, (void)userdata;
    exit_fn();
}

static void on_discon(qemu_plugin_id_t id, unsigned int vcpu, int type, uint64_t from,
                      uint64_t to)
{
    (void)id, (void)vcpu, (void)type, (void)from, (void)to;
    interrupt_fn();
}

static void register_discon(void *reg, qemu_plugin_id_t id)
{
    ((register_discon_fn)reg)(id, DISCON_EVERY, on_discon);
}
#endif

void rm_on_translate(qemu_plugin_id_t id, void (*fn)(struct qemu_plugin_tb *tb))
{
    translate_fn = fn;
#if RM_PLUGIN_API >= 3
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb, NULL);
#else
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
#endif
}

void rm_on_exit(qemu_plugin_id_t id, void (*fn)(void))
{
    exit_fn = fn;
    qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
}

bool rm_on_interrupt(qemu_plugin_id_t id, void (*fn)(void))
{
    /* looked up: the discontinuity callbacks came in QEMU 10.1, inside API 2 */
    void *reg = dlsym(RTLD_DEFAULT, "qemu_plugin_register_vcpu_discon_cb");
    if (reg == NULL || RM_PLUGIN_API < 2)
        return false;
    interrupt_fn = fn;
    register_discon(reg, id);
    return true;
}

#if RM_PLUGIN_API >= 2

struct qemu_plugin_scoreboard;
typedef struct {
    struct qemu_plugin_scoreboard *score;
    size_t offset;
} qemu_plugin_u64;

struct qemu_plugin_scoreboard *qemu_plugin_scoreboard_new(size_t element_size);
void *qemu_plugin_scoreboard_find(struct qemu_plugin_scoreboard *score, unsigned int vcpu_index);
void qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(struct qemu_plugin_insn *insn,
                                                         enum qemu_plugin_op op,
                                                         qemu_plugin_u64 entry, uint64_t imm);
size_t qemu_plugin_insn_data(const struct qemu_plugin_insn *insn, void *dest, size_t len);

/* GLib's public array types, as QEMU's register API hands them over. */
typedef struct {
    char *data;
    unsigned len;
} rm_garray_t;
typedef struct {
    uint8_t *data;
    unsigned len;
} rm_gbytes_t;
struct qemu_plugin_register;
typedef struct {
    struct qemu_plugin_register *handle;
    const char *name;
    const char *feature;
    /* QEMU 11 adds a field here: the stride comes from the array */
} rm_reg_descriptor_t;

typedef rm_garray_t *(*get_registers_fn)(void);
typedef unsigned (*element_size_fn)(rm_garray_t *);
typedef int (*read_register_fn)(struct qemu_plugin_register *, rm_gbytes_t *);
typedef rm_gbytes_t *(*byte_array_new_fn)(void);
typedef rm_gbytes_t *(*byte_array_set_size_fn)(rm_gbytes_t *, unsigned);

static struct qemu_plugin_scoreboard *board;
static rm_counts_t before_start; /* what rm_counts() reads before vCPU 0 exists */
static rm_counts_t *vcpu0 = &before_start;
static struct {
    get_registers_fn get_registers;
    read_register_fn read_register;
    byte_array_set_size_fn set_size;
    element_size_fn element_size; /* the descriptor grew a field in QEMU 11 */
    rm_gbytes_t *buf;
    struct qemu_plugin_register *xpsr;
    bool looked; /* the register list is per vCPU: read at the first callback */
    uint64_t reads; /* exception numbers read (the summary says so) */
} regs;

bool rm_api_start(const qemu_info_t *info)
{
    qemu_min = info->version.min;
    qemu_cur = info->version.cur;
    board = qemu_plugin_scoreboard_new(sizeof(rm_counts_t));
    if (board == NULL) {
        fputs("Error: rmcycles plugin: QEMU gave no scoreboard\n", stderr);
        return false;
    }
    regs.get_registers = (get_registers_fn)dlsym(RTLD_DEFAULT, "qemu_plugin_get_registers");
    regs.read_register = (read_register_fn)dlsym(RTLD_DEFAULT, "qemu_plugin_read_register");
    byte_array_new_fn bytes_new = (byte_array_new_fn)dlsym(RTLD_DEFAULT, "g_byte_array_new");
    regs.set_size = (byte_array_set_size_fn)dlsym(RTLD_DEFAULT, "g_byte_array_set_size");
    regs.element_size = (element_size_fn)dlsym(RTLD_DEFAULT, "g_array_get_element_size");
    if (regs.get_registers != NULL && regs.read_register != NULL && bytes_new != NULL
        && regs.set_size != NULL && regs.element_size != NULL)
        regs.buf = bytes_new();
    return true;
}

rm_counts_t *rm_counts(void)
{
    return vcpu0;
}

rm_counts_t *rm_counts_at_translation(void)
{
    rm_counts_t *found = qemu_plugin_scoreboard_find(board, 0u);
    if (vcpu0 == &before_start) {
        vcpu0 = found;
    } else if (found != vcpu0) {
        fputs("Error: rmcycles plugin: QEMU moved vCPU 0's scoreboard (more vCPUs than "
              "it allocated for?); the counts would be lost\n", stderr);
        abort();
    }
    return vcpu0;
}

void rm_inline_add(struct qemu_plugin_insn *insn, const uint64_t *counter, uint64_t imm)
{
    qemu_plugin_u64 entry = {board, (size_t)((const char *)counter - (const char *)vcpu0)};
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_ADD_U64, entry,
                                                        imm);
}

void rm_insn_bytes(const struct qemu_plugin_insn *insn, uint8_t out[4])
{
    memset(out, 0, 4);
    qemu_plugin_insn_data(insn, out, 4);
}

bool rm_can_read_ipsr(void)
{
    return regs.buf != NULL;
}

int rm_exception_number(void)
{
    if (regs.buf == NULL)
        return -1;
    if (!regs.looked) {
        regs.looked = true;
        rm_garray_t *list = regs.get_registers();
        unsigned stride = list != NULL ? regs.element_size(list) : 0u;
        for (unsigned i = 0; stride >= sizeof(rm_reg_descriptor_t) && i < list->len; i++) {
            const rm_reg_descriptor_t *d = (const void *)(list->data + (size_t)i * stride);
            if (d->name != NULL && strcmp(d->name, "xpsr") == 0)
                regs.xpsr = d->handle;
        }
    }
    if (regs.xpsr == NULL)
        return -1;
    regs.set_size(regs.buf, 0u);
    /* the bytes read (QEMU 9, 10) or true (11): what counts is the buffer */
    if (regs.read_register(regs.xpsr, regs.buf) <= 0 || regs.buf->len < 4u)
        return -1;
    const uint8_t *b = regs.buf->data; /* little-endian, as the guest's */
    regs.reads++;
    return (int)((b[0] | (unsigned)b[1] << 8) & 0x1FFu);
}

#else /* RM_PLUGIN_API 1 */

void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
                                                enum qemu_plugin_op op, void *ptr, uint64_t imm);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);

static rm_counts_t counts;

bool rm_api_start(const qemu_info_t *info)
{
    qemu_min = info->version.min;
    qemu_cur = info->version.cur;
    return true;
}

rm_counts_t *rm_counts(void)
{
    return &counts;
}

rm_counts_t *rm_counts_at_translation(void)
{
    return &counts;
}

void rm_inline_add(struct qemu_plugin_insn *insn, const uint64_t *counter, uint64_t imm)
{
    qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
                                               (void *)(uintptr_t)counter, imm);
}

void rm_insn_bytes(const struct qemu_plugin_insn *insn, uint8_t out[4])
{
    /* the Thumb size from the encoding: qemu_plugin_insn_size can be wrong
     * beside a page end in API 1 */
    const uint8_t *b = qemu_plugin_insn_data(insn);
    bool wide = (b[1] & 0xF8u) == 0xE8u || (b[1] & 0xF0u) == 0xF0u;
    memset(out, 0, 4);
    memcpy(out, b, wide ? 4u : 2u);
}

bool rm_can_read_ipsr(void)
{
    return false;
}

int rm_exception_number(void)
{
    return -1;
}

#endif

static uint64_t ipsr_reads(void)
{
#if RM_PLUGIN_API >= 2
    return regs.reads;
#else
    return 0u;
#endif
}

void rm_api_write(FILE *f)
{
    fprintf(f, ", \"api\": {\"build\": %d, \"qemu_min\": %d, \"qemu_cur\": %d, \"ipsr\": %s, "
               "\"ipsr_reads\": %" PRIu64 "}",
            RM_PLUGIN_API, qemu_min, qemu_cur, rm_can_read_ipsr() ? "true" : "false",
            ipsr_reads());
}
