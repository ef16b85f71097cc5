/* Real Cortex-M boards: the calls that run inside measured intervals,
 * inline. The timestamp is the DWT cycle counter on v7-M; a v6-M board has
 * none and reads a chip timer in its own rm_board_ts() (board.c). */
#ifndef RM_TARGET_INLINE_H
#define RM_TARGET_INLINE_H

#include <stdint.h>

#include "rm_cm_trigger.h"

#if !defined(__ARM_ARCH_6M__)
static inline uint32_t rm_ts(void)
{
    return *(volatile uint32_t *)(uintptr_t)0xE0001004u; /* DWT CYCCNT */
}
#endif

#endif /* RM_TARGET_INLINE_H */
