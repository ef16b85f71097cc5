/* cpu_cfg.h for rtosmeter's µC/OS-III port (rtosmeter's own file): the
 * uC-CPU features the kernel needs, as uC-CPU's template sets them (host
 * name, timestamps, interrupts-disabled measurement, cache management off),
 * with the two values the template leaves to the application:
 * - CPU_CFG_KA_IPL_BOUNDARY 4 and CPU_CFG_NVIC_PRIO_BITS 3 (the template
 *   has the latter inside `#if 0`): critical sections set BASEPRI to
 *   4 << 5 = 0x80 on ARMv7-M, written for the 3 priority bits of MPS2
 *   silicon (QEMU implements 8 and accepts the same values). Interrupts at
 *   0x80..0xFF are kernel aware: the targets' benchmark interrupt (0xC0)
 *   and periodic timer (0x80), SysTick (0x80, set by the port), PendSV
 *   (0xFF). ARMv6-M masks with PRIMASK.
 * Leading-zero counting: the uC-CPU port's cpu.h decides (assembly CLZ on
 * ARMv7-M, C on ARMv6-M).
 */
#ifndef CPU_CFG_MODULE_PRESENT
#define CPU_CFG_MODULE_PRESENT

#define CPU_CFG_NAME_EN DEF_DISABLED
#define CPU_CFG_NAME_SIZE 16
#define CPU_CFG_TS_32_EN DEF_DISABLED
#define CPU_CFG_TS_64_EN DEF_DISABLED
#define CPU_CFG_TS_TMR_SIZE CPU_WORD_SIZE_32
#define CPU_CFG_INT_DIS_MEAS_OVRHD_NBR 1u
#define CPU_CFG_CACHE_MGMT_EN DEF_DISABLED
#define CPU_CFG_KA_IPL_BOUNDARY 4u
#define CPU_CFG_NVIC_PRIO_BITS 3u

#endif /* CPU_CFG_MODULE_PRESENT */
