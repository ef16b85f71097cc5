/* lwIP under the net-* loads (rtosmeter/net.h), for every port whose
 * port.toml [net] says stack = "lwip": a virtual IEEE 802.15.4 radio under
 * lwIP's 6LoWPAN netif (src/netif/lowpan6.c), run by lwIP's tcpip thread on
 * the kernel's sys_arch (the port's port.cmake names it), configured by
 * lwipopts.h. Kernel-neutral: its threads through sys_thread_new, the end of
 * its interrupt through the port's rm_lwip_isr_exit. Built only under a
 * net-* load with lwIP's tree (lwip.cmake).
 *
 * Receive: the load interrupt (rm_port_net_rx) is the radio's interrupt: the
 * frame goes into a four-slot buffer (FCS stripped, as a radio's frame
 * buffer holds it) and lwIP's interrupt-safe callback message
 * (tcpip_callbackmsg_trycallback_fromisr) wakes the tcpip thread, which
 * hands each frame to lowpan6_input. lowpan6 does no address filtering, so
 * the radio filters destination addresses as 802.15.4 radios do in hardware
 * (frame filtering, IEEE 802.15.4 §5.1.6.2): a frame for another node is
 * dropped there, counted as read and never reaching IPv6.
 * Forward: lwIP does not send a packet out of the netif it came in on
 * (ip6_forward), so the radio carries a second lowpan6 netif, the route to
 * the neighbour (LWIP_HOOK_IP6_ROUTE), whose next hop is the neighbour
 * (LWIP_HOOK_ND6_GET_GW) with its MAC address in lwIP's neighbour cache as
 * a static entry (lwIP has no API for one: the entry is written reachable
 * for the next 49 days). Both netifs transmit through the radio.
 * Counts: frames read (the radio's), IPv6 packets received (the node
 * netif's MIB-II packets lowpan6 passed up), datagrams at the application's UDP connection (a task blocked
 * in netconn_recv), frames sent to the neighbour (forwarded) or elsewhere.
 * lwIP's own counters must agree (rm_port_net_agrees, META lwip.*): IPv6's
 * packets received, forwarded and dropped, UDP's datagrams received,
 * lowpan6's discards (MIB-II), and the frames the radio's filter dropped. */
#include "rm_build_config.h"
#ifdef RM_LOAD_NET
#include <string.h>

#include "lwip/api.h"
#include "lwip/ip6_addr.h"
#include "lwip/netif.h"
#include "lwip/priv/nd6_priv.h"
#include "lwip/stats.h"
#include "lwip/tcpip.h"
#include "netif/lowpan6.h"
#include "rm_lwip_port.h"
#include "rm_net_trace.h"
#include "rtosmeter/bench.h"
#include "rtosmeter/net.h"
#include "rtosmeter/net_ring.h"
#include "rtosmeter/port.h"
#include "rtosmeter/target.h"

#define MAC_DST_AT 5u /* FCF, sequence number, destination PAN */

static rm_net_ring_t rx_ring; /* filled by the interrupt, emptied by the tcpip thread */
static volatile uint32_t rx_posted;        /* the callback message is in the tcpip mailbox */
static volatile rm_net_counts_t counts;
static volatile uint32_t filtered; /* frames the radio's address filter dropped */
static const uint8_t node_mac[8] = RM_NET_NODE_MAC;
static const uint8_t neighbour_mac[8] = RM_NET_NEIGHBOUR_MAC;
static struct netif node_netif, route_netif;
static struct tcpip_callback_msg *rx_msg;
static ip6_addr_t neighbour_ip;

void rm_lwip_assert(const char *msg, const char *file, int line)
{
    (void)line;
    static const char head[] = "lwIP assertion failed: ";
    rm_target_write(head, sizeof head - 1u);
    rm_target_write(msg, strlen(msg));
    rm_target_write(" in ", 4u);
    rm_target_write(file, strlen(file));
    rm_target_write("\n", 1u);
    rm_target_exit(4);
}

unsigned int rm_lwip_rand(void)
{
    static uint32_t x = 1u;
    x = x * 1664525u + 1013904223u; /* Numerical Recipes' LCG: a fixed sequence */
    return (unsigned int)(x >> 8);
}

/* ---- receive ------------------------------------------------------------- */
/* The radio's address filter: a data frame for this node's long address. */
static bool for_this_node(const uint8_t *frame)
{
    for (unsigned i = 0; i < 8u; i++)
        if (frame[MAC_DST_AT + i] != node_mac[7u - i]) /* little-endian on air */
            return false;
    return true;
}

