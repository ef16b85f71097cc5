/* The benchmark interrupt's trigger for every Cortex-M target, inline so
 * that "trigger until handler" holds one store to the interrupt controller
 * and the barriers: NVIC STIR on v7-M, ISPR on v6-M (which has no STIR).
 * RM_CM_BENCH_IRQ comes from the target's target.cmake (DEFINES). */
#ifndef RM_CM_TRIGGER_H
#define RM_CM_TRIGGER_H

#include <stdint.h>

#ifndef RM_CM_BENCH_IRQ
#error "RM_CM_BENCH_IRQ must be set by the target's target.cmake (rm_cortex_m_target DEFINES)"
#endif

static inline void rm_target_irq_trigger(void)
{
#if defined(__ARM_ARCH_6M__)
    *(volatile uint32_t *)(uintptr_t)(0xE000E200u + 4u * (RM_CM_BENCH_IRQ >> 5)) =
        1u << (RM_CM_BENCH_IRQ & 31u);
#else
    *(volatile uint32_t *)(uintptr_t)0xE000EF00u = RM_CM_BENCH_IRQ;
#endif
    /* The interrupt is taken before the next instruction completes. */
    __asm volatile("dsb\n isb" ::: "memory");
}

#endif /* RM_CM_TRIGGER_H */
