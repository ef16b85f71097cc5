/* RIOT under the net-* loads (rtosmeter/net.h): a virtual IEEE 802.15.4
 * radio as a legacy netdev (netdev_ieee802154_t, blocking send), run by a
 * GNRC 802.15.4 network interface (gnrc_netif_ieee802154_create) with
 * RIOT's default 6LoWPAN router stack (app/Makefile: gnrc_ipv6_router_default,
 * gnrc_sixlowpan, gnrc_udp, gnrc_sock_udp). Compiled empty without a net-*
 * load (app/Makefile adds the modules only then).
 *
 * Receive: the load interrupt (rm_port_net_rx) is the radio's interrupt:
 * the frame goes into a four-slot buffer (FCS stripped) and NETDEV_EVENT_ISR
 * wakes the netif thread, whose isr() hands each frame to GNRC
 * (NETDEV_EVENT_RX_COMPLETE). The radio filters destination addresses as
 * RIOT's 802.15.4 radios do in hardware (ieee802154_dst_filter): a frame for
 * another node is dropped there, the MAC of this stack.
 * Counts: frames read, IPv6 packets received (netstats_ipv6), datagrams at
 * the application's UDP socket (a thread blocked in sock_udp_recv), frames
 * sent to the neighbour (forwarded) or elsewhere.
 * The node: MAC RM_NET_NODE_MAC, IPv6 RM_NET_NODE_IP, 6LoWPAN context 0 =
 * fd00::/64, the neighbour in the neighbour cache and the default route
 * through it (the study's static route). */
#include "rm_build_config.h"
#ifdef RM_LOAD_NET
#include <errno.h>
#include <string.h>

#include "net/gnrc.h"
#include "net/gnrc/ipv6/nib.h"
#include "net/gnrc/netif/ieee802154.h"
#include "net/gnrc/sixlowpan/ctx.h"
#include "net/ieee802154.h"
#include "net/netdev/ieee802154.h"
#include "net/sock/udp.h"
#include "rm_net_trace.h"
#include "rtosmeter/bench.h"
#include "rtosmeter/net.h"
#include "rtosmeter/net_ring.h"
#include "thread.h"

static netdev_ieee802154_t radio;
static rm_net_ring_t rx_ring; /* filled by the interrupt, emptied by the netif thread */
static uint8_t tx_buf[IEEE802154_FRAME_LEN_MAX];
static volatile rm_net_counts_t counts;
static const uint8_t node_mac[8] = RM_NET_NODE_MAC;
static const uint8_t neighbour_mac[8] = RM_NET_NEIGHBOUR_MAC;

void rm_port_net_rx(const uint8_t *frame, uint32_t len)
{
    if (radio.netdev.event_callback == NULL || !rm_net_ring_put(&rx_ring, frame, len)) {
        counts.overrun++;
        return;
    }
    radio.netdev.event_callback(&radio.netdev, NETDEV_EVENT_ISR);
}

/* ---- netdev_driver_t ------------------------------------------------------- */
static int radio_send(netdev_t *dev, const iolist_t *iolist)
{
    (void)dev;
    size_t len = 0;
    for (const iolist_t *i = iolist; i != NULL; i = i->iol_next) {
        if (len + i->iol_len > sizeof tx_buf)
            return -EOVERFLOW;
        memcpy(tx_buf + len, i->iol_base, i->iol_len);
        len += i->iol_len;
    }
    le_uint16_t dst_pan;
    uint8_t dst[IEEE802154_LONG_ADDRESS_LEN];
    int dst_len = ieee802154_get_dst(tx_buf, dst, &dst_pan);
    if (dst_len == IEEE802154_LONG_ADDRESS_LEN && memcmp(dst, neighbour_mac, sizeof dst) == 0)
        counts.forwarded++;
    else
        counts.tx_other++;
    return (int)len;
}

/* recv(NULL, 0): the next frame's length, 0 when none is left or the
 * radio's address filter dropped it; recv(NULL, n): drop; recv(buf, n): read. */
static int radio_recv(netdev_t *dev, void *buf, size_t len, void *info)
{
    (void)dev;
    uint32_t frame_len;
    const uint8_t *frame;
    while ((frame = rm_net_ring_peek(&rx_ring, &frame_len)) != NULL) {
        if (buf == NULL && len == 0u) {
            network_uint16_t short_addr;
            memcpy(&short_addr, radio.short_addr, sizeof short_addr);
            if (ieee802154_dst_filter(frame, radio.pan, short_addr,
                                      (const eui64_t *)radio.long_addr) == 0)
                return (int)frame_len;
            rm_net_ring_pop(&rx_ring); /* for another node: dropped by the radio's filter */
            counts.read++;
            continue;
        }
        int n = (int)frame_len;
        if (buf != NULL) {
            if (len < (size_t)n)
                n = -ENOBUFS;
            else
                memcpy(buf, frame, (size_t)n);
            if (info != NULL) {
                netdev_ieee802154_rx_info_t *rx = info;
                rx->rssi = 0;
                rx->lqi = 0xFF;
            }
        }
        rm_net_ring_pop(&rx_ring);
        counts.read++;
        return n;
    }
    return 0;
}

