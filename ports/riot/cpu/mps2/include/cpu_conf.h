/* RIOT CPU mps2: the CMSIS device description of QEMU's MPS2 machines (no
 * vendor header exists for them): 32 external interrupts, 3 priority bits,
 * the core header of the board's CPU_CORE. */
#ifndef CPU_CONF_H
#define CPU_CONF_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    NonMaskableInt_IRQn = -14,
    HardFault_IRQn = -13,
    MemoryManagement_IRQn = -12,
    BusFault_IRQn = -11,
    UsageFault_IRQn = -10,
    SVCall_IRQn = -5,
    DebugMonitor_IRQn = -4,
    PendSV_IRQn = -2,
    SysTick_IRQn = -1,
    UART0RX_IRQn = 0,
    TIMER0_IRQn = 8,
    TIMER1_IRQn = 9,
    DUALTIMER_IRQn = 10,
    IRQ31_IRQn = 31,
} IRQn_Type;

#define __NVIC_PRIO_BITS 3U
#define __Vendor_SysTickConfig 0U
#define __MPU_PRESENT 0U
#define __VTOR_PRESENT 1U

#if defined(CPU_CORE_CORTEX_M3)
#define __CM3_REV 0x0201U
#include "core_cm3.h"
#elif defined(CPU_CORE_CORTEX_M4F)
#define __CM4_REV 0x0001U
#define __FPU_PRESENT 1U
#include "core_cm4.h"
#elif defined(CPU_CORE_CORTEX_M7)
#define __CM7_REV 0x0000U
#define __FPU_PRESENT 1U
#define __ICACHE_PRESENT 0U
#define __DCACHE_PRESENT 0U
#define __DTCM_PRESENT 0U
#include "core_cm7.h"
#else
#error "cpu mps2: the board's CPU_CORE must be cortex-m3, cortex-m4f or cortex-m7"
#endif

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
