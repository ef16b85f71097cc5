/* Target layer for Zephyr's native_sim (target "host", ports/zephyr): the
 * two calls that run inside measured intervals, inline (target.h).
 *
 * - Timestamp: the kernel's cycle counter, k_cycle_get_32(), which on
 *   native_sim reads the simulated clock at CONFIG_SYS_CLOCK_HW_CYCLES_PER_SEC
 *   (1 MHz), scaled to ns so that RM_TS_HZ (the host target's 1 GHz) holds
 *   for the cases that derive expected times from it. Simulated time stands
 *   still while code runs (it advances only when the CPU idles), so no
 *   interval measures code: the port says so (CFG timing) and the harness
 *   shows no figure.
 * - Benchmark interrupt: a spare line of native_sim's interrupt controller,
 *   raised with posix_sw_set_pending_IRQ, which, like NVIC STIR, takes the
 *   interrupt before returning when it is enabled and not masked.
 */
#ifndef RM_TARGET_INLINE_H
#define RM_TARGET_INLINE_H

#include <stdint.h>

#include <zephyr/kernel.h>

/* native_sim uses lines 0-2 (timer tick, irq_offload, counter); 31 is free. */
#define RM_NSIM_BENCH_IRQ 31u
#define RM_NSIM_NS_PER_CYCLE (1000000000u / CONFIG_SYS_CLOCK_HW_CYCLES_PER_SEC)

BUILD_ASSERT(1000000000u % CONFIG_SYS_CLOCK_HW_CYCLES_PER_SEC == 0u,
             "ports/zephyr/native_sim: the cycle rate must divide 1 GHz");

void posix_sw_set_pending_IRQ(unsigned int IRQn); /* boards/posix/native_sim */

/* Modulo 2^32, cycles x N equals the 64-bit product's low word: no wrap error. */
static inline uint32_t rm_ts(void)
{
    return k_cycle_get_32() * RM_NSIM_NS_PER_CYCLE;
}

static inline void rm_target_irq_trigger(void)
{
    posix_sw_set_pending_IRQ(RM_NSIM_BENCH_IRQ);
}

#endif /* RM_TARGET_INLINE_H */
