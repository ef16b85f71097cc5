/* Contiki-NG under the net-* loads (rtosmeter/net.h): a virtual IEEE
 * 802.15.4 radio implementing Contiki-NG's struct radio_driver, selected as
 * NETSTACK_CONF_RADIO by the MPS2 platform (contiki-conf.h) when the build
 * has a net-* load; the rest of the network stack is Contiki-NG's default
 * for such a node (Makefile.include): CSMA, 6LoWPAN (sicslowpan), IPv6 with
 * RPL-lite as a router, UDP. Built only then (app/Makefile).
 *
 * Receive: the load interrupt (rm_port_net_rx) is the radio's receive
 * interrupt: the frame goes into a four-slot buffer (the FCS checked and
 * stripped, as a radio does) and the driver's process is polled; the process
 * hands each frame to NETSTACK_MAC.input(), as Contiki-NG's interrupt-driven
 * radio drivers do. The radio does no address filtering: CSMA drops frames
 * for another node.
 * Transmit: counted and answered with an acknowledgement for a frame that
 * asks for one (a neighbour that hears every frame), which CSMA reads.
 * Counts: frames read (rm_radio_process), packets at the IPv6 input (an
 * ip_packet_processor), datagrams at the UDP connection (simple_udp),
 * frames transmitted to the neighbour (forwarded) or elsewhere.
 * The node: MAC RM_NET_NODE_MAC (platform.c sets it before netstack_init),
 * IPv6 RM_NET_NODE_IP, and a static default route to the neighbour (node 3,
 * its link-local address and MAC in the neighbour cache): the route the
 * study's forward state needs, which RPL would learn from a DODAG. */
#include <stdbool.h>
#include <string.h>

#include "contiki.h"
#include "dev/radio.h"
#include "net/ipv6/simple-udp.h"
#include "net/ipv6/uip-ds6-nbr.h"
#include "net/ipv6/uip-ds6-route.h"
#include "net/ipv6/uip-ds6.h"
#include "net/netstack.h"
#include "net/packetbuf.h"
#include "rm_net_trace.h"
#include "rtosmeter/bench.h"
#include "rtosmeter/net.h"
#include "rtosmeter/net_ring.h"

#define ACK_LEN 3u
#define MAX_PAYLOAD 125

static rm_net_ring_t rx_ring; /* filled by the interrupt, emptied by the process */
static uint8_t tx_buf[MAX_PAYLOAD + RM_NET_FCS_LEN];
static uint8_t ack_seq;
static bool ack_pending;
static volatile rm_net_counts_t counts;
static const uint8_t neighbour_mac[8] = RM_NET_NEIGHBOUR_MAC;

PROCESS(rm_radio_process, "rtosmeter virtual radio");

void rm_port_net_rx(const uint8_t *frame, uint32_t len)
{
    if (!rm_net_ring_put(&rx_ring, frame, len)) {
        counts.overrun++;
        return;
    }
    process_poll(&rm_radio_process);
}

/* ---- struct radio_driver ------------------------------------------------ */
static int radio_init(void)
{
    process_start(&rm_radio_process, NULL);
    return 1;
}

static int radio_prepare(const void *payload, unsigned short len)
{
    if (len > MAX_PAYLOAD)
        return RADIO_TX_ERR;
    memcpy(tx_buf, payload, len);
    return RADIO_TX_OK;
}

/* A data frame with a 64-bit destination: to the neighbour or not. */
static bool to_neighbour(unsigned short len)
{
    uint16_t fcf = (uint16_t)(tx_buf[0] | tx_buf[1] << 8);
    if ((fcf & 7u) != 1u || ((fcf >> 10) & 3u) != 3u || len < 13u)
        return false;
    for (unsigned i = 0; i < 8u; i++) {
        if (tx_buf[5u + i] != neighbour_mac[7u - i]) /* little-endian on air */
            return false;
    }
    return true;
}

static int radio_transmit(unsigned short len)
{
    if (to_neighbour(len))
        counts.forwarded++;
    else
        counts.tx_other++;
    if (tx_buf[0] & 0x20u) { /* acknowledgement request */
        ack_seq = tx_buf[2];
        ack_pending = true;
    }
    return RADIO_TX_OK;
}

static int radio_send(const void *payload, unsigned short len)
{
    int rc = radio_prepare(payload, len);
    return rc == RADIO_TX_OK ? radio_transmit(len) : rc;
}

static int radio_read(void *buf, unsigned short size)
{
    if (ack_pending) {
        ack_pending = false;
        if (size < ACK_LEN)
            return 0;
        const uint8_t ack[ACK_LEN] = {0x02u, 0x00u, ack_seq};
        memcpy(buf, ack, ACK_LEN);
        return (int)ACK_LEN;
    }
    uint32_t frame_len;
    const uint8_t *frame = rm_net_ring_peek(&rx_ring, &frame_len);
    if (frame == NULL)
        return 0;
    int len = frame_len <= size ? (int)frame_len : 0;
    memcpy(buf, frame, (size_t)len);
    rm_net_ring_pop(&rx_ring);
    counts.read++;
    return len;
}

static int radio_channel_clear(void)
{
    return 1;
}

static int radio_receiving_packet(void)
{
    return 0;
}

static int radio_pending_packet(void)
{
    uint32_t frame_len;
    return ack_pending || rm_net_ring_peek(&rx_ring, &frame_len) != NULL;
}

static int radio_on(void)
{
    return 1;
}

static int radio_off(void)
{
    return 1;
}

