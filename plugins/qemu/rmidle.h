/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * rmidle: idle figures for the rmcycles plugin (rmidle.c). */
#ifndef RMIDLE_H
#define RMIDLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rm_plugin_api.h"

/* idle=<icount shift> with idleclock=guard72|discon|none: false only for an
 * unknown clock name. A clock this QEMU cannot give becomes "none", with
 * its reason in the summary: idle never stops a run. */
bool rm_idle_init(qemu_plugin_id_t id, unsigned shift, const char *clock);
/* Per translated block: WFI, DBG #1/#2 and block-start callbacks. */
void rm_idle_translate(struct qemu_plugin_tb *tb);
/* The "idle" member of the plugin's JSON summary (nothing when off). */
void rm_idle_write(FILE *f);

#endif /* RMIDLE_H */
