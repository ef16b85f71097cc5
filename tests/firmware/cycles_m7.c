/* Test firmware (tests/test_cycle_models.py): instruction sequences that
 * show the Cortex-M7 model's rules (dual issue, the load-use interlock,
 * branch prediction, the 64-bit data path), measured with the rmcycles
 * plugin's counter on mps2-an500, against counts computed by hand from
 * plugins/qemu/cycle_model.md.
 *
 * As tests/firmware/cycles.c:
 *     dbg #0 ; ldr r0,[r1] ; nop ; <sequence> ; dbg #0 ; ldr r2,[r1]
 * (3 instructions; on the M7 2 cycles: DBG issues alone, the NOP pairs with
 * the LDR). Registers: r3..r7, r12, lr (in: r4 = r6 = r12 = buf, r5 = 0,
 * r7 = 8). */
#include "cm.h"
#include "rtosmeter/bench.h"

#if !(defined(RM_TS_PLUGIN) && RM_TS_PLUGIN)
#error "tests/firmware/cycles_m7.c measures with the plugin counter: build with RM_TS_PLUGIN"
#endif

#define SAMPLES 8u

static uint32_t buf[8];

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
#define SEQ_DEPENDENT ".rept 10\n adds r3, #1\n .endr"
#define SEQ_INDEPENDENT ".rept 10\n adds r3, #1\n adds r5, #1\n .endr"
#define SEQ_LOADS                                                                          \
    "ldr r3, [r4]\n adds r3, #1\n ldr r3, [r4]\n adds r5, #1\n ldr r3, [r4]\n"             \
    "ldr r5, [r6]\n nop"
#define SEQ_LOOP "movs r3, #10\n 1: subs r3, #1\n bne 1b"
#define SEQ_MUL                                                                            \
    "movs r5, #7\n muls r3, r5, r3\n mla r3, r5, r6, r3\n umull r3, r5, r6, r7\n"          \
    "udiv r3, r6, r7"
#define SEQ_CALL                                                                           \
    "push {r3-r7}\n pop {r3-r7}\n bl 3f\n b 4f\n 3: push {r4, lr}\n pop {r4, pc}\n 4: nop"
#define SEQ_SVC "svc #0\n nop"
#define SEQ_BARRIERS "dsb\n isb\n nop"

__attribute__((naked)) void SVC_Handler(void)
{
    __asm volatile("bx lr");
}

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
static uint32_t m_dependent(void) { return MEASURE(SEQ_DEPENDENT); }
static uint32_t m_independent(void) { return MEASURE(SEQ_INDEPENDENT); }
static uint32_t m_loads(void) { return MEASURE(SEQ_LOADS); }
static uint32_t m_loop(void) { return MEASURE(SEQ_LOOP); }
static uint32_t m_mul(void) { return MEASURE(SEQ_MUL); }
static uint32_t m_call(void) { return MEASURE(SEQ_CALL); }
static uint32_t m_svc(void) { return MEASURE(SEQ_SVC); }
static uint32_t m_barriers(void) { return MEASURE(SEQ_BARRIERS); }

static void run_sequences(const rm_case_t *c)
{
    (void)c;
    record("empty", m_empty);
    record("nops", m_nops);
    record("dependent", m_dependent);
    record("independent", m_independent);
    record("loads", m_loads);
    record("loop", m_loop);
    record("mul", m_mul);
    record("call", m_call);
    record("svc", m_svc);
    record("barriers", m_barriers);
}

RM_CASE(sequences, "selftest.sequences", 0, run_sequences, NULL);
