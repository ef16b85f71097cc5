/* The receive buffer of the virtual radios (ports/<port>/net_radio.c,
 * bench/net/lwip/net_radio.c): the load interrupt puts each frame of the
 * trace without its FCS, as a radio's receive interrupt would, and the
 * stack's thread or process takes them in order. One producer (the
 * interrupt), one consumer: head is written only by the first, tail only by
 * the second. A frame that finds it full is lost: the radio's overrun. */
#ifndef RTOSMETER_NET_RING_H
#define RTOSMETER_NET_RING_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "rm_net_trace.h"

#define RM_NET_RING_SLOTS 4u
#define RM_NET_FCS_LEN 2u

typedef struct rm_net_ring {
    uint8_t buf[RM_NET_RING_SLOTS][RM_NET_FRAME_LEN];
    uint8_t len[RM_NET_RING_SLOTS];
    volatile uint32_t head, tail;
} rm_net_ring_t;

/* In the interrupt: the frame (FCS included) in, or false when the ring is
 * full or the frame is not one of the trace's. */
static inline bool rm_net_ring_put(rm_net_ring_t *r, const uint8_t *frame, uint32_t len)
{
    if (r->head - r->tail >= RM_NET_RING_SLOTS || len > RM_NET_FRAME_LEN || len < RM_NET_FCS_LEN)
        return false;
    uint32_t slot = r->head % RM_NET_RING_SLOTS;
    memcpy(r->buf[slot], frame, len - RM_NET_FCS_LEN);
    r->len[slot] = (uint8_t)(len - RM_NET_FCS_LEN);
    r->head++;
    return true;
}

/* In the interrupt: takes back the frame it just put (the consumer could not
 * be told of it, so it is lost). */
static inline void rm_net_ring_unput(rm_net_ring_t *r)
{
    r->head--;
}

/* The oldest frame (its length in *len), NULL when the ring is empty. */
static inline const uint8_t *rm_net_ring_peek(const rm_net_ring_t *r, uint32_t *len)
{
    if (r->head == r->tail)
        return NULL;
    uint32_t slot = r->tail % RM_NET_RING_SLOTS;
    *len = r->len[slot];
    return r->buf[slot];
}

/* Done with the oldest frame. */
static inline void rm_net_ring_pop(rm_net_ring_t *r)
{
    r->tail++;
}

#endif /* RTOSMETER_NET_RING_H */