static radio_result_t radio_get_value(radio_param_t param, radio_value_t *value)
{
    switch (param) {
    case RADIO_PARAM_POWER_MODE:
        *value = RADIO_POWER_MODE_ON;
        return RADIO_RESULT_OK;
    case RADIO_PARAM_CHANNEL:
        *value = RM_NET_CHANNEL;
        return RADIO_RESULT_OK;
    case RADIO_PARAM_PAN_ID:
        *value = (radio_value_t)RM_NET_PAN_ID;
        return RADIO_RESULT_OK;
    case RADIO_PARAM_RX_MODE:
        *value = 0; /* no address filter, no auto-ack, no poll mode */
        return RADIO_RESULT_OK;
    case RADIO_PARAM_TX_MODE:
        *value = 0;
        return RADIO_RESULT_OK;
    case RADIO_CONST_MAX_PAYLOAD_LEN:
        *value = MAX_PAYLOAD;
        return RADIO_RESULT_OK;
    default:
        return RADIO_RESULT_NOT_SUPPORTED;
    }
}

static radio_result_t radio_set_value(radio_param_t param, radio_value_t value)
{
    (void)value;
    switch (param) {
    case RADIO_PARAM_POWER_MODE:
    case RADIO_PARAM_CHANNEL:
    case RADIO_PARAM_PAN_ID:
    case RADIO_PARAM_16BIT_ADDR:
    case RADIO_PARAM_RX_MODE:
    case RADIO_PARAM_TX_MODE:
        return RADIO_RESULT_OK;
    default:
        return RADIO_RESULT_NOT_SUPPORTED;
    }
}

static radio_result_t radio_get_object(radio_param_t param, void *dest, size_t size)
{
    (void)param;
    (void)dest;
    (void)size;
    return RADIO_RESULT_NOT_SUPPORTED;
}

static radio_result_t radio_set_object(radio_param_t param, const void *src, size_t size)
{
    (void)src;
    (void)size;
    return param == RADIO_PARAM_64BIT_ADDR ? RADIO_RESULT_OK : RADIO_RESULT_NOT_SUPPORTED;
}

const struct radio_driver rm_radio_driver = {
    radio_init, radio_prepare, radio_transmit, radio_send, radio_read,
    radio_channel_clear, radio_receiving_packet, radio_pending_packet,
    radio_on, radio_off, radio_get_value, radio_set_value, radio_get_object,
    radio_set_object,
};

/* The radio's receive path: every frame of the buffer to the MAC. */
PROCESS_THREAD(rm_radio_process, ev, data)
{
    (void)data;
    PROCESS_BEGIN();
    for (;;) {
        PROCESS_YIELD_UNTIL(ev == PROCESS_EVENT_POLL);
        uint32_t frame_len;
        while (rm_net_ring_peek(&rx_ring, &frame_len) != NULL) {
            packetbuf_clear();
            int len = radio_read(packetbuf_dataptr(), PACKETBUF_SIZE);
            if (len > 0) {
                packetbuf_set_datalen((uint16_t)len);
                NETSTACK_MAC.input();
            }
        }
    }
    PROCESS_END();
}

/* ---- the node ------------------------------------------------------------ */
static struct simple_udp_connection udp_conn;

static void on_datagram(struct simple_udp_connection *c, const uip_ipaddr_t *from,
                        uint16_t from_port, const uip_ipaddr_t *to, uint16_t to_port,
                        const uint8_t *payload, uint16_t len)
{
    (void)c;
    (void)from;
    (void)from_port;
    (void)to;
    (void)payload;
    if (to_port == RM_NET_PORT && len == RM_NET_PAYLOAD_LEN)
        counts.delivered++;
}

static enum netstack_ip_action on_ip_input(void)
{
    counts.ip_in++;
    return NETSTACK_IP_PROCESS;
}

static enum netstack_ip_action on_ip_output(const linkaddr_t *to)
{
    (void)to;
    return NETSTACK_IP_PROCESS;
}

static struct netstack_ip_packet_processor ip_counter = {NULL, on_ip_input, on_ip_output};

int rm_port_net_start(void)
{
    static bool up;
    if (up)
        return RM_OK;
    static const uint8_t node_ip[16] = RM_NET_NODE_IP;
    uip_ipaddr_t addr, router;
    uip_lladdr_t router_mac;
    memcpy(&addr, node_ip, sizeof addr);
    if (uip_ds6_addr_add(&addr, 0, ADDR_MANUAL) == NULL)
        return RM_ERROR;
    /* the neighbour: fe80::IID of its MAC, in the cache, the default route */
    memcpy(&router_mac, neighbour_mac, sizeof router_mac);
    uip_create_linklocal_prefix(&router);
    uip_ds6_set_addr_iid(&router, &router_mac);
    if (uip_ds6_nbr_add(&router, &router_mac, 1, NBR_REACHABLE, NBR_TABLE_REASON_UNDEFINED,
                        NULL) == NULL ||
        uip_ds6_defrt_add(&router, 0) == NULL)
        return RM_ERROR;
    netstack_ip_packet_processor_add(&ip_counter);
    if (simple_udp_register(&udp_conn, RM_NET_PORT, NULL, RM_NET_PEER_PORT, on_datagram) == 0)
        return RM_ERROR;
    up = true;
    return RM_OK;
}

void rm_port_net_counts(rm_net_counts_t *out)
{
    out->read = counts.read;
    out->ip_in = counts.ip_in;
    out->delivered = counts.delivered;
    out->forwarded = counts.forwarded;
    out->tx_other = counts.tx_other;
    out->overrun = counts.overrun;
}
