/* Shared Cortex-M target support: core registers (SCB, NVIC, DWT), semihosting
 * and the hooks a Cortex-M target implements. No RTOS code here: ports bring
 * their own PendSV/SVC/SysTick handlers by name (see startup.c).
 */
#ifndef RM_CORTEX_M_H
#define RM_CORTEX_M_H

#include <stdint.h>

#include "rm_build_config.h" /* RM_PORT_OWNS_NVIC */
#include "rtosmeter/target.h"

#define RM_REG(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* System control block and NVIC (architectural addresses, all M profiles). */
#define RM_SCB_CPACR RM_REG(0xE000ED88u)
#define RM_SCB_CFSR RM_REG(0xE000ED28u)
#define RM_SCB_HFSR RM_REG(0xE000ED2Cu)
#define RM_SCB_MMFAR RM_REG(0xE000ED34u)
#define RM_SCB_BFAR RM_REG(0xE000ED38u)
#define RM_SCB_SHCSR RM_REG(0xE000ED24u)
#define RM_SCB_VTOR RM_REG(0xE000ED08u)
#define RM_SCB_DEMCR RM_REG(0xE000EDFCu)
#define RM_NVIC_ISER(n) RM_REG(0xE000E100u + 4u * (n))
#define RM_NVIC_ICER(n) RM_REG(0xE000E180u + 4u * (n))
#define RM_NVIC_ISPR(n) RM_REG(0xE000E200u + 4u * (n))
#define RM_NVIC_ICPR(n) RM_REG(0xE000E280u + 4u * (n))
#define RM_NVIC_IPR_BASE 0xE000E400u
#define RM_NVIC_STIR RM_REG(0xE000EF00u)
#define RM_DWT_CTRL RM_REG(0xE0001000u)
#define RM_DWT_CYCCNT RM_REG(0xE0001004u)
#define RM_DWT_LAR RM_REG(0xE0001FB0u)

#if defined(__ARM_ARCH_6M__)
#define RM_CM_V6M 1 /* Cortex-M0/M0+: no STIR, no CFSR, no DWT cycle counter */
#else
#define RM_CM_V6M 0
#endif

/* Enable an external interrupt at a priority (0 = most urgent); disable one.
 * Who writes the NVIC is declared, not replaced at link time: a port whose
 * kernel owns the interrupt controller says `owns_nvic = true` in port.toml,
 * the harness then defines RM_PORT_OWNS_NVIC in rm_build_config.h, and the
 * target's calls go to the port's rm_port_irq_enable/disable (its port.c).
 * Every other port gets the plain NVIC writes of cm_irq.c. */
#if defined(RM_PORT_OWNS_NVIC) && RM_PORT_OWNS_NVIC
void rm_port_irq_enable(unsigned irq, unsigned prio);
void rm_port_irq_disable(unsigned irq);
#define rm_cm_irq_enable rm_port_irq_enable
#define rm_cm_irq_disable rm_port_irq_disable
#else
void rm_cm_irq_enable(unsigned irq, unsigned prio);
void rm_cm_irq_disable(unsigned irq);
#endif

/* Semihosting (BKPT 0xAB): QEMU with -semihosting-config enable=on, and
 * pyOCD/OpenOCD on boards. */
int rm_cm_semihost(int op, const void *arg);
void rm_cm_semihost_write(const char *s, uint32_t n);
_Noreturn void rm_cm_semihost_exit(int status);

/* The result stream through a SEGGER RTT up-buffer (rtt.c, built with
 * RM_STREAM_RTT): blocks while the buffer is full. */
void rm_cm_rtt_write(const char *s, uint32_t n);

/* DWT cycle counter (v7-M and later; absent on v6-M, reads 0 on QEMU). */
void rm_cm_dwt_start(void);

/* The optional periodic interrupt (rm_target_periodic_start/stop) is declared
 * in rtosmeter/target.h; a target with a spare timer implements it and routes
 * the timer's vector to RM_Periodic_IRQHandler (startup.c). */

#endif /* RM_CORTEX_M_H */
