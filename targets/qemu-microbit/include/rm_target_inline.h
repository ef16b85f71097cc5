/* microbit (nRF51, Cortex-M0): the two calls that run inside measured
 * intervals, inline. The timestamp is TIMER0 at 16 MHz, read through its
 * CAPTURE[0] task into CC[0]. */
#ifndef RM_TARGET_INLINE_H
#define RM_TARGET_INLINE_H

#include <stdint.h>

#include "rm_cm_trigger.h"

static inline uint32_t rm_ts(void)
{
    *(volatile uint32_t *)(uintptr_t)0x40008040u = 1u;       /* TASKS_CAPTURE[0] */
    return *(volatile uint32_t *)(uintptr_t)0x40008540u;     /* CC[0] */
}

#endif /* RM_TARGET_INLINE_H */
