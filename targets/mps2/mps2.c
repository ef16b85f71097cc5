/* Target layer for QEMU's MPS2 machines (AN385 M3, AN386 M4, AN500 M7), which
 * share one CMSDK peripheral map: UART0 at 0x40004000 is the console (QEMU
 * -serial stdio), TIMER1 is the free-running 25 MHz timestamp counter (a
 * down-counter, read inverted so it counts up; QEMU 7.2 has no DWT cycle
 * counter), TIMER0 is the periodic interrupt for irq.max_rate, and a spare
 * NVIC line (RM_CM_BENCH_IRQ) pended through STIR is the benchmark interrupt,
 * and the dual timer's first half (IRQ 10) drives the load profiles.
 * SysTick is left to the kernel.
 */
#include <stddef.h>
#include <stdint.h>

#include "cm.h"
#include "rtosmeter/target.h"

#define UART0_BASE 0x40004000u
#define UART_DATA RM_REG(UART0_BASE + 0x00u)
#define UART_STATE RM_REG(UART0_BASE + 0x04u)
#define UART_CTRL RM_REG(UART0_BASE + 0x08u)
#define UART_BAUDDIV RM_REG(UART0_BASE + 0x10u)

#define TIMER_CTRL(b) RM_REG((b) + 0x00u)
#define TIMER_VALUE(b) RM_REG((b) + 0x04u)
#define TIMER_RELOAD(b) RM_REG((b) + 0x08u)
#define TIMER_INTCLEAR(b) RM_REG((b) + 0x0Cu)
#define TIMER0 0x40000000u /* periodic, IRQ 8 (RM_CM_PERIODIC_IRQ) */
#define TIMER1 0x40001000u /* timestamp */

/* Benchmark interrupt below the kernel's syscall ceiling on every port (a
 * low-urgency level that any implemented priority width can hold). */
#define BENCH_PRIO 0xC0u
#define PERIODIC_PRIO 0x80u

static rm_periodic_fn_t periodic_fn;

#define TIMER_HZ 25000000u /* CMSDK timers: the 25 MHz peripheral clock */

#if defined(RM_TS_PLUGIN) && RM_TS_PLUGIN
/* Written by the rmcycles QEMU plugin at each `dbg #0` (rm_target_inline.h). */
__attribute__((section(".rm_plugin_counter"), used)) volatile uint32_t rm_plugin_counter;
#endif

void rm_target_init(void)
{
    UART_BAUDDIV = 16u; /* the smallest legal divisor; QEMU ignores the rate */
    UART_CTRL = 1u;     /* TX enable */

    TIMER_CTRL(TIMER1) = 0u;
    TIMER_RELOAD(TIMER1) = 0xFFFFFFFFu;
    TIMER_VALUE(TIMER1) = 0xFFFFFFFFu;
    TIMER_CTRL(TIMER1) = 1u; /* enable, no interrupt */

    rm_cm_irq_enable(RM_CM_BENCH_IRQ, BENCH_PRIO);
}

/* The MPS2 FPGA images clock the core and the CMSDK timers from one 25 MHz
 * source (no PLL to configure; QEMU models the same): TIMER1 counts it. Under
 * the rmcycles plugin the timestamp is the plugin's counter, whose nominal
 * rate the build sets (HELLO hz): nothing on the chip to report. */
uint32_t rm_target_ts_hz(void)
{
#if defined(RM_TS_PLUGIN) && RM_TS_PLUGIN
    return 0u;
#else
    return TIMER_HZ;
#endif
}

/* TIMER1 counts the 25 MHz clock of virtual time whatever the timestamp is
 * (it is started above under the plugin too): the cases' clock of emulated
 * time under --unit cycles (target.h). */
uint32_t rm_target_vtime(void)
{
    return ~RM_MPS2_TIMER1_VALUE;
}

uint32_t rm_target_vtime_hz(void)
{
    return TIMER_HZ;
}

uint32_t rm_target_cpu_hz(void)
{
    return TIMER_HZ;
}

