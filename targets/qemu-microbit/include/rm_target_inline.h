/* microbit (nRF51, Cortex-M0): the two calls that run inside measured
 * intervals, inline. The timestamp is TIMER0 at 16 MHz, read through its
 * CAPTURE[0] task into CC[0].
 *
 * With RM_TS_PLUGIN it is the rmcycles QEMU plugin's counter, as on the
 * MPS2 targets; ARMv6-M has no DBG, so the read marker is `hint #15`
 * (0xBFF0, an unallocated hint that executes as a NOP), and the counter
 * word sits at the end of the flash, the code's memory block (link.ld). */
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

#if defined(RM_TS_PLUGIN) && RM_TS_PLUGIN

extern volatile uint32_t rm_plugin_counter;

static inline uint32_t rm_ts(void)
{
    uint32_t t;
    __asm volatile(".inst.n 0xbff0\n\tldr %0, [%1]" : "=l"(t) : "l"(&rm_plugin_counter));
    return t;
}

#else

static inline uint32_t rm_ts(void)
{
    *(volatile uint32_t *)(uintptr_t)0x40008040u = 1u;       /* TASKS_CAPTURE[0] */
    return *(volatile uint32_t *)(uintptr_t)0x40008540u;     /* CC[0] */
}

#endif /* RM_TS_PLUGIN */

#endif /* RM_TARGET_INLINE_H */
