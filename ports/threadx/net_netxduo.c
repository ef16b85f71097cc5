/* ThreadX + NetX Duo under the net-* loads (rtosmeter/net.h): an adaptation.
 * NetX Duo (RTOSMETER_NETXDUO, v6.4.2) has no 6LoWPAN or IEEE 802.15.4
 * layer, so the node's link is a driver of ours (nx_ip_create's driver
 * entry) with no link header: each frame of the trace is fed as the IPv6
 * packet it carries, uncompressed (rm_net_trace.h RM_NET_DATAGRAM_INIT,
 * rtosmeter.net_trace.datagram: the same addresses, UDP ports, checksum and
 * 24-byte payload), the row its 802.15.4 sequence number names. Every figure
 * carries the adaptation (CFG stand_in.NET, port.c).
 *
 * Receive: the load interrupt is the link's receive interrupt: it takes a
 * packet from the node's pool and hands it to the IP thread
 * (_nx_ip_packet_deferred_receive, as NetX Duo's interrupt-driven drivers do).
 * Accept: node 1's address and UDP port 8080, an NX_UDP_SOCKET read by a
 * thread of the application. Reject: node 3's IPv6 address, which NetX
 * Duo's IPv6 input drops (nx_ipv6_packet_receive.c, "not for me",
 * nx_ip_receive_packets_dropped). Forward: NetX Duo's IPv6 forwards nothing
 * (port.toml net_unsupported); never built.
 * Counts from NetX Duo's own statistics: ip_in = nx_ip_info_get's packets
 * received, delivered = nx_udp_socket_info_get's packets received less
 * nx_udp_info_get's receive drops; read and tx_other are the driver's.
 * Compiled only under a net-* load (netxduo.cmake). */
#include "rm_build_config.h"
#ifdef RM_LOAD_NET
#include <string.h>

#include "nx_api.h"
#include "nx_ip.h"     /* _nx_ip_packet_deferred_receive: the interrupt side */
#include "nx_packet.h" /* _nx_packet_allocate: no caller check, as in an ISR */
#include "rm_net_trace.h"
#include "rtosmeter/bench.h"
#include "rtosmeter/net.h"

#define NET_TX_PRIO ((UINT)(31 - RM_PRIO_MAX)) /* port.c's RM_TX_PRIO(RM_PRIO_MAX) */
#define POOL_PAYLOAD 256u                       /* NX_PHYSICAL_HEADER + a datagram, rounded */
#define POOL_PACKETS 16u
#define SEQ_BYTE 2u
#define DAD_POLL (TX_TIMER_TICKS_PER_SECOND / 100u)
#define DAD_LIMIT (TX_TIMER_TICKS_PER_SECOND * (NX_IPV6_DAD_TRANSMITS + 2u)) /* the 802.15.4 sequence number: after the 2-byte frame control */

static NX_PACKET_POOL pool;
static NX_IP ip;
static NX_UDP_SOCKET sock;
static TX_THREAD app;
static ULONG pool_area[POOL_PACKETS * (sizeof(NX_PACKET) + POOL_PAYLOAD) / sizeof(ULONG)];
static ULONG ip_stack[2048 / sizeof(ULONG)];
static ULONG app_stack[1024 / sizeof(ULONG)];
static volatile rm_net_counts_t counts;
static volatile bool up;

#ifndef RM_NET_STATE_IDLE
static const uint8_t datagrams[RM_NET_FRAMES][RM_NET_DATAGRAM_LEN] = RM_NET_DATAGRAM_INIT;
#endif

void rm_port_net_rx(const uint8_t *frame, uint32_t len)
{
#ifdef RM_NET_STATE_IDLE
    (void)frame;
    (void)len;
    counts.overrun++; /* net-idle sends nothing */
#else
    NX_PACKET *packet;
    uint32_t seq = len > SEQ_BYTE ? frame[SEQ_BYTE] : RM_NET_FRAMES;
    if (!up || seq >= RM_NET_FRAMES ||
        _nx_packet_allocate(&pool, &packet, NX_RECEIVE_PACKET, NX_NO_WAIT) != NX_SUCCESS) {
        counts.overrun++;
        return;
    }
    memcpy(packet->nx_packet_prepend_ptr, datagrams[seq], RM_NET_DATAGRAM_LEN);
    packet->nx_packet_append_ptr = packet->nx_packet_prepend_ptr + RM_NET_DATAGRAM_LEN;
    packet->nx_packet_length = RM_NET_DATAGRAM_LEN;
    packet->nx_packet_address.nx_packet_interface_ptr = &ip.nx_ip_interface[0];
    counts.read++;
    _nx_ip_packet_deferred_receive(&ip, packet);
#endif
}

/* The link: up when asked, no address mapping (no link header), and every
 * packet the node sends (its own ICMPv6: DAD, MLD) counted and released. */
