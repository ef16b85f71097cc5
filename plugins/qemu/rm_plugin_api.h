/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * rtosmeter's own declarations of the part of QEMU's TCG plugin API,
 * version 1 (QEMU 4.2 .. 7.2), that rmcycles.c uses. Written from QEMU's
 * public documentation ("QEMU TCG Plugins", docs/devel/tcg-plugins.rst, and
 * the API reference generated from it): no QEMU header is installed by
 * Debian and none is copied here. Only what this plugin calls is declared;
 * the enum values and the qemu_info_t layout are the documented ABI.
 */
#ifndef RM_PLUGIN_API_H
#define RM_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RM_PLUGIN_EXPORT __attribute__((visibility("default")))
#define RM_PLUGIN_API_VERSION 1 /* the version this file describes */

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

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

/* Called by QEMU once, with the arguments of -plugin file.so,arg=...; a
 * non-zero return refuses the plugin (QEMU then exits). */
RM_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                         char **argv);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb,
                                    void *userdata);

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);

const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void *qemu_plugin_insn_haddr(const struct qemu_plugin_insn *insn); /* host pointer */

void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
                                            qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
                                                enum qemu_plugin_op op, void *ptr, uint64_t imm);

void qemu_plugin_outs(const char *string);

#endif /* RM_PLUGIN_API_H */
