/* What the µC/OS-II and µC/OS-III ports share in their port.c (as
 * uc_common.cmake is what they share in their port.cmake; ports/ucos2
 * reaches both here): the table sizes, the build strings' defaults, the
 * fatal stop of start-up, the sleep_until arithmetic on a relative delay
 * and the description lines that do not depend on the kernel. Each
 * kernel's API stays in its own port.c.
 *
 * Included by port.c after rtosmeter/bench.h and rtosmeter/port_slots.h;
 * set-up and cold paths only: nothing here is inside a measured interval. */
#ifndef RM_UC_COMMON_H
#define RM_UC_COMMON_H

#include <stdint.h>

#ifndef RM_CPU_HZ
#define RM_CPU_HZ RM_TS_HZ
#endif

/* Sizes: the Cortex-M0 target (micro:bit) has 16 KiB of RAM in all, so the
 * ARMv6-M build has 12 threads (the runner and 11: irq's 8 load tasks and
 * its measuring task fit, lat.thread.lifecycle's layouts of 15 and 20 other
 * threads do not) with small stacks, one pool of 4 blocks; the runner, which
 * writes most records and runs the no-switch bodies, has its own larger
 * stack. A build may override each with -D. */
#if defined(RM_RAM_SMALL)
#define RM_UC_DFLT_THREADS 12u
#define RM_UC_DFLT_STACK 320u
#define RM_UC_DFLT_RUNNER_STACK 1024u
#define RM_UC_DFLT_OBJS 8u
#define RM_UC_DFLT_POOLS 1u
#define RM_UC_DFLT_ARENA 512u
#else
#define RM_UC_DFLT_THREADS 28u
#define RM_UC_DFLT_STACK 2048u
#define RM_UC_DFLT_RUNNER_STACK 2048u
#define RM_UC_DFLT_OBJS 24u
#define RM_UC_DFLT_POOLS 4u
#define RM_UC_DFLT_ARENA 8192u
#endif
#ifndef RM_UC_MAX_THREADS
#define RM_UC_MAX_THREADS RM_UC_DFLT_THREADS
#endif
#ifndef RM_UC_STACK_BYTES
#define RM_UC_STACK_BYTES RM_UC_DFLT_STACK
#endif
#ifndef RM_UC_RUNNER_STACK_BYTES
#define RM_UC_RUNNER_STACK_BYTES RM_UC_DFLT_RUNNER_STACK
#endif
#ifndef RM_UC_MAX_OBJS
#define RM_UC_MAX_OBJS RM_UC_DFLT_OBJS
#endif
#ifndef RM_UC_MAX_POOLS
#define RM_UC_MAX_POOLS RM_UC_DFLT_POOLS
#endif
#ifndef RM_UC_POOL_ARENA
#define RM_UC_POOL_ARENA RM_UC_DFLT_ARENA
#endif

/* Set by port.cmake (uc_common.cmake's version and architecture). */
#ifndef RM_UC_VERSION_STR
#define RM_UC_VERSION_STR "?"
#endif
#ifndef RM_UC_ARCH_STR
#define RM_UC_ARCH_STR "?"
#endif

/* A start-up call failed: say which (FATAL: <call> failed) and stop. */
#define RM_UC_FATAL(call)                                                        \
    do {                                                                         \
        static const char rm_uc_msg_[] = "FATAL: " call " failed\n";             \
        rm_target_write(rm_uc_msg_, sizeof rm_uc_msg_ - 1u);                     \
        rm_target_exit(1);                                                       \
    } while (0)

/* sleep_until on the kernels' relative delay (neither has the absolute one
 * port.h asks for): moves *wake on by period and returns the ticks left
 * from `now`, 0 when the wake time has already passed (no sleep). */
static inline uint32_t rm_uc_ticks_left(uint32_t *wake, uint32_t period, uint32_t now)
{
    uint32_t target = *wake + period;
    uint32_t left = target - now;
    *wake = target;
    return left > period ? 0u : left; /* passed: left is "negative" */
}

/* The description lines both kernels share, around their own. */
static inline void rm_uc_describe_build(void)
{
    rm_emit_cfg("ucos.arch", RM_UC_ARCH_STR);
    rm_emit_cfg("kernel_profile", RM_UC_VENDOR ? "vendor" : "default");
    rm_emit_cfg("preemption", "on");
}

static inline void rm_uc_describe_optimisation(void)
{
#if defined(__OPTIMIZE_SIZE__)
    rm_emit_cfg("optimisation", "size (__OPTIMIZE_SIZE__)");
#elif defined(__OPTIMIZE__)
    rm_emit_cfg("optimisation", "on (__OPTIMIZE__)");
#else
    rm_emit_cfg("optimisation", "off");
#endif
}

#endif /* RM_UC_COMMON_H */
