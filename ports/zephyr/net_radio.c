/* Zephyr under the net-* loads (rtosmeter/net.h): a virtual IEEE 802.15.4
 * radio implementing Zephyr's radio API (struct ieee802154_radio_api), a
 * network device on Zephyr's IEEE 802.15.4 L2 (NET_DEVICE_INIT), under
 * Zephyr's own 6LoWPAN, IPv6 and UDP with a BSD socket (conf/net.conf: what
 * had to be set, and why). Compiled empty without a net-* load
 * (app/CMakeLists.txt adds the file and net.conf only then).
 *
 * Receive: the load interrupt (rm_port_net_rx) is the radio's receive
 * interrupt: it copies the frame (FCS stripped: the radio checks it,
 * IEEE802154_HW_FCS) into a packet and hands it to net_recv_data, as
 * Zephyr's interrupt-driven network drivers do (eth_stellaris); the stack's
 * RX thread takes it through the L2, 6LoWPAN, IPv6 and UDP. The radio has no
 * address filter (no IEEE802154_HW_FILTER): the L2 drops frames for another
 * node. It acknowledges received frames and waits for the neighbour's
 * acknowledgements itself (RX_TX_ACK, TX_RX_ACK: a neighbour that hears
 * every frame), as the CC2520 of the study and the nRF52840 do.
 * Transmit: counted, by the frame's destination (the neighbour: forwarded).
 * Counts: frames handed to the stack, IPv6 packets received (Zephyr's
 * net_stats, CONFIG_NET_STATISTICS), datagrams at the application's UDP
 * socket (a thread blocked in zsock_recv), frames transmitted.
 *
 * The node: MAC RM_NET_NODE_MAC, PAN RM_NET_PAN_ID, channel RM_NET_CHANNEL,
 * IPv6 RM_NET_NODE_IP. Zephyr learns 6LoWPAN contexts only from router
 * advertisements (6CO): at start-up the radio receives the trace's one RA
 * (RM_NET_RA_INIT, rtosmeter.net_trace.router_advertisement), so the stack
 * learns context 0 = fd00::/64 its own way. (Zephyr 3.5's RA parser does
 * not step over a 6CO, so it counts that RA as an ND drop once it has taken
 * the context.) It uses a context only when IPHC names it (CID=1), so this
 * port's trace carries that byte (port.toml [net] iphc_cid).
 * The forward state's route: node 3's link-local address in the neighbour
 * cache (static) and a host route to node 3 through it (Zephyr's
 * CONFIG_NET_ROUTE; its own API, subsys/net/ip: Zephyr 3.5 has no public
 * call for either, and no RPL to learn them). */
#include "rm_build_config.h"
#ifdef RM_LOAD_NET
#include <string.h>
#include <zephyr/kernel.h>
/* Zephyr 3.5's network headers do not build clean under -Wextra (their
 * inline stubs' unused parameters, net_if.h's type-limits): ours does. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wtype-limits"
#include <zephyr/net/ieee802154_mgmt.h>
#include <zephyr/net/ieee802154_radio.h>
#include <zephyr/net/net_if.h>
#include <zephyr/net/net_mgmt.h>
#include <zephyr/net/net_pkt.h>
#include <zephyr/net/net_stats.h>
#include <zephyr/net/socket.h>

#include "ipv6.h"  /* net_ipv6_nbr_add (subsys/net/ip) */
#include "route.h" /* net_route_add (subsys/net/ip) */
#pragma GCC diagnostic pop
#include "rm_net_trace.h"
#include "rtosmeter/bench.h"
#include "rtosmeter/net.h"

#define FCS_LEN 2u
#define APP_STACK 1024

static struct net_if *radio_iface;
static volatile rm_net_counts_t counts;
static uint8_t node_mac[8] = RM_NET_NODE_MAC;
static uint8_t neighbour_mac[8] = RM_NET_NEIGHBOUR_MAC;

/* A frame on the air reaches the radio (load interrupt, or start-up). */
static void radio_receive(const uint8_t *frame, uint32_t len)
{
    struct net_pkt *pkt = NULL;
    if (radio_iface != NULL && len > FCS_LEN)
        pkt = net_pkt_rx_alloc_with_buffer(radio_iface, len - FCS_LEN, AF_UNSPEC, 0, K_NO_WAIT);
    if (pkt == NULL) {
        counts.overrun++; /* no packet buffer free: the radio drops the frame */
        return;
    }
    if (net_pkt_write(pkt, frame, len - FCS_LEN) != 0 || net_recv_data(radio_iface, pkt) < 0) {
        net_pkt_unref(pkt);
        counts.overrun++;
        return;
    }
    counts.read++;
}

