/* RIOT CPU mps2: the CMSIS device description of QEMU's MPS2 machines (no
 * vendor header exists for them): 32 external interrupts, 3 priority bits,
 * the core header of the board's CPU_CORE. */
#ifndef CPU_CONF_H
#define CPU_CONF_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CPU_CORE_CORTEX_M3)
#define RM_CMSIS_CORE 3
#elif defined(CPU_CORE_CORTEX_M4F)
#define RM_CMSIS_CORE 4
#elif defined(CPU_CORE_CORTEX_M7)
#define RM_CMSIS_CORE 7
#else
#error "cpu mps2: the board's CPU_CORE must be cortex-m3, cortex-m4f or cortex-m7"
#endif
/* rtosmeter's shared CMSIS device header (targets/common/cortex-m, on the
 * include path of the port's builds). */
#include "rm_cmsis_device.h"

#include "cpu_conf_common.h"

#define CPU_DEFAULT_IRQ_PRIO (1U)
#define CPU_IRQ_NUMOF (32U)
#define CPU_FLASH_BASE (0x00000000U)

/* The CMSDK peripherals' clock (QEMU models every MPS2 clock at 25 MHz). */
#define MPS2_PCLK_HZ (25000000U)

#ifdef __cplusplus
}
#endif

#endif /* CPU_CONF_H */
