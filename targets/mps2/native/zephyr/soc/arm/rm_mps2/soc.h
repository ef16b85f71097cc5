/* rtosmeter's MPS2 AN386/AN500 SoC: the CMSIS core settings of QEMU's
 * Cortex-M4F / M7 (FPU and MPU present; QEMU models no M7 caches). */
#ifndef RM_MPS2_SOC_H
#define RM_MPS2_SOC_H

#define __MPU_PRESENT 1
#define __FPU_PRESENT 1
#if defined(CONFIG_CPU_CORTEX_M7)
#define __ICACHE_PRESENT 0
#define __DCACHE_PRESENT 0
#define __DTCM_PRESENT 0
#endif

#endif
