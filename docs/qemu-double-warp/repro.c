/* A WFI sleep that a periodic ptimer ends wakes one period late under
 * QEMU 7.2 with -icount sleep=off (docs/qemu-double-warp.md).
 *
 * mps2-an386 (Cortex-M4, 25 MHz): SysTick fires every 10 ms (250 000
 * cycles); the CPU sleeps in WFI until each tick; the CMSDK TIMER1, free
 * running at 25 MHz, times each sleep. Expected: 250 000 ticks a sleep.
 * QEMU 7.2 prints about 500 000: virtual time warps a second period before
 * the vCPU wakes.
 *
 *   arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2 -nostdlib -T repro.ld repro.c -o repro.elf
 *   qemu-system-arm -M mps2-an386 -nographic -monitor none -semihosting \
 *       -icount shift=6,align=off,sleep=off -kernel repro.elf
 */
#include <stdint.h>

#define REG(a) (*(volatile uint32_t *)(a))
#define SYST_CSR REG(0xE000E010u)
#define SYST_RVR REG(0xE000E014u)
#define SYST_CVR REG(0xE000E018u)
#define TIMER1_CTRL REG(0x40001000u)
#define TIMER1_VALUE REG(0x40001004u)
#define TIMER1_RELOAD REG(0x40001008u)
#define PERIOD 250000u /* 10 ms at 25 MHz */

static volatile uint32_t ticks;

static int semihost(int op, const void *arg)
{
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static void print_number(const char *what, uint32_t n)
{
    char buf[48], digits[12];
    unsigned k = 0, i = 0;
    while (what[i] != '\0')
        buf[k++] = what[i++];
    i = 0;
    do {
        digits[i++] = (char)('0' + n % 10u);
        n /= 10u;
    } while (n != 0u);
    while (i > 0u)
        buf[k++] = digits[--i];
    buf[k++] = '\n';
    buf[k] = '\0';
    semihost(0x04, buf); /* SYS_WRITE0 */
}

void systick_handler(void)
{
    ticks++;
}

void reset_handler(void)
{
    TIMER1_RELOAD = 0xFFFFFFFFu;
    TIMER1_VALUE = 0xFFFFFFFFu;
    TIMER1_CTRL = 1u; /* enable, counting down at the bus clock */
    SYST_RVR = PERIOD - 1u;
    SYST_CVR = 0u;
    SYST_CSR = 7u; /* enable, interrupt, processor clock */
    for (int i = 0; i < 4; i++) {
        uint32_t before = ticks, t0 = TIMER1_VALUE;
        while (ticks == before)
            __asm__ volatile("wfi");
        uint32_t t1 = TIMER1_VALUE;
        print_number("sleep until the next tick: TIMER1 ticks ", t0 - t1);
    }
    static const uint32_t exit_block[2] = {0x20026u, 0u}; /* ADP_Stopped_ApplicationExit */
    semihost(0x20, exit_block); /* SYS_EXIT_EXTENDED */
    for (;;) {
    }
}

extern uint32_t stack_top;
__attribute__((section(".vectors"), used)) static const void *const vectors[16] = {
    &stack_top, reset_handler, [15] = systick_handler,
};
