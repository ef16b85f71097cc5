/* Test firmware (tests/test_qemu_plugin.py): known instruction sequences
 * measured with the rmcycles plugin's counter (built with RM_TS_PLUGIN on an
 * mps2 target), so the test can compare the plugin against instruction and
 * cycle counts computed by hand from plugins/qemu/cycle_model.md.
 *
 * Every sequence runs inside one asm statement between two reads written out
 * by hand, so no compiler code lands in the interval:
 *     dbg #0 ; ldr r0,[r1] ; nop ; <sequence> ; dbg #0 ; ldr r2,[r1]
 * The frame costs 3 instructions, 4 cycles (DBG 1, LDR 2, NOP 1); the nop
 * keeps the frame's LDR from pipelining into a sequence's first load.
 * Registers for the sequences: r3..r7, r12 (in: r4 = r6 = r12 = buf, r5 = 0,
 * r7 = 8), lr. */
#include "cm.h"
#include "rtosmeter/bench.h"

#if !(defined(RM_TS_PLUGIN) && RM_TS_PLUGIN)
#error "tests/firmware/cycles.c measures with the plugin counter: build with RM_TS_PLUGIN"
#endif

#define SAMPLES 8u

static uint32_t buf[8];

/* One measurement of SEQ: the plugin count between the two reads. */
#define MEASURE(SEQ)                                                                       \
    ({                                                                                     \
        register uint32_t t0_ __asm__("r0");                                               \
        register uint32_t t1_ __asm__("r2");                                               \
        register volatile uint32_t *c_ __asm__("r1") = &rm_plugin_counter;                 \
        register uint32_t *b_ __asm__("r4") = buf;                                         \
        __asm volatile("mov r6, r4\n mov r12, r4\n movs r5, #0\n movs r7, #8\n"            \
                       "dbg #0\n ldr r0, [r1]\n nop\n" SEQ "\n dbg #0\n ldr r2, [r1]\n"    \
                       : "=&r"(t0_), "=&r"(t1_), "+r"(b_)                                  \
                       : "r"(c_)                                                           \
                       : "r3", "r5", "r6", "r7", "r12", "lr", "memory", "cc");             \
        t1_ - t0_;                                                                         \
    })

#define SEQ_NOPS ".rept 100\n nop\n .endr"
#define SEQ_LOOP16 "movs r3, #10\n 1: subs r3, #1\n bne 1b"
#define SEQ_LOOP32_ALIGNED "b 2f\n .balign 4\n 2: movs r3, #10\n nop\n 1: subs.w r3, r3, #1\n bne 1b"
/* Its loop at 14 mod 16: SUBS.W at an address = 2 mod 4, across a 16-byte
 * line (tests/test_board_memory.py), whatever code comes before it. */
#define SEQ_LOOP32_ODD "b 2f\n .balign 16\n .skip 12\n 2: movs r3, #10\n 1: subs.w r3, r3, #1\n bne 1b"
#define SEQ_LDR_STR ".rept 10\n ldr r3, [r4]\n adds r3, #1\n str r3, [r4]\n .endr"
#define SEQ_PIPELINED                                                                      \
    "ldr r3, [r4]\n ldr r5, [r3]\n nop\n"             /* dependent: 2+2 */                 \
    "ldr r3, [r4]\n ldr r5, [r6]\n nop\n"             /* TRM: 3 */                          \
    "ldr r3, [r4, r7]\n str r3, [r6, #20]\n nop\n"    /* TRM: 3 */                          \
    "ldr r3, [r4, r7]\n str r7, [r6, r7]\n nop\n"     /* TRM: 3 */                          \
    "ldr r3, [r4, r7]\n ldr r5, [r6]\n ldr r6, [r12, #4]\n nop" /* TRM: 4 */
#define SEQ_MULTIPLE                                                                       \
    "push {r3-r7}\n pop {r3-r7}\n mov r3, r4\n stmia r3!, {r5, r6, r7}\n subs r3, #12\n"   \
    "ldmia r3!, {r5, r6, r7}\n bl 3f\n b 4f\n 3: push {r4, lr}\n pop {r4, pc}\n 4: nop"
