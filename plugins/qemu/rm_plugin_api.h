/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * rtosmeter's own declarations of the part of QEMU's TCG plugin API that
 * the rmcycles plugin calls, for the three API generations it is built for
 * (RM_PLUGIN_API, set by the Makefile, one .so each):
 *
 *   1  QEMU 4.2 .. 8.2 (plugin API 1): inline adds to a plain pointer
 *      (qemu_plugin_register_vcpu_insn_exec_inline), insn_data a pointer;
 *   2  QEMU 9.0 .. 10.x (plugin API 2 to 6): inline ops on per-vCPU
 *      scoreboards (..._inline_per_vcpu, qemu_plugin_u64), insn_data a
 *      copy; the v1 inline calls are gone (QEMU's minimum is 2);
 *   3  QEMU 11 (plugin API 7, its minimum too): as 2, and every callback
 *      takes the userdata it was registered with, in place of the plugin
 *      id (translation, exit and discontinuity callbacks here).
 *
 * Written from QEMU's public documentation ("QEMU TCG Plugins",
 * docs/devel/tcg-plugins.rst, and the API reference generated from
 * qemu-plugin.h): no QEMU header is installed by Debian and none is copied
 * here. The enum values and the qemu_info_t layout are the documented ABI.
 * Calls newer than a build's API (register reads, 9.0; discontinuity
 * callbacks, 10.1) are looked up at run time (api.c), so one build serves
 * every QEMU of its generation and says which features it found.
 */
#ifndef RM_PLUGIN_API_H
#define RM_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef RM_PLUGIN_API
#define RM_PLUGIN_API 1
#endif

#define RM_PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;

/* What QEMU tells the plugin at installation. */
typedef struct {
    const char *target_name; /* "arm" for qemu-system-arm */
    struct {
        int min; /* the oldest API version this QEMU loads */
        int cur; /* the API version this QEMU implements */
    } version;
    bool system_emulation;
    union {
        struct {
            int smp_vcpus;
            int max_vcpus;
        } system;
    };
} qemu_info_t;

struct qemu_plugin_tb;   /* opaque: a translation block being translated */
struct qemu_plugin_insn; /* opaque: one guest instruction of that block */

enum qemu_plugin_cb_flags {
    QEMU_PLUGIN_CB_NO_REGS, /* the callback reads no guest register */
    QEMU_PLUGIN_CB_R_REGS,
    QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_op {
    QEMU_PLUGIN_INLINE_ADD_U64, /* *ptr += imm, emitted as guest code */
};

typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);

/* Called by QEMU once, with the arguments of -plugin file.so,arg=...; a
 * non-zero return refuses the plugin (QEMU then exits). */
RM_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                         char **argv);

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);

size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void *qemu_plugin_insn_haddr(const struct qemu_plugin_insn *insn); /* host pointer */

void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
                                            qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void *userdata);

/* Memory access callbacks: after each access an instruction makes. */
typedef uint32_t qemu_plugin_meminfo_t;
enum qemu_plugin_mem_rw {
    QEMU_PLUGIN_MEM_R = 1,
    QEMU_PLUGIN_MEM_W,
    QEMU_PLUGIN_MEM_RW,
};
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
                                          uint64_t vaddr, void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw,
                                      void *userdata);

void qemu_plugin_outs(const char *string);

/* ---- the bridge (api.c): what the plugin's own files call ---- */

/* The counters the inline ops add to, one set per vCPU (TCG under -icount
 * runs one). */
typedef struct {
    uint64_t insns, cycles;
} rm_counts_t;

/* Checks this QEMU (the API range it loads, the calls this build needs) and
 * sets up the counters; false (with a message on stderr) refuses the plugin. */
bool rm_api_start(const qemu_info_t *info);
/* The plugin's own callbacks, in one shape whatever the API's. */
void rm_on_translate(qemu_plugin_id_t id, void (*fn)(struct qemu_plugin_tb *tb));
void rm_on_exit(qemu_plugin_id_t id, void (*fn)(void));
/* Every interrupt, exception and host call taken, between blocks
 * (discontinuity callbacks, QEMU 10.1 on); false where this QEMU has none. */
bool rm_on_interrupt(qemu_plugin_id_t id, void (*fn)(void));
/* vCPU 0's counters (zeros before QEMU has started it). */
rm_counts_t *rm_counts(void);
/* The same, looked up again: call at every translation (API 2: a vCPU's
 * scoreboard entry exists once it has started; abort if it moved). */
rm_counts_t *rm_counts_at_translation(void);
/* Emit `*counter += imm` (counter: a field of rm_counts()) before insn. */
void rm_inline_add(struct qemu_plugin_insn *insn, const uint64_t *counter, uint64_t imm);
/* The instruction's first bytes (up to 4; the rest zero). */
void rm_insn_bytes(const struct qemu_plugin_insn *insn, uint8_t out[4]);
/* The exception number a handler was entered for (IPSR), read from the
 * guest's xPSR in a callback registered with QEMU_PLUGIN_CB_R_REGS; -1 when
 * this QEMU cannot read registers (API 1). */
int rm_exception_number(void);
/* Whether rm_exception_number() can answer here. */
bool rm_can_read_ipsr(void);
/* The summary's "api" member: this build's API, QEMU's range, what it found. */
void rm_api_write(FILE *f);

#endif /* RM_PLUGIN_API_H */
