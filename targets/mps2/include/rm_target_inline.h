/* MPS2 targets: the two calls that run inside measured intervals, inline.
 * The timestamp is CMSDK TIMER1 (a 25 MHz down-counter) read inverted, so
 * it counts up; the difference of two reads is one subtraction.
 *
 * With RM_TS_PLUGIN (set in rm_build_config.h by the harness when QEMU runs
 * the rmcycles plugin, plugins/qemu/) the timestamp is the plugin's counter
 * instead, exact instructions or estimated cycles: `dbg #0` (a no-op hint)
 * makes the plugin store its running count into rm_plugin_counter, a NOLOAD
 * word in the code's RAM block (mps2.ld), which the next instruction loads. */
#ifndef RM_TARGET_INLINE_H
#define RM_TARGET_INLINE_H

#include <stdint.h>

#include "rm_cm_trigger.h"

/* RM_TS_PLUGIN must mean the same in every file that reads the timestamp. */
#if defined(__has_include)
#if __has_include("rm_build_config.h")
#include "rm_build_config.h"
#endif
#endif

#define RM_MPS2_TIMER1_VALUE (*(volatile uint32_t *)(uintptr_t)0x40001004u)

#if defined(RM_TS_PLUGIN) && RM_TS_PLUGIN

extern volatile uint32_t rm_plugin_counter;

static inline uint32_t rm_ts(void)
{
    uint32_t t;
    __asm volatile("dbg #0\n\tldr %0, [%1]" : "=r"(t) : "r"(&rm_plugin_counter));
    return t;
}

#else

static inline uint32_t rm_ts(void)
{
    uint32_t t = ~RM_MPS2_TIMER1_VALUE;
    /* The inversion happens here, next to the read: left to the compiler,
     * it may sink into the next measured interval. */
    __asm volatile("" : "+r"(t));
    return t;
}

#endif /* RM_TS_PLUGIN */

#endif /* RM_TARGET_INLINE_H */
