/* lwIP's compiler/platform header (lwip/arch.h includes "arch/cc.h") for
 * rtosmeter's lwIP builds under the net-* loads (../lwip.cmake).
 * arch.h's defaults hold for GCC on Cortex-M (little-endian, <stdint.h>,
 * newlib's errno), except that its diagnostics would printf onto the result
 * stream: an lwIP assertion ends the run instead, naming itself. */
#ifndef RM_LWIP_ARCH_CC_H
#define RM_LWIP_ARCH_CC_H

#define LWIP_ERRNO_STDINCLUDE 1 /* newlib's errno.h (no lwIP errno) */

void rm_lwip_assert(const char *msg, const char *file, int line);
#define LWIP_PLATFORM_ASSERT(x) rm_lwip_assert((x), __FILE__, __LINE__)
#define LWIP_PLATFORM_DIAG(x) do { } while (0) /* debug output is off (opt.h) */

#endif /* RM_LWIP_ARCH_CC_H */
