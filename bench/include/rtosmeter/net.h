/* The OS's own network stack under a net-* load (bench/core/load.c,
 * rtosmeter.net_trace): what a port with the NET capability provides. Its
 * virtual radio implements the stack's own radio interface (Contiki-NG's
 * radio_driver, RIOT's netdev, Zephyr's IEEE 802.15.4 radio API, an lwIP
 * netif) and receives each frame of the trace from the load interrupt, as a
 * radio's receive interrupt would; the stack then takes it through its MAC,
 * 6LoWPAN, IPv6 and UDP layers. The port counts what the stack did with the
 * frames, so that load.c can check it against what the trace sent. */
#ifndef RTOSMETER_NET_H
#define RTOSMETER_NET_H

#include <stdbool.h>
#include <stdint.h>

typedef struct rm_net_counts {
    uint32_t read;      /* data frames the stack took from the radio */
    uint32_t ip_in;     /* of them, packets that reached the IPv6 layer */
    uint32_t delivered; /* UDP datagrams the application's socket received */
    uint32_t forwarded; /* frames the radio transmitted to the neighbour (node 3) */
    uint32_t tx_other;  /* other frames transmitted: the stack's own control traffic */
    uint32_t overrun;   /* frames the radio dropped: its receive buffer was full */
} rm_net_counts_t;

/* Before every loaded case: brings the stack up the first time (address
 * RM_NET_NODE_IP, the route to the neighbour, the UDP socket on RM_NET_PORT;
 * rm_net_trace.h); RM_OK or an error. */
int rm_port_net_start(void);
/* In the load interrupt: the radio received `len` bytes (FCS included). */
void rm_port_net_rx(const uint8_t *frame, uint32_t len);
/* The counts since the stack came up. */
void rm_port_net_counts(rm_net_counts_t *out);
/* After each case, with its counts (those of the last two rm_port_net_counts
 * calls apart): a stack with counters of its own emits them as META and says
 * whether they agree; the weak default (port_defaults.c) has none and agrees. */
bool rm_port_net_agrees(const rm_net_counts_t *delta);

#endif /* RTOSMETER_NET_H */