void rm_port_net_rx(const uint8_t *frame, uint32_t len)
{
    radio_receive(frame, len);
}

/* ---- struct ieee802154_radio_api ----------------------------------------- */
static enum ieee802154_hw_caps radio_caps(const struct device *dev)
{
    ARG_UNUSED(dev);
    return IEEE802154_HW_FCS | IEEE802154_HW_RX_TX_ACK | IEEE802154_HW_TX_RX_ACK;
}

static int radio_cca(const struct device *dev)
{
    ARG_UNUSED(dev);
    return 0; /* the channel is always clear */
}

static int radio_set_channel(const struct device *dev, uint16_t channel)
{
    ARG_UNUSED(dev);
    return channel == RM_NET_CHANNEL ? 0 : -EINVAL;
}

static int radio_filter(const struct device *dev, bool set, enum ieee802154_filter_type type,
                        const struct ieee802154_filter *filter)
{
    ARG_UNUSED(dev);
    ARG_UNUSED(type);
    ARG_UNUSED(filter);
    return set ? 0 : -ENOTSUP; /* no hardware filter to program (caps) */
}

static int radio_set_txpower(const struct device *dev, int16_t dbm)
{
    ARG_UNUSED(dev);
    ARG_UNUSED(dbm);
    return 0;
}

/* The L2 hands each frame without FCS; on the air addresses are little-endian. */
static int radio_tx(const struct device *dev, enum ieee802154_tx_mode mode, struct net_pkt *pkt,
                    struct net_buf *frag)
{
    ARG_UNUSED(dev);
    ARG_UNUSED(pkt);
    if (mode != IEEE802154_TX_MODE_DIRECT)
        return -ENOTSUP;
    const uint8_t *f = frag->data;
    uint16_t fcf = (uint16_t)(f[0] | (f[1] << 8));
    bool to_neighbour = false;
    if (frag->len >= 13u && ((fcf >> 10) & 3u) == 3u) { /* 64-bit destination after the PAN */
        to_neighbour = true;
        for (unsigned i = 0; i < 8u; i++)
            to_neighbour = to_neighbour && f[5u + i] == neighbour_mac[7u - i];
    }
    if (to_neighbour)
        counts.forwarded++;
    else
        counts.tx_other++;
    return 0;
}

static int radio_start(const struct device *dev)
{
    ARG_UNUSED(dev);
    return 0;
}

static int radio_stop(const struct device *dev)
{
    ARG_UNUSED(dev);
    return 0;
}

IEEE802154_DEFINE_PHY_SUPPORTED_CHANNELS(radio_channels, 11, 26);

static int radio_attr_get(const struct device *dev, enum ieee802154_attr attr,
                          struct ieee802154_attr_value *value)
{
    ARG_UNUSED(dev);
    return ieee802154_attr_get_channel_page_and_range(
        attr, IEEE802154_ATTR_PHY_CHANNEL_PAGE_ZERO_OQPSK_2450_BPSK_868_915,
        &radio_channels.phy_supported_channels, value);
}

static void radio_iface_init(struct net_if *iface)
{
    radio_iface = iface;
    net_if_set_link_addr(iface, node_mac, sizeof node_mac, NET_LINK_IEEE802154);
    ieee802154_init(iface);
}

static int radio_init(const struct device *dev)
{
    ARG_UNUSED(dev);
    return 0;
}

static const struct ieee802154_radio_api radio_api = {
    .iface_api.init = radio_iface_init,
    .get_capabilities = radio_caps,
    .cca = radio_cca,
    .set_channel = radio_set_channel,
    .filter = radio_filter,
    .set_txpower = radio_set_txpower,
    .tx = radio_tx,
    .start = radio_start,
    .stop = radio_stop,
    .attr_get = radio_attr_get,
};

NET_DEVICE_INIT(rm_radio, "rm_radio", radio_init, NULL, NULL, NULL,
                CONFIG_KERNEL_INIT_PRIORITY_DEFAULT, &radio_api, IEEE802154_L2,
                NET_L2_GET_CTX_TYPE(IEEE802154_L2), IEEE802154_MTU);

/* ---- the node ---------------------------------------------------------------- */
static K_THREAD_STACK_DEFINE(app_stack, APP_STACK);
static struct k_thread app_thread;
static int app_sock = -1;

