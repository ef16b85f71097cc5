/* rtimer of rtosmeter's MPS2 platform: the target's timestamp counter. */
#ifndef RM_MPS2_RTIMER_ARCH_H
#define RM_MPS2_RTIMER_ARCH_H

#include "rm_build_config.h"

#define RTIMER_ARCH_SECOND (RM_TS_HZ)

rtimer_clock_t rtimer_arch_now(void);

#endif /* RM_MPS2_RTIMER_ARCH_H */