#define SEQ_MUL                                                                            \
    "movs r5, #7\n muls r3, r5, r3\n mla r3, r5, r6, r3\n umull r3, r5, r6, r7\n"          \
    "smlal r3, r5, r6, r7\n udiv r3, r6, r7"
#define SEQ_SVC "svc #0\n nop"
#define SEQ_STIR                                                                           \
    "ldr r3, =0xE000EF00\n movs r5, %[irq]\n b 2f\n .balign 4\n .ltorg\n"                  \
    "2: str r5, [r3]\n nop\n dsb\n isb\n nop"

/* Conditional loads in an IT block: skipped (1 cycle each, no access), then
 * taken (their full cost). */
#define SEQ_IT_SKIPPED "movs r3, #1\n cmp r3, #0\n itt eq\n ldreq r3, [r4]\n ldmeq r4, {r3, r5}\n nop"
#define SEQ_IT_TAKEN "movs r3, #0\n cmp r3, #0\n itt eq\n ldreq r3, [r6]\n ldmeq r4, {r3, r5}\n nop"

/* The SVC and the benchmark interrupt return at once. */
__attribute__((naked)) void SVC_Handler(void)
{
    __asm volatile("bx lr");
}

__attribute__((naked)) static void bench_isr(void)
{
    __asm volatile("bx lr");
}

/* The tail-chain's first handler: a second line, one below the benchmark
 * line at the same priority, so it is taken first. */
#define CHAIN_IRQ (RM_CM_BENCH_IRQ - 1)

__attribute__((naked)) static void chain_isr(void)
{
    __asm volatile("bx lr");
}

#if defined(__ARM_FP)
/* The FP sequences' handler: its VMOV is the handler's first FP instruction,
 * which saves an extended frame's FP state (the lazy save). */
#define FP_IRQ (RM_CM_BENCH_IRQ - 2)

__attribute__((naked)) static void fp_isr(void)
{
    __asm volatile("vmov s1, r5\n bx lr");
}
#endif

static void record(const char *name, uint32_t (*fn)(void))
{
    rm_series_t s;
    rm_series_open(&s, name, "plugin count between two hand-written reads");
    for (uint32_t i = 0; i < SAMPLES; i++)
        rm_series_add(&s, fn());
    rm_series_close(&s);
}

static uint32_t m_empty(void) { return MEASURE(""); }
static uint32_t m_nops(void) { return MEASURE(SEQ_NOPS); }
static uint32_t m_loop16(void) { return MEASURE(SEQ_LOOP16); }
static uint32_t m_loop32_aligned(void) { return MEASURE(SEQ_LOOP32_ALIGNED); }
static uint32_t m_loop32_odd(void) { return MEASURE(SEQ_LOOP32_ODD); }
static uint32_t m_ldr_str(void) { return MEASURE(SEQ_LDR_STR); }
static uint32_t m_pipelined(void)
{
    buf[0] = (uint32_t)(uintptr_t)buf; /* the dependent load's address */
    return MEASURE(SEQ_PIPELINED);
}
static uint32_t m_multiple(void) { return MEASURE(SEQ_MULTIPLE); }
static uint32_t m_mul(void) { return MEASURE(SEQ_MUL); }
static uint32_t m_svc(void) { return MEASURE(SEQ_SVC); }
static uint32_t m_it_skipped(void) { return MEASURE(SEQ_IT_SKIPPED); }
static uint32_t m_it_taken(void) { return MEASURE(SEQ_IT_TAKEN); }

static uint32_t m_stir(void)
{
    register uint32_t t0_ __asm__("r0");
    register uint32_t t1_ __asm__("r2");
    register volatile uint32_t *c_ __asm__("r1") = &rm_plugin_counter;
    __asm volatile("dbg #0\n ldr r0, [r1]\n nop\n" SEQ_STIR "\n dbg #0\n ldr r2, [r1]\n"
                   : "=&r"(t0_), "=&r"(t1_)
                   : "r"(c_), [irq] "i"(RM_CM_BENCH_IRQ)
                   : "r3", "r5", "memory", "cc");
    return t1_ - t0_;
}

