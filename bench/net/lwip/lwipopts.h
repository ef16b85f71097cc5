/* lwIP's configuration for a 6LoWPAN node under the net-* loads (every
 * lwIP port, net_radio.c): lwIP's own defaults (src/include/lwip/opt.h,
 * src/include/netif/lowpan6_opts.h) except these, each with its reason. The
 * node: one IEEE 802.15.4 radio, IPv6 over 6LoWPAN, a UDP socket on
 * RM_NET_PORT, and forwarding to its neighbour, as in the Silva et al. 2019
 * study's Fig. 2 (rtosmeter.net_trace). */
#ifndef RM_LWIPOPTS_H
#define RM_LWIPOPTS_H

#include "rtosmeter/port.h" /* RM_PRIO_MAX */

/* The protocols: a 6LoWPAN node speaks IPv6 only (opt.h: IPv4 on, IPv6 off). */
#define LWIP_IPV4 0
#define LWIP_IPV6 1
/* Node 1 routes node 3's packets on (opt.h: 0, a host). */
#define LWIP_IPV6_FORWARD 1

/* Counters read back after every case: lwIP's per-protocol statistics are on
 * by default (LWIP_STATS); the netif's MIB-II counters hold lowpan6's own
 * in-discards (opt.h: MIB2_STATS 0). */
#define MIB2_STATS 1

/* What opt.h leaves to the port (0 there: no default thread or mailbox). The
 * tcpip thread runs at RM_PRIO_MAX, above every case thread, as a radio's
 * stack thread does (RIOT's netif thread, the synthetic loads' network
 * task); stack size in bytes (FreeRTOS's sys_arch:
 * LWIP_FREERTOS_THREAD_STACKSIZE_IS_STACKWORDS 0; RTX5's: bytes). */
#define TCPIP_THREAD_PRIO RM_PRIO_MAX
#define TCPIP_THREAD_STACKSIZE 2048
#define TCPIP_MBOX_SIZE 8
#define DEFAULT_UDP_RECVMBOX_SIZE 8

/* An IEEE 802.15.4 radio's address is an EUI-64 (opt.h: 6, Ethernet's). */
#define NETIF_MAX_HWADDR_LEN 8

/* The CPU's alignment (opt.h: 1, "should be set to the alignment of the CPU"). */
#define MEM_ALIGNMENT 4

/* The static route to the neighbour (net_radio.c): node 3's packets leave
 * through the radio's forwarding netif. lwIP never forwards a packet out of
 * the netif it came in on (ip6_forward), so the one radio carries two
 * lowpan6 netifs: the node's (input, its address) and the route's (output). */
struct netif;
struct ip6_addr;
struct netif *rm_lwip_route(const struct ip6_addr *src, const struct ip6_addr *dest);
const struct ip6_addr *rm_lwip_gateway(struct netif *netif, const struct ip6_addr *dest);
#define LWIP_HOOK_IP6_ROUTE(src, dest) rm_lwip_route((src), (dest))
#define LWIP_HOOK_ND6_GET_GW(netif, dest) rm_lwip_gateway((netif), (dest))

/* Deterministic: lwIP's random delays (MLD reports, router solicitations,
 * DAD) from a fixed sequence, so that two runs are identical. */
unsigned int rm_lwip_rand(void);
#define LWIP_RAND() ((u32_t)rm_lwip_rand())

#endif /* RM_LWIPOPTS_H */
