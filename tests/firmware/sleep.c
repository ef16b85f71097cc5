/* Test firmware (bare metal, tests/test_wfi_sleep.py): a 10 ms sleep under
 * WFI, timed in virtual time by the CMSDK TIMER1 (25 MHz, free-running,
 * read directly: under the plugin rm_ts() counts instructions, which do not
 * advance asleep), three ways:
 *   tick     SysTick at 1 kHz, ten WFIs (a kernel's tick-counted delay);
 *   oneshot  SysTick reloaded once for 10 ms, one WFI (a tickless sleep);
 *   timer    the target's periodic timer (TIMER0) at 10 ms, one WFI.
 * Each series holds SLEEPS sleeps in TIMER1 ticks; META want_ticks is 10 ms. */
#include "cm.h"
#include "rtosmeter/bench.h"

#define SLEEPS 4u
#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define CPU_HZ 25000000u /* MPS2's SYSCLK: SysTick on the processor clock */
#define TIMER1_VALUE (*(volatile uint32_t *)0x40001004u) /* counts down from ~0 */

static uint32_t vt(void)
{
    return ~TIMER1_VALUE;
}

static volatile uint32_t ticks, fired;

void SysTick_Handler(void);
void SysTick_Handler(void)
{
    ticks++;
}

RM_ISR(on_timer)
{
    fired++;
}

static void wfi(void)
{
    __asm volatile("dsb\n wfi" ::: "memory");
}

static uint32_t sleep_ticks(uint32_t n)
{
    SYST_RVR = CPU_HZ / 1000u - 1u;
    SYST_CVR = 0u;
    uint32_t t0 = vt();
    ticks = 0u;
    SYST_CSR = 7u; /* processor clock | interrupt | enable */
    while (ticks < n) {
        wfi();
    }
    uint32_t t1 = vt();
    SYST_CSR = 0u;
    return t1 - t0;
}

static uint32_t sleep_oneshot(void)
{
    SYST_RVR = CPU_HZ / 100u - 1u;
    SYST_CVR = 0u;
    uint32_t t0 = vt();
    ticks = 0u;
    SYST_CSR = 7u;
    while (ticks == 0u) {
        wfi();
    }
    uint32_t t1 = vt();
    SYST_CSR = 0u;
    return t1 - t0;
}

static uint32_t sleep_timer(void)
{
    uint32_t seen = fired;
    uint32_t t0 = vt();
    if (rm_target_periodic_start((uint32_t)(RM_TS_HZ) / 100u, on_timer) != 0) {
        return 0u;
    }
    while (fired == seen) {
        wfi();
    }
    uint32_t t1 = vt();
    rm_target_periodic_stop();
    return t1 - t0;
}

static void run_sleep(const rm_case_t *c)
{
    (void)c;
    rm_meta("want_ticks", CPU_HZ / 100u);
    rm_series_t s;
    rm_series_open(&s, "tick", "10 SysTick periods of 1 ms, WFI between");
    for (uint32_t i = 0u; i < SLEEPS; i++) {
        rm_series_add(&s, sleep_ticks(10u));
    }
    rm_series_close(&s);
    rm_series_open(&s, "oneshot", "one SysTick period of 10 ms, one WFI");
    for (uint32_t i = 0u; i < SLEEPS; i++) {
        rm_series_add(&s, sleep_oneshot());
    }
    rm_series_close(&s);
    rm_series_open(&s, "timer", "one period of the target's timer, 10 ms, one WFI");
    for (uint32_t i = 0u; i < SLEEPS; i++) {
        rm_series_add(&s, sleep_timer());
    }
    rm_series_close(&s);
}

RM_CASE(sleep, "selftest.sleep", 0, run_sleep, NULL);