/* The application: one UDP socket on RM_NET_PORT, as the study's node. */
static void app_main(void *a, void *b, void *c)
{
    ARG_UNUSED(a);
    ARG_UNUSED(b);
    ARG_UNUSED(c);
    static uint8_t buf[64];
    for (;;) {
        ssize_t n = zsock_recv(app_sock, buf, sizeof buf, 0);
        if (n == (ssize_t)RM_NET_PAYLOAD_LEN)
            counts.delivered++;
    }
}

static bool address_ready(const struct in6_addr *addr)
{
    struct net_if *iface = radio_iface;
    struct net_if_addr *ifaddr = net_if_ipv6_addr_lookup(addr, &iface);
    return ifaddr != NULL && ifaddr->addr_state == NET_ADDR_PREFERRED;
}

int rm_port_net_start(void)
{
    static bool up;
    if (up)
        return RM_OK;
    struct net_if *iface = radio_iface;
    uint16_t pan = RM_NET_PAN_ID, channel = RM_NET_CHANNEL;
    if (iface == NULL || net_mgmt(NET_REQUEST_IEEE802154_SET_PAN_ID, iface, &pan, sizeof pan) ||
        net_mgmt(NET_REQUEST_IEEE802154_SET_CHANNEL, iface, &channel, sizeof channel))
        return RM_ERROR;
    if (!net_if_is_up(iface) && net_if_up(iface) != 0)
        return RM_ERROR;
    static const uint8_t node_ip[16] = RM_NET_NODE_IP, neighbour_ip[16] = RM_NET_NEIGHBOUR_IP;
    struct in6_addr addr, neighbour, router;
    memcpy(&addr, node_ip, sizeof addr);
    memcpy(&neighbour, neighbour_ip, sizeof neighbour);
    if (net_if_ipv6_addr_add(iface, &addr, NET_ADDR_MANUAL, 0) == NULL)
        return RM_ERROR;
    /* node 3's link-local address (fe80:: and the IID of its MAC) */
    struct net_linkaddr lladdr = {.addr = neighbour_mac, .len = sizeof neighbour_mac,
                                  .type = NET_LINK_IEEE802154};
    net_ipv6_addr_create_iid(&router, &lladdr);
    if (net_ipv6_nbr_add(iface, &router, &lladdr, false, NET_IPV6_NBR_STATE_STATIC) == NULL ||
        net_route_add(iface, &neighbour, 128, &router, NET_IPV6_ND_INFINITE_LIFETIME,
                      NET_ROUTE_PREFERENCE_MEDIUM) == NULL)
        return RM_ERROR;
    static const uint8_t ra[RM_NET_RA_LEN] = RM_NET_RA_INIT;
    radio_receive(ra, sizeof ra); /* context 0 and the on-link prefix */
    /* duplicate address detection: the address is usable once preferred */
    for (int i = 0; i < 300 && !address_ready(&addr); i++)
        k_sleep(K_MSEC(10));
    if (!address_ready(&addr))
        return RM_ERROR;
    app_sock = zsock_socket(AF_INET6, SOCK_DGRAM, IPPROTO_UDP);
    struct sockaddr_in6 local = {.sin6_family = AF_INET6, .sin6_port = htons(RM_NET_PORT)};
    if (app_sock < 0 || zsock_bind(app_sock, (struct sockaddr *)&local, sizeof local) != 0)
        return RM_ERROR;
    /* at RM_PRIO_MAX (port.c: Zephyr priority 31 - n), above every case
     * thread, as the synthetic loads' network task; Zephyr's RX thread is
     * cooperative, above all */
    k_thread_create(&app_thread, app_stack, K_THREAD_STACK_SIZEOF(app_stack), app_main, NULL,
                    NULL, NULL, K_PRIO_PREEMPT(RM_PRIO_RUNNER - RM_PRIO_MAX), 0, K_NO_WAIT);
    up = true;
    return RM_OK;
}

void rm_port_net_counts(rm_net_counts_t *out)
{
    struct net_stats_ip ip = {0};
    (void)net_mgmt(NET_REQUEST_STATS_GET_IPV6, radio_iface, &ip, sizeof ip);
    out->read = counts.read;
    out->ip_in = ip.recv;
    out->delivered = counts.delivered;
    out->forwarded = counts.forwarded;
    out->tx_other = counts.tx_other;
    out->overrun = counts.overrun;
}
#endif /* RM_LOAD_NET */
