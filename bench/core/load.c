/* rtosmeter load profiles (docs/benchmarks.md §4): the background work
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
 * - net-accept, net-reject, net-forward (:<hz>): the OS's own network stack
 *   (RM_LOAD_NET, rtosmeter/net.h). Each interrupt hands the next frame of
 *   the trace (rm_net_trace.h, rtosmeter.net_trace) to the port's virtual
 *   radio. After the case the stack's counts must equal what the trace sent
 *   (every frame delivered to the socket, dropped below IPv6, or forwarded
 *   to the neighbour): otherwise the case fails, its figures are no figures.
 * - net-idle: the same stack brought up, no frame sent (no load timer).
 */
#include "rm_core.h"

#ifdef RM_LOAD_KIND

/* The network-style kinds, and those of them that hand packets to a task. */
#define LOAD_NET (RM_LOAD_KIND >= RM_LOAD_KIND_ACCEPT && RM_LOAD_KIND <= RM_LOAD_KIND_FORWARD)
#define LOAD_STACK (RM_LOAD_KIND >= RM_LOAD_KIND_NET_ACCEPT)
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
#if LOAD_STACK
#include "rm_net_trace.h"
#include "rtosmeter/net.h"

#ifndef RM_NET_STATE_IDLE
static const uint8_t net_trace[RM_NET_FRAMES][RM_NET_FRAME_LEN] = RM_NET_TRACE_INIT;
#endif
static rm_net_counts_t net_before; /* the stack's counts when the case began */
#endif
#if !LOAD_STACK
static rm_obj_t load_sems[RM_LOAD_TASKS > 0 ? RM_LOAD_TASKS : 1];
static rm_thread_t load_threads[RM_LOAD_TASKS > 0 ? RM_LOAD_TASKS : 1];
#endif

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
#elif LOAD_STACK && !defined(RM_NET_STATE_IDLE)
/* The air: the next frame of the trace reaches the radio. */
RM_ISR(on_load_tick)
{
    uint32_t n = irqs++;
    rm_port_net_rx(net_trace[n % RM_NET_FRAMES], RM_NET_FRAME_LEN);
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
#elif LOAD_STACK
    return RM_CAP_NET;
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
#elif LOAD_STACK
    rc = rm_port_net_start();
    rm_port_net_counts(&net_before);
#endif
#if !defined(RM_NET_STATE_IDLE)
    if (rc == RM_OK)
        rc = rm_target_load_timer_start(RM_LOAD_HZ, on_load_tick);
#endif
#endif
    return rc;
}

#if LOAD_STACK
void rm_load_breathe(rm_thread_t *hold, unsigned n)
{
    static uint32_t last;
    if (rm_tick_count() == last)
        return;
    for (unsigned i = 0; i < n; i++)
        if (rm_thread_suspend(hold[i]) != RM_OK)
            rm_fail("rm_thread_suspend of a held thread failed");
    (void)rm_thread_sleep(1u);
    for (unsigned i = 0; i < n; i++)
        if (rm_thread_resume(hold[i]) != RM_OK)
            rm_fail("rm_thread_resume of a held thread failed");
    last = rm_tick_count();
}

/* After the last frame: let the stack finish the frames in flight (20 ms),
 * then check its counts against the trace (rtosmeter/net.h). */
static void net_stop(bool emit)
{
    (void)rm_thread_sleep(rm_tick_hz() / 50u + 1u);
    rm_net_counts_t now;
    rm_port_net_counts(&now);
    uint32_t sent = irqs, read = now.read - net_before.read;
    uint32_t ip_in = now.ip_in - net_before.ip_in;
    uint32_t delivered = now.delivered - net_before.delivered;
    uint32_t forwarded = now.forwarded - net_before.forwarded;
    uint32_t overrun = now.overrun - net_before.overrun;
    if (!emit)
        return;
    rm_meta_str("load.profile", RM_LOAD_NAME);
    rm_meta_str("net.trace", RM_NET_STATE ":" RM_NET_TRACE_SHA);
    rm_meta("load.irqs", sent);
    rm_meta("net.sent", sent);
    rm_meta("net.read", read);
    rm_meta("net.ip_in", ip_in);
    rm_meta("net.delivered", delivered);
    rm_meta("net.forwarded", forwarded);
    rm_meta("net.tx_other", now.tx_other - net_before.tx_other);
    rm_meta("net.overrun", overrun);
    rm_meta("net.dropped_below_ip", read - ip_in);
    rm_meta("net.dropped_in_ip", ip_in - delivered - forwarded);
    rm_net_counts_t delta = {read, ip_in, delivered, forwarded, now.tx_other - net_before.tx_other,
                             overrun};
    bool agrees = rm_port_net_agrees(&delta); /* the stack's own counters too */
#if defined(RM_NET_STATE_ACCEPT)
    bool ok = ip_in == sent && delivered == sent && forwarded == 0u;
#elif defined(RM_NET_STATE_FORWARD)
    bool ok = ip_in == sent && forwarded == sent && delivered == 0u;
#elif defined(RM_NET_STATE_IDLE)
    bool ok = sent == 0u && ip_in == 0u && delivered == 0u && forwarded == 0u;
#else
    bool ok = delivered == 0u && forwarded == 0u;
#endif
    if (read != sent || overrun != 0u || !ok || !agrees)
        rm_fail("the network stack's counts disagree with the trace (META net.*: "
                RM_NET_STATE ")");
}
#endif

void rm_load_stop(bool emit)
{
#if RM_LOAD_KIND != RM_LOAD_KIND_TASKS && !defined(RM_NET_STATE_IDLE)
    rm_target_load_timer_stop();
#endif
#if LOAD_STACK
    net_stop(emit); /* no load task: the stack's threads are the OS's own */
#else
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
#endif /* LOAD_STACK */
}

RM_COLD_END

#endif /* RM_LOAD_KIND */
