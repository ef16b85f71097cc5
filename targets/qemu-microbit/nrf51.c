/* Target layer for QEMU's microbit machine (nRF51822, Cortex-M0, QEMU 7.2's
 * only M0 machine): UART0 is the console (QEMU -serial stdio), TIMER0 in
 * 32-bit mode at 16 MHz is the timestamp counter (read through a CAPTURE
 * task), TIMER1 is the periodic interrupt for irq.max_rate, and SWI0 (IRQ 20)
 * pended through NVIC ISPR (the M0 has no STIR) is the benchmark interrupt.
 * SysTick is left to the kernel.
 */
#include <stddef.h>
#include <stdint.h>

#include "cm.h"
#include "rtosmeter/target.h"

#define UART0 0x40002000u
#define UART_STARTTX RM_REG(UART0 + 0x008u)
#define UART_TXDRDY RM_REG(UART0 + 0x11Cu)
#define UART_ENABLE RM_REG(UART0 + 0x500u)
#define UART_TXD RM_REG(UART0 + 0x51Cu)

#define TIMER0 0x40008000u /* timestamp */
#define TIMER1 0x40009000u /* periodic, IRQ 9 (RM_CM_PERIODIC_IRQ) */
#define T_START(b) RM_REG((b) + 0x000u)
#define T_STOP(b) RM_REG((b) + 0x004u)
#define T_CLEAR(b) RM_REG((b) + 0x00Cu)
#define T_COMPARE0(b) RM_REG((b) + 0x140u)
#define T_SHORTS(b) RM_REG((b) + 0x200u)
#define T_INTENSET(b) RM_REG((b) + 0x304u)
#define T_INTENCLR(b) RM_REG((b) + 0x308u)
#define T_MODE(b) RM_REG((b) + 0x504u)
#define T_BITMODE(b) RM_REG((b) + 0x508u)
#define T_PRESCALER(b) RM_REG((b) + 0x510u)
#define T_CC0(b) RM_REG((b) + 0x540u)

/* v6-M has 2 priority bits: 0x80 and 0xC0 leave room above for the kernel. */
#define BENCH_PRIO 0xC0u
#define PERIODIC_PRIO 0x80u

static rm_periodic_fn_t periodic_fn;

#if defined(RM_TS_PLUGIN) && RM_TS_PLUGIN
/* Written by the rmcycles QEMU plugin at each `hint #15` (rm_target_inline.h). */
__attribute__((section(".rm_plugin_counter"), used)) volatile uint32_t rm_plugin_counter;
#endif

void rm_target_init(void)
{
    UART_ENABLE = 4u;
    UART_STARTTX = 1u;

    T_STOP(TIMER0) = 1u;
    T_MODE(TIMER0) = 0u;      /* timer */
    T_BITMODE(TIMER0) = 3u;   /* 32 bit */
    T_PRESCALER(TIMER0) = 0u; /* 16 MHz */
    T_CLEAR(TIMER0) = 1u;
    T_START(TIMER0) = 1u;

    rm_cm_irq_enable(RM_CM_BENCH_IRQ, BENCH_PRIO);
}

/* The nRF51's 16 MHz HFCLK runs the core and, through TIMER0's prescaler
 * (2^PRESCALER), the timestamp. */
#define HFCLK_HZ 16000000u

uint32_t rm_target_ts_hz(void)
{
    return HFCLK_HZ >> (T_PRESCALER(TIMER0) & 0xFu);
}

uint32_t rm_target_cpu_hz(void)
{
    return HFCLK_HZ;
}

/* TIMER0 counts 16 MHz of virtual time whatever the timestamp is (started
 * above under the plugin too); captured into CC[1], which rm_ts() leaves
 * alone: the cases' clock of emulated time under --unit cycles (target.h). */
uint32_t rm_target_vtime(void)
{
    RM_REG(TIMER0 + 0x044u) = 1u; /* TASKS_CAPTURE[1] */
    return RM_REG(TIMER0 + 0x544u);
}

uint32_t rm_target_vtime_hz(void)
{
    return HFCLK_HZ >> (T_PRESCALER(TIMER0) & 0xFu);
}

void rm_target_write(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        UART_TXDRDY = 0u;
        UART_TXD = (uint8_t)s[i];
        while (UART_TXDRDY == 0u)
            ;
    }
}

_Noreturn void rm_target_exit(int status)
{
    rm_cm_semihost_exit(status);
}

int rm_target_periodic_start(uint32_t period_ticks, rm_periodic_fn_t fn)
{
    if (period_ticks < 2u || fn == NULL)
        return -1;
#if defined(RM_TS_PLUGIN) && RM_TS_PLUGIN
    /* The period is in timestamp units (RM_TS_HZ, the plugin counter's
     * nominal rate, target.h); TIMER1 counts at 16 MHz. */
    period_ticks = (uint32_t)((uint64_t)period_ticks * HFCLK_HZ / (RM_TS_HZ));
    if (period_ticks < 2u)
        return -1;
#endif
    periodic_fn = fn;
    T_STOP(TIMER1) = 1u;
    T_MODE(TIMER1) = 0u;
    T_BITMODE(TIMER1) = 3u; /* QEMU models 32 bit; silicon TIMER1 stops at 16 */
    T_PRESCALER(TIMER1) = 0u;
    T_CC0(TIMER1) = period_ticks;
    T_SHORTS(TIMER1) = 1u; /* COMPARE0 -> CLEAR */
    T_COMPARE0(TIMER1) = 0u;
    T_INTENSET(TIMER1) = 1u << 16; /* COMPARE0 */
    T_CLEAR(TIMER1) = 1u;
    rm_cm_irq_enable(RM_CM_PERIODIC_IRQ, PERIODIC_PRIO);
    T_START(TIMER1) = 1u;
    return 0;
}

void rm_target_periodic_stop(void)
{
    T_STOP(TIMER1) = 1u;
    T_INTENCLR(TIMER1) = 1u << 16;
    rm_cm_irq_disable(RM_CM_PERIODIC_IRQ);
    T_COMPARE0(TIMER1) = 0u;
    RM_NVIC_ICPR(0) = 1u << RM_CM_PERIODIC_IRQ;
}

void RM_Periodic_IRQHandler(void);
void RM_Periodic_IRQHandler(void)
{
    T_COMPARE0(TIMER1) = 0u;
    periodic_fn();
}
