/* Test firmware (tests/test_cycle_models.py): known ARMv6-M instruction
 * sequences measured with the rmcycles plugin's counter on the microbit
 * (Cortex-M0), to compare the M0 and M0+ models against counts computed by
 * hand from plugins/qemu/cycle_model.md.
 *
 * As tests/firmware/cycles.c, every sequence runs inside one asm statement
 * between two reads written out by hand:
 *     hint #15 ; ldr r0,[r1] ; nop ; <sequence> ; hint #15 ; ldr r2,[r1]
 * (3 instructions, 4 cycles on both cores). Registers for the sequences:
 * r3..r7, r12, lr (in: r4 = r6 = r12 = buf, r5 = 0, r7 = 8). GCC hands
 * Thumb-1 inline assembly over in divided syntax: each statement starts
 * with `.syntax unified`. */
#include "cm.h"
#include "rtosmeter/bench.h"

#if !(defined(RM_TS_PLUGIN) && RM_TS_PLUGIN)
#error "tests/firmware/cycles_v6m.c measures with the plugin counter: build with RM_TS_PLUGIN"
#endif

#define SAMPLES 8u

static uint32_t buf[8];

#define MEASURE(SEQ)                                                                       \
    ({                                                                                     \
        register uint32_t t0_ __asm__("r0");                                               \
        register uint32_t t1_ __asm__("r2");                                               \
        register volatile uint32_t *c_ __asm__("r1") = &rm_plugin_counter;                 \
        register uint32_t *b_ __asm__("r4") = buf;                                         \
        __asm volatile(".syntax unified\n mov r6, r4\n mov r12, r4\n movs r5, #0\n movs r7, #8\n"            \
                       ".inst.n 0xbff0\n ldr r0, [r1]\n nop\n" SEQ                         \
                       "\n .inst.n 0xbff0\n ldr r2, [r1]\n"                                \
                       : "=&r"(t0_), "=&r"(t1_), "+r"(b_)                                  \
                       : "r"(c_)                                                           \
                       : "r3", "r5", "r6", "r7", "r12", "lr", "memory", "cc");             \
        t1_ - t0_;                                                                         \
    })

#define SEQ_NOPS ".rept 100\n nop\n .endr"
#define SEQ_LOOP16 "movs r3, #10\n 1: subs r3, #1\n bne 1b"
#define SEQ_LDR_STR ".rept 10\n ldr r3, [r4]\n adds r3, #1\n str r3, [r4]\n .endr"
#define SEQ_LOADS "ldr r3, [r4]\n ldr r5, [r6]\n nop" /* no pipelining on ARMv6-M */
#define SEQ_MULTIPLE                                                                       \
    "push {r3-r7}\n pop {r3-r7}\n mov r3, r4\n stmia r3!, {r5, r6, r7}\n subs r3, #12\n"   \
    "ldmia r3!, {r5, r6, r7}\n bl 3f\n b 4f\n 3: push {r4, lr}\n pop {r4, pc}\n 4: nop"
#define SEQ_MUL "movs r5, #7\n muls r3, r5, r3"
#define SEQ_SVC "svc #0\n nop"
#define SEQ_SYSTEM "mrs r3, primask\n msr primask, r3\n dsb\n dmb\n isb"

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
static uint32_t m_loop16(void) { return MEASURE(SEQ_LOOP16); }
static uint32_t m_ldr_str(void) { return MEASURE(SEQ_LDR_STR); }
static uint32_t m_loads(void) { return MEASURE(SEQ_LOADS); }
static uint32_t m_multiple(void) { return MEASURE(SEQ_MULTIPLE); }
static uint32_t m_mul(void) { return MEASURE(SEQ_MUL); }
static uint32_t m_svc(void) { return MEASURE(SEQ_SVC); }
static uint32_t m_system(void) { return MEASURE(SEQ_SYSTEM); }

static void run_sequences(const rm_case_t *c)
{
    (void)c;
    record("empty", m_empty);
    record("nops", m_nops);
    record("loop16", m_loop16);
    record("ldr_str", m_ldr_str);
    record("loads", m_loads);
    record("multiple", m_multiple);
    record("mul", m_mul);
    record("svc", m_svc);
    record("system", m_system);
}

RM_CASE(sequences, "selftest.sequences", 0, run_sequences, NULL);
