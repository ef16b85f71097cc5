/* rtosmeter load profiles (../shared/BENCHMARKS.md §4): the background work
 * a loaded firmware runs during every case, so that each figure can be
 * compared with the same case idle. The harness writes the profile into
 * rm_build_config.h (RM_LOAD_KIND and its parameters); without RM_LOAD_KIND
 * this file is empty and the runner has no load code at all, so an idle
 * firmware is the unloaded one, instruction for instruction.
 *
 * The runner starts the load before each case and stops it after (never
 * around calib.overhead: the measurement's own cost is measured unloaded).
 * Rates are in Hz of the target's time, virtual time under QEMU -icount, so
 * an emulated loaded run is as exact as an idle one. Profiles:
 * - irq:<hz>:<work>  a periodic interrupt (the target's load timer) doing
 *   <work> units of rm_spin(): a stand-in for packet reception;
 * - tasks:<n>:<calls>  n tasks, RM_PRIO_MAX downwards (above every case
 *   thread, below the runner), each woken every kernel tick to make <calls>
 *   semaphore give/take pairs on its own semaphore;
 * - accept, reject, forward (:<hz>:<work>): a periodic "packet" interrupt
 *   copies a 64-byte packet from the receive buffer. reject drops it in the
 *   handler after the header check; accept and forward put it in a ring and
 *   give the network task (RM_PRIO_MAX) a semaphore, which checksums it and
 *   does <work> units; forward then writes it word by word to the transmit
 *   register (a volatile word: every target's stand-in for a device FIFO,
 *   one store per word as on a real one).
 * The handler gives a semaphore rather than sending to a queue: the
 * interrupt-safe give is the call every port has (rm_isr_sem_signal), and
 * the ring is what a driver's DMA ring would be. A ring overflow counts as a
 * dropped packet. The counts are emitted as META load.* of every case.
 */
#include "rm_core.h"

#ifdef RM_LOAD_KIND

/* The network-style kinds, and those of them that hand packets to a task. */
#define LOAD_NET (RM_LOAD_KIND >= RM_LOAD_KIND_ACCEPT)
#define LOAD_HANDOVER (RM_LOAD_KIND == RM_LOAD_KIND_ACCEPT || RM_LOAD_KIND == RM_LOAD_KIND_FORWARD)

static volatile uint32_t irqs, received, dropped, processed, rounds;

#if LOAD_NET
#define PACKET_WORDS 16u /* 64-byte packets */
#define RING_SLOTS 8u
#define OUR_ADDRESS 0x52544D31u /* "RTM1": accept/forward match it, reject does not */

static volatile uint32_t ring_head, ring_tail; /* written by the handler / the task */
static uint32_t ring[RING_SLOTS][PACKET_WORDS];
static volatile uint32_t rx_packet[PACKET_WORDS]; /* the receive device's buffer */
volatile uint32_t rm_load_tx;                    /* the transmit register */
#endif
static rm_obj_t load_sems[RM_LOAD_TASKS > 0 ? RM_LOAD_TASKS : 1];
static rm_thread_t load_threads[RM_LOAD_TASKS > 0 ? RM_LOAD_TASKS : 1];

#if RM_LOAD_KIND == RM_LOAD_KIND_IRQ
RM_ISR(on_load_tick)
{
    irqs++;
    rm_spin(RM_LOAD_WORK);
}
#elif LOAD_NET
/* The packet interrupt: receive, check the header, drop or hand over. */
RM_ISR(on_load_tick)
{
    uint32_t n = irqs++;
    rx_packet[0] = RM_LOAD_KIND == RM_LOAD_KIND_REJECT ? ~OUR_ADDRESS : OUR_ADDRESS;
    rx_packet[1] = n;
    if (rx_packet[0] != OUR_ADDRESS)
        return; /* dropped early: not for us */
    uint32_t head = ring_head;
    if (head - ring_tail >= RING_SLOTS) {
        dropped++;
        return;
    }
    uint32_t *slot = ring[head % RING_SLOTS];
    for (uint32_t i = 0; i < PACKET_WORDS; i++)
        slot[i] = rx_packet[i];
    ring_head = head + 1u;
    received++;
    (void)rm_isr_sem_signal(load_sems[0]);
}
#endif