/* In the tcpip thread: every frame the interrupt left, into lowpan6. */
static void rx_drain(void *arg)
{
    (void)arg;
    rx_posted = 0u;
    uint32_t len;
    const uint8_t *frame;
    while ((frame = rm_net_ring_peek(&rx_ring, &len)) != NULL) {
        counts.read++;
        if (!for_this_node(frame)) {
            filtered++;
        } else {
            struct pbuf *p = pbuf_alloc(PBUF_RAW, (u16_t)len, PBUF_POOL);
            if (p == NULL) {
                counts.overrun++; /* no pbuf: the frame is lost below lowpan6 */
            } else {
                (void)pbuf_take(p, frame, (u16_t)len);
                (void)lowpan6_input(p, &node_netif); /* frees p */
            }
        }
        rm_net_ring_pop(&rx_ring);
    }
}

void rm_port_net_rx(const uint8_t *frame, uint32_t len)
{
    if (rx_msg == NULL || !rm_net_ring_put(&rx_ring, frame, len)) {
        counts.overrun++;
        return;
    }
    if (rx_posted)
        return; /* the drain already queued takes this frame too */
    err_t rc = tcpip_callbackmsg_trycallback_fromisr(rx_msg);
    if (rc == ERR_MEM) {
        rm_net_ring_unput(&rx_ring); /* the mailbox is full: the frame is lost */
        counts.overrun++;
        return;
    }
    rx_posted = 1u;
    rm_lwip_isr_exit(rc);
}

/* ---- transmit: both netifs' linkoutput ------------------------------------ */
static err_t radio_tx(struct netif *netif, struct pbuf *p)
{
    (void)netif;
    uint8_t dst[8];
    if (p->len >= MAC_DST_AT + sizeof dst) {
        memcpy(dst, (const uint8_t *)p->payload + MAC_DST_AT, sizeof dst);
        bool to_neighbour = true;
        for (unsigned i = 0; i < 8u; i++)
            to_neighbour = to_neighbour && dst[i] == neighbour_mac[7u - i];
        if (to_neighbour) {
            counts.forwarded++;
            return ERR_OK;
        }
    }
    counts.tx_other++;
    return ERR_OK;
}

/* ---- the static route to the neighbour (lwipopts.h hooks) ----------------- */
struct netif *rm_lwip_route(const ip6_addr_t *src, const ip6_addr_t *dest)
{
    (void)src;
    return ip6_addr_eq(dest, &neighbour_ip) ? &route_netif : NULL;
}

const ip6_addr_t *rm_lwip_gateway(struct netif *netif, const ip6_addr_t *dest)
{
    return netif == &route_netif && ip6_addr_eq(dest, &neighbour_ip) ? &neighbour_ip : NULL;
}

/* The neighbour's entry: its MAC address, reachable for UINT32_MAX ms. */
static bool add_neighbour(void)
{
    for (unsigned i = 0; i < LWIP_ND6_NUM_NEIGHBORS; i++) {
        struct nd6_neighbor_cache_entry *e = &neighbor_cache[i];
        if (e->state != ND6_NO_ENTRY)
            continue;
        ip6_addr_copy(e->next_hop_address, neighbour_ip);
        memcpy(e->lladdr, neighbour_mac, sizeof neighbour_mac);
        e->netif = &route_netif;
        e->isrouter = 0;
        e->state = ND6_REACHABLE;
        e->counter.reachable_time = UINT32_MAX;
        return true;
    }
    return false;
}

static err_t radio_netif_init(struct netif *netif)
{
    err_t rc = lowpan6_if_init(netif);
    netif->linkoutput = radio_tx;
    netif->hwaddr_len = sizeof node_mac;
    memcpy(netif->hwaddr, node_mac, sizeof node_mac);
    return rc;
}

/* ---- the application: one UDP connection on RM_NET_PORT ------------------- */
static void app_task(void *arg)
{
    struct netconn *conn = arg;
    for (;;) {
        struct netbuf *buf;
        if (netconn_recv(conn, &buf) != ERR_OK)
            continue;
        if (netbuf_len(buf) == RM_NET_PAYLOAD_LEN)
            counts.delivered++;
        netbuf_delete(buf);
    }
}

/* Under the tcpip core lock: the two netifs, the node's address, context 0,
 * the neighbour. */