static void radio_isr(netdev_t *dev)
{
    uint32_t frame_len;
    while (rm_net_ring_peek(&rx_ring, &frame_len) != NULL)
        dev->event_callback(dev, NETDEV_EVENT_RX_COMPLETE);
}

static int radio_init(netdev_t *dev)
{
    (void)dev;
    netdev_ieee802154_reset(&radio);
    radio.pan = RM_NET_PAN_ID;
    radio.chan = RM_NET_CHANNEL;
    memcpy(radio.long_addr, node_mac, sizeof radio.long_addr);
    radio.short_addr[0] = node_mac[6];
    radio.short_addr[1] = node_mac[7];
    radio.flags |= NETDEV_IEEE802154_SRC_MODE_LONG;
    return 0;
}

static int radio_get(netdev_t *dev, netopt_t opt, void *value, size_t max_len)
{
    (void)dev;
    return netdev_ieee802154_get(&radio, opt, value, max_len);
}

static int radio_set(netdev_t *dev, netopt_t opt, const void *value, size_t len)
{
    (void)dev;
    return netdev_ieee802154_set(&radio, opt, value, len);
}

static const netdev_driver_t radio_driver = {
    .send = radio_send, .recv = radio_recv, .init = radio_init, .isr = radio_isr,
    .get = radio_get, .set = radio_set,
};

/* ---- the node --------------------------------------------------------------- */
static gnrc_netif_t netif;
static char netif_stack[THREAD_STACKSIZE_DEFAULT];
static char app_stack[THREAD_STACKSIZE_DEFAULT];
static sock_udp_t sock;

/* The application: one UDP socket on RM_NET_PORT, as the study's node. */
static void *app_thread(void *arg)
{
    (void)arg;
    static uint8_t buf[64];
    for (;;) {
        ssize_t n = sock_udp_recv(&sock, buf, sizeof buf, SOCK_NO_TIMEOUT, NULL);
        if (n == (ssize_t)RM_NET_PAYLOAD_LEN)
            counts.delivered++;
    }
    return NULL;
}

int rm_port_net_start(void)
{
    static bool up;
    if (up)
        return RM_OK;
    radio.netdev.driver = &radio_driver;
    if (gnrc_netif_ieee802154_create(&netif, netif_stack, sizeof netif_stack, GNRC_NETIF_PRIO,
                                     "rm_radio", &radio.netdev) != 0)
        return RM_ERROR;
    static const uint8_t node_ip[16] = RM_NET_NODE_IP;
    ipv6_addr_t addr, prefix = {{0xfd}}, router;
    memcpy(&addr, node_ip, sizeof addr);
    if (gnrc_netif_ipv6_addr_add(&netif, &addr, 64, GNRC_NETIF_IPV6_ADDRS_FLAGS_STATE_VALID) < 0)
        return RM_ERROR;
    if (gnrc_sixlowpan_ctx_update(0, &prefix, 64, UINT16_MAX, true) == NULL)
        return RM_ERROR;
    /* the neighbour: fe80::IID of its MAC (U/L bit flipped), cached, the default route */
    ipv6_addr_set_link_local_prefix(&router);
    memcpy(&router.u8[8], neighbour_mac, 8);
    router.u8[8] ^= 0x02u;
    if (gnrc_ipv6_nib_nc_set(&router, netif.pid, neighbour_mac, sizeof neighbour_mac) != 0 ||
        gnrc_ipv6_nib_ft_add(NULL, 0, &router, netif.pid, 0) != 0)
        return RM_ERROR;
    sock_udp_ep_t local = SOCK_IPV6_EP_ANY;
    local.port = RM_NET_PORT;
    if (sock_udp_create(&sock, &local, NULL, 0) != 0)
        return RM_ERROR;
    if (thread_create(app_stack, sizeof app_stack, THREAD_PRIORITY_MAIN - 1, 0, app_thread,
                      NULL, "udp app") < 0)
        return RM_ERROR;
    up = true;
    return RM_OK;
}

void rm_port_net_counts(rm_net_counts_t *out)
{
    out->read = counts.read;
    out->ip_in = netif.ipv6.stats.rx_count; /* netstats_ipv6 */
    out->delivered = counts.delivered;
    out->forwarded = counts.forwarded;
    out->tx_other = counts.tx_other;
    out->overrun = counts.overrun;
}
#endif /* RM_LOAD_NET */
