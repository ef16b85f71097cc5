/* rtosmeter's Contiki-NG platform for QEMU's MPS2 machines: what Contiki-NG
 * asks of a platform and CPU, on the rtosmeter target's hardware layer.
 * - clock: SysTick at CLOCK_SECOND from the core clock (RM_CPU_HZ); its
 *   handler counts and asks the etimer process to look at due timers.
 * - rtimer: rtimer_arch_now() is the target's timestamp counter (rm_ts);
 *   nothing is ever scheduled on it (no radio duty cycling here).
 * - Interrupts: PRIMASK. Watchdog: none. Idle: the loop spins (no WFI),
 *   except in lowpower (RM_IDLE_KERNEL): platform_idle() is WFI until the
 *   next interrupt (the SysTick clock at the latest; docs/idle.md).
 */
#include <stdbool.h>
#include <stdint.h>

#include "contiki.h"
#include "dev/watchdog.h"
#include "rm_build_config.h" /* RM_IDLE_KERNEL */
#include "rtosmeter/target.h"
#include "sys/int-master.h"

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

static volatile clock_time_t ticks;

void SysTick_Handler(void);
void SysTick_Handler(void)
{
    ticks++;
    if (etimer_pending()) {
        etimer_request_poll();
    }
}

void clock_init(void)
{
    SYST_RVR = (uint32_t)(RM_CPU_HZ) / CLOCK_SECOND - 1u;
    SYST_CVR = 0u;
    SYST_CSR = 7u; /* core clock, interrupt, enable */
}

clock_time_t clock_time(void)
{
    return ticks;
}

unsigned long clock_seconds(void)
{
    return (unsigned long)(ticks / CLOCK_SECOND);
}

void clock_wait(clock_time_t t)
{
    clock_time_t start = ticks;
    while (ticks - start < t) {
    }
}

void clock_delay_usec(uint16_t dt)
{
    uint32_t start = rm_ts();
    while (rm_ts() - start < (uint32_t)dt * (uint32_t)((RM_TS_HZ) / 1000000u)) {
    }
}

rtimer_clock_t rtimer_arch_now(void)
{
    return rm_ts();
}

void rtimer_arch_init(void) {}
void rtimer_arch_schedule(rtimer_clock_t t)
{
    (void)t;
}

int_master_status_t int_master_read_and_disable(void)
{
    uint32_t primask;
    __asm volatile("mrs %0, primask\n cpsid i" : "=r"(primask)::"memory");
    return (int_master_status_t)primask;
}

void int_master_status_set(int_master_status_t status)
{
    __asm volatile("msr primask, %0" ::"r"((uint32_t)status) : "memory");
}

void int_master_enable(void)
{
    __asm volatile("cpsie i" ::: "memory");
}

bool int_master_is_enabled(void)
{
    uint32_t primask;
    __asm volatile("mrs %0, primask" : "=r"(primask));
    return primask == 0u;
}

void watchdog_init(void) {}
void watchdog_start(void) {}
void watchdog_periodic(void) {}
void watchdog_stop(void) {}
void watchdog_reboot(void)
{
    rm_target_exit(3);
}

void platform_init_stage_one(void) {} /* the runner calls rm_target_init() */
#ifdef RM_LOAD_NET
#include "net/linkaddr.h"
#include "rm_net_trace.h"

/* The node's MAC address, before netstack_init() derives its IPv6 one. */
void platform_init_stage_two(void)
{
    static linkaddr_t node = {RM_NET_NODE_MAC};
    linkaddr_set_node_addr(&node);
}
#else
void platform_init_stage_two(void) {}
#endif
void platform_init_stage_three(void) {}
void platform_idle(void)
{
#ifdef RM_IDLE_KERNEL
    __asm volatile("dsb\n wfi" ::: "memory");
#endif
}
