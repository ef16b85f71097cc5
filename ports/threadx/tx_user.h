/* ThreadX configuration for rtosmeter (TX_USER_FILE of the kernel build).
 *
 * port.cmake defines RM_TX_PROFILE_VENDOR=1 for the "vendor" profile (the
 * kernel as ThreadX ships it: error checking on, 100 Hz tick, timer
 * thread, notify callbacks, preemption threshold) and RM_TX_PROFILE_VENDOR=0
 * for every other profile, which gets the benchmark configuration of
 * docs/benchmarks.md "Fairness rules": argument checking, notify callbacks, stack
 * filling/checking and tracing off, 1000 Hz tick. Time slicing is off in both
 * (port.c creates every thread with TX_NO_TIME_SLICE). The port emits each of
 * these settings as a CFG line (rm_port_describe), so a run records them.
 */
#ifndef RM_TX_USER_H
#define RM_TX_USER_H

#ifndef RM_TX_PROFILE_VENDOR
#define RM_TX_PROFILE_VENDOR 0
#endif

#if !RM_TX_PROFILE_VENDOR
/* The kernel tick of every port: 1000 Hz. */
#define TX_TIMER_TICKS_PER_SECOND 1000UL
/* tx_* map to _tx_* directly instead of the _txe_* checking shells. */
#define TX_DISABLE_ERROR_CHECKING
/* No notify callback pointers to test on every put/send/set. */
#define TX_DISABLE_NOTIFY_CALLBACKS
/* Stacks are not pre-filled with 0xEF (that only serves stack checking). */
#define TX_DISABLE_STACK_FILLING
/* The port never uses preemption threshold (threshold == priority). */
#define TX_DISABLE_PREEMPTION_THRESHOLD
/* Timeouts expire in the SysTick handler, like the other kernels' tick
 * processing, instead of in a timer thread at ThreadX priority 0 that would
 * share the runner's priority. */
#define TX_TIMER_PROCESS_IN_ISR
#endif

/* The lowpower profile (RM_IDLE_KERNEL, docs/idle.md): the benchmark
 * configuration plus the Cortex-M scheduler's own idle, TX_LOW_POWER (the
 * low-power utility, utility/low_power, steps the timers over the ticks
 * slept) and TX_ENABLE_WFI; the SysTick hooks are tx_low_power_cm.c. Every
 * other profile's idle spins in the scheduler loop (no WFI under QEMU
 * -icount). */
#if __has_include("rm_build_config.h")
#include "rm_build_config.h"
#endif
#if defined(RM_IDLE_KERNEL) && defined(__arm__)
#define TX_ENABLE_WFI
#define TX_LOW_POWER
#define TX_LOW_POWER_TIMER_SETUP rm_tx_low_power_timer_setup
#define TX_LOW_POWER_USER_TIMER_ADJUST rm_tx_low_power_timer_adjust()
#ifndef __ASSEMBLER__
void rm_tx_low_power_timer_setup(unsigned long next);
unsigned long rm_tx_low_power_timer_adjust(void);
#endif
#endif

/* Never set in any profile: TX_ENABLE_STACK_CHECKING, TX_ENABLE_EVENT_TRACE,
 * TX_ENABLE_EXECUTION_CHANGE_NOTIFY. */

#endif /* RM_TX_USER_H */
