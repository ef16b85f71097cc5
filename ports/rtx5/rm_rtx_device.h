/* RTX's CMSIS device header: the shared one of rtosmeter's Cortex-M targets
 * (targets/common/cortex-m/rm_cmsis_device.h) for the core port.cmake names
 * in RM_RTX_CORE (0, 3, 4 or 7, from the target's `cpu`). Only RTX and
 * os_systick.c include it (through RTE_Components.h). */
#ifndef RM_RTX_DEVICE_H
#define RM_RTX_DEVICE_H

#define RM_CMSIS_CORE RM_RTX_CORE
#include "../../targets/common/cortex-m/rm_cmsis_device.h"

/* The CPU clock SysTick counts (os_systick.c); defined in port.c. */
extern uint32_t SystemCoreClock;

#endif /* RM_RTX_DEVICE_H */