static VOID link_driver(NX_IP_DRIVER *req)
{
    NX_INTERFACE *ifc = req->nx_ip_driver_interface;
    req->nx_ip_driver_status = NX_SUCCESS;
    switch (req->nx_ip_driver_command) {
    case NX_LINK_INTERFACE_ATTACH:
    case NX_LINK_MULTICAST_JOIN:
    case NX_LINK_MULTICAST_LEAVE:
    case NX_LINK_DEFERRED_PROCESSING:
        break;
    case NX_LINK_INITIALIZE:
        ifc->nx_interface_ip_mtu_size = 1280u; /* IPv6's minimum link MTU */
        ifc->nx_interface_address_mapping_needed = NX_FALSE;
        break;
    case NX_LINK_ENABLE:
        ifc->nx_interface_link_up = NX_TRUE;
        break;
    case NX_LINK_DISABLE:
        ifc->nx_interface_link_up = NX_FALSE;
        break;
    case NX_LINK_PACKET_SEND:
    case NX_LINK_PACKET_BROADCAST:
    case NX_LINK_ARP_SEND:
    case NX_LINK_ARP_RESPONSE_SEND:
    case NX_LINK_RARP_SEND:
        counts.tx_other++;
        (void)_nx_packet_transmit_release(req->nx_ip_driver_packet);
        break;
    case NX_LINK_GET_STATUS:
        *(req->nx_ip_driver_return_ptr) = ifc->nx_interface_link_up;
        break;
    default:
        req->nx_ip_driver_status = NX_UNHANDLED_COMMAND;
        break;
    }
}

/* The application: one UDP socket on RM_NET_PORT, as the study's node. */
static VOID app_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        NX_PACKET *packet;
        if (nx_udp_socket_receive(&sock, &packet, NX_WAIT_FOREVER) == NX_SUCCESS)
            (void)nx_packet_release(packet);
    }
}

int rm_port_net_start(void)
{
    if (up)
        return RM_OK;
    nx_system_initialize();
    static const uint8_t node_ip[16] = RM_NET_NODE_IP;
    NXD_ADDRESS addr = {.nxd_ip_version = NX_IP_VERSION_V6};
    for (unsigned i = 0; i < 4u; i++) /* NetX Duo holds IPv6 addresses as host-order words */
        addr.nxd_ip_address.v6[i] = (ULONG)node_ip[4 * i] << 24 | (ULONG)node_ip[4 * i + 1] << 16 |
                                    (ULONG)node_ip[4 * i + 2] << 8 | node_ip[4 * i + 3];
    if (nx_packet_pool_create(&pool, "rm_pool", POOL_PAYLOAD, pool_area, sizeof pool_area) !=
            NX_SUCCESS ||
        nx_ip_create(&ip, "rm_node", 0u, 0u, &pool, link_driver, ip_stack, sizeof ip_stack,
                     NET_TX_PRIO) != NX_SUCCESS ||
        nxd_ipv6_enable(&ip) != NX_SUCCESS || nxd_icmp_enable(&ip) != NX_SUCCESS ||
        nx_udp_enable(&ip) != NX_SUCCESS ||
        nxd_ipv6_address_set(&ip, 0u, &addr, 64u, NX_NULL) != NX_SUCCESS ||
        nx_udp_socket_create(&ip, &sock, "rm_udp", NX_IP_NORMAL, NX_FRAGMENT_OKAY,
                             NX_IP_TIME_TO_LIVE, POOL_PACKETS) != NX_SUCCESS ||
        nx_udp_socket_bind(&sock, RM_NET_PORT, NX_NO_WAIT) != NX_SUCCESS ||
        tx_thread_create(&app, "rm_udp_app", app_entry, 0u, app_stack, sizeof app_stack,
                         NET_TX_PRIO, NET_TX_PRIO, TX_NO_TIME_SLICE, TX_AUTO_START) != TX_SUCCESS)
        return RM_ERROR;
    /* NetX Duo's default duplicate address detection (NX_IPV6_DAD_TRANSMITS
     * neighbour solicitations, one a second) keeps the address tentative, and
     * IPv6 hands no UDP to a tentative address (nx_ip_dispatch_process.c):
     * the node is up when its address is valid, as a real one would be. */
    for (ULONG waited = 0; ip.nx_ipv6_address[0].nxd_ipv6_address_state !=
                           NX_IPV6_ADDR_STATE_VALID; waited += DAD_POLL) {
        if (waited > DAD_LIMIT)
            return RM_ERROR;
        (void)tx_thread_sleep(DAD_POLL);
    }
    up = true;
    return RM_OK;
}

void rm_port_net_counts(rm_net_counts_t *out)
{
    ULONG ip_in = 0, sock_in = 0, udp_dropped = 0;
    if (up) {
        (void)nx_ip_info_get(&ip, NX_NULL, NX_NULL, &ip_in, NX_NULL, NX_NULL, NX_NULL, NX_NULL,
                             NX_NULL, NX_NULL, NX_NULL);
        (void)nx_udp_socket_info_get(&sock, NX_NULL, NX_NULL, &sock_in, NX_NULL, NX_NULL,
                                     NX_NULL, NX_NULL);
        (void)nx_udp_info_get(&ip, NX_NULL, NX_NULL, NX_NULL, NX_NULL, NX_NULL, &udp_dropped,
                              NX_NULL);
    }
    out->read = counts.read;
    out->ip_in = (uint32_t)ip_in;
    out->delivered = (uint32_t)(sock_in - udp_dropped);
    out->forwarded = 0u; /* NetX Duo's IPv6 forwards nothing */
    out->tx_other = counts.tx_other;
    out->overrun = counts.overrun;
}
#endif /* RM_LOAD_NET */
