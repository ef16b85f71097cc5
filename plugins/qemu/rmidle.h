/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * rmidle: idle figures for the rmcycles plugin (rmidle.c). */
#ifndef RMIDLE_H
#define RMIDLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rm_plugin_api.h"

/* idle=<icount shift>: returns false (with a message on stderr) when this
 * QEMU cannot be read as rmidle expects. */
bool rm_idle_init(unsigned shift);
/* Per translated block: WFI, DBG #1/#2 and block-start callbacks.
 * `n_insns` is the plugin's running instruction count. */
void rm_idle_translate(struct qemu_plugin_tb *tb, const uint64_t *n_insns);
/* The "idle" member of the plugin's JSON summary (nothing when off). */
void rm_idle_write(FILE *f);

#endif /* RMIDLE_H */