#if RM_LOAD_KIND == RM_LOAD_KIND_TASKS
static void load_task(void *arg)
{
    rm_obj_t sem = load_sems[(uintptr_t)arg];
    for (;;) {
        (void)rm_thread_sleep(1u);
        for (uint32_t i = 0; i < (uint32_t)(RM_LOAD_WORK); i++) {
            (void)rm_sem_signal(sem, NULL);
            (void)rm_sem_wait(sem, NULL, RM_NO_WAIT);
        }
        rounds++;
    }
}
#elif LOAD_HANDOVER
/* The network task: one packet per semaphore take. */
static void load_task(void *arg)
{
    (void)arg;
    for (;;) {
        if (rm_sem_wait(load_sems[0], NULL, RM_FOREVER) != RM_OK)
            continue;
        const uint32_t *p = ring[ring_tail % RING_SLOTS];
        uint32_t sum = 0u;
        for (uint32_t i = 0; i < PACKET_WORDS; i++)
            sum += p[i];
        rm_spin(RM_LOAD_WORK);
#if RM_LOAD_KIND == RM_LOAD_KIND_FORWARD
        for (uint32_t i = 0; i < PACKET_WORDS; i++)
            rm_load_tx = p[i];
#endif
        rm_load_tx = sum;
        ring_tail++;
        processed++;
    }
}
#endif

RM_COLD_BEGIN

uint32_t rm_load_needs(void)
{
#if RM_LOAD_KIND == RM_LOAD_KIND_TASKS
    return RM_CAP_THREAD | RM_CAP_SEM | RM_CAP_PREEMPTIVE;
#elif LOAD_HANDOVER
    return RM_CAP_THREAD | RM_CAP_SEM | RM_CAP_ISR_SIGNAL | RM_CAP_PREEMPTIVE;
#else
    return 0u;
#endif
}

int rm_load_start(void)
{
    irqs = received = dropped = processed = rounds = 0u;
#if LOAD_NET
    ring_head = ring_tail = 0u;
#endif
    int rc = RM_OK;
#if RM_LOAD_KIND == RM_LOAD_KIND_TASKS
    for (uintptr_t i = 0; i < (uintptr_t)(RM_LOAD_TASKS) && rc == RM_OK; i++) {
        rc = rm_obj_create(&load_sems[i], RM_OBJ_SEM, NULL, 0u);
        if (rc == RM_OK)
            rc = rm_thread_create(&load_threads[i], "load", load_task, (void *)i,
                                  RM_PRIO_MAX - (int)i, 0u);
    }
#else
#if LOAD_HANDOVER
    rc = rm_obj_create(&load_sems[0], RM_OBJ_SEM, NULL, 0u);
    if (rc == RM_OK)
        rc = rm_thread_create(&load_threads[0], "net", load_task, NULL, RM_PRIO_MAX, 0u);
#endif
    if (rc == RM_OK)
        rc = rm_target_load_timer_start(RM_LOAD_HZ, on_load_tick);
#endif
    return rc;
}

void rm_load_stop(bool emit)
{
#if RM_LOAD_KIND != RM_LOAD_KIND_TASKS
    rm_target_load_timer_stop();
#endif
    for (unsigned i = 0; i < sizeof load_threads / sizeof load_threads[0]; i++) {
        if (load_threads[i] != NULL && rm_thread_delete(load_threads[i]) != RM_OK)
            rm_fail("rm_thread_delete of a load task failed");
        load_threads[i] = NULL;
        if (load_sems[i] != NULL)
            (void)rm_obj_delete(load_sems[i]);
        load_sems[i] = NULL;
    }
    if (!emit)
        return;
    rm_meta_str("load.profile", RM_LOAD_NAME);
#if RM_LOAD_KIND == RM_LOAD_KIND_TASKS
    rm_meta("load.rounds", rounds);
#else
    rm_meta("load.irqs", irqs);
#if LOAD_HANDOVER
    rm_meta("load.received", received);
    rm_meta("load.processed", processed);
    rm_meta("load.dropped", dropped);
#endif
#endif
}

RM_COLD_END

#endif /* RM_LOAD_KIND */
