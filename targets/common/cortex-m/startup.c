/* Shared Cortex-M start-up: vector table, reset handler (copy .data, clear
 * .bss, enable the FPU, call main) and the fault handlers, which report the
 * stacked PC/LR/PSR and the fault status registers through rm_report_fault().
 *
 * PendSV, SVC and SysTick are weak aliases so an RTOS port overrides them by
 * defining PendSV_Handler, SVC_Handler, SysTick_Handler (FreeRTOS and ThreadX
 * map their handlers by these names). The benchmark interrupt
 * (RM_CM_BENCH_IRQ) is whatever rm_target_irq_set_vector() installed: on
 * v7-M the table is copied to RAM at reset and VTOR points there, so the
 * case's handler is the vector itself; v6-M (no VTOR on the M0) jumps
 * through a RAM pointer. RM_CM_PERIODIC_IRQ, when a target defines it, goes
 * to the target's periodic-timer handler.
 */
#include <stdint.h>

#include "cm.h"
#include "rtosmeter/bench.h"

#ifndef RM_CM_NUM_IRQ
#error "RM_CM_NUM_IRQ must be set by the target's target.cmake"
#endif
#ifndef RM_CM_BENCH_IRQ
#error "RM_CM_BENCH_IRQ must be set by the target's target.cmake"
#endif

extern uint32_t __stack_top[];
extern uint32_t __data_load[], __data_start[], __data_end[];
extern uint32_t __bss_start[], __bss_end[];
extern int main(void);
extern void __libc_init_array(void);

void Reset_Handler(void);
void rm_cm_fault_entry(void);
void rm_cm_unexpected(void);
void rm_cm_bench_idle(void);

