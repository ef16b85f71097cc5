/* Contiki-NG port: the Thread-Metric tests run the way a system without
 * threads can run them, as processes (stackless protothreads) that hand
 * control to each other (port.h: rm_port_case_body). The reporter is the
 * shared one (rm_tm_report): its rm_thread_sleep runs Contiki-NG's
 * scheduler (port.c). Each adaptation is described in `tests` below and
 * emitted as stand_in.<case id>, so every report shows it at the number.
 *
 * A process must return to the scheduler for anything else to run (the
 * reporter included), so every loop ends its round by waiting for an event:
 * PROCESS_PAUSE() posts itself a continue event and waits for it (Contiki's
 * yield). Loop bodies otherwise follow Thread-Metric's (as bench/cases/
 * tm_sched.c and tm_ipc.c do for threads). Not here: tm.basic, whose shared
 * body without threads runs the loop on the runner and ends its periods
 * with the target's periodic timer (MPS2; the host has none: unsupported),
 * and tm.interrupt / tm.interrupt_preempt (the port declares no IRQ).
 */
#include <stdbool.h>
#include <string.h>

#include "contiki.h"
#include "rm_case_util.h"
#include "tm_processes.h"

#define N_PROCS 5u

static volatile uint32_t cnt[N_PROCS];
static volatile bool failed;
static process_event_t ev_resume, ev_message;

