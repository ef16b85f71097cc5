/* RIOT CPU mps2: the one periph_timer (ztimer's), 32 bits at 25 MHz.
 *
 * - Counter: CMSDK TIMER1 (0x40001000), free-running from 0xFFFFFFFF down,
 *   read inverted so that it counts up. It is also the rtosmeter target's
 *   timestamp counter (targets/mps2), which only reads it.
 * - Alarm: SysTick, one-shot (the kernel's timer on the MPS2 targets; TIMER0
 *   and the dual timer are the target's periodic and load interrupts).
 *   SysTick counts 24 bits: a longer alarm is re-armed from its interrupt
 *   until the counter reaches the target, so the interrupt also checks the
 *   counter and never calls back early.
 * - Under QEMU's -icount a stale pending SysTick would fire an alarm early
 *   (and ztimer trusts every callback): timer_set_absolute and timer_clear
 *   clear the pending bit, and an interrupt with no alarm armed is ignored.
 * - timer_stop does not stop the counter (the timestamp reads it): it holds
 *   the alarm back until timer_start.
 */
#include "cpu.h"
#include "irq.h"
#include "periph/timer.h"

#define TIMER1_CTRL (*(volatile uint32_t *)0x40001000u)
#define TIMER1_VALUE (*(volatile uint32_t *)0x40001004u)
#define TIMER1_RELOAD (*(volatile uint32_t *)0x40001008u)
#define SYSTICK_MAX 0x00FFFFFFu

static timer_cb_t cb;
static void *cb_arg;
static uint32_t target;
static uint8_t armed;
static uint8_t running;

static void systick_off(void)
{
    SysTick->CTRL = 0u;
    SCB->ICSR = SCB_ICSR_PENDSTCLR_Msk;
}

/* SysTick interrupts after `ticks` counts (1..SYSTICK_MAX). */
static void systick_arm(uint32_t ticks)
{
    systick_off();
    SysTick->LOAD = ticks;
    SysTick->VAL = 0u;
    SysTick->CTRL = SysTick_CTRL_CLKSOURCE_Msk | SysTick_CTRL_TICKINT_Msk |
                    SysTick_CTRL_ENABLE_Msk;
}

/* Arm SysTick towards `target` (interrupts disabled). */
static void alarm_arm(void)
{
    int32_t left = (int32_t)(target - timer_read(TIMER_DEV(0)));
    uint32_t ticks = left < 1 ? 1u : (uint32_t)left;
    systick_arm(ticks > SYSTICK_MAX ? SYSTICK_MAX : ticks);
}

int timer_init(tim_t dev, uint32_t freq, timer_cb_t callback, void *arg)
{
    if (dev != TIMER_DEV(0) || freq != MPS2_PCLK_HZ)
        return -1;
    cb = callback;
    cb_arg = arg;
    armed = 0u;
    systick_off();
    NVIC_SetPriority(SysTick_IRQn, CPU_DEFAULT_IRQ_PRIO);
    if ((TIMER1_CTRL & 1u) == 0u) { /* the target may have started it */
        TIMER1_RELOAD = 0xFFFFFFFFu;
        TIMER1_VALUE = 0xFFFFFFFFu;
        TIMER1_CTRL = 1u; /* enable, no interrupt */
    }
    running = 1u;
    return 0;
}

int timer_set_absolute(tim_t dev, int channel, unsigned int value)
{
    if (dev != TIMER_DEV(0) || channel != 0)
        return -1;
    unsigned state = irq_disable();
    target = value;
    armed = 1u;
    if (running)
        alarm_arm();
    irq_restore(state);
    return 0;
}

int timer_clear(tim_t dev, int channel)
{
    if (dev != TIMER_DEV(0) || channel != 0)
        return -1;
    unsigned state = irq_disable();
    armed = 0u;
    systick_off();
    irq_restore(state);
    return 0;
}

unsigned int timer_read(tim_t dev)
{
    (void)dev;
    return ~TIMER1_VALUE;
}

void timer_start(tim_t dev)
{
    (void)dev;
    unsigned state = irq_disable();
    running = 1u;
    if (armed)
        alarm_arm();
    irq_restore(state);
}

void timer_stop(tim_t dev)
{
    (void)dev;
    unsigned state = irq_disable();
    running = 0u;
    systick_off();
    irq_restore(state);
}

void isr_systick(void)
{
    if (armed && running) {
        if ((int32_t)(target - timer_read(TIMER_DEV(0))) > 0) {
            alarm_arm(); /* a 24-bit step of a longer alarm */
        } else {
            armed = 0u;
            systick_off();
            cb(cb_arg, 0);
        }
    } else {
        systick_off(); /* stale: no alarm armed */
    }
    cortexm_isr_end();
}