#if defined(__ARM_FP)
/* fp_isr pended through STIR, with CONTROL.FPCA cleared first (outside the
 * interval), and the thread's VMOV setting it again or not: an extended frame
 * whose FP state the handler's VMOV saves, or a basic frame. */
static uint32_t irq_fp(bool thread_fp)
{
    register uint32_t t0_ __asm__("r0");
    register uint32_t t1_ __asm__("r2");
    register volatile uint32_t *c_ __asm__("r1") = &rm_plugin_counter;
    register uint32_t fp_ __asm__("r6") = thread_fp;
    __asm volatile("mrs r3, control\n bic r3, r3, #4\n msr control, r3\n isb\n"
                   "ldr r3, =0xE000EF00\n movs r5, %[irq]\n"
                   "dbg #0\n ldr r0, [r1]\n nop\n"
                   "cbz r6, 1f\n vmov s0, r5\n 1: b 2f\n .balign 4\n .ltorg\n"
                   "2: str r5, [r3]\n nop\n dsb\n isb\n nop\n"
                   "dbg #0\n ldr r2, [r1]\n"
                   : "=&r"(t0_), "=&r"(t1_), "+r"(fp_)
                   : "r"(c_), [irq] "i"(FP_IRQ)
                   : "r3", "r5", "s0", "s1", "memory", "cc");
    return t1_ - t0_;
}

static uint32_t m_irq_fp(void) { return irq_fp(true); }
static uint32_t m_irq_nofp(void) { return irq_fp(false); }
#endif

/* Both lines pended with interrupts masked, then unmasked: the first
 * handler returns straight into the second (a tail-chain). */
static uint32_t m_tailchain(void)
{
    register uint32_t t0_ __asm__("r0");
    register uint32_t t1_ __asm__("r2");
    register volatile uint32_t *c_ __asm__("r1") = &rm_plugin_counter;
    __asm volatile("dbg #0\n ldr r0, [r1]\n nop\n"
                   "ldr r3, =0xE000EF00\n movs r5, %[a]\n movs r6, %[b]\n b 2f\n"
                   " .balign 4\n .ltorg\n"
                   "2: cpsid i\n str r5, [r3]\n str r6, [r3]\n cpsie i\n nop\n"
                   "dbg #0\n ldr r2, [r1]\n"
                   : "=&r"(t0_), "=&r"(t1_)
                   : "r"(c_), [a] "i"(CHAIN_IRQ), [b] "i"(RM_CM_BENCH_IRQ)
                   : "r3", "r5", "r6", "memory", "cc");
    return t1_ - t0_;
}

static void run_sequences(const rm_case_t *c)
{
    (void)c;
    rm_target_irq_set_vector(bench_isr);
    ((void (**)(void))(uintptr_t)RM_SCB_VTOR)[16 + CHAIN_IRQ] = chain_isr;
    rm_cm_irq_enable(CHAIN_IRQ, 0xC0u);
#if defined(__ARM_FP)
    ((void (**)(void))(uintptr_t)RM_SCB_VTOR)[16 + FP_IRQ] = fp_isr;
    rm_cm_irq_enable(FP_IRQ, 0xC0u);
#endif
    record("empty", m_empty);
    record("nops", m_nops);
    record("loop16", m_loop16);
    record("loop32_aligned", m_loop32_aligned);
    record("loop32_odd", m_loop32_odd);
    record("ldr_str", m_ldr_str);
    record("pipelined", m_pipelined);
    record("multiple", m_multiple);
    record("mul", m_mul);
    record("svc", m_svc);
    record("stir", m_stir);
    record("tailchain", m_tailchain);
    record("it_skipped", m_it_skipped);
    record("it_taken", m_it_taken);
#if defined(__ARM_FP)
    record("irq_fp", m_irq_fp);
    record("irq_nofp", m_irq_nofp);
#endif
}

RM_CASE(sequences, "selftest.sequences", 0, run_sequences, NULL);