/* ---- tm.cooperative: 5 processes, each counts and yields ------------------ */
#define COOP_PROCESS(i)                                                    \
    PROCESS(coop##i, "tm.cooperative");                                    \
    PROCESS_THREAD(coop##i, ev, data)                                      \
    {                                                                      \
        (void)data;                                                        \
        PROCESS_BEGIN();                                                   \
        for (;;) {                                                         \
            PROCESS_PAUSE();                                               \
            cnt[i]++;                                                      \
        }                                                                  \
        PROCESS_END();                                                     \
    }
COOP_PROCESS(0)
COOP_PROCESS(1)
COOP_PROCESS(2)
COOP_PROCESS(3)
COOP_PROCESS(4)
static struct process *const coop[N_PROCS] = {&coop0, &coop1, &coop2, &coop3, &coop4};

/* ---- tm.preemptive: a chain of synchronous posts ------------------------- */
/* Process 0 "resumes" process 1 with process_post_synch (the receiver runs at
 * once, nested, as a higher-priority thread would preempt), which resumes
 * process 2, up to process 4; each counts after its post returns and then
 * waits ("suspends itself"), so control falls back down the chain to
 * process 0, which counts and pauses (the reporter's turn). */
#define CHAIN_PROCESS(i, next)                                             \
    PROCESS(chain##i, "tm.preemptive");                                    \
    PROCESS_THREAD(chain##i, ev, data)                                     \
    {                                                                      \
        (void)data;                                                        \
        PROCESS_BEGIN();                                                   \
        for (;;) {                                                         \
            PROCESS_WAIT_EVENT_UNTIL(ev == ev_resume);                     \
            process_post_synch(next, ev_resume, NULL);                     \
            cnt[i]++;                                                      \
        }                                                                  \
        PROCESS_END();                                                     \
    }
PROCESS(chain4, "tm.preemptive");
CHAIN_PROCESS(3, &chain4)
CHAIN_PROCESS(2, &chain3)
CHAIN_PROCESS(1, &chain2)
PROCESS(chain0, "tm.preemptive");
static struct process *const chain[N_PROCS] = {&chain0, &chain1, &chain2, &chain3, &chain4};

PROCESS_THREAD(chain0, ev, data)
{
    (void)data;
    PROCESS_BEGIN();
    for (;;) {
        process_post_synch(&chain1, ev_resume, NULL);
        cnt[0]++;
        PROCESS_PAUSE();
    }
    PROCESS_END();
}

PROCESS_THREAD(chain4, ev, data)
{
    (void)data;
    PROCESS_BEGIN();
    for (;;) {
        PROCESS_WAIT_EVENT_UNTIL(ev == ev_resume);
        cnt[4]++;
    }
    PROCESS_END();
}

/* ---- tm.message: an event carrying a 16-byte message --------------------- */
static rm_msg_t sent, received;

PROCESS(message_proc, "tm.message");
PROCESS_THREAD(message_proc, ev, data)
{
    PROCESS_BEGIN();
    for (;;) {
        process_post(PROCESS_CURRENT(), ev_message, &sent);
        PROCESS_WAIT_EVENT_UNTIL(ev == ev_message);
        memcpy(&received, data, sizeof received);
        if (received.w[3] != sent.w[3]) {
            break;
        }
        sent.w[3]++;
        cnt[0]++;
    }
    failed = true;
    PROCESS_END();
}

/* ---- tm.sync: the poll flag, set and taken -------------------------------- */
PROCESS(sync_proc, "tm.sync");
PROCESS_THREAD(sync_proc, ev, data)
{
    (void)data;
    PROCESS_BEGIN();
    for (;;) {
        process_poll(PROCESS_CURRENT());
        PROCESS_WAIT_EVENT_UNTIL(ev == PROCESS_EVENT_POLL);
        cnt[0]++;
    }
    PROCESS_END();
}

/* ---- tm.memory: a memb block allocated and freed -------------------------- */
MEMB(tm_blocks, struct { uint8_t b[RM_BLOCK_SIZE]; }, 4);

PROCESS(memory_proc, "tm.memory");
PROCESS_THREAD(memory_proc, ev, data)
{
    (void)data;
    PROCESS_BEGIN();
    for (;;) {
        if (memb_free(&tm_blocks, memb_alloc(&tm_blocks)) != 0) {
            break;
        }
        cnt[0]++;
        PROCESS_PAUSE();
    }
    failed = true;
    PROCESS_END();
}

/* ---- running one ------------------------------------------------------------ */
/* Start procs (the last first: a chain's head posts to the others as soon as
 * it starts), report, stop them. */
static void run_processes(struct process *const *procs, unsigned n, uint32_t *final)
{
    struct process *runner = process_current;
    failed = false;
    for (unsigned i = 0; i < N_PROCS; i++) {
        cnt[i] = 0u;
    }
    rm_meta("processes", n);
    for (unsigned i = n; i-- > 0u;) {
        process_start(procs[i], NULL);
    }
    process_current = runner;
    rm_tm_report(cnt, n, final);
    for (unsigned i = 0; i < n; i++) {
        process_exit(procs[i]);
    }
    process_current = runner;
}

static void run_cooperative(void)
{
    uint32_t final[N_PROCS];
    run_processes(coop, N_PROCS, final);
    rm_tm_check_within_1("counters_within_1_of_mean", final, N_PROCS);
}

static void run_preemptive(void)
{
    uint32_t final[N_PROCS];
    run_processes(chain, N_PROCS, final);
    rm_tm_check_within_1("counters_within_1_of_mean", final, N_PROCS);
}

static void run_one(struct process *p, const char *what_failed)
{
    struct process *procs[1] = {p};
    uint32_t final[1];
    run_processes(procs, 1u, final);
    if (failed) {
        rm_fail(what_failed);
    }
}

static void run_message(void)
{
    const rm_msg_t first = {{0x11112222u, 0x33334444u, 0x55556666u, 0x77778888u}};
    sent = first;
    run_one(&message_proc, "a received message's last word differed from the sent one");
    uint32_t lag = sent.w[3] - received.w[3];
    bool intact = received.w[0] == first.w[0] && received.w[1] == first.w[1] &&
                  received.w[2] == first.w[2] && lag <= 1u;
    rm_check("message_intact", intact, intact ? 0u : 1u, 0u);
}

static void run_sync(void)
{
    run_one(&sync_proc, "the poll event did not come");
}

static void run_memory(void)
{
    memb_init(&tm_blocks);
    run_one(&memory_proc, "memb_free refused the block memb_alloc gave");
}

/* ---- the table: case, body, what is adapted ---------------------------------- */
static const struct {
    const char *id;
    rm_port_body_t body;
    const char *adapted;
} tests[] = {
    {"tm.cooperative", run_cooperative,
     "5 processes, each counts then PROCESS_PAUSE() (posts itself a continue event and "
     "waits: the event queue is the round robin)"},
    {"tm.preemptive", run_preemptive,
     "5 processes without priorities: resume = process_post_synch to the next (it runs "
     "at once, nested), suspend = wait for the next event; process 0 pauses after each "
     "round"},
    {"tm.message", run_message,
     "process_post to itself of an event carrying a pointer to the 16-byte message, "
     "wait for it, copy the 16 bytes out (no queue copies it in)"},
    {"tm.sync", run_sync,
     "process_poll of itself and wait for the poll event (a binary flag in place of a "
     "semaphore)"},
    {"tm.memory", run_memory,
     "memb_alloc + memb_free of a 128-byte block, then PROCESS_PAUSE() (the count "
     "includes one event round trip)"},
};

rm_port_body_t rm_port_case_body(const char *id)
{
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        if (strcmp(tests[i].id, id) == 0) {
            if (ev_resume == 0u) {
                ev_resume = process_alloc_event();
                ev_message = process_alloc_event();
            }
            return tests[i].body;
        }
    }
    return NULL;
}

void rm_tm_processes_describe(void)
{
    static char key[40];
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        strcpy(key, "stand_in.");
        strncat(key, tests[i].id, sizeof key - sizeof "stand_in.");
        rm_emit_cfg(key, tests[i].adapted);
    }
}
