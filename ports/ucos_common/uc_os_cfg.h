/* What the µC/OS-II and µC/OS-III os_cfg.h share (ports/ucos2 includes it
 * from here): the build's idle and profile, read by the kernel settings
 * that follow in each os_cfg.h and by port.c and app_hooks.c.
 *   RM_UC_IDLE_WFI   1: the kernel's idle hook executes WFI (the profile's
 *                    kernel idle, RM_IDLE_KERNEL, on Cortex-M)
 *   RM_UC_VENDOR     1: the "vendor" profile (port.cmake), the kernel's
 *                    template settings; RM_UC_ON_VENDOR the same as 0u/1u */
#ifndef RM_UC_OS_CFG_H
#define RM_UC_OS_CFG_H

#if __has_include("rm_build_config.h")
#include "rm_build_config.h"
#endif
#if defined(RM_IDLE_KERNEL) && defined(__arm__)
#define RM_UC_IDLE_WFI 1u
#else
#define RM_UC_IDLE_WFI 0u
#endif

#ifndef RM_UC_VENDOR
#define RM_UC_VENDOR 0
#endif
#if RM_UC_VENDOR
#define RM_UC_ON_VENDOR 1u
#else
#define RM_UC_ON_VENDOR 0u
#endif

#endif /* RM_UC_OS_CFG_H */
