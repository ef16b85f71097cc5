/* app_cfg.h for rtosmeter's µC/OS-II port (rtosmeter's own file): what the
 * kernel and its Cortex-M port expect from the application.
 *
 * - CPU_CFG_KA_IPL_BOUNDARY / CPU_CFG_NVIC_PRIO_BITS (ARMv7-M port): the
 *   kernel's critical sections set BASEPRI to KA_IPL_BOUNDARY <<
 *   (8 - PRIO_BITS) = 4 << 5 = 0x80, written for 3 implemented priority bits
 *   (MPS2 silicon; QEMU implements 8, which accepts the same values). Every
 *   interrupt at 0x80..0xFF is kernel aware: the targets put the benchmark
 *   interrupt at 0xC0 and the periodic timer at 0x80; the port puts SysTick
 *   at 0x80 and PendSV at 0xFF. The ARMv6-M port masks with PRIMASK.
 * - OS_TASK_TMR_PRIO: the timer task (vendor profile only) just above the
 *   statistics task, below every rtosmeter thread.
 */
#ifndef APP_CFG_H
#define APP_CFG_H

#define CPU_CFG_KA_IPL_BOUNDARY 4u
#define CPU_CFG_NVIC_PRIO_BITS 3u

#define OS_TASK_TMR_PRIO (OS_LOWEST_PRIO - 2u)

/* The exception (MSP) stack the Cortex-M ports switch to in OSStartHighRdy:
 * port.c points OS_CPU_ExceptStkBase at the target's main stack (the reset
 * MSP, free once OSStart has run), so the kernel's own array is minimal. */
#define OS_CPU_EXCEPT_STK_SIZE 8u

#endif /* APP_CFG_H */