#define RM_WEAK_ALIAS(name, to) \
    void name(void) __attribute__((weak, alias(#to)))
RM_WEAK_ALIAS(NMI_Handler, rm_cm_fault_entry);
RM_WEAK_ALIAS(HardFault_Handler, rm_cm_fault_entry);
RM_WEAK_ALIAS(MemManage_Handler, rm_cm_fault_entry);
RM_WEAK_ALIAS(BusFault_Handler, rm_cm_fault_entry);
RM_WEAK_ALIAS(UsageFault_Handler, rm_cm_fault_entry);
RM_WEAK_ALIAS(SVC_Handler, rm_cm_unexpected);
RM_WEAK_ALIAS(DebugMon_Handler, rm_cm_unexpected);
RM_WEAK_ALIAS(PendSV_Handler, rm_cm_unexpected);
RM_WEAK_ALIAS(SysTick_Handler, rm_cm_unexpected);
#ifdef RM_CM_PERIODIC_IRQ
void RM_Periodic_IRQHandler(void); /* the target's timer driver */
#endif
#ifdef RM_CM_LOAD_IRQ
void RM_Load_IRQHandler(void); /* the target's load timer (rm_target_load_timer_start) */
#endif

typedef void (*rm_vector_t)(void);

#if RM_CM_V6M
/* v6-M: the benchmark vector jumps through this pointer (three
 * instructions, no return through our code). */
rm_vector_t volatile rm_cm_bench_isr = rm_cm_bench_idle;
__attribute__((naked)) static void rm_cm_bench_trampoline(void)
{
    __asm volatile("ldr r0, =rm_cm_bench_isr\n"
                   "ldr r0, [r0]\n"
                   "bx r0\n"
                   ".ltorg\n");
}
#define RM_CM_BENCH_VECTOR rm_cm_bench_trampoline
#else
#define RM_CM_BENCH_VECTOR rm_cm_bench_idle
#endif

/* Every IRQ defaults to rm_cm_unexpected, then the two used lines override
 * their entries: intended, so the override warning is silenced here only. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
__attribute__((used, section(".vectors")))
const rm_vector_t rm_cm_vectors[16 + RM_CM_NUM_IRQ] = {
    [0] = (rm_vector_t)(uintptr_t)__stack_top,
    [1] = Reset_Handler,
    [2] = NMI_Handler,
    [3] = HardFault_Handler,
    [4] = MemManage_Handler,
    [5] = BusFault_Handler,
    [6] = UsageFault_Handler,
    [11] = SVC_Handler,
    [12] = DebugMon_Handler,
    [14] = PendSV_Handler,
    [15] = SysTick_Handler,
    [16 ... 16 + RM_CM_NUM_IRQ - 1] = rm_cm_unexpected,
    [16 + RM_CM_BENCH_IRQ] = RM_CM_BENCH_VECTOR,
#ifdef RM_CM_PERIODIC_IRQ
    [16 + RM_CM_PERIODIC_IRQ] = RM_Periodic_IRQHandler,
#endif
#ifdef RM_CM_LOAD_IRQ
    [16 + RM_CM_LOAD_IRQ] = RM_Load_IRQHandler,
#endif
};
#pragma GCC diagnostic pop

#if !RM_CM_V6M
/* The table VTOR points to: the flash table's copy, whose benchmark entry
 * rm_target_irq_set_vector() rewrites. VTOR needs the table aligned to its
 * size rounded up to a power of two (at most 128 entries here: 512 B). */
#define RM_CM_VECTORS (16 + RM_CM_NUM_IRQ)
_Static_assert(RM_CM_VECTORS <= 128, "RM_CM_NUM_IRQ too large for the RAM vector table");
static rm_vector_t rm_cm_ram_vectors[RM_CM_VECTORS]
    __attribute__((aligned(RM_CM_VECTORS <= 32 ? 128 : RM_CM_VECTORS <= 64 ? 256 : 512)));
#endif

/* The benchmark line's handler while no case has installed one. */
void rm_cm_bench_idle(void) {}

void rm_target_irq_set_vector(void (*isr)(void))
{
    rm_vector_t v = isr != NULL ? isr : rm_cm_bench_idle;
#if RM_CM_V6M
    rm_cm_bench_isr = v;
#else
    rm_cm_ram_vectors[16 + RM_CM_BENCH_IRQ] = v;
#endif
    __asm volatile("dsb\n isb" ::: "memory");
}

/* Chip set-up that must run before anything else (e.g. the Kinetis
 * watchdog, which resets the chip unless disabled within a few cycles). */
void rm_cm_early_init(void);
__attribute__((weak)) void rm_cm_early_init(void) {}

#if RM_BOARD_CLOCK_MAX
/* A board's clock set-up (targets/<board>/clock.c, built unless the profile
 * says board_clock = "reset": cortex-m.cmake rm_board_clock_sources). */
void rm_cm_clock_init(void);
#endif

__attribute__((noreturn)) void Reset_Handler(void)
{
    rm_cm_early_init();
    /* Word copies: the linker script aligns these symbols to 4. */
    const uint32_t *src = __data_load;
    for (uint32_t *dst = __data_start; dst < __data_end;)
        *dst++ = *src++;
    for (uint32_t *dst = __bss_start; dst < __bss_end;)
        *dst++ = 0;
#if RM_BOARD_CLOCK_MAX
    /* After .data/.bss, so that a failure can be reported through the
     * target's output (RTT's block lives there); before main, so that no
     * measured interval holds it. */
    rm_cm_clock_init();
#endif
#if !RM_CM_V6M
    for (unsigned i = 0; i < RM_CM_VECTORS; i++)
        rm_cm_ram_vectors[i] = rm_cm_vectors[i];
    RM_SCB_VTOR = (uint32_t)(uintptr_t)rm_cm_ram_vectors;
    /* Separate MemManage/BusFault/UsageFault handlers, for a precise CFSR. */
    RM_SCB_SHCSR |= (7u << 16);
#endif
#if defined(__ARM_FP)
    RM_SCB_CPACR |= (0xFu << 20); /* CP10, CP11 full access */
    __asm volatile("dsb\n isb" ::: "memory");
#endif
    __libc_init_array();
    (void)main();
    rm_target_exit(0);
}

/* Fault entry: pass the frame that was stacked (MSP or PSP, chosen by
 * EXC_RETURN bit 2) to the C handler. Thumb-1 only, so it also runs on M0. */
__attribute__((naked)) void rm_cm_fault_entry(void)
{
    __asm volatile(
        "movs r0, #4\n"
        "mov r1, lr\n"
        "tst r0, r1\n"
        "beq 1f\n"
        "mrs r0, psp\n"
        "b 2f\n"
        "1: mrs r0, msp\n"
        "2: ldr r2, =rm_cm_fault_c\n"
        "bx r2\n"
        ".ltorg\n");
}

/* Exceptions nobody installed end the run the same way as a fault: the
 * harness sees a FAULT record with the exception number in psr. */
__attribute__((naked)) void rm_cm_unexpected(void)
{
    __asm volatile("b rm_cm_fault_entry\n");
}

__attribute__((used, noreturn)) void rm_cm_fault_c(const uint32_t *frame)
{
    rm_fault_t f = {
        .pc = frame[6],
        .lr = frame[5],
        .psr = frame[7],
    };
#if !RM_CM_V6M
    f.cfsr = RM_SCB_CFSR;
    f.hfsr = RM_SCB_HFSR;
    f.mmfar = RM_SCB_MMFAR;
    f.bfar = RM_SCB_BFAR;
#endif
    rm_report_fault(&f);
}

