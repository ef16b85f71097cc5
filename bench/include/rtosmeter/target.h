/* rtosmeter target layer: what a machine (QEMU model, board, host) provides.
 *
 * A target (targets/<name>/) implements these with no RTOS code: start-up,
 * console, the free-running timestamp counter, the benchmark interrupt line,
 * fault reporting and exit. The timestamp's name, unit and frequency come
 * from the generated rm_build_config.h (RM_TS_NAME, RM_TS_UNIT, RM_TS_HZ),
 * which the harness writes from targets/<name>/target.toml.
 */
#ifndef RTOSMETER_TARGET_H
#define RTOSMETER_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A target MAY define rm_ts() and rm_target_irq_trigger() (the two calls
 * that run inside measured intervals) static inline in rm_target_inline.h,
 * in a folder its target.cmake adds to RM_TARGET_INCLUDE_DIRS; the
 * prototypes below then refer to those definitions (see port.h). */
#if defined(__has_include)
#if __has_include("rm_target_inline.h")
#include "rm_target_inline.h"
#endif
#endif

/* Clocks, console, timestamp counter; leaves SysTick to the kernel. */
void rm_target_init(void);

/* Free-running up-counter; wraps modulo 2^32; intervals are end - start. */
uint32_t rm_ts(void);

/* Console output for the result stream; blocking, no buffering required. */
void rm_target_write(const char *s, size_t n);

/* Pend the benchmark interrupt (NVIC STIR on Cortex-M). When called from
 * thread mode with the interrupt enabled, the handler MUST have run before
 * this returns: the cases time "trigger until handler" and check that it
 * did. On hardware a write to STIR (or ISPR) takes effect a few cycles
 * later, so follow it with DSB and ISB; QEMU takes the exception at once,
 * which hides a missing barrier. */
void rm_target_irq_trigger(void);

/* Make isr the benchmark interrupt's vector (a RAM vector table where the
 * core has VTOR; a one-jump trampoline through a RAM pointer where it has
 * not, as on the Cortex-M0). isr is an ordinary C function: the hardware
 * saves what the C calling convention needs. NULL: back to the default
 * (a handler that does nothing). */
void rm_target_irq_set_vector(void (*isr)(void));

/* End the program with a status (semihosting SYS_EXIT on QEMU, exit() on
 * the host, a breakpoint loop on a board). */
_Noreturn void rm_target_exit(int status);

/* Optional: a periodic interrupt every `period_ticks` of the timestamp
 * counter (rm_ts), calling fn in handler mode until stopped. irq.max_rate
 * raises it at rising rates, and tm.basic uses it as the reporter on ports
 * without threads (bare metal). fn may call rm_target_periodic_stop(). A
 * target without a spare timer leaves both out: the core's weak defaults
 * make start return RM_ENOTSUP (-2, port.h) and the cases that need it
 * report unsupported. start returns 0, or a negative code when the period
 * cannot be set (below 2 ticks, or more than the timer holds). */
typedef void (*rm_periodic_fn_t)(void);
int rm_target_periodic_start(uint32_t period_ticks, rm_periodic_fn_t fn);
void rm_target_periodic_stop(void);

/* Optional: a second periodic interrupt, `hz` times a second of the target's
 * time (virtual time under QEMU -icount), for the load profiles
 * (bench/core/load.c), so that a loaded case may still use the one above.
 * Same contract; without it the irq-driven profiles are unsupported. */
int rm_target_load_timer_start(uint32_t hz, rm_periodic_fn_t fn);
void rm_target_load_timer_stop(void);

/* Optional: a free-running up-counter of the target's own time (virtual
 * time under QEMU -icount) at rm_target_vtime_hz() Hz (0: the target has
 * none), for when the timestamp is not a clock (--unit cycles, RM_TS_IS_TIME
 * 0): the periodic timer and the kernel's tick still run in that time, so a
 * case that counts a timer's expiries (irq.max_rate) counts them in it, and
 * gives its rates in estimated time from the cycle counter
 * (rm_case_util.h). Never read inside a measured interval. */
uint32_t rm_target_vtime(void);
uint32_t rm_target_vtime_hz(void);

/* Optional: the clocks as the firmware found or set them, read from the
 * clock tree it configured (not copied from target.toml): the timestamp
 * counter's rate and the core clock in Hz, 0 where the target cannot tell.
 * The runner reports them as CFG ts_hz / cpu_hz; the harness converts counts
 * to time with ts_hz and warns when target.toml says otherwise
 * (docs/protocol.md). Called once, after rm_target_init(). */
uint32_t rm_target_ts_hz(void);
uint32_t rm_target_cpu_hz(void);

/* Optional: the flash wait states the firmware's clock set-up programmed,
 * read back from the flash controller (an STM32's FLASH_ACR LATENCY). A
 * target whose chip has such a setting defines RM_TARGET_FLASH_WS (its
 * target.cmake) and this function; the runner then reports it as CFG
 * flash_ws (docs/protocol.md). Other targets spend no code on it. */
uint32_t rm_target_flash_ws(void);

/* The case marker: a GPIO the runner drives high when a case starts to run
 * and low when it ends, so that a power analyser's digital input sees one
 * pulse per case (docs/energy.md). Called at case boundaries only, outside
 * every measured interval. A board that has one defines RM_TARGET_CASE_MARKER
 * (its target.cmake) and the function, and names the pin in target.toml
 * [power] marker_pin; elsewhere (QEMU, host) it is an empty inline: no code. */
#ifdef RM_TARGET_CASE_MARKER
void rm_target_case_marker(bool on);
#else
static inline void rm_target_case_marker(bool on)
{
    (void)on;
}
#endif

#endif /* RTOSMETER_TARGET_H */
