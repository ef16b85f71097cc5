/* Group "calib_flash": kernels for `rtosmeter calibrate` (rtosmeter/
 * calibrate.py), code whose cost is the flash memory system's, not the
 * kernel's. Each interval is one asm statement between two timestamps.
 * calib.flash straight: 4 KiB of straight-line NOPs, more than any board's
 *   instruction cache: every line comes from the flash, in order (what a
 *   prefetch buffer hides).
 * calib.flash jumps: 64 branches 128 bytes apart (8 KiB): every target is a
 *   line the cache evicted (128-byte strides fall in the same few sets), and
 *   no prefetch reads it ahead (what the wait states alone decide).
 * calib.flash divide: 8 dependent unsigned divides (ARMv7-M; the divide's
 *   data-dependent cycles). */
#include "rm_case_util.h"

#if defined(__thumb__)

#define STRAIGHT ".rept 2048\n nop\n .endr"
#define JUMPS ".rept 64\n b 1f\n .space 126\n 1:\n .endr"

/* The code runs as a call of its own (a BL and a BX LR more in the interval,
 * the same on every sample): kept apart from the caller's literal pool. */
__attribute__((naked, noinline, aligned(16))) static void straight_code(void)
{
    __asm volatile(STRAIGHT "\n bx lr");
}

__attribute__((naked, noinline, aligned(16))) static void jumps_code(void)
{
    __asm volatile(JUMPS "\n bx lr");
}

static uint32_t timed_straight(void)
{
    uint32_t t0 = rm_ts();
    straight_code();
    return rm_ts() - t0;
}

static uint32_t timed_jumps(void)
{
    uint32_t t0 = rm_ts();
    jumps_code();
    return rm_ts() - t0;
}

#if defined(__ARM_FEATURE_IDIV) && __ARM_FEATURE_IDIV
static uint32_t timed_divide(void)
{
    uint32_t x = 0xFFFFFFFFu, d = 3u;
    uint32_t t0 = rm_ts();
    __asm volatile(".rept 8\n udiv %0, %0, %1\n .endr" : "+r"(x) : "r"(d));
    uint32_t t1 = rm_ts();
    __asm volatile("" ::"r"(x));
    return t1 - t0;
}
#endif

static void record(const char *name, const char *what, uint32_t (*fn)(void))
{
    rm_series_t s;
    rm_series_open(&s, name, what);
    for (uint32_t i = 0; i < (uint32_t)(RM_SAMPLES); i++) {
        rm_series_add(&s, fn());
    }
    rm_series_close(&s);
}

static void run_flash(const rm_case_t *c)
{
    (void)c;
    record("straight", "4 KiB of straight-line code from the flash", timed_straight);
    record("jumps", "64 branches to lines the cache evicted", timed_jumps);
#if defined(__ARM_FEATURE_IDIV) && __ARM_FEATURE_IDIV
    record("divide", "8 dependent UDIV", timed_divide);
#endif
}

#else

static void run_flash(const rm_case_t *c)
{
    (void)c;
    rm_unsupported("the flash kernels are Thumb code (Cortex-M targets)");
}

#endif

RM_CASE(calib_flash, "calib.flash", 0, run_flash, NULL);