void rm_target_write(const char *s, size_t n)
{
#if defined(RM_STREAM_RTT) && RM_STREAM_RTT
    rm_cm_rtt_write(s, (uint32_t)n); /* a debugger reads it (gdbstub tests) */
#else
    for (size_t i = 0; i < n; i++) {
        while (UART_STATE & 1u) /* TX buffer full */
            ;
        UART_DATA = (uint8_t)s[i];
    }
#endif
}

_Noreturn void rm_target_exit(int status)
{
    while (UART_STATE & 1u)
        ;
    rm_cm_semihost_exit(status);
}

int rm_target_periodic_start(uint32_t period_ticks, rm_periodic_fn_t fn)
{
    if (period_ticks < 2u || fn == NULL)
        return -1;
#if defined(RM_TS_PLUGIN) && RM_TS_PLUGIN
    /* The period is in timestamp units (RM_TS_HZ, the plugin counter's
     * nominal rate); TIMER0 counts at 25 MHz. */
    period_ticks = (uint32_t)((uint64_t)period_ticks * TIMER_HZ / (RM_TS_HZ));
    if (period_ticks < 2u)
        return -1;
#endif
    periodic_fn = fn;
    TIMER_CTRL(TIMER0) = 0u;
    /* The counter runs RELOAD..0 and interrupts on reaching 0. */
    TIMER_RELOAD(TIMER0) = period_ticks - 1u;
    TIMER_VALUE(TIMER0) = period_ticks - 1u;
    TIMER_INTCLEAR(TIMER0) = 1u;
    rm_cm_irq_enable(RM_CM_PERIODIC_IRQ, PERIODIC_PRIO);
    TIMER_CTRL(TIMER0) = 1u | 8u; /* enable | interrupt enable */
    return 0;
}

void rm_target_periodic_stop(void)
{
    TIMER_CTRL(TIMER0) = 0u;
    rm_cm_irq_disable(RM_CM_PERIODIC_IRQ);
    TIMER_INTCLEAR(TIMER0) = 1u;
    RM_NVIC_ICPR(RM_CM_PERIODIC_IRQ >> 5) = 1u << (RM_CM_PERIODIC_IRQ & 31u);
}

void RM_Periodic_IRQHandler(void);
void RM_Periodic_IRQHandler(void)
{
    TIMER_INTCLEAR(TIMER0) = 1u;
    periodic_fn();
}

/* The load profiles' timer: the CMSDK dual timer's first counter, periodic
 * mode, 32 bits, no prescaler, on the same 25 MHz clock. */
#define DUALTIMER 0x40002000u /* IRQ 10 (RM_CM_LOAD_IRQ) */
#define DT_LOAD RM_REG(DUALTIMER + 0x00u)
#define DT_CTRL RM_REG(DUALTIMER + 0x08u)
#define DT_INTCLR RM_REG(DUALTIMER + 0x0Cu)
#define DT_ENABLE 0x80u
#define DT_PERIODIC 0x40u
#define DT_INTEN 0x20u
#define DT_32BIT 0x02u
#define LOAD_PRIO 0x80u /* as the periodic timer: below the syscall ceiling */

static rm_periodic_fn_t load_fn;

int rm_target_load_timer_start(uint32_t hz, rm_periodic_fn_t fn)
{
    if (hz == 0u || TIMER_HZ / hz < 2u || fn == NULL)
        return -1;
    load_fn = fn;
    DT_CTRL = 0u;
    DT_LOAD = TIMER_HZ / hz - 1u;
    DT_INTCLR = 1u;
    rm_cm_irq_enable(RM_CM_LOAD_IRQ, LOAD_PRIO);
    DT_CTRL = DT_ENABLE | DT_PERIODIC | DT_INTEN | DT_32BIT;
    return 0;
}

void rm_target_load_timer_stop(void)
{
    DT_CTRL = 0u;
    rm_cm_irq_disable(RM_CM_LOAD_IRQ);
    DT_INTCLR = 1u;
    RM_NVIC_ICPR(RM_CM_LOAD_IRQ >> 5) = 1u << (RM_CM_LOAD_IRQ & 31u);
}

void RM_Load_IRQHandler(void);
void RM_Load_IRQHandler(void)
{
    DT_INTCLR = 1u;
    load_fn();
}
