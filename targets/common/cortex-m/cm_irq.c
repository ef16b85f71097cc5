/* The target's NVIC calls (cm.h) for a port that leaves the interrupt
 * controller to the target. A port whose kernel owns it declares so
 * (port.toml owns_nvic, RM_PORT_OWNS_NVIC) and defines rm_port_irq_enable/
 * disable instead; the target's calls then go there and this file is empty.
 */
#include "rm_build_config.h"

#if !(defined(RM_PORT_OWNS_NVIC) && RM_PORT_OWNS_NVIC)
#include <stdint.h>

#include "cm.h"

void rm_cm_irq_enable(unsigned irq, unsigned prio)
{
    /* Priority registers are byte-wide on v7-M, word-only on v6-M. */
#if RM_CM_V6M
    uint32_t shift = 8u * (irq & 3u);
    volatile uint32_t *ipr = (volatile uint32_t *)(uintptr_t)(RM_NVIC_IPR_BASE + 4u * (irq >> 2));
    *ipr = (*ipr & ~(0xFFu << shift)) | ((prio & 0xFFu) << shift);
#else
    *(volatile uint8_t *)(uintptr_t)(RM_NVIC_IPR_BASE + irq) = (uint8_t)prio;
#endif
    RM_NVIC_ICPR(irq >> 5) = 1u << (irq & 31u);
    RM_NVIC_ISER(irq >> 5) = 1u << (irq & 31u);
}

void rm_cm_irq_disable(unsigned irq)
{
    RM_NVIC_ICER(irq >> 5) = 1u << (irq & 31u);
    __asm volatile("dsb\n isb" ::: "memory");
}
#else
typedef int rm_cm_irq_not_built; /* ISO C wants a declaration in every file */
#endif
