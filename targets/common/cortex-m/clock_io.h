/* Register access for the boards' clock set-up (targets/<board>/clock.c).
 *
 * On the chip these are plain volatile accesses. Built with RM_CLOCK_HOST
 * (tests/clock_host), they call a register model instead, so a host test
 * runs the very same sequence and checks every value it writes.
 *
 * Every wait on a ready flag is bounded: after RM_CLOCK_POLLS reads the
 * flag's name goes to rm_clock_fail(), which reports it through the target's
 * output and ends the run, instead of hanging before main.
 */
#ifndef RM_CLOCK_IO_H
#define RM_CLOCK_IO_H

#include <stdint.h>

#ifdef RM_CLOCK_HOST
uint32_t rm_clk_rd(uint32_t addr, unsigned bytes);
void rm_clk_wr(uint32_t addr, uint32_t value, unsigned bytes);
#define RM_CLK_RD32(a) rm_clk_rd((a), 4u)
#define RM_CLK_WR32(a, v) rm_clk_wr((a), (uint32_t)(v), 4u)
#define RM_CLK_RD8(a) ((uint8_t)rm_clk_rd((a), 1u))
#define RM_CLK_WR8(a, v) rm_clk_wr((a), (uint8_t)(v), 1u)
#else
#define RM_CLK_RD32(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define RM_CLK_WR32(a, v) (*(volatile uint32_t *)(uintptr_t)(a) = (uint32_t)(v))
#define RM_CLK_RD8(a) (*(volatile uint8_t *)(uintptr_t)(a))
#define RM_CLK_WR8(a, v) (*(volatile uint8_t *)(uintptr_t)(a) = (uint8_t)(v))
#endif

/* Reads of a ready flag before giving up: at the reset clocks (2-21 MHz) a
 * few hundred ms, well past the slowest start-up the data sheets give (the
 * STM32F4's HSE_STARTUP_TIMEOUT is 100 ms; the nRF52840's HFXO 0.36 ms). */
#ifndef RM_CLOCK_POLLS
#define RM_CLOCK_POLLS 1000000u
#endif

/* Report that `what` never became ready and end the run (clock_fail.c). */
_Noreturn void rm_clock_fail(const char *what);

/* Wait until (register & mask) == want; the register is `bytes` wide. */
static inline void rm_clock_wait(uint32_t addr, uint32_t mask, uint32_t want, unsigned bytes,
                                 const char *what)
{
    for (uint32_t i = 0; i < RM_CLOCK_POLLS; i++) {
        uint32_t v = bytes == 1u ? RM_CLK_RD8(addr) : RM_CLK_RD32(addr);
        if ((v & mask) == want)
            return;
    }
    rm_clock_fail(what);
}

/* Set then read back a field that must hold before going faster (an
 * STM32's flash LATENCY: RM0351 3.3.3, RM0090 3.5.1, RM0367 3.7.1). */
static inline void rm_clock_write_verify(uint32_t addr, uint32_t mask, uint32_t value,
                                         const char *what)
{
    RM_CLK_WR32(addr, (RM_CLK_RD32(addr) & ~mask) | value);
    rm_clock_wait(addr, mask, value, 4u, what);
}

#endif /* RM_CLOCK_IO_H */
