/* A minimal CMSIS device header for rtosmeter's Cortex-M targets, for the
 * ports whose RTOS needs one (CMSIS ships the core headers, not the ARMCMx
 * device headers): the exception numbers, the core's options and the CMSIS
 * core header of the CPU. The includer defines RM_CMSIS_CORE (0, 3, 4 or 7);
 * __ARM_FP tells whether the build uses the FPU. Used by ports/rtx5
 * (rm_rtx_device.h) and RIOT's CPU mps2 (targets/mps2/native/riot/cpu/mps2/include/cpu_conf.h). */
#ifndef RM_CMSIS_DEVICE_H
#define RM_CMSIS_DEVICE_H

#include <stdint.h>

typedef enum IRQn {
    NonMaskableInt_IRQn = -14,
    HardFault_IRQn = -13,
    MemoryManagement_IRQn = -12,
    BusFault_IRQn = -11,
    UsageFault_IRQn = -10,
    SVCall_IRQn = -5,
    DebugMonitor_IRQn = -4,
    PendSV_IRQn = -2,
    SysTick_IRQn = -1,
    RM_Device_IRQ0 = 0,
} IRQn_Type;

#define __MPU_PRESENT 0U
#define __Vendor_SysTickConfig 0U
#define __VTOR_PRESENT 1U

#if RM_CMSIS_CORE == 0
#define __CM0_REV 0x0000U
#define __NVIC_PRIO_BITS 2U
#include "core_cm0.h"
#elif RM_CMSIS_CORE == 3
#define __CM3_REV 0x0201U
#define __NVIC_PRIO_BITS 3U
#include "core_cm3.h"
#elif RM_CMSIS_CORE == 4
#define __CM4_REV 0x0001U
#define __NVIC_PRIO_BITS 3U
#if defined(__ARM_FP)
#define __FPU_PRESENT 1U
#else
#define __FPU_PRESENT 0U
#endif
#include "core_cm4.h"
#elif RM_CMSIS_CORE == 7
#define __CM7_REV 0x0102U
#define __NVIC_PRIO_BITS 3U
#define __ICACHE_PRESENT 0U
#define __DCACHE_PRESENT 0U
#define __DTCM_PRESENT 0U
#if defined(__ARM_FP)
#define __FPU_PRESENT 1U
#define __FPU_DP 1U
#else
#define __FPU_PRESENT 0U
#endif
#include "core_cm7.h"
#else
#error "RM_CMSIS_CORE must be 0, 3, 4 or 7 (set by the including header)"
#endif

#endif /* RM_CMSIS_DEVICE_H */
