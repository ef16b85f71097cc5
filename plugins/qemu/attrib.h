/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
 *
 * Per-function attribution of every measured interval (attrib.c), enabled
 * by the plugin arguments funcs=<map> and attrib=<out>. rmcycles.c calls
 * these hooks; without those arguments it calls none but attrib_arg and
 * attrib_enabled, so a run without attribution costs nothing extra.
 */
#ifndef RM_ATTRIB_H
#define RM_ATTRIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rm_plugin_api.h"

/* An argument key=value: 1 if it is attribution's, 0 if not, -1 if its
 * value is bad (the message is on stderr). */
int attrib_arg(const char *key, size_t klen, const char *value);

/* After the arguments: reads the function map; `cycles`: the plugin counts
 * estimated cycles too (rm_counts()). False (message on stderr) when the
 * arguments or the map are wrong. */
bool attrib_start(bool cycles);

bool attrib_enabled(void);

/* At the start of the translation of every block, before rmcycles registers
 * its own callbacks (so attribution settles a block before rmcycles adds
 * the next one's costs). */
void attrib_translate(struct qemu_plugin_tb *tb);

/* At every counter read (the DBG marker at guest address `site`), with the
 * counts as the firmware reads them. */
void attrib_read(uint32_t site);

/* At exit: writes the attribution file. */
void attrib_exit(void);

#endif /* RM_ATTRIB_H */