static int configure(void)
{
    static const uint8_t node_ip[16] = RM_NET_NODE_IP, nb_ip[16] = RM_NET_NEIGHBOUR_IP;
    ip6_addr_t addr, prefix;
    memcpy(&addr.addr, node_ip, sizeof addr.addr);
    memcpy(&neighbour_ip.addr, nb_ip, sizeof neighbour_ip.addr);
    ip6_addr_clear_zone(&addr);
    ip6_addr_clear_zone(&neighbour_ip);
    IP6_ADDR(&prefix, PP_HTONL(0xfd000000ul), 0, 0, 0); /* fd00::/64 */
    if (netif_add_noaddr(&node_netif, NULL, radio_netif_init, tcpip_6lowpan_input) == NULL ||
        netif_add_noaddr(&route_netif, NULL, radio_netif_init, tcpip_6lowpan_input) == NULL)
        return RM_ERROR;
    s8_t idx;
    if (netif_add_ip6_address(&node_netif, &addr, &idx) != ERR_OK)
        return RM_ERROR;
    netif_ip6_addr_set_state(&node_netif, idx, IP6_ADDR_PREFERRED); /* configured, as RIOT's */
    netif_create_ip6_linklocal_address(&node_netif, 1);
    if (lowpan6_set_context(0, &prefix) != ERR_OK ||
        lowpan6_set_pan_id(RM_NET_PAN_ID) != ERR_OK ||
        lowpan6_set_short_addr(node_mac[6], node_mac[7]) != ERR_OK || !add_neighbour())
        return RM_ERROR;
    netif_set_up(&node_netif);
    netif_set_link_up(&node_netif);
    netif_set_up(&route_netif);
    netif_set_link_up(&route_netif);
    return RM_OK;
}

int rm_port_net_start(void)
{
    static bool up;
    if (up)
        return RM_OK;
    tcpip_init(NULL, NULL);
    LOCK_TCPIP_CORE();
    int rc = configure();
    UNLOCK_TCPIP_CORE();
    if (rc != RM_OK)
        return rc;
    struct netconn *conn = netconn_new(NETCONN_UDP_IPV6);
    if (conn == NULL || netconn_bind(conn, IP6_ADDR_ANY, RM_NET_PORT) != ERR_OK)
        return RM_ERROR;
    rx_msg = tcpip_callbackmsg_new(rx_drain, NULL);
    if (rx_msg == NULL)
        return RM_ERROR;
    /* 2 KiB of stack; sys_thread_new asserts it was created (rm_lwip_assert) */
    (void)sys_thread_new("udp app", app_task, conn, 2048, RM_PRIO_MAX - 1);
    up = true;
    return RM_OK;
}

/* lwIP's own counters, as of the last two rm_port_net_counts calls (the
 * case's start and end). */
typedef struct lwip_counts {
    uint32_t ip6_recv, udp_recv, ip6_fw, ip6_drop, lowpan6_discards, filtered;
} lwip_counts_t;
static lwip_counts_t lwip_before, lwip_now;

void rm_port_net_counts(rm_net_counts_t *out)
{
    lwip_before = lwip_now;
    lwip_now = (lwip_counts_t){lwip_stats.ip6.recv, lwip_stats.udp.recv, lwip_stats.ip6.fw,
                               lwip_stats.ip6.drop, node_netif.mib2_counters.ifindiscards,
                               filtered};
    out->read = counts.read;
    out->ip_in = node_netif.mib2_counters.ifinucastpkts; /* lowpan6's to ip6_input */
    out->delivered = counts.delivered;
    out->forwarded = counts.forwarded;
    out->tx_other = counts.tx_other;
    out->overrun = counts.overrun;
}

bool rm_port_net_agrees(const rm_net_counts_t *delta)
{
    /* lwIP's statistics are STAT_COUNTERs (16 bits by default): wrapped apart */
    uint32_t recv = (STAT_COUNTER)(lwip_now.ip6_recv - lwip_before.ip6_recv);
    uint32_t udp = (STAT_COUNTER)(lwip_now.udp_recv - lwip_before.udp_recv);
    uint32_t fw = (STAT_COUNTER)(lwip_now.ip6_fw - lwip_before.ip6_fw);
    uint32_t drop = (STAT_COUNTER)(lwip_now.ip6_drop - lwip_before.ip6_drop);
    uint32_t discards = lwip_now.lowpan6_discards - lwip_before.lowpan6_discards;
    uint32_t radio = lwip_now.filtered - lwip_before.filtered;
    rm_meta("lwip.ip6.recv", recv);
    rm_meta("lwip.udp.recv", udp);
    rm_meta("lwip.ip6.fw", fw);
    rm_meta("lwip.ip6.drop", drop);
    rm_meta("lwip.lowpan6.discards", discards);
    rm_meta("radio.filtered", radio); /* where a frame for another node is dropped */
    return udp == delta->delivered && fw == delta->forwarded && drop == 0u &&
           recv == delta->ip_in && discards == 0u && radio == delta->read - delta->ip_in;
}
#endif /* RM_LOAD_NET */
