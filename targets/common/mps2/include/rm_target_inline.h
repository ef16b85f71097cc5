/* MPS2 targets: the two calls that run inside measured intervals, inline.
 * The timestamp is CMSDK TIMER1 (a 25 MHz down-counter) read inverted, so
 * it counts up; the difference of two reads is one subtraction. */
#ifndef RM_TARGET_INLINE_H
#define RM_TARGET_INLINE_H

#include <stdint.h>

#include "rm_cm_trigger.h"

#define RM_MPS2_TIMER1_VALUE (*(volatile uint32_t *)(uintptr_t)0x40001004u)

static inline uint32_t rm_ts(void)
{
    uint32_t t = ~RM_MPS2_TIMER1_VALUE;
    /* The inversion happens here, next to the read: left to the compiler,
     * it may sink into the next measured interval. */
    __asm volatile("" : "+r"(t));
    return t;
}

#endif /* RM_TARGET_INLINE_H */
