/* Target layer for real Cortex-M boards (built in CI, untested until someone
 * runs them): the DWT cycle counter as timestamp (M3/M4/M7; a v6-M part
 * supplies rm_board_ts() from a chip timer instead), semihosting as console
 * (or an RTT up-buffer, rtt.c, when built with RM_STREAM_RTT) and exit
 * (works through pyOCD and OpenOCD on every board), and a spare NVIC
 * line whose peripheral the firmware never enables as the benchmark
 * interrupt. The board's clock.c sets its clocks before main (startup.c
 * rm_cm_clock_init; left out for board_clock = "reset"); the chip's file
 * reads them back from its clock tree (rm_board_cpu_hz) and its flash
 * controller (rm_board_flash_ws), and the runner reports them (CFG ts_hz,
 * cpu_hz, flash_ws).
 */
#include <stddef.h>
#include <stdint.h>

#include "cm.h"
#include "rm_build_config.h"
#include "rtosmeter/target.h"

#define BENCH_PRIO 0xC0u

/* Chip-specific set-up and, on v6-M, the timestamp counter. */
void rm_board_init(void);
__attribute__((weak)) void rm_board_init(void) {}
#if RM_CM_V6M
uint32_t rm_board_ts(void);
#endif
#ifdef RM_TARGET_CASE_MARKER
void rm_board_marker_init(void); /* the board's marker.c: the pin, low, as output */
#endif

void rm_target_init(void)
{
    rm_board_init();
#ifdef RM_TARGET_CASE_MARKER
    rm_board_marker_init();
#endif
#if !RM_CM_V6M
    rm_cm_dwt_start();
#endif
    rm_cm_irq_enable(RM_CM_BENCH_IRQ, BENCH_PRIO);
}

/* The core clock from the chip's clock tree as the firmware left it; 0 when
 * the chip's file cannot tell (e.g. an external crystal whose rate only the
 * board knows). */
uint32_t rm_board_cpu_hz(void);
__attribute__((weak)) uint32_t rm_board_cpu_hz(void) { return 0u; }

uint32_t rm_target_cpu_hz(void)
{
    return rm_board_cpu_hz();
}

#ifdef RM_TARGET_FLASH_WS
/* The flash wait states as the chip's flash controller holds them (a chip
 * without the setting, the K64F's flash clock divider or the nRF52's fixed
 * timing, does not define RM_TARGET_FLASH_WS). */
uint32_t rm_board_flash_ws(void);

uint32_t rm_target_flash_ws(void)
{
    return rm_board_flash_ws();
}
#endif

#if RM_CM_V6M
uint32_t rm_board_ts_hz(void); /* the chip timer's input clock */

uint32_t rm_target_ts_hz(void)
{
    return rm_board_ts_hz();
}
#else
uint32_t rm_target_ts_hz(void)
{
    return rm_board_cpu_hz(); /* DWT CYCCNT counts core cycles */
}
#endif

#if RM_CM_V6M
uint32_t rm_ts(void)
{
    return rm_board_ts();
}
#endif

void rm_target_write(const char *s, size_t n)
{
#if defined(RM_STREAM_RTT) && RM_STREAM_RTT
    rm_cm_rtt_write(s, (uint32_t)n);
#else
    rm_cm_semihost_write(s, (uint32_t)n);
#endif
}

_Noreturn void rm_target_exit(int status)
{
    rm_cm_semihost_exit(status);
}
